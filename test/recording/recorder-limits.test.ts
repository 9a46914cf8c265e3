/**
 * The recorder's own limits (issue 33, item 8): an upstream that never answers gives the
 * client a JSON-RPC error naming it within `--timeout` (one clear line on stderr, no stack),
 * and a huge answer does not make every later answer slow (the file is written debounced,
 * valid whenever it is read).
 */
import { afterEach, describe, expect, it } from "vitest";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { mcpmock, stop, type Spawned } from "../support/recording.js";
import { badUpstream } from "../proxy/bad-upstream.js";
import { HEADERS } from "../support/raw-http.js";

const closers: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

async function recorder(target: string, extra: string[] = []): Promise<{ url: string; out: string; process: Spawned }> {
  const dir = mkdtempSync(join(tmpdir(), "mcpmock-record-"));
  closers.push(async () => rmSync(dir, { recursive: true, force: true })); // runs after the recorder stops
  const out = join(dir, "recorded.json");
  const process = mcpmock(["record", "--out", out, "--target", target, ...extra]);
  closers.push(() => stop(process));
  const [, url] = (await process.line(/ at (http:\/\/127\.0\.0\.1:\d+\/mcp) /)) as RegExpExecArray;
  return { url: url as string, out, process };
}

/** Initializes a session through the recorder; returns the headers of its POSTs. */
async function session(url: string): Promise<Record<string, string>> {
  const init = await fetch(url, { method: "POST", headers: HEADERS, body: JSON.stringify({ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "1" } } }) });
  await init.text();
  return { ...HEADERS, "mcp-session-id": init.headers.get("mcp-session-id") ?? "", "mcp-protocol-version": "2025-11-25" };
}

const call = (id: number, name: string): string => JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: {} } });

describe("the recorder's limits", () => {
  it("an upstream that never answers: the client gets a JSON-RPC error naming it within --timeout, and stderr one line", async () => {
    const upstream = await badUpstream("silent");
    closers.push(upstream.close);
    const { url, process } = await recorder(upstream.url, ["--timeout", "300"]);
    const headers = await session(url);
    const started = Date.now();
    const res = await fetch(url, { method: "POST", headers, body: call(5, "stuck") });
    const answer = (await res.json()) as { id: number; error: { code: number; message: string } };
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(answer.id).toBe(5);
    expect(answer.error.message).toBe(`mcpmock record: the target ${upstream.url} did not answer tools/call within 300 ms`);
    await expect.poll(() => process.stderr()).toContain(`mcpmock record: the target ${upstream.url} did not answer tools/call within 300 ms; the client got a JSON-RPC error`);
    expect(process.stderr()).not.toMatch(/\n\s+at /); // no stack
  });

  it("after a huge answer, later answers stay fast, and the file is whole when read", async () => {
    const upstream = await badUpstream("big-once");
    closers.push(upstream.close);
    const { url, out } = await recorder(upstream.url);
    const headers = await session(url);
    await (await fetch(url, { method: "POST", headers, body: call(1, "big") })).arrayBuffer();
    let took = 0;
    for (let i = 0; i < 20; i++) {
      const started = Date.now();
      const res = await fetch(url, { method: "POST", headers, body: call(10 + i, `small-${i}`) });
      expect(JSON.stringify(await res.json())).toContain(`small small-${i}`);
      took += Date.now() - started;
      if (i % 5 === 0) JSON.parse(readFileSync(out, "utf8")); // valid whenever it is read
    }
    // Rewriting the whole file per answer took 9.5 s for these 20 answers.
    expect(took).toBeLessThan(2_500);
    await expect.poll(() => readFileSync(out, "utf8").includes("small small-19"), { timeout: 10_000 }).toBe(true);
  }, 60_000);
});
