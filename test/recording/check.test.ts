/**
 * `mcpmock check`: a definition's calls against a real server, one verdict per call, exit
 * 0 (agrees), 1 (differs, with a diff naming the call) or 2 (could not run).
 */
import { beforeAll, describe, expect, it } from "vitest";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { MockDefinition } from "../../src/definition/format.js";
import { CLI, freePort, mcpmock, run, stdio, stop, transcript } from "../support/recording.js";
import { FIXTURE_SESSION } from "./sessions.js";

const FIXTURE = "test/fixtures/real-server.mjs";
const dir = mkdtempSync(join(tmpdir(), "mcpmock-check-"));
const recordedFile = join(dir, "recorded.json");

beforeAll(async () => {
  await transcript(stdio(process.execPath, [CLI, "record", "--out", recordedFile, "--", process.execPath, FIXTURE, "stdio"]), FIXTURE_SESSION, { elicit: true });
  for (let i = 0; i < 50 && !readFileSync(recordedFile, "utf8").includes('"tool": "ask"'); i++) await new Promise((r) => setTimeout(r, 100));
});

describe("mcpmock check", () => {
  it("agrees with the server it recorded (stdio), call by call", async () => {
    const checked = mcpmock(["check", recordedFile, "--", process.execPath, FIXTURE, "stdio"]);
    expect(await checked.exited, checked.stdout() + checked.stderr()).toBe(0);
    const out = checked.stdout();
    expect(out).toContain("✓ tools/list: the 7 declared tools agree");
    expect(out).toContain('✓ tools/call "add" {"a":1,"b":2}: agrees');
    expect(out).toContain('✓ tools/call "count" {} (call 4 of 4): agrees');
    expect(out).toContain('✓ resources/read {"uri":"test://missing"}: agrees');
    expect(out).toMatch(/^\d+ agree, 0 differ$/m);
  });

  it("reports a server that answers otherwise with a diff naming the call, exit 1; --shape lets the same shapes agree", async () => {
    const server = run(process.execPath, [FIXTURE, "http", "--doctor"]);
    try {
      const [url] = await server.line(/http:\/\/127\.0\.0\.1:\d+\/mcp/);
      const checked = mcpmock(["check", recordedFile, "--target", url!]);
      expect(await checked.exited).toBe(1);
      expect(checked.stdout()).toContain(
        '✗ tools/call "add" {"a":1,"b":2}: differs\n    /content/0/text: expected "3", received "4"\n    /structuredContent/sum: expected 3, received 4',
      );
      expect(checked.stdout()).toMatch(/, 1 differ$/m);
      const shaped = mcpmock(["check", recordedFile, "--shape", "--target", url!]);
      expect(await shaped.exited, shaped.stdout()).toBe(0);
    } finally {
      await stop(server);
    }
  });

  it("names declared tools that are missing, extra or declared with other schemas", async () => {
    const def = JSON.parse(readFileSync(recordedFile, "utf8")) as MockDefinition;
    def.tools = [...(def.tools ?? []).filter((t) => t.name !== "boom" && t.name !== "add"), { name: "add", inputSchema: { type: "object" } }, { name: "ghost" }];
    const file = join(dir, "designed.json");
    writeFileSync(file, JSON.stringify(def));
    const checked = mcpmock(["check", file, "--", process.execPath, FIXTURE, "stdio"]);
    expect(await checked.exited).toBe(1);
    const out = checked.stdout();
    expect(out).toContain("✗ tools/list: differs");
    expect(out).toContain('tool "add": the inputSchema differs: declared {"type":"object"}');
    expect(out).toContain('tool "ghost" is declared but the server does not list it');
    expect(out).toContain('tool "boom" is listed by the server but not declared');
  });

  it("exits 2 when the server cannot be reached, and says which", async () => {
    const port = await freePort();
    const checked = mcpmock(["check", recordedFile, "--target", `http://127.0.0.1:${port}/mcp`]);
    expect(await checked.exited).toBe(2);
    expect(checked.stderr()).toContain(`mcpmock check: could not check against http://127.0.0.1:${port}/mcp`);
  });
});
