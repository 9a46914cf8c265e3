/**
 * What clients in the wild do before and around the handshake (WIRE.md §9), with real clients.
 */
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from "@modelcontextprotocol/client";
import { expect, test } from "vitest";
import { McpMock } from "../../src/index.js";

test("the v2 client in auto version negotiation probes server/discover and, answered at once, speaks 2026-07-28", async () => {
  await using mock = await McpMock.start({ tools: [{ name: "echo" }] });
  const client = new ClientV2({ name: "auto", version: "1.0.0" }, { versionNegotiation: { mode: "auto" } } as never);
  const started = Date.now();
  await client.connect(new TransportV2(new URL(mock.url)));
  expect(Date.now() - started).toBeLessThan(2_000);
  expect((await client.listTools()).tools.map((t) => t.name)).toEqual(["echo"]);
  expect(mock.requests().map((e) => [e.method, e.protocolVersion])).toEqual([["server/discover", "2026-07-28"], ["tools/list", "2026-07-28"]]);
  await client.close();
});

test("server/discover can be stubbed to emulate a newer server", async () => {
  await using mock = await McpMock.start();
  mock.method("server/discover").respondsWith({ supportedVersions: ["2026-07-28"] });
  const response = await fetch(mock.url, {
    method: "POST",
    headers: {
      accept: "application/json, text/event-stream",
      "content-type": "application/json",
      "mcp-protocol-version": "2026-07-28",
      "mcp-method": "server/discover",
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "server/discover", params: { _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} } } }),
  });
  expect(response.status).toBe(200);
  // The era completes the stub's partial answer with what every 2026 discover result carries.
  expect(await response.json()).toEqual({ jsonrpc: "2.0", id: 1, result: { supportedVersions: ["2026-07-28"], resultType: "complete", ttlMs: 0, cacheScope: "private" } });
});
