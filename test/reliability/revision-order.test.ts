/**
 * Issue 44: in the 2026-07-28 revision the transport's checks come before the method is looked
 * up, as in the reference SDK's server (typescript-sdk packages/server/src/server/
 * handleStatelessHttp.ts and shttpHandler.ts: the version and `_meta` envelope, then the
 * Mcp-Method / Mcp-Name headers against the body, then dispatch, where an unknown method is
 * 404 -32601). A request with a broken envelope or header is told so, whatever its method.
 */
import { describe, expect, test } from "vitest";
import { McpMock } from "../../src/index.js";

const V = "2026-07-28";
const META = { "io.modelcontextprotocol/protocolVersion": V, "io.modelcontextprotocol/clientInfo": { name: "t", version: "1" }, "io.modelcontextprotocol/clientCapabilities": {} };

async function send(url: string, method: string, opts: { header?: string | null; meta?: unknown }): Promise<{ status: number; code: number | undefined; message: string }> {
  const headers: Record<string, string> = { accept: "application/json, text/event-stream", "content-type": "application/json", "mcp-protocol-version": V };
  if (opts.header !== null) headers["mcp-method"] = opts.header ?? method;
  const params = opts.meta === undefined ? { _meta: META } : opts.meta === null ? {} : { _meta: opts.meta };
  const res = await fetch(url, { method: "POST", headers, body: JSON.stringify({ jsonrpc: "2.0", id: 3, method, params }) });
  const text = await res.text();
  const last = text.startsWith("event:") ? (text.split("\n").filter((l) => l.startsWith("data: ")).pop() ?? "").slice(6) : text;
  const body = JSON.parse(last) as { error?: { code: number; message: string } };
  return { status: res.status, code: body.error?.code, message: body.error?.message ?? "" };
}

describe("2026-07-28: the transport's checks before the method lookup", () => {
  test("initialize, ping and an unknown method: an Mcp-Method header that disagrees is 400 -32020, a missing one too, a malformed envelope 400 -32602; only a clean request gets 404 -32601", async () => {
    await using mock = await McpMock.start({ onUnmatched: "silent" });
    for (const method of ["initialize", "ping", "no/such"]) {
      const disagrees = await send(mock.url, method, { header: "tools/list" });
      expect([disagrees.status, disagrees.code]).toEqual([400, -32020]);
      expect(disagrees.message).toContain(`the body names method ${method} but the Mcp-Method header names tools/list`);
      const missing = await send(mock.url, method, { header: null });
      expect([missing.status, missing.code]).toEqual([400, -32020]);
      expect(missing.message).toContain("the required Mcp-Method header is absent");
      for (const meta of [null, "not an object", { ...META, "io.modelcontextprotocol/protocolVersion": 5 }]) {
        const malformed = await send(mock.url, method, { meta });
        expect([malformed.status, malformed.code], JSON.stringify(meta)).toEqual([400, -32602]);
      }
      const clean = await send(mock.url, method, {});
      expect([clean.status, clean.code]).toEqual([404, -32601]);
    }
  });
});
