/**
 * Server cards (SEP-2127) over raw HTTP, as the extension's discovery text says a client
 * fetches them: the card at `<mcp path>/server-card` and the catalog, their headers (media
 * type, CORS, ETag and 304), the legacy paths' redirects, `serverCard: false`, overrides that
 * make a card disagree with `server/discover` (read by the v2 client), and the journal.
 */
import { describe, expect, test } from "vitest";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { McpMock, method } from "../../src/index.js";

const INFO = { name: "com.example/weather", version: "1.2.0", title: "Weather", icons: [{ src: "https://example.com/w.png", mimeType: "image/png", sizes: ["48x48"] }] };
const cardUrl = (mock: McpMock): string => `${mock.url}/server-card`;
const origin = (mock: McpMock): string => new URL(mock.url).origin;

describe("the card", () => {
  test("made from the declarations, with its media type, CORS and an ETag", async () => {
    await using mock = await McpMock.start({ serverInfo: INFO, instructions: "Ask about the weather." });
    const res = await fetch(cardUrl(mock), { headers: { accept: "application/mcp-server-card+json" } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/mcp-server-card+json");
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(res.headers.get("etag")).toMatch(/^"[\w-]+"$/);
    const card = (await res.json()) as Record<string, unknown>;
    expect(card).toMatchObject({
      $schema: "https://static.modelcontextprotocol.io/schemas/v2/server-card.schema.json",
      name: "com.example/weather",
      version: "1.2.0",
      title: "Weather",
      description: "Ask about the weather.",
      icons: INFO.icons,
    });
    const remotes = card["remotes"] as Array<{ type: string; url: string; supportedProtocolVersions: string[] }>;
    expect(remotes[0]).toEqual({ type: "streamable-http", url: mock.url, supportedProtocolVersions: expect.arrayContaining(["2026-07-28", "2025-11-25"]) as never });
    expect(remotes[1]).toMatchObject({ type: "sse", url: mock.sseUrl });
  });

  test("a name that is not reverse DNS gets the mock's namespace; the description is never empty", async () => {
    await using mock = await McpMock.start({ serverInfo: { name: "my weather", version: "1" }, legacySse: false });
    const card = (await (await fetch(cardUrl(mock))).json()) as Record<string, unknown>;
    expect(card["name"]).toMatch(/^[a-zA-Z0-9.-]+\/[a-zA-Z0-9._-]+$/);
    expect(card["name"]).toBe("io.github.mcpmock/my-weather");
    expect(String(card["description"]).length).toBeGreaterThan(0);
    expect((card["remotes"] as unknown[]).length).toBe(1);
  });

  test("agrees with server/discover by default, and disagrees when an override says so", async () => {
    for (const serverCard of [undefined, { version: "9.9.9" }]) {
      await using mock = await McpMock.start({ serverInfo: INFO, ...(serverCard ? { serverCard } : {}) });
      const client = new Client({ name: "v2", version: "1" }, { versionNegotiation: { mode: { pin: "2026-07-28" } } } as never);
      await client.connect(new StreamableHTTPClientTransport(new URL(mock.url)));
      const card = (await (await fetch(cardUrl(mock))).json()) as { version: string };
      expect(client.getServerVersion()?.version).toBe("1.2.0");
      expect(card.version).toBe(serverCard ? "9.9.9" : "1.2.0");
      await client.close();
    }
  });

  test("If-None-Match: 304 for its tag (strong, weak, *), 200 for another, 400 past 8192 characters", async () => {
    await using mock = await McpMock.start();
    const etag = (await fetch(cardUrl(mock))).headers.get("etag") as string;
    for (const tag of [etag, `W/${etag}`, "*", `"other", ${etag}`]) {
      const res = await fetch(cardUrl(mock), { headers: { "if-none-match": tag } });
      expect(res.status).toBe(304);
      expect(res.headers.get("etag")).toBe(etag);
    }
    expect((await fetch(cardUrl(mock), { headers: { "if-none-match": '"stale"' } })).status).toBe(200);
    const huge = await fetch(cardUrl(mock), { headers: { "if-none-match": `"${"x".repeat(9000)}"` } });
    expect(huge.status).toBe(400);
    expect(await huge.text()).toContain("If-None-Match is 9002 characters long");
  });

  test("other methods get 405 with Allow, a preflight 204 with CORS; HEAD has no body", async () => {
    await using mock = await McpMock.start();
    const post = await fetch(cardUrl(mock), { method: "POST", body: "{}" });
    expect(post.status).toBe(405);
    expect(post.headers.get("allow")).toBe("GET, HEAD, OPTIONS");
    const preflight = await fetch(cardUrl(mock), { method: "OPTIONS", headers: { origin: "https://example.com", "access-control-request-method": "GET" } });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-origin")).toBe("*");
    const head = await fetch(cardUrl(mock), { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe("");
  });
});

describe("the catalog and the legacy paths", () => {
  test("the catalog lists the card, whose URL serves it", async () => {
    await using mock = await McpMock.start({ serverInfo: INFO });
    const res = await fetch(`${origin(mock)}/.well-known/mcp/catalog.json`);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    const doc = (await res.json()) as { specVersion: string; entries: Array<{ identifier: string; displayName: string; type: string; url: string }> };
    expect(doc).toEqual({ specVersion: "draft", entries: [{ identifier: "urn:air:example.com:weather", displayName: "Weather", type: "application/mcp-server-card+json", url: cardUrl(mock) }] });
    expect((await fetch(doc.entries[0]?.url as string)).status).toBe(200);
  });

  test("/.well-known/mcp.json and /.well-known/mcp/server-card.json redirect (308) to the card", async () => {
    await using mock = await McpMock.start({ serverInfo: INFO });
    for (const path of ["/.well-known/mcp.json", "/.well-known/mcp/server-card.json"]) {
      const res = await fetch(`${origin(mock)}${path}`, { redirect: "manual" });
      expect(res.status).toBe(308);
      expect(res.headers.get("location")).toBe(cardUrl(mock));
      expect(((await (await fetch(`${origin(mock)}${path}`)).json()) as { name: string }).name).toBe("com.example/weather");
    }
  });

  test("serverCard: false serves none of them (a definition file says the same)", async () => {
    for (const mock of [await McpMock.start({ serverCard: false }), await McpMock.fromDefinition({ serverCard: false })]) {
      for (const path of [new URL(cardUrl(mock)).pathname, "/.well-known/mcp/catalog.json", "/.well-known/mcp.json"]) {
        expect((await fetch(`${origin(mock)}${path}`, { redirect: "manual" })).status).toBe(404);
      }
      await mock.close();
    }
  });

  test("an override object from a definition file; a wrong serverCard is refused with the fix", async () => {
    await using mock = await McpMock.fromDefinition({ server: { name: "w", version: "1" }, serverCard: { description: "Disagrees on purpose", remotes: [] } });
    expect(await (await fetch(cardUrl(mock))).json()).toMatchObject({ description: "Disagrees on purpose", remotes: [] });
    await expect(McpMock.start({ serverCard: "yes" as never })).rejects.toThrow(/serverCard must be false \(no card\) or an object/);
  });

  test("every fetch is journaled with its status", async () => {
    await using mock = await McpMock.start();
    await fetch(cardUrl(mock));
    await fetch(`${origin(mock)}/.well-known/mcp/catalog.json`);
    await fetch(`${origin(mock)}/.well-known/mcp.json`, { redirect: "manual" });
    const entries = mock.requests().map((e) => [e.method, (e.answer as { status: number }).status]);
    expect(entries).toEqual([["GET server-card", 200], ["GET catalog", 200], ["GET server-card", 308]]);
    mock.verify(method("GET server-card"), 2);
  });
});
