/**
 * Upstream credentials, end to end: record (code and CLI, stdio and HTTP), check and proxy mode
 * (code and CLI) given `headers` / `env` / a URL's `user:password`, driven by real clients
 * against real servers in child processes. The server gets what it needs; a client of proxy mode
 * gets the upstream's answers as they were sent; and no secret reaches a written file, the
 * journal, a snapshot, the admin API, the live feed, verbose output, stdout, stderr or an error
 * message: every one of them is gathered and searched for every secret.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { McpMock } from "../../src/index.js";
import { checkDefinition, record } from "../../src/recording/index.js";
import type { MockDefinition } from "../../src/definition/format.js";
import { CLI, mcpmock, stop } from "../support/recording.js";
import { EVERYTHING } from "../proxy/everything.js";
// @ts-expect-error a JavaScript fixture
import { serveHttp } from "./secret-server.mjs";

const SERVER = fileURLToPath(new URL("./secret-server.mjs", import.meta.url));

/** Every secret of these tests; none may appear in anything gathered in `shown` or written to `dir`. */
const KEY = "sk-live-credential-0001";
const KEY2 = "hdr-key-credential-0002";
const SHELL_TOKEN = "shell-token-credential-0003";
const PASSWORD = "pw-credential-0004";
const BEARER = "bearer-credential-0005";
const BASIC = Buffer.from(`alice:${PASSWORD}`).toString("base64");
const SECRETS = [KEY, KEY2, SHELL_TOKEN, PASSWORD, BEARER, BASIC];

const dir = mkdtempSync(join(tmpdir(), "mcpmock-credentials-"));
/** What the mock showed: messages, stderr, stdout, journal, snapshots, admin answers, the feed. */
const shown: string[] = [];
const closers: Array<() => Promise<unknown>> = [];

afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

/** Gathers what the mock writes on this process's stderr (verbose lines, reports) while `run` runs, instead of printing it. */
async function capturingStderr<T>(run: () => Promise<T>): Promise<{ value: T; stderr: string }> {
  const original = process.stderr.write.bind(process.stderr);
  let text = "";
  process.stderr.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
    text += typeof chunk === "string" ? chunk : Buffer.from(chunk).toString("utf8");
    // Kept, not printed (a passing run is quiet); a callback is still called.
    const done = rest.find((r) => typeof r === "function") as (() => void) | undefined;
    done?.();
    return true;
  }) as typeof process.stderr.write;
  try {
    const value = await run();
    return { value, stderr: text };
  } finally {
    process.stderr.write = original;
    shown.push(text);
  }
}

async function connect(url: string): Promise<Client> {
  const client = new Client({ name: "credentials-test", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  closers.push(() => client.close());
  return client;
}

function text(result: unknown): string {
  return ((result as { content: Array<{ text: string }> }).content[0]?.text ?? "");
}

/** Reads the live feed into a string until `stop()`. */
function liveFeed(url: string): { stop: () => Promise<string> } {
  const abort = new AbortController();
  let received = "";
  const reading = (async () => {
    const response = await fetch(url, { signal: abort.signal });
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      received += value;
    }
  })().catch(() => {});
  return {
    stop: async () => {
      await new Promise((r) => setTimeout(r, 200));
      abort.abort();
      await reading;
      return received;
    },
  };
}

beforeAll(() => {
  // A token in the recording process's own environment (as in a user's shell).
  process.env["MCPMOCK_CREDS_SHELL_TOKEN"] = SHELL_TOKEN;
});

afterAll(() => {
  delete process.env["MCPMOCK_CREDS_SHELL_TOKEN"];
});

describe("record and check a stdio server with env", () => {
  it("record(): server-everything's get-env shows neither the recorder's own environment nor an env secret; a plain value stays", async () => {
    const out = join(dir, "everything.json");
    let echoed = "";
    const { value: result } = await capturingStderr(() =>
      record({
        command: process.execPath,
        args: [EVERYTHING, "stdio"],
        env: { API_KEY: KEY, DEBUG_FLAG: "true", X_TENANT: "acme" },
        out,
        session: async (client) => {
          echoed = text(await client.callTool({ name: "get-env", arguments: {} }));
        },
      }),
    );
    // The server got the SDK's default environment plus env, not the recorder's whole one.
    expect(echoed).toContain(KEY);
    expect(echoed).not.toContain(SHELL_TOKEN);
    expect(echoed).toContain(`"PATH"`);
    const file = readFileSync(out, "utf8");
    expect(file).not.toContain(KEY);
    expect(file).toContain('\\"API_KEY\\": \\"[redacted]\\"');
    expect(file).toContain('\\"DEBUG_FLAG\\": \\"true\\"');
    expect(file).toContain('\\"X_TENANT\\": \\"acme\\"');
    expect(result.exchanges).toBeGreaterThan(1);
  });

  it("check agrees with a fresh stdio recording of a server that reads its environment (the same environment in both), and a different secret is still a secret", async () => {
    const out = join(dir, "secret-server.json");
    const args = [SERVER, "stdio"];
    const env = { API_KEY: KEY, DEBUG_FLAG: "on-for-test" };
    await capturingStderr(() => record({ command: process.execPath, args, env, out, session: async (c) => void (await c.callTool({ name: "get-env", arguments: {} }), await c.callTool({ name: "flag", arguments: {} })) }));
    const recorded = JSON.parse(readFileSync(out, "utf8")) as MockDefinition;
    expect(recorded.responses?.find((r) => r.tool === "flag")?.result).toMatchObject({ structuredContent: { flag: true, debug: "on-for-test" } });
    const report = await checkDefinition(out, { command: process.execPath, args, env });
    shown.push(report.lines.join("\n"), JSON.stringify(report.differences));
    expect(report.lines.join("\n")).toMatch(/agree/);
    expect(report.ok).toBe(true);
    // Without the key the server answers otherwise: the difference is reported, and shows no secret.
    const without = await checkDefinition(out, { command: process.execPath, args, env: { DEBUG_FLAG: "on-for-test" } });
    shown.push(without.lines.join("\n"));
    expect(without.ok).toBe(false);
  });

  it("mcpmock record -- <command>: --env NAME=value and --env NAME (passed on), the server's stderr redacted, the file clean", async () => {
    const out = join(dir, "cli-stdio.json");
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI, "record", "--out", out, "--env", `API_KEY=${KEY}`, "--env", "PASSED_ON", "--", process.execPath, SERVER, "stdio"],
      env: { ...(process.env as Record<string, string>), PASSED_ON: "passed-on-value" },
      stderr: "pipe",
    });
    let stderr = "";
    transport.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
    const client = new Client({ name: "credentials-test", version: "1.0.0" });
    await client.connect(transport);
    const echoed = text(await client.callTool({ name: "get-env", arguments: {} }));
    // The client gets the server's answer as it was sent; the server got env and not the shell's token.
    expect(echoed).toContain(KEY);
    expect(echoed).toContain("passed-on-value");
    expect(echoed).not.toContain(SHELL_TOKEN);
    // The server dies with its key on stderr: the recorder passes its last words on, redacted.
    await client.callTool({ name: "die", arguments: {} }).catch(() => {});
    await client.close();
    await new Promise((r) => setTimeout(r, 300));
    shown.push(stderr);
    expect(stderr).toContain("panic: the secret is [redacted]");
    const file = readFileSync(out, "utf8");
    expect(file).toContain('\\"API_KEY\\":\\"[redacted]\\"');
    expect(file).toContain("passed-on-value");
  });
});

describe("proxy mode", () => {
  it("a stdio upstream with env: the client gets the answers as sent (a boolean stays a boolean); the journal, snapshot, admin API, live feed, verbose output and last words show no secret", async () => {
    const { value: mock, stderr } = await capturingStderr(async () => {
      const mock = await McpMock.start({ proxy: { command: process.execPath, args: [SERVER, "stdio"], env: { API_KEY: KEY, DEBUG_FLAG: "true" } }, admin: true, verbose: true });
      closers.push(() => mock.close());
      const feed = liveFeed(new URL("/__admin/events", mock.url).href);
      const client = await connect(mock.url);
      const echoed = text(await client.callTool({ name: "get-env", arguments: {} }));
      expect(JSON.parse(echoed)).toMatchObject({ API_KEY: KEY, DEBUG_FLAG: "true" });
      expect(echoed).not.toContain(SHELL_TOKEN);
      const flag = await client.callTool({ name: "flag", arguments: {} });
      expect(flag.structuredContent).toEqual({ flag: true, debug: "true" });
      // The upstream dies with its key on stderr: the client's error and the mock's report say so, redacted.
      const died = await client.callTool({ name: "die", arguments: {} }).then((r) => JSON.stringify(r), (e: Error) => e.message);
      shown.push(died);
      expect(died).not.toContain(KEY);
      shown.push(await feed.stop());
      shown.push(JSON.stringify(mock.requests()), JSON.stringify(mock.snapshot()));
      for (const route of ["/__admin/requests", "/__admin/sessions"]) shown.push(await (await fetch(new URL(route, mock.url))).text());
      shown.push(await (await fetch(new URL("/__admin/recordings/snapshot", mock.url), { method: "POST" })).text());
      return mock;
    });
    expect(stderr).toContain("tools/call");
    expect(stderr).toContain("[redacted]");
    expect(JSON.stringify(mock.requests())).toContain("[redacted]");
    expect(JSON.stringify(mock.snapshot())).toContain('\\"DEBUG_FLAG\\":\\"true\\"');
  });

  it("an HTTP upstream with user:password and headers: the server gets Basic and the headers, the client its answers and errors as sent, the mock shows neither", async () => {
    const real = await serveHttp();
    closers.push(real.close);
    const target = real.url.replace("http://", `http://alice:${PASSWORD}@`);
    const { value: mock } = await capturingStderr(async () => {
      const mock = await McpMock.start({ proxy: { target, headers: { "x-api-key": KEY2, "x-tenant": "acme" } }, admin: true, verbose: true });
      closers.push(() => mock.close());
      const client = await connect(mock.url);
      const who = text(await client.callTool({ name: "whoami", arguments: {} }));
      expect(who).toBe(`authorization=Basic ${BASIC} x-api-key=${KEY2} x-tenant=acme`);
      // (McpServer answers a thrown error as an isError result.)
      const denied = await client.callTool({ name: "deny", arguments: {} }).then((r) => JSON.stringify(r), (e: Error) => e.message);
      expect(denied).toContain(`refused: Basic ${BASIC}`);
      shown.push(JSON.stringify(mock.requests()), JSON.stringify(mock.snapshot()), await (await fetch(new URL("/__admin/requests", mock.url))).text());
      return mock;
    });
    const journal = JSON.stringify(mock.requests());
    expect(journal).toContain("x-tenant=acme");
    expect(journal).toContain("authorization=[redacted]");
  });

  it("an upstream that is down: the warning and the client's error name it without its user information", async () => {
    const { stderr } = await capturingStderr(async () => {
      const mock = await McpMock.start({ proxy: { target: `http://alice:${PASSWORD}@127.0.0.1:9/mcp`, headers: { authorization: `Bearer ${BEARER}` } }, clientTimeoutMs: 2_000 });
      closers.push(() => mock.close());
      const client = await connect(mock.url);
      const failed = await client.callTool({ name: "whoami", arguments: {} }).then((r) => JSON.stringify(r), (e: Error) => e.message);
      shown.push(failed);
      expect(failed).toContain("http://127.0.0.1:9/mcp");
    });
    expect(stderr).toContain("http://127.0.0.1:9/mcp");
  });
});

describe("record and check an HTTP server with headers", () => {
  it("record() with a bearer header and a URL's user:password; check with and without the header", async () => {
    const real = await serveHttp({ required: `Bearer ${BEARER}` });
    closers.push(real.close);
    const out = join(dir, "http.json");
    const target = real.url.replace("http://", `http://alice:${PASSWORD}@`);
    const headers = { authorization: `Bearer ${BEARER}`, "x-api-key": KEY2, "x-tenant": "acme" };
    let who = "";
    await capturingStderr(() => record({ target, headers, out, session: async (c) => void (who = text(await c.callTool({ name: "whoami", arguments: {} }))) }));
    // A given Authorization wins over the URL's user information.
    expect(who).toBe(`authorization=Bearer ${BEARER} x-api-key=${KEY2} x-tenant=acme`);
    const file = readFileSync(out, "utf8");
    expect(file).toContain("authorization=[redacted] x-api-key=[redacted] x-tenant=acme");
    const report = await checkDefinition(out, { target, headers });
    shown.push(report.lines.join("\n"));
    expect(report.ok).toBe(true);
    const refused = await checkDefinition(out, { target }).then((r) => r.lines.join("\n"), (e: Error) => e.message);
    shown.push(refused);
    expect(refused).toMatch(/401/);
    expect(refused).toContain("http://127.0.0.1");
  });

  it("the CLI: record --target with user:password and --header, check --header, serve --proxy --header --verbose", async () => {
    const real = await serveHttp({ required: `Bearer ${BEARER}` });
    closers.push(real.close);
    const out = join(dir, "cli-http.json");
    const target = real.url.replace("http://", `http://alice:${PASSWORD}@`);
    const recorder = mcpmock(["record", "--out", out, "--target", target, "--header", `Authorization: Bearer ${BEARER}`, "--header", `X-Api-Key: ${KEY2}`]);
    closers.push(() => stop(recorder));
    const [, url] = await recorder.line(/ at (http:\/\/127\.0\.0\.1:\d+\/mcp) /);
    const client = await connect(url!);
    expect(text(await client.callTool({ name: "whoami", arguments: {} }))).toBe(`authorization=Bearer ${BEARER} x-api-key=${KEY2} x-tenant=-`);
    await client.close();
    expect(await stop(recorder, "SIGTERM")).toBe(0);
    shown.push(recorder.stdout(), recorder.stderr());
    expect(recorder.stdout()).toContain(`mcpmock recording ${real.url} at`);

    const checked = mcpmock(["check", out, "--target", target, "--header", `Authorization: Bearer ${BEARER}`, "--header", `X-Api-Key: ${KEY2}`]);
    expect(await checked.exited).toBe(0);
    const refused = mcpmock(["check", out, "--target", target]);
    expect(await refused.exited).toBe(2);
    shown.push(checked.stdout(), checked.stderr(), refused.stdout(), refused.stderr());
    expect(refused.stderr()).toContain(`could not check against ${real.url}`);

    const served = mcpmock(["serve", "--port", "0", "--verbose", "--proxy", target, "--header", `Authorization: Bearer ${BEARER}`]);
    closers.push(() => stop(served));
    const [, mockUrl] = await served.line(/at (http:\/\/127\.0\.0\.1:\d+\/mcp)/);
    const proxied = await connect(mockUrl!);
    expect(text(await proxied.callTool({ name: "whoami", arguments: {} }))).toBe(`authorization=Bearer ${BEARER} x-api-key=- x-tenant=-`);
    await proxied.close();
    await served.line(/whoami/);
    await stop(served);
    shown.push(served.stdout(), served.stderr());
    expect(served.stderr()).toContain("authorization=[redacted]");
  }, 60_000);

  it("a malformed --header or --env is a usage error (exit 2) that shows the form and not the value", async () => {
    for (const args of [
      ["record", "--out", join(dir, "x.json"), "--header", `Bearer ${BEARER}`, "--target", "http://127.0.0.1:9/mcp"],
      ["check", join(dir, "http.json"), "--env", `API_KEY=${KEY}`, "--target", "http://127.0.0.1:9/mcp"],
      ["serve", "--proxy", "http://127.0.0.1:9/mcp", "--env", `API_KEY=${KEY}`],
    ]) {
      const run = mcpmock(args);
      expect(await run.exited).toBe(2);
      shown.push(run.stdout(), run.stderr());
      expect(run.stderr()).toMatch(/--header|--env/);
    }
  });
});

describe("nothing written or shown holds a secret", () => {
  it("every file written and every output gathered above", () => {
    const written = readdirSync(dir).map((name) => readFileSync(join(dir, name), "utf8"));
    expect(written.length).toBeGreaterThanOrEqual(4);
    expect(shown.length).toBeGreaterThan(20);
    for (const output of [...written, ...shown]) for (const secret of SECRETS) expect(output.includes(secret), `${secret} in ${output.slice(0, 300)}`).toBe(false);
  });
});
