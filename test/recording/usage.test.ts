/**
 * `mcpmock record` and `mcpmock check` on a wrong command line: exit 2 with what to write
 * instead; and a recorder killed outright has already written every answer it saw.
 */
import { describe, expect, it } from "vitest";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { assertMockDefinition } from "../../src/definition/validate.js";
import type { MockDefinition } from "../../src/definition/format.js";
import { freePort, http, mcpmock, stop, transcript } from "../support/recording.js";
// @ts-expect-error a JavaScript fixture
import { serveHttp } from "../fixtures/real-server.mjs";

const out = join(mkdtempSync(join(tmpdir(), "mcpmock-usage-")), "x.json");

describe("mcpmock record and check: the command line", () => {
  it.each([
    [["record", "--target", "http://127.0.0.1:1/mcp"], "mcpmock record needs --out <file.json>"],
    [["record", "--out", out], "mcpmock record records one server: --target <url> (Streamable HTTP) or -- <command> [args...] (stdio)"],
    [["record", "--out", out, "--target", "http://127.0.0.1:1/mcp", "--", "node"], "mcpmock record records one server"],
    [["record", "--out", out, "--target", "nowhere"], "--target takes the real server's URL, like http://127.0.0.1:3001/mcp; received nowhere"],
    [["record", "--out", out, "--redact", "arguments/password", "--", "node"], '--redact: "arguments/password" is not a JSON Pointer: it starts with "/", like /arguments/timestamp'],
    [["record", "--out", out, "--port", "99999", "--target", "http://127.0.0.1:1/mcp"], "--port takes a port number 0-65535, received 99999"],
    [["check", "--target", "http://127.0.0.1:1/mcp"], "mcpmock check takes one definition file"],
    [["check", "examples/weather.mock.json"], "mcpmock check needs one real server"],
    [["check", "examples/weather.mock.json", "--sharp", "--target", "http://127.0.0.1:1/mcp"], "Unknown option '--sharp'"],
  ])("%j: exit 2, no file written", async (args, message) => {
    const run = mcpmock(args);
    expect(await run.exited).toBe(2);
    expect(run.stderr()).toContain(`mcpmock: ${message}`);
    expect(existsSync(out)).toBe(false);
  });

  it("a real server that cannot be started: exit 1, saying so", async () => {
    const run = mcpmock(["record", "--out", `${out}.broken.json`, "--", "./no-such-server-here"]);
    run.child.stdin.end();
    expect(await run.exited).toBe(1);
    expect(run.stderr()).toContain("mcpmock record: cannot start ./no-such-server-here: spawn ./no-such-server-here ENOENT");
  });

  it("--help says how to use each", async () => {
    for (const command of ["record", "check"]) {
      const run = mcpmock([command, "--help"]);
      expect(await run.exited).toBe(0);
      expect(run.stdout()).toContain(`mcpmock ${command} `);
      expect(run.stdout()).toContain("--ignore POINTER");
    }
  });

  it("--port N: the proxy listens there, on 127.0.0.1", async () => {
    const port = await freePort();
    const recorder = mcpmock(["record", "--out", `${out}.port.json`, "--target", "http://127.0.0.1:1/mcp", "--port", String(port)]);
    try {
      const [, url] = await recorder.line(/ at (http:\/\/[^ ]+) /);
      expect(url).toBe(`http://127.0.0.1:${port}/mcp`);
      // The target is down: the client gets a 502 that names it, not a hang.
      const res = await fetch(url!, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
      expect(res.status).toBe(502);
      expect(await res.text()).toContain("mcpmock record: the target http://127.0.0.1:1/mcp did not answer");
    } finally {
      await stop(recorder);
    }
  });

  it("a recorder killed with SIGKILL has already written a valid file with every answer", async () => {
    const real = await serveHttp();
    const out = join(mkdtempSync(join(tmpdir(), "mcpmock-kill-")), "recorded.json");
    const recorder = mcpmock(["record", "--out", out, "--target", real.url]);
    try {
      const [, url] = await recorder.line(/ at (http:\/\/127\.0\.0\.1:\d+\/mcp) /);
      await transcript(http(url!), [(c) => c.listTools(), (c) => c.callTool({ name: "add", arguments: { a: 2, b: 2 } })]);
      expect(await stop(recorder, "SIGKILL")).toBe("SIGKILL");
      const def = JSON.parse(readFileSync(out, "utf8")) as MockDefinition;
      assertMockDefinition(def);
      expect(def.responses?.find((r) => r.tool === "add")?.result).toEqual({ content: [{ type: "text", text: "4" }], structuredContent: { sum: 4 } });
    } finally {
      await stop(recorder);
      await real.close();
    }
  });
});
