/**
 * Issue 21, item 1: `times` with `then` (or `.times(n)` with `.andThen`). `times` counts every
 * call a stub answers, its first answer's and the later ones', the same in every front end; a
 * later answer past that count would never be given, so it is refused where it is written,
 * with the fix. The definition guide's example does what its start-up listing says.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { z } from "zod";
import { afterAll, describe, expect, test } from "vitest";
import { McpMock, McpMockError, type MockDefinition } from "../../src/index.js";
import { runCli, startCli } from "../support/cli-run.js";

const readme = readFileSync(new URL("../../docs/guides/definitions-and-cli.md", import.meta.url), "utf8");
/** The definition guide's first definition example (docs/guides/definitions-and-cli.md, "The format"). */
const readmeDefinition = JSON.parse(/```json\n(\{\n {2}"\$schema"[\s\S]*?)```/.exec(readme)?.[1] as string) as MockDefinition;

const dir = mkdtempSync(join(tmpdir(), "mcpmock-times-then-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function connect(url: string): Promise<Client> {
  const client = new Client({ name: "times-then", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client;
}

/** A custom request's answer, or the JSON-RPC error it got. */
async function ask(client: Client, method: string): Promise<unknown> {
  try {
    return await client.request({ method } as never, z.looseObject({}) as never);
  } catch (error) {
    const e = error as { code?: number; message?: string };
    return { code: e.code, message: e.message };
  }
}

describe("the definition guide's example", () => {
  test("custom/ping answers once with its result, then with the then error every time after", async () => {
    await using mock = await McpMock.fromDefinition(readmeDefinition, { onUnmatched: "silent" });
    const ping = mock.stubs().find((s) => s.sentence.startsWith("custom/ping"));
    expect(ping?.sentence).toBe('custom/ping → result {"ok":true}, then error -32603 "once only" (seen 0)');
    const client = await connect(mock.url);
    const answers = [await ask(client, "custom/ping"), await ask(client, "custom/ping"), await ask(client, "custom/ping")];
    expect(answers).toEqual([{ ok: true }, { code: -32603, message: "MCP error -32603: once only" }, { code: -32603, message: "MCP error -32603: once only" }]);
    await client.close();
  });

  test("mcpmock serve lists it the same way, and answers it so", async () => {
    const file = join(dir, "readme.mock.json");
    writeFileSync(file, JSON.stringify(readmeDefinition));
    const serve = startCli(["serve", file, "--port", "0"]);
    try {
      const listing = await serve.waitFor("stdout", (out) => out.includes("custom/ping"));
      expect(listing).toContain('custom/ping → result {"ok":true}, then error -32603 "once only" (seen 0)');
      const url = /at (http:\/\/\S+\/mcp)/.exec(listing)?.[1] as string;
      const client = await connect(url);
      expect(await ask(client, "custom/ping")).toEqual({ ok: true });
      expect(await ask(client, "custom/ping")).toEqual({ code: -32603, message: "MCP error -32603: once only" });
      await client.close();
    } finally {
      serve.kill();
      await serve.exited;
    }
  });
});

describe("times counts every answer's calls", () => {
  test('"times": 3 with one then answer: a, b, b, then the stub is spent and the call falls through', async () => {
    await using mock = await McpMock.fromDefinition(
      { responses: [{ method: "custom/flaky", result: { n: 1 }, times: 3, then: [{ result: { n: 2 } }] }] },
      { onUnmatched: "silent" },
    );
    expect(mock.stubs().find((s) => s.sentence.startsWith("custom/flaky"))?.sentence).toBe('custom/flaky → result {"n":1}, then result {"n":2}, 3 calls in all (seen 0)');
    const client = await connect(mock.url);
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push(await ask(client, "custom/flaky"));
    expect(answers).toEqual([{ n: 1 }, { n: 2 }, { n: 2 }, { code: -32601, message: "MCP error -32601: Method not found" }]);
    await client.close();
  });

  test("the DSL says the same: .times(3) with andThen", async () => {
    await using mock = await McpMock.start({ onUnmatched: "silent" });
    mock.method("custom/flaky").times(3).respondsWith({ n: 1 }).andThen({ n: 2 });
    const client = await connect(mock.url);
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push(await ask(client, "custom/flaky"));
    expect(answers).toEqual([{ n: 1 }, { n: 2 }, { n: 2 }, { code: -32601, message: "MCP error -32601: Method not found" }]);
    await client.close();
  });
});

const neverGiven = { responses: [{ method: "custom/ping", result: { ok: true }, times: 1, then: [{ error: { code: -32603, message: "once only" } }] }] };

describe("a later answer that would never be given is refused where it is written", () => {
  test("mcpmock validate: exit 1 with the path and the fix", async () => {
    const file = join(dir, "never.mock.json");
    writeFileSync(file, JSON.stringify(neverGiven));
    const r = await runCli(["validate", file]);
    expect(r.code).toBe(1);
    await expect(r.stderr.replace(file, "never.mock.json")).toMatchFileSnapshot("../fixtures/definition-times-then.txt");
  });

  test("McpMock.fromDefinition refuses it the same way", async () => {
    await expect(McpMock.fromDefinition(neverGiven, { transport: "none" })).rejects.toThrow(
      'responses[0].then[0]: this answer would never be given: "times": 1 lets the entry answer 1 call in all',
    );
  });

  test("prompt responses too", async () => {
    const error = await McpMock.fromDefinition(
      { prompts: [{ name: "greet", responses: [{ messages: "Hi", times: 2, then: [{ result: "Hello" }, { result: "Hey" }] }] }] },
      { transport: "none" },
    ).catch((e: unknown) => e);
    expect((error as Error).message).toContain('prompts[0].responses[0].then[1]: this answer would never be given: "times": 2 lets the entry answer 2 calls in all, and the answers before it take them.');
    expect((error as Error).message).toContain('or make "times" 3 or more to stop after them.');
  });

  test("the admin API: 400 with the same message", async () => {
    await using mock = await McpMock.start({ admin: true });
    const response = await fetch(mock.url.replace(/\/mcp$/, "/__admin/stubs"), {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(neverGiven),
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: string }).error).toContain('the admin request: responses[0].then[0]: this answer would never be given: "times": 1');
  });

  test("the DSL: .once() (or .times(n)) then andThen past n throws at the andThen, in DSL terms", async () => {
    await using mock = await McpMock.start({ transport: "none" });
    const chain = mock.method("custom/ping").once().respondsWith({ ok: true });
    expect(() => chain.andThen({ again: true })).toThrow(McpMockError);
    expect(() => chain.andThen({ again: true })).toThrow(
      "[mcpmock] .andThen(...) would never answer: .times(1) lets this stub answer 1 call in all, and the answers before it take it. " +
        "Drop .times(1) (or .once()) to answer the first call with respondsWith(...) and every later call with the andThen answers (the last one repeats), or use .times(2) or more to stop after them.",
    );
    const twice = mock.method("custom/two").times(2).respondsWith({ n: 1 }).andThen({ n: 2 });
    expect(() => twice.andThen({ n: 3 })).toThrow(".times(2) lets this stub answer 2 calls in all");
  });
});
