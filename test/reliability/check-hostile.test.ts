/**
 * Issue 44, `check` and the recorder under hostile servers: a server that streams progress
 * forever does not keep `checkDefinition` waiting forever (each progress starts the wait again,
 * a bound holds the whole call); `record()` over stdio skips a line that is not JSON.
 */
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { checkDefinition, record } from "../../src/recording/index.js";
import type { MockDefinition } from "../../src/index.js";
import { hostileHttpUpstream, hostileStdioScript } from "../support/hostile-upstream.js";

describe("check and the recorder against hostile servers", () => {
  test("checkDefinition against a server that streams progress forever ends at 10 times the timeout, saying so", async () => {
    const upstream = await hostileHttpUpstream();
    try {
      const started = Date.now();
      const definition: MockDefinition = { tools: [{ name: "endless", inputSchema: { type: "object" } }], responses: [{ tool: "endless", args: {}, stream: [{ progress: 1 }], result: "done" }] };
      await expect(checkDefinition(definition, { target: upstream.url, timeoutMs: 500 })).rejects.toThrow(/did not answer tools\/call: no answer within 5000 ms in all \(10 times the timeout\), though progress kept coming/);
      expect(Date.now() - started).toBeLessThan(10_000);
      await new Promise((r) => setTimeout(r, 100));
      expect(upstream.openEndless).toBe(0); // the stream was let go
    } finally {
      await upstream.close();
    }
  });

  test("record() over stdio of a server that prints a line that is not JSON records the rest (no uncaught SyntaxError)", async () => {
    const out = join(mkdtempSync(join(tmpdir(), "mcpmock-record-noise-")), "recorded.json");
    const { definition } = await record({ command: process.execPath, args: [hostileStdioScript(), "noise"], out, session: async (client) => void (await client.callTool({ name: "ok", arguments: {} })) });
    expect(definition.tools?.map((t) => t.name)).toEqual(["ok", "flood"]);
    expect(readFileSync(out, "utf8")).toMatch(/ok from \d+/);
  });
});
