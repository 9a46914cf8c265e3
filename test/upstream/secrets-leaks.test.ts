/**
 * Where an upstream's credentials slipped past the one rule (`src/upstream/secrets.ts`), each
 * found by an adversarial review and driven the way a user drives mcpmock: proxy mode's journal
 * when the client sends the same key, the forms a server writes a secret in (`\/`, `\u00e4`,
 * `\u0026`, a form-encoded query), a key that starts with a slash, a credential in the target's
 * query, a thrown error that quotes an OAuth token, and a stdio server's last words cut in the
 * middle of a secret.
 */
import { afterEach, describe, expect, it } from "vitest";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createServer } from "node:http";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import { McpMock, toolsCall } from "../../src/index.js";
import { checkDefinition, record } from "../../src/recording/index.js";
import { mcpmock, stop } from "../support/recording.js";
// @ts-expect-error a JavaScript fixture
import { serveHttp } from "./secret-server.mjs";

const KEY = "sk-live-leak-0123456789";
const SERVER = fileURLToPath(new URL("./secret-server.mjs", import.meta.url));
const closers: Array<() => Promise<unknown>> = [];
const dir = mkdtempSync(join(tmpdir(), "mcpmock-secrets-leaks-"));

afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

async function connect(url: string, headers: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name: "secrets-leaks", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
  closers.push(() => client.close());
  return client;
}

describe("proxy mode's journal when the client sends the upstream's key itself", () => {
  it("a client header and tool arguments holding the key read [redacted] in requests(), the admin API, the snapshot and a failed verify", async () => {
    const real = await McpMock.start({ tools: [{ name: "echo" }] });
    closers.push(() => real.close());
    real.toolsCall("echo").respondsWith((call) => ({ got: call.args }));
    const mock = await McpMock.start({ proxy: { target: real.url, headers: { "x-api-key": KEY } }, admin: true });
    closers.push(() => mock.close());
    // The app under test keeps its own copy of the key (pointed at the mock instead of the real
    // server) and passes it on in a call, as an agent does with a value it was shown.
    const client = await connect(mock.url, { "x-api-key": KEY });
    const answer = await client.callTool({ name: "echo", arguments: { token: KEY, note: "plain" } });
    // The client gets the upstream's answer as sent.
    expect(JSON.stringify(answer)).toContain(KEY);
    const shown = [
      JSON.stringify(mock.requests()),
      JSON.stringify(mock.snapshot()),
      await (await fetch(new URL("/__admin/requests", mock.url))).text(),
      await (await fetch(new URL("/__admin/recordings/snapshot", mock.url), { method: "POST" })).text(),
      (() => {
        try {
          mock.verify(toolsCall("echo").withArgs({ token: "another", note: "plain" }));
          return "verified";
        } catch (error) {
          return (error as Error).message;
        }
      })(),
    ];
    for (const text of shown) expect(text).not.toContain(KEY);
    const call = mock.findRequests(toolsCall("echo"))[0]!;
    expect(call.params).toEqual({ name: "echo", arguments: { token: "[redacted]", note: "plain" } });
    expect(call.headers["x-api-key"]).toBe("[redacted]");
    expect(call.call?.args).toEqual({ token: "[redacted]", note: "plain" });
    expect(shown[4]).toContain("plain");
  });
});

describe("the forms a secret takes in what a server answers", () => {
  it("record(): a bearer token with a slash, echoed as PHP writes JSON (\\/), and an API key that starts with a slash never reach the file", async () => {
    const token = "tok/Zq8+v1x9Lm2Nw4Pe6Rs";
    const key = "/K7MDENG/bPxRfiCYEXAMPLEKEY"; // an AWS-style secret key: base64, here starting with its slash
    const real = await McpMock.start({ tools: [{ name: "whoami" }] });
    closers.push(() => real.close());
    // A PHP server's tool answers json_encode() of what it received: every / written \/.
    real.toolsCall("whoami").respondsWith((call) => ({
      content: [{ type: "text", text: JSON.stringify({ authorization: call.headers["authorization"], key: call.headers["x-api-key"] }).replace(/\//g, "\\/") }],
    }));
    const out = join(dir, "php.json");
    let seen = "";
    await record({ target: real.url, headers: { authorization: `Bearer ${token}`, "x-api-key": key }, out, session: async (client) => void (seen = JSON.stringify(await client.callTool({ name: "whoami", arguments: {} }))) });
    // The client got what the server sent...
    expect(seen).toContain(token.replace(/\//g, "\\\\/"));
    // ...and the file has neither, in any form.
    const file = readFileSync(out, "utf8");
    for (const secret of [token, key]) for (const form of [secret, secret.replace(/\//g, "\\/"), secret.replace(/\//g, "\\\\/"), secret.slice(1).replace(/\//g, "\\\\/")]) expect(file).not.toContain(form);
    expect(file).toContain(String.raw`{\"authorization\":\"[redacted]\",\"key\":\"[redacted]\"}`);
  });
});

describe("a credential in the target's query", { timeout: 60_000 }, () => {
  it("mcpmock record --target <url>?api_key=...: the printed URL leaves it out, the proxy adds it to each request, no output or file shows it", async () => {
    const real = await serveHttp({ apiKey: KEY });
    closers.push(real.close);
    const out = join(dir, "query.json");
    const recorder = mcpmock(["record", "--out", out, "--target", `${real.url}?api_key=${KEY}`, "--timeout", "2000"]);
    closers.push(() => stop(recorder));
    const [, url] = await recorder.line(/ at (http:\/\/127\.0\.0\.1:\d+\S*) /);
    expect(url).toMatch(/\/mcp$/);
    // The real server answers only with the key: the recorder sent it.
    const client = await connect(url!);
    const tools = await client.listTools();
    expect(tools.tools.map((t) => t.name)).toContain("whoami");
    await client.close();
    // A client with a query of its own: the target's key is set over the client's.
    const other = await connect(`${url}?api_key=not-the-key&page=2`);
    expect((await other.listTools()).tools.map((t) => t.name)).toContain("whoami");
    await other.close();
    expect(await stop(recorder, "SIGTERM")).toBe(0);
    for (const text of [recorder.stdout(), recorder.stderr(), readFileSync(out, "utf8")]) expect(text).not.toContain(KEY);
    expect(recorder.stdout()).toContain(`mcpmock recording ${real.url} at ${url} into`);
  });
});

/** An OAuth client provider that already holds its token (its app ran the flow before). */
function providerWith(accessToken: string): OAuthClientProvider {
  return {
    redirectUrl: "http://127.0.0.1:1/callback",
    clientMetadata: { client_name: "secrets-leaks", redirect_uris: ["http://127.0.0.1:1/callback"] },
    clientInformation: () => ({ client_id: "secrets-leaks" }),
    tokens: () => ({ access_token: accessToken, token_type: "Bearer" }),
    saveTokens: () => {},
    redirectToAuthorization: () => {},
    saveCodeVerifier: () => {},
    codeVerifier: () => "",
  };
}

describe("an OAuth token in a failed session's error", () => {
  it("record({ authProvider }): the session fails quoting what the server echoed; the error reads [redacted]", async () => {
    const real = await McpMock.start({ auth: true, tools: [{ name: "whoami" }], onUnmatched: "silent" });
    closers.push(() => real.close());
    real.toolsCall("whoami").respondsWith((call) => ({ youSent: call.headers["authorization"] ?? "nothing" }));
    const token = real.auth.issueToken();
    const failed = await record({
      target: real.url,
      authProvider: providerWith(token),
      out: join(dir, "oauth-failed.json"),
      session: async (client) => {
        const answer = JSON.stringify(await client.callTool({ name: "whoami", arguments: {} }));
        // An assertion of the session fails, quoting the answer (as assert.equal does).
        throw new Error(`expected whoami to answer "nobody", received ${answer}`);
      },
    }).then(() => "recorded", (error: Error) => error.message);
    expect(failed).toContain("received");
    expect(failed).toContain("Bearer [redacted]");
    expect(failed).not.toContain(token);
    expect(readFileSync(join(dir, "oauth-failed.json"), "utf8")).not.toContain(token);
  });
});

describe("a message cut short around a secret", { timeout: 60_000 }, () => {
  /** The key's fragments a cut could leave: its first and last eight characters. */
  const fragments = (secret: string): string[] => [secret.slice(0, 8), secret.slice(-8)];

  it("proxy mode: a stdio server's last words, cut at 200 characters in the middle of its key, show no part of it", async () => {
    // Its last line puts the key across the 200th character of what the mock quotes.
    const context = "while calling https://api.example.test/v1/things with the configured credentials, ".repeat(2).slice(0, 170);
    const reports: string[] = [];
    const mock = await McpMock.start({ proxy: { command: process.execPath, args: [SERVER, "stdio"], env: { API_KEY: KEY, DIE_CONTEXT: context } }, onUnmatched: "silent" });
    closers.push(() => mock.close());
    const client = await connect(mock.url);
    const original = process.stderr.write.bind(process.stderr);
    process.stderr.write = ((chunk: string | Uint8Array) => (reports.push(String(chunk)), true)) as typeof process.stderr.write;
    let died: string;
    try {
      died = await client.callTool({ name: "die", arguments: {} }).then((r) => JSON.stringify(r), (e: Error) => e.message);
      await new Promise((resolve) => setTimeout(resolve, 200));
    } finally {
      process.stderr.write = original;
    }
    expect(died).toContain("its last words");
    for (const text of [died, reports.join(""), JSON.stringify(mock.requests())]) for (const fragment of fragments(KEY)) expect(text).not.toContain(fragment);
  });

  it("mcpmock check: a 401 whose body echoes the token across the 1,000 characters quoted shows no part of it", async () => {
    const token = "tok-0123456789-abcdefghij-KLMNOPQRST";
    const http = createServer((req, res) => {
      req.resume();
      res.writeHead(401, { "content-type": "text/plain" }).end(`${"no such client; ".repeat(62).slice(0, 970)} you sent Bearer ${token} and it is not valid here`);
    });
    await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
    closers.push(() => new Promise((resolve) => http.close(resolve)));
    const url = `http://127.0.0.1:${(http.address() as { port: number }).port}/mcp`;
    const out = join(dir, "check-401.json");
    await record({ command: process.execPath, args: [SERVER, "stdio"], out, session: async () => {} });
    const checked = mcpmock(["check", out, "--target", url, "--header", `Authorization: Bearer ${token}`]);
    expect(await checked.exited).toBe(2);
    expect(checked.stderr()).toContain("HTTP 401");
    for (const text of [checked.stdout(), checked.stderr()]) for (const fragment of fragments(token)) expect(text).not.toContain(fragment);
  });
});

describe("a target URL that does not parse", { timeout: 60_000 }, () => {
  // A port out of range: the URL does not parse, its password and query are still in it.
  const target = `http://alice:${KEY}@127.0.0.1:99999/mcp?api_key=${KEY}-q`;

  it("record, check and serve --proxy refuse it (exit 2) naming it without its password or query; check no longer crashes", async () => {
    const definition = join(dir, "empty.json");
    writeFileSync(definition, "{}");
    for (const args of [
      ["record", "--out", join(dir, "never.json"), "--target", target],
      ["check", definition, "--target", target],
      ["serve", "--port", "0", "--proxy", target],
    ]) {
      const run = mcpmock(args);
      expect(await run.exited, args[0]).toBe(2);
      expect(run.stderr()).toContain("takes the real server's URL");
      expect(run.stderr()).toContain("http://127.0.0.1:99999/mcp (shown without its user information or query)");
      expect(run.stderr() + run.stdout()).not.toContain(KEY);
    }
  });

  it("record(), checkDefinition() and McpMock.start({ proxy }) reject it naming it without its password or query", async () => {
    const messages = await Promise.all([
      record({ target, out: join(dir, "never.json") }).then(() => "recorded", (e: Error) => e.message),
      checkDefinition({}, { target }).then(() => "checked", (e: Error) => e.message),
      McpMock.start({ proxy: { target } }).then((mock) => (closers.push(() => mock.close()), "started"), (e: Error) => e.message),
    ]);
    for (const message of messages) {
      expect(message).toContain('received "http://127.0.0.1:99999/mcp"');
      expect(message).not.toContain(KEY);
    }
  });
});
