/**
 * `mcpmock record --target`: a client talks to a real Streamable HTTP server through the
 * recording proxy; the file it writes replays the same transcript (through `mcpmock serve`
 * and through McpMock.fromDefinition), holds no credential, and records streams, sequences
 * and errors as the definition format writes them.
 */
import { afterEach, describe, expect, it } from "vitest";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { McpMock } from "../../src/mock.js";
import type { MockDefinition } from "../../src/definition/format.js";
import { http, mcpmock, stop, transcript, type Spawned } from "../support/recording.js";
import { FIXTURE_SESSION } from "./sessions.js";
// @ts-expect-error a JavaScript fixture
import { serveHttp } from "../fixtures/real-server.mjs";

const closers: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

const TOKEN = "tok-5f0e1c2b-very-secret";

async function recordThroughCli(out: string, extra: string[] = []): Promise<{ recorded: unknown[]; real: { headers: Array<Record<string, string>> } }> {
  const real = await serveHttp();
  closers.push(real.close);
  const recorder: Spawned = mcpmock(["record", "--out", out, "--target", real.url, ...extra]);
  closers.push(() => stop(recorder));
  const [, url] = await recorder.line(/ at (http:\/\/127\.0\.0\.1:\d+\/mcp) /);
  const recorded = await transcript(http(url!, { authorization: `Bearer ${TOKEN}`, cookie: `sid=${TOKEN}-cookie` }), FIXTURE_SESSION, { elicit: true });
  expect(await stop(recorder, "SIGINT")).toBe(0);
  return { recorded, real };
}

describe("mcpmock record --target (Streamable HTTP)", () => {
  it("records a session that mcpmock serve and McpMock.fromDefinition replay identically", async () => {
    const out = join(mkdtempSync(join(tmpdir(), "mcpmock-record-")), "recorded.json");
    const { recorded, real } = await recordThroughCli(out);
    // The real server saw the client's headers and session id, relayed unchanged.
    expect(real.headers.some((h) => h["authorization"] === `Bearer ${TOKEN}`)).toBe(true);
    expect(real.headers.some((h) => typeof h["mcp-session-id"] === "string")).toBe(true);
    const validated = mcpmock(["validate", out]);
    expect(await validated.exited, validated.stderr()).toBe(0);

    const served = mcpmock(["serve", out, "--no-admin"]);
    closers.push(() => stop(served));
    const [, url] = await served.line(/at (http:\/\/127\.0\.0\.1:\d+\/mcp)/);
    expect(await transcript(http(url!), FIXTURE_SESSION, { elicit: true })).toEqual(recorded);

    const mock = await McpMock.fromDefinition(out, { onUnmatched: "silent" });
    closers.push(() => mock.close());
    expect(await transcript(http(mock.url), FIXTURE_SESSION, { elicit: true })).toEqual(recorded);
  });

  it("writes the file as a user would: declarations, identity, exact args, sequences, streams and errors", async () => {
    const out = join(mkdtempSync(join(tmpdir(), "mcpmock-record-")), "recorded.json");
    await recordThroughCli(out);
    const text = readFileSync(out, "utf8");
    expect(text).not.toContain(TOKEN);
    const def = JSON.parse(text) as MockDefinition;
    expect(def.server).toEqual({ name: "fixture-real", version: "3.1.4", title: "A real server", instructions: "Use add to add numbers." });
    expect(def.tools?.map((t) => t.name)).toEqual(["add", "count", "stamp", "boom", "secret", "slow", "ask"]);
    expect(def.resources?.map((r) => ("uri" in r ? r.uri : r.uriTemplate))).toEqual(["test://hello", "test://items/{id}"]);
    expect(def.prompts?.map((p) => p.name)).toEqual(["greet"]);
    const responses = def.responses ?? [];
    expect(responses.find((r) => r.method === "initialize")?.result).toEqual({ capabilities: expect.objectContaining({ logging: {}, tools: expect.anything() }) });
    expect(responses.find((r) => r.tool === "add" && (r.args as { a: unknown }).a === 1)?.result).toEqual({ content: [{ type: "text", text: "3" }], structuredContent: { sum: 3 } });
    const count = responses.find((r) => r.tool === "count");
    expect([count?.result, ...(count?.then ?? []).map((t) => t.result)]).toEqual([1, 2, 3, 4].map((n) => ({ content: [{ type: "text", text: `call ${n}` }] })));
    const slow = responses.find((r) => r.tool === "slow");
    expect(slow?.stream?.filter((s) => !("delay" in s))).toEqual([
      { progress: 1, total: 3, message: "step 1" },
      { progress: 2, total: 3, message: "step 2" },
      { progress: 3, total: 3, message: "step 3" },
      { log: "info", data: "done", logger: "slow" },
    ]);
    expect(responses.find((r) => r.tool === "ask")).toMatchObject({
      stream: [{ request: "elicitation/create", params: { message: "Name?" } }, { delay: expect.any(Number) }],
      result: { content: [{ type: "text", text: 'Hello, Ada (asked "Name?")' }] },
    });
    const missing = responses.find((r) => r.method === "resources/read" && r.params?.["uri"] === "test://missing");
    expect(missing?.error).toEqual({ code: -32602, message: expect.stringContaining("test://missing") });
    expect(missing?.result).toBeUndefined();
    expect(responses.find((r) => r.method === "custom/unknown")).toEqual({ method: "custom/unknown", params: { x: 1 }, error: { code: -32601, message: "Method not found" } });
  });
});
