/**
 * The acceptance: a real MCP server from npm that nobody here wrote
 * (@modelcontextprotocol/server-everything), recorded over stdio and over Streamable HTTP
 * through the official client, replayed with `mcpmock stdio` and `mcpmock serve`, and the
 * client's transcripts compared; then `mcpmock check` against the same server agrees with
 * its own recording, and reports a doctored answer with a diff naming the tool (exit 1).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { MockDefinition } from "../../src/definition/format.js";
import { CLI, freePort, http, mcpmock, run, stdio, stop, transcript, type Spawned } from "../support/recording.js";
import { EVERYTHING_SESSION } from "./sessions.js";

const EVERYTHING = "node_modules/@modelcontextprotocol/server-everything/dist/index.js";
const dir = mkdtempSync(join(tmpdir(), "mcpmock-everything-"));
/** The dynamic text resource holds the time it was read: left out of `check`. */
const IGNORE_TIME = ["--ignore", "/contents/0/text"];

let server: Spawned;
let serverUrl: string;
beforeAll(async () => {
  const port = await freePort();
  server = run(process.execPath, [EVERYTHING, "streamableHttp"], { PORT: String(port) });
  await server.line(/listening on port/);
  serverUrl = `http://127.0.0.1:${port}/mcp`;
});
afterAll(async () => {
  await stop(server);
});

function doctored(file: string): string {
  const def = JSON.parse(readFileSync(file, "utf8")) as MockDefinition;
  const sum = def.responses?.find((r) => r.tool === "get-sum" && (r.args as { a: unknown }).a === 2);
  expect(sum).toBeDefined();
  sum!.result = { content: [{ type: "text", text: "The sum of 2 and 3 is 6." }] };
  const out = file.replace(/\.json$/, ".doctored.json");
  writeFileSync(out, JSON.stringify(def));
  return out;
}

describe("recording @modelcontextprotocol/server-everything", { timeout: 45_000 }, () => {
  it("over stdio: mcpmock stdio replays the session identically, and check agrees (then reports a doctored answer)", async () => {
    const out = join(dir, "stdio.json");
    const recorded = await transcript(stdio(process.execPath, [CLI, "record", "--out", out, "--", process.execPath, EVERYTHING, "stdio"]), EVERYTHING_SESSION);
    let def: MockDefinition = {};
    for (let i = 0; i < 50 && !(def.responses ?? []).some((r) => r.method === "prompts/get" && r.params?.["name"] === "args-prompt"); i++) {
      await new Promise((r) => setTimeout(r, 100));
      def = JSON.parse(readFileSync(out, "utf8")) as MockDefinition;
    }
    expect(def.server?.name).toBe("mcp-servers/everything");
    expect(def.responses?.find((r) => r.tool === "trigger-long-running-operation")?.stream?.filter((s) => "progress" in s)).toHaveLength(3);
    expect(JSON.stringify(recorded)).toContain("The sum of 2 and 3 is 5.");

    const replayed = await transcript(stdio(process.execPath, [CLI, "stdio", out]), EVERYTHING_SESSION);
    expect(replayed).toEqual(recorded);

    const agrees = mcpmock(["check", out, ...IGNORE_TIME, "--", process.execPath, EVERYTHING, "stdio"]);
    expect(await agrees.exited, agrees.stdout() + agrees.stderr()).toBe(0);
    expect(agrees.stdout()).toMatch(/✓ tools\/call "get-sum" \{"a":2,"b":3\}: agrees/);
    const differs = mcpmock(["check", doctored(out), ...IGNORE_TIME, "--", process.execPath, EVERYTHING, "stdio"]);
    expect(await differs.exited).toBe(1);
    expect(differs.stdout()).toContain(`✗ tools/call "get-sum" {"a":2,"b":3}: differs\n    /content/0/text: expected "The sum of 2 and 3 is 6.", received "The sum of 2 and 3 is 5."`);
  });

  it("over Streamable HTTP: mcpmock serve replays the session identically, and check agrees (then reports a doctored answer)", async () => {
    const out = join(dir, "http.json");
    const recorder = mcpmock(["record", "--out", out, "--target", serverUrl]);
    const [, url] = await recorder.line(/ at (http:\/\/127\.0\.0\.1:\d+\/mcp) /);
    const recorded = await transcript(http(url!), EVERYTHING_SESSION);
    expect(await stop(recorder, "SIGINT")).toBe(0);
    expect(JSON.stringify(recorded)).toContain("Long running operation completed");

    const served = mcpmock(["serve", out, "--no-admin"]);
    try {
      const [, mockUrl] = await served.line(/at (http:\/\/127\.0\.0\.1:\d+\/mcp)/);
      expect(await transcript(http(mockUrl!), EVERYTHING_SESSION)).toEqual(recorded);
    } finally {
      await stop(served);
    }

    const agrees = mcpmock(["check", out, ...IGNORE_TIME, "--target", serverUrl]);
    expect(await agrees.exited, agrees.stdout() + agrees.stderr()).toBe(0);
    const differs = mcpmock(["check", doctored(out), ...IGNORE_TIME, "--target", serverUrl]);
    expect(await differs.exited).toBe(1);
    expect(differs.stdout()).toMatch(/✗ tools\/call "get-sum" \{"a":2,"b":3\}: differs/);
    expect(differs.stdout()).toMatch(/1 differ$/m);
  });
});
