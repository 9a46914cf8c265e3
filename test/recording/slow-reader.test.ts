/**
 * The HTTP recorder passes a stream on at the pace its client reads it: a client that stops
 * reading an SSE answer holds the upstream back (through the recorder's sockets, as a proxy
 * should), instead of the recorder reading the whole stream into its memory for the client.
 */
import http from "node:http";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { McpMock } from "../../src/index.js";
import { mcpmock, stop } from "../support/recording.js";
import { HEADERS } from "../support/raw-http.js";

const dir = mkdtempSync(join(tmpdir(), "mcpmock-slow-reader-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const count = 4000;
const frame = "x".repeat(16 * 1024);

/** POSTs a tools/call and hands back the raw response, paused: the client reads nothing. */
function pausedCall(url: string, headers: Record<string, string>): Promise<http.IncomingMessage> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: "POST", headers }, (res) => {
      res.pause();
      resolve(res);
    });
    req.on("error", reject);
    req.end(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "flood", arguments: {} } }));
  });
}

it("a client that stops reading a stream holds the upstream back; reading again, it gets every event", async () => {
  await using upstream = await McpMock.start({ tools: [{ name: "flood", inputSchema: { type: "object" } }], onUnmatched: "silent" });
  let produced = 0;
  // Each event's data is made as it is sent: `produced` counts what the upstream has sent.
  upstream.toolsCall("flood").streams((s) => {
    for (let i = 0; i < count; i++) s.log("info", () => (produced++, frame));
    return s.result("done");
  });
  const recorder = mcpmock(["record", "--out", join(dir, "recorded.json"), "--target", upstream.url]);
  try {
    const [, url] = (await recorder.line(/ at (http:\/\/127\.0\.0\.1:\d+\/mcp) /)) as RegExpExecArray;
    const init = await fetch(url!, { method: "POST", headers: HEADERS, body: JSON.stringify({ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "1" } } }) });
    await init.text();
    const headers = { ...HEADERS, "mcp-session-id": init.headers.get("mcp-session-id") ?? "", "mcp-protocol-version": "2025-11-25" };
    const res = await pausedCall(url!, headers);
    // Until the upstream stops producing (held back) or has produced everything (not held back).
    let seen = -1;
    for (let i = 0; i < 40 && produced !== seen && produced < count; i++) {
      seen = produced;
      await sleep(500);
    }
    expect(produced, `${produced} of ${count} events produced while the client read nothing`).toBeLessThan(count / 2);
    let text = "";
    res.setEncoding("utf8");
    res.on("data", (chunk: string) => (text += chunk));
    await new Promise((resolve) => res.on("end", resolve).resume());
    expect(produced).toBe(count);
    expect(text.split("event: message").length - 1).toBe(count + 1);
    expect(text).toContain('"text":"done"');
  } finally {
    await stop(recorder);
  }
  // The recording read the same bytes: the call and its answer are in the file.
  expect(readFileSync(join(dir, "recorded.json"), "utf8")).toMatch(/"name": "flood"[\s\S]*"text": "done"/);
}, 60_000);

