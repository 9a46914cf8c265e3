/**
 * Issue 44, `check` and the recorder under hostile servers: a server that streams progress
 * forever does not keep `checkDefinition` waiting forever (each progress starts the wait again,
 * a bound holds the whole call); `record()` over stdio skips a line that is not JSON.
 */
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { describe, expect, test, vi } from "vitest";
import { checkDefinition, record, startRecorder } from "../../src/recording/index.js";
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

  test("the stdio recorder relays a 30 MB line in linear time, records the answer after it, and says the line was not recorded", async () => {
    const reports: string[] = [];
    vi.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array) => (reports.push(String(chunk)), true));
    try {
      const out = join(mkdtempSync(join(tmpdir(), "mcpmock-record-bigline-")), "recorded.json");
      const input = new PassThrough();
      const output = new PassThrough();
      let relayed = 0;
      let tail = "";
      const answered = new Promise<void>((resolve) =>
        output.on("data", (chunk: Buffer) => {
          relayed += chunk.length;
          tail = (tail + chunk.toString("utf8")).slice(-2_000);
          if (tail.includes("after the big line")) resolve();
        }),
      );
      const recorder = await startRecorder({ command: process.execPath, args: [hostileStdioScript(), "bigline"], out, input, output });
      const started = Date.now();
      input.write(`${JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } } })}\n`);
      input.write(`${JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" })}\n`);
      input.write(`${JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "flood", arguments: {} } })}\n`);
      await answered;
      // Splitting it as the pieces came, joined again per chunk, took 15 s and 400 MB for 30 MB.
      expect(Date.now() - started).toBeLessThan(8_000);
      expect(relayed).toBeGreaterThan(30 * 1024 * 1024);
      const { definition } = await recorder.stop();
      expect(JSON.stringify(definition)).toContain("after the big line");
      expect(reports.join("")).toMatch(/mcpmock record: the server sent a line of more than 16777216 bytes \(\d+ so far\); it is relayed but not recorded\./);
    } finally {
      vi.restoreAllMocks();
    }
  }, 30_000);
});
