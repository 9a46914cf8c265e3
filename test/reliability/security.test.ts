/**
 * Security defaults: loopback binding, Origin validation (the 2025-11-25 spec's MUST), the
 * Host check against DNS rebinding, the admin API for loopback peers only, and user strings
 * (definition placeholders, request arguments) that are never evaluated and never pollute
 * prototypes.
 *
 * The admin API's peer check is tested in process with a fake peer address: tests never send
 * traffic to any address but loopback.
 */
import net from "node:net";
import os from "node:os";
import { describe, expect, test } from "vitest";
import { adminApp } from "../../src/admin/admin-api.js";
import { McpMock } from "../../src/index.js";
import { allowedHostNames } from "../../src/transports/http/gate.js";
import { ACCEPT_BOTH, nodeRequest as request, readUntil } from "../support/raw-http.js";

const initBody = JSON.stringify({ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "sec", version: "1" } } });

/** Whether this sandbox lets us bind 0.0.0.0. */
async function canBindAll(): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once("error", () => resolve(false));
    server.listen(0, "0.0.0.0", () => server.close(() => resolve(true)));
  });
}
const bindAll = await canBindAll();

function initialize(url: string, headers: Record<string, string> = {}) {
  return request(url, { headers: { accept: ACCEPT_BOTH, "content-type": "application/json", ...headers }, body: initBody });
}

function postInit(url: string, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(url, { method: "POST", headers: { accept: ACCEPT_BOTH, "content-type": "application/json", ...headers }, body: initBody });
}

function invalidOrigin(origin: string) {
  return {
    jsonrpc: "2.0",
    id: null,
    error: {
      code: -32000,
      message: `Invalid Origin header: ${origin}`,
      data: `mcpmock allows loopback origins only by default. To allow this one: McpMock.start({ allowedOrigins: [${JSON.stringify(origin)}] }).`,
    },
  };
}

function invalidHost(host: string) {
  return {
    jsonrpc: "2.0",
    id: null,
    error: {
      code: -32000,
      message: `Invalid Host header: ${host}`,
      data: `mcpmock answers loopback Host names only when it binds a loopback address (DNS-rebinding protection). To allow this one: McpMock.start({ allowedHosts: [${JSON.stringify(host)}] }).`,
    },
  };
}

describe("binding", () => {
  test("a mock binds 127.0.0.1 by default", async () => {
    await using mock = await McpMock.start();
    expect(mock.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    expect(mock.port).toBeGreaterThan(0);
  });
});

describe("Origin", () => {
  test("a foreign Origin is 403 on the MCP endpoint, before anything is journaled or a session opens", async () => {
    await using mock = await McpMock.start();
    for (const origin of ["http://evil.example", "https://localhost.evil.example", "http://127.0.0.1.evil.example:8080", "null", "file://"]) {
      const res = await postInit(mock.url, { origin });
      expect(res.status).toBe(403);
      expect(await res.json()).toStrictEqual(invalidOrigin(origin));
    }
    expect(mock.requests()).toEqual([]);
    expect(mock.sessions()).toEqual([]);
  });

  test.each(["http://localhost:3000", "http://127.0.0.1:8080", "http://[::1]:5173", "https://localhost"])("a loopback Origin %s is allowed", async (origin) => {
    await using mock = await McpMock.start();
    const res = await postInit(mock.url, { origin });
    expect(await res.json()).toMatchObject({ id: 0, result: { protocolVersion: "2025-11-25" } });
    expect(res.status).toBe(200);
    expect(res.headers.get("access-control-allow-origin")).toBe(origin);
    expect(res.headers.get("access-control-expose-headers")?.split(",")).toContain("mcp-session-id");
  });

  test("a browser (loopback Origin) gets CORS headers on SSE answers and on the GET stream too", async () => {
    await using mock = await McpMock.start({ responseMode: "sse" });
    const origin = "http://localhost:5173";
    const init = await postInit(mock.url, { origin });
    expect(init.headers.get("content-type")).toBe("text/event-stream");
    expect(init.headers.get("access-control-allow-origin")).toBe(origin);
    expect(init.headers.get("access-control-expose-headers")?.split(",")).toContain("mcp-session-id");
    expect(await init.text()).toContain('"protocolVersion":"2025-11-25"');
    const session = { "mcp-session-id": init.headers.get("mcp-session-id") ?? "", "mcp-protocol-version": "2025-11-25" };
    const stream = await fetch(mock.url, { headers: { accept: "text/event-stream", origin, ...session } });
    expect(stream.status).toBe(200);
    expect(stream.headers.get("access-control-allow-origin")).toBe(origin);
    const pushed = mock.notify("notifications/message", { level: "info", data: "to the browser" });
    expect(await readUntil(stream, "to the browser")).toContain('"method":"notifications/message"');
    await pushed;
    await stream.body?.cancel();
  });

  test("allowedOrigins are honoured exactly (scheme and port included)", async () => {
    await using mock = await McpMock.start({ allowedOrigins: ["https://app.example"] });
    const ok = await postInit(mock.url, { origin: "https://app.example" });
    await ok.text();
    expect(ok.status).toBe(200);
    for (const origin of ["http://app.example", "https://app.example:8443", "https://evil.app.example"]) {
      const res = await postInit(mock.url, { origin });
      expect(await res.json()).toStrictEqual(invalidOrigin(origin));
    }
  });

  test("the admin API (admin: true) checks Origin too: only allowedOrigins, not every loopback page", async () => {
    await using mock = await McpMock.start({ admin: true, tools: [{ name: "add" }], allowedOrigins: ["https://dashboard.example"] });
    const admin = mock.url.replace(/\/mcp$/, "/__admin");
    const evil = await fetch(`${admin}/stubs`, { headers: { origin: "http://evil.example" } });
    expect(evil.status).toBe(403);
    expect(await evil.json()).toStrictEqual(invalidOrigin("http://evil.example"));
    const evilAdd = await fetch(`${admin}/stubs`, { method: "POST", headers: { origin: "http://evil.example", "content-type": "application/json" },
      body: JSON.stringify({ responses: [{ tool: "add", result: "pwned" }] }) });
    expect(evilAdd.status).toBe(403);
    await evilAdd.text();
    expect(mock.stubs().filter((s) => s.source !== "default")).toEqual([]);
    const local = await fetch(`${admin}/stubs`, { headers: { origin: "http://localhost:3000" } });
    expect(local.status).toBe(403);
    expect(await local.json()).toStrictEqual({ error: adminOriginRefused("http://localhost:3000") });
    const ok = await fetch(`${admin}/stubs`, { headers: { origin: "https://dashboard.example" } });
    expect(ok.status).toBe(200);
    expect(ok.headers.get("access-control-allow-origin")).toBe("https://dashboard.example");
    expect(Array.isArray(await ok.json())).toBe(true);
    const noOrigin = await fetch(`${admin}/requests`);
    expect(noOrigin.status).toBe(200);
    await noOrigin.text();
  });
});

const adminOriginRefused = (origin: string) =>
  `[mcpmock] the admin API does not answer browsers' cross-origin requests (Origin: ${origin}). To let a page drive it: McpMock.start({ allowedOrigins: [${JSON.stringify(origin)}] }).`;

describe("the admin API refuses browser cross-origin writes (issue 20, defect 6)", () => {
  // Before: a text/plain POST (no preflight) from a page on http://localhost:5173 created a stub (201).
  test("a text/plain POST from a loopback page creates nothing; writes need content-type: application/json", async () => {
    await using mock = await McpMock.start({ admin: true, tools: [{ name: "add" }] });
    const admin = mock.url.replace(/\/mcp$/, "/__admin");
    const fragment = JSON.stringify({ responses: [{ tool: "add", result: "pwned" }] });
    const page = await fetch(`${admin}/stubs`, { method: "POST", headers: { origin: "http://localhost:5173", "content-type": "text/plain" }, body: fragment });
    expect(page.status).toBe(403);
    expect(await page.json()).toStrictEqual({ error: adminOriginRefused("http://localhost:5173") });
    const plain = await fetch(`${admin}/stubs`, { method: "POST", headers: { "content-type": "text/plain" }, body: fragment });
    expect(plain.status).toBe(415);
    expect(await plain.json()).toStrictEqual({ error: "[mcpmock] admin writes must be sent with content-type: application/json (received text/plain), so a browser page cannot send them without a CORS preflight." });
    expect(mock.stubs().filter((s) => s.source !== "default")).toEqual([]);
    const reset = await fetch(`${admin}/reset`, { method: "POST" }); // no body, no content type: a script, not a form
    expect(reset.status).toBe(204);
    const json = await fetch(`${admin}/stubs`, { method: "POST", headers: { "content-type": "application/json" }, body: fragment });
    expect(json.status).toBe(201);
    await json.text();
  });

  test("preflights are answered for allowedOrigins only", async () => {
    await using mock = await McpMock.start({ admin: true, allowedOrigins: ["https://dashboard.example"] });
    const admin = mock.url.replace(/\/mcp$/, "/__admin");
    const preflight = (origin: string) => fetch(`${admin}/stubs`, { method: "OPTIONS", headers: { origin, "access-control-request-method": "POST", "access-control-request-headers": "content-type" } });
    const allowed = await preflight("https://dashboard.example");
    expect(allowed.status).toBe(204);
    expect(allowed.headers.get("access-control-allow-origin")).toBe("https://dashboard.example");
    expect(allowed.headers.get("access-control-allow-methods")).toBe("GET, POST, DELETE");
    expect(allowed.headers.get("access-control-allow-headers")).toBe("content-type");
    const local = await preflight("http://localhost:5173");
    expect(local.status).toBe(403);
    expect(local.headers.get("access-control-allow-origin")).toBeNull();
    await local.text();
  });
});

describe("credentials in the journal (issue 20, defect 6)", () => {
  const authorized = { authorization: "Bearer secret-token", cookie: "sid=abc" };

  // Before: the journal (and GET /__admin/requests) kept Authorization headers in clear.
  test("Authorization and Cookie are redacted in the journal by default; stubs still match on them", async () => {
    await using mock = await McpMock.start({ admin: true, tools: [{ name: "add" }] });
    (mock as unknown as McpMock<readonly [{ name: "add" }]>).toolsCall("add").withHeader("authorization", "Bearer secret-token").respondsWith("authorized");
    const res = await postInit(mock.url, authorized);
    expect(res.status).toBe(200);
    const session = res.headers.get("mcp-session-id") as string;
    const call = await fetch(mock.url, { method: "POST", headers: { accept: ACCEPT_BOTH, "content-type": "application/json", "mcp-session-id": session, ...authorized },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "add" } }) });
    expect(await call.text()).toContain("authorized");
    for (const entry of mock.requests()) expect(entry.headers).toMatchObject({ authorization: "[redacted]", cookie: "[redacted]" });
    expect(mock.requests()[1]?.call?.headers["authorization"]).toBe("[redacted]");
    const listed = await (await fetch(mock.url.replace(/\/mcp$/, "/__admin/requests"))).text();
    expect(listed).not.toContain("secret-token");
    expect(listed).not.toContain("sid=abc");
  });

  test("redactHeaders: false keeps them; a list names the headers to redact", async () => {
    await using kept = await McpMock.start({ redactHeaders: false });
    expect((await postInit(kept.url, authorized)).status).toBe(200);
    expect(kept.requests()[0]?.headers).toMatchObject(authorized);
    await using listed = await McpMock.start({ redactHeaders: ["x-api-key"] });
    expect((await postInit(listed.url, { ...authorized, "x-api-key": "k" })).status).toBe(200);
    expect(listed.requests()[0]?.headers).toMatchObject({ ...authorized, "x-api-key": "[redacted]" });
  });
});

describe("Host (DNS rebinding)", () => {
  test("a foreign Host on a loopback mock is 403 on every path; loopback names pass", async () => {
    await using mock = await McpMock.start({ admin: true });
    for (const host of ["evil.example:1234", "evil.example", "192.0.2.1:80", "localhost.evil.example"]) {
      const res = await initialize(mock.url, { host });
      expect(res.status).toBe(403);
      expect(JSON.parse(res.body)).toStrictEqual(invalidHost(host));
      const adminRes = await request(mock.url, { method: "GET", path: "/__admin/stubs", headers: { host } });
      expect(adminRes.status).toBe(403);
      const other = await request(mock.url, { method: "GET", path: "/.well-known/oauth-protected-resource", headers: { host } });
      expect(other.status).toBe(403);
    }
    expect(mock.requests()).toEqual([]);
    for (const host of [`127.0.0.1:${mock.port}`, `localhost:${mock.port}`, "localhost", `[::1]:${mock.port}`]) {
      const res = await initialize(mock.url, { host });
      expect([host, res.status]).toEqual([host, 200]);
    }
    // An allowed Host is remembered; the next foreign one is still checked and refused.
    for (const host of [`localhost:${mock.port}`, "evil.example", `localhost:${mock.port}`, "localhost.evil.example"]) {
      const res = await initialize(mock.url, { host });
      expect([host, res.status]).toEqual([host, host.includes("evil") ? 403 : 200]);
    }
  });

  test("allowedHosts are honoured, with or without the port", async () => {
    await using mock = await McpMock.start({ allowedHosts: ["mcp.test:8080", "dev.internal"] });
    for (const host of ["mcp.test:8080", "dev.internal", "dev.internal:3000", "localhost"]) expect([host, (await initialize(mock.url, { host })).status]).toEqual([host, 200]);
    for (const host of ["mcp.test:9090", "mcp.test", "evil.example"]) expect([host, (await initialize(mock.url, { host })).status]).toEqual([host, 403]);
  });

  // Before: --host 0.0.0.0 turned the Host check off, so after DNS rebinding a page could read
  // the journal and attach to session-1's GET stream.
  test.skipIf(!bindAll)("a mock bound to 0.0.0.0 answers the machine's own names (and allowedHosts) only", async () => {
    await using open = await McpMock.start({ host: "0.0.0.0", admin: true });
    expect(open.url).toMatch(/^http:\/\/0\.0\.0\.0:\d+\/mcp$/);
    const own = allowedHostNames({ host: "0.0.0.0" });
    expect(own).toContain(os.hostname().toLowerCase());
    expect(own).toContain("localhost");
    const address = Object.values(os.networkInterfaces()).flat().find((a) => a?.family === "IPv4" && !a.internal)?.address;
    for (const host of [os.hostname(), `${os.hostname()}:${open.port}`, `127.0.0.1:${open.port}`, ...(address ? [address, `${address}:${open.port}`] : [])]) {
      expect([host, (await initialize(`http://127.0.0.1:${open.port}/mcp`, { host })).status]).toEqual([host, 200]);
    }
    const refused = await initialize(`http://127.0.0.1:${open.port}/mcp`, { host: "evil.example:1234" });
    expect(refused.status).toBe(403);
    expect(JSON.parse(refused.body)).toStrictEqual({ jsonrpc: "2.0", id: null, error: { code: -32000, message: "Invalid Host header: evil.example:1234",
      data: `mcpmock answers this machine's own names only (${own.join(", ")}), as it binds 0.0.0.0 (DNS-rebinding protection). To allow this one: McpMock.start({ allowedHosts: ["evil.example:1234"] }) or mcpmock serve --allowed-host evil.example:1234.` } });
    const journal = await request(`http://127.0.0.1:${open.port}/mcp`, { method: "GET", path: "/__admin/requests", headers: { host: "evil.example" } });
    expect(journal.status).toBe(403);
    await using checked = await McpMock.start({ host: "0.0.0.0", allowedHosts: ["mcp.lan"] });
    expect((await initialize(`http://127.0.0.1:${checked.port}/mcp`, { host: "mcp.lan" })).status).toBe(200);
    expect((await initialize(`http://127.0.0.1:${checked.port}/mcp`, { host: "localhost" })).status).toBe(200);
    expect((await initialize(`http://127.0.0.1:${checked.port}/mcp`, { host: os.hostname() })).status).toBe(403);
    const other = await initialize(`http://127.0.0.1:${checked.port}/mcp`, { host: "evil.example" });
    expect(JSON.parse(other.body)).toStrictEqual(invalidHost("evil.example"));
  });

  // Guards the loopback test of Gate.checkHost (src/transports/http/gate.ts): only IPv4 *literals* in 127/8 are
  // loopback, so an attacker's domain such as 127.0.0.1.evil.example (or 127.attacker.example),
  // rebound by its DNS to 127.0.0.1, does not defeat the DNS-rebinding protection. Any 127/8
  // literal passes.
  test("a Host name that merely starts with 127. is not loopback", async () => {
    await using mock = await McpMock.start();
    for (const host of [`127.0.0.1.evil.example:${mock.port}`, "127.attacker.example", "127.0.0.1.evil.example"]) {
      const res = await initialize(mock.url, { host });
      expect([host, res.status]).toEqual([host, 403]);
      expect(JSON.parse(res.body)).toStrictEqual(invalidHost(host));
    }
    for (const host of [`127.0.0.1:${mock.port}`, `127.1.2.3:${mock.port}`, "127.255.255.254"]) expect([host, (await initialize(mock.url, { host })).status]).toEqual([host, 200]);
    expect(mock.requests()).toHaveLength(3);
  });

  // Guards case-insensitive Host names (RFC 3986 §3.2.2) in Gate.checkHost (src/transports/http/gate.ts): a client
  // that writes its URL as http://LOCALHOST:port (curl sends the Host as typed) is served.
  test("Host names are case-insensitive: LOCALHOST is loopback", async () => {
    await using mock = await McpMock.start();
    for (const host of [`LOCALHOST:${mock.port}`, "LocalHost", `localHOST:${mock.port}`]) expect([host, (await initialize(mock.url, { host })).status]).toEqual([host, 200]);
    const foreign = await initialize(mock.url, { host: "EVIL.example" });
    expect(foreign.status).toBe(403);
    expect(JSON.parse(foreign.body)).toStrictEqual(invalidHost("EVIL.example"));
  });

  // Guards case-insensitive allowedHosts (RFC 3986 §3.2.2): both sides are lowercased.
  test("allowedHosts compare case-insensitively too", async () => {
    await using mock = await McpMock.start({ allowedHosts: ["mcp.test:8080", "Dev.Internal"] });
    for (const host of ["MCP.TEST:8080", "dev.internal", "DEV.INTERNAL:3000"]) expect([host, (await initialize(mock.url, { host })).status]).toEqual([host, 200]);
  });
});

describe("the admin API answers loopback peers only", () => {
  test("a loopback peer is served", async () => {
    await using mock = await McpMock.start({ admin: true });
    const res = await fetch(mock.url.replace(/\/mcp$/, "/__admin/requests"));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual([]);
  });

  // The peer check reads the socket's remote address. It is tested in process, with the Node
  // request the server would pass, so no traffic leaves loopback.
  test("a peer on another address gets 403 unless admin: { remote: true }", async () => {
    await using mock = await McpMock.start();
    const peer = { incoming: { socket: { remoteAddress: "203.0.113.7" } } };
    const refused = await adminApp(mock, { remote: false }).fetch(new Request("http://127.0.0.1/__admin/requests"), peer);
    expect(refused.status).toBe(403);
    expect(await refused.json()).toStrictEqual({ error: "the admin API answers loopback clients only; 203.0.113.7 is not one (start with --admin-host to open it)." });
    const loopback = await adminApp(mock, { remote: false }).fetch(new Request("http://127.0.0.1/__admin/requests"), { incoming: { socket: { remoteAddress: "::ffff:127.0.0.1" } } });
    expect(loopback.status).toBe(200);
    const allowed = await adminApp(mock, { remote: true }).fetch(new Request("http://127.0.0.1/__admin/requests"), peer);
    expect(allowed.status).toBe(200);
  });

  // Issue 20: the admin API beyond loopback needs an explicit opt-in and a token.
  test("beyond loopback the admin API needs its token; admin: { remote: true } without one is refused at start", async () => {
    await expect(McpMock.start({ admin: { remote: true } })).rejects.toThrow(
      'admin: { remote: true } needs a token, which clients beyond loopback send as "Authorization: Bearer <token>": admin: { remote: true, token: "..." } (mcpmock serve --admin-host makes one and prints it).',
    );
    await using mock = await McpMock.start();
    const peer = { incoming: { socket: { remoteAddress: "203.0.113.7" } } };
    const app = adminApp(mock, { remote: true, token: "s3cret" });
    const anonymous = await app.fetch(new Request("http://127.0.0.1/__admin/requests"), peer);
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toStrictEqual({ error: "[mcpmock] the admin API beyond loopback needs its token: send Authorization: Bearer <token> (the one mcpmock serve printed, or admin.token)." });
    const wrong = await app.fetch(new Request("http://127.0.0.1/__admin/requests", { headers: { authorization: "Bearer nope" } }), peer);
    expect(wrong.status).toBe(401);
    const right = await app.fetch(new Request("http://127.0.0.1/__admin/requests", { headers: { authorization: "Bearer s3cret" } }), peer);
    expect(right.status).toBe(200);
    const local = await app.fetch(new Request("http://127.0.0.1/__admin/requests"), { incoming: { socket: { remoteAddress: "127.0.0.1" } } });
    expect(local.status).toBe(200);
  });
});

describe("user strings are data, never code", () => {
  const tools = [{ name: "t" }];

  async function answerOf(result: unknown, args: Record<string, unknown>): Promise<unknown> {
    await using mock = await McpMock.fromDefinition({ tools, responses: [{ tool: "t", result }] } as never, { onUnmatched: "silent" });
    const init = await postInit(mock.url);
    await init.text();
    const res = await fetch(mock.url, {
      method: "POST",
      headers: { accept: ACCEPT_BOTH, "content-type": "application/json", "mcp-session-id": init.headers.get("mcp-session-id") as string },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "t", arguments: args } }),
    });
    return res.json();
  }

  const textOf = (answer: unknown) => (answer as { result?: { content?: Array<{ text?: string }> } }).result?.content?.[0]?.text;

  test("an expression in braces is refused at load or substituted as plain text, never executed", async () => {
    const g = globalThis as Record<string, unknown>;
    const cases: Array<[string, "text" | "refused"]> = [
      ["{{constructor.constructor('globalThis.__mcpmockPwned = 1')()}}", "text"],
      ["{{ args.x; globalThis.__mcpmockPwned = 2 }}", "text"],
      ["{{args.x || (globalThis.__mcpmockPwned = 3)}}", "text"],
      ["${globalThis.__mcpmockPwned = 4}", "text"],
      ["{{#with args}}{{x}}{{/with}}", "refused"],
      ["{{__proto__.polluted}}", "refused"],
    ];
    for (const [expression, outcome] of cases) {
      if (outcome === "refused") {
        await expect(McpMock.fromDefinition({ tools, responses: [{ tool: "t", result: { v: expression } }] } as never)).rejects.toThrow(/Invalid mock definition — definition: responses\[0\]\.result\.v: the placeholder/);
      } else {
        const answer = await answerOf({ v: expression }, { x: "X" });
        expect(textOf(answer)).toBe(JSON.stringify({ v: expression }));
      }
    }
    expect(g["__mcpmockPwned"]).toBeUndefined();
  });

  test("a placeholder naming anything but the request is refused when the definition loads", async () => {
    for (const placeholder of ["{{process.env.HOME}}", "{{globalThis.process}}", "{{constructor}}", "{{require.main}}"]) {
      const root = placeholder.slice(2).split(/[.}]/)[0] as string;
      await expect(McpMock.fromDefinition({ tools, responses: [{ tool: "t", result: placeholder }] } as never)).rejects.toThrow(
        `the placeholder ${placeholder} names "${root}", which is not known here.`,
      );
    }
  });

  test("{{args.__proto__}} and {{args.constructor}} execute nothing and pollute nothing", async () => {
    const g = globalThis as Record<string, unknown>;
    for (const placeholder of ["{{args.__proto__}}", "{{args.constructor}}", "x {{args.constructor}} y", "{{args.constructor.constructor}}", "{{args.__proto__.polluted}}"]) {
      const answer = (await answerOf({ v: placeholder }, { x: "X" })) as { result?: unknown; error?: unknown };
      expect("result" in answer || "error" in answer).toBe(true);
    }
    expect(({} as Record<string, unknown>)["polluted"]).toBeUndefined();
    expect(g["__mcpmockPwned"]).toBeUndefined();
  });

  // Guards the own-keys lookup of placeholders (src/values/placeholders.ts lookup, Object.hasOwn): a
  // path used to reach inherited members, so {{args.__proto__}} became Object.prototype ("{}")
  // and {{args.constructor}} the Object function ("function Object() { [native code] }" in text,
  // a -32603 alone). Only the request's own data is reachable: these are missing values (""),
  // while an own key of the same name is still data.
  test("placeholders reach only the request's own keys, not inherited ones", async () => {
    expect(textOf(await answerOf({ v: "{{args.__proto__}}" }, { x: "X" }))).toBe('{"v":""}');
    expect(textOf(await answerOf({ v: "x {{args.constructor}} y" }, { x: "X" }))).toBe('{"v":"x  y"}');
    expect(textOf(await answerOf({ v: "{{args.constructor}}" }, { x: "X" }))).toBe('{"v":""}');
    expect(textOf(await answerOf({ v: "{{args.x.toString}}" }, { x: "X" }))).toBe('{"v":""}');
    expect(textOf(await answerOf({ v: "{{args.constructor}}" }, { constructor: "own" }))).toBe('{"v":"own"}');
  });

  test("request arguments with __proto__ and constructor keys are echoed as data and pollute nothing", async () => {
    const poisoned = '{"__proto__":{"polluted":"yes"},"constructor":{"prototype":{"polluted":"yes"}},"x":1}';
    await using mock = await McpMock.start({ tools: [{ name: "echo", inputSchema: { type: "object" } }], onUnmatched: "silent" });
    mock.toolsCall("echo").withArgs({ x: 1 }).respondsWith("matched x");
    mock.toolsCall("echo").respondsWith((c) => ({ keys: Object.keys(c.args), echoed: c.args }));
    const init = await postInit(mock.url);
    await init.text();
    const headers = { accept: ACCEPT_BOTH, "content-type": "application/json", "mcp-session-id": init.headers.get("mcp-session-id") as string };
    const res = await fetch(mock.url, { method: "POST", headers, body: `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":${poisoned}}}` });
    const answer = (await res.json()) as { result: { content: Array<{ text: string }> } };
    expect(res.status).toBe(200);
    expect(JSON.parse(answer.result.content[0]?.text as string)).toMatchObject({ keys: ["__proto__", "constructor", "x"] });
    // A tool named __proto__ or constructor is just an unknown tool.
    for (const name of ["__proto__", "constructor", "toString"]) {
      const unknown = await fetch(mock.url, { method: "POST", headers, body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name, arguments: {} } }) });
      expect(await unknown.json()).toMatchObject({ id: 2, error: { code: -32602, message: `Unknown tool: ${name}` } });
    }
    mock.verify(mock.toolsCall("echo"), 1);
    expect(({} as Record<string, unknown>)["polluted"]).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty("polluted");
  });
});
