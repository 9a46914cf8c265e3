import { afterEach, describe, expect, it } from "vitest";
import { McpMock } from "../../src/mock.js";
import { Recording } from "../../src/recording/exchanges.js";
import { startHttpProxy } from "../../src/recording/http-proxy.js";
import { toDefinition } from "../../src/recording/definition-writer.js";
import { assertMockDefinition } from "../../src/definition/validate.js";
import { http, transcript, type Step } from "../support/recording.js";
// @ts-expect-error a JavaScript fixture
import { serveHttp } from "../fixtures/real-server.mjs";

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

const SESSION: Step[] = [
  (c) => c.listTools(),
  (c) => c.listResources(),
  (c) => c.listResourceTemplates(),
  (c) => c.listPrompts(),
  (c) => c.callTool({ name: "add", arguments: { a: 1, b: 2 } }),
  (c) => c.callTool({ name: "add", arguments: { a: "one", b: 2 } }),
  (c) => c.callTool({ name: "count" }),
  (c) => c.callTool({ name: "count" }),
  (c) => c.callTool({ name: "count" }),
  async (c) => {
    const progress: unknown[] = [];
    const result = await c.callTool({ name: "slow", arguments: { steps: 3 } }, undefined, { onprogress: (p) => void progress.push(p) });
    return { result, progress };
  },
  (c) => c.callTool({ name: "boom" }),
  (c) => c.callTool({ name: "nope" }),
  (c) => c.readResource({ uri: "test://hello" }),
  (c) => c.readResource({ uri: "test://items/7" }),
  (c) => c.getPrompt({ name: "greet", arguments: { name: "Ada" } }),
];

describe("record over Streamable HTTP", () => {
  it("replays the same transcript", async () => {
    const real = await serveHttp();
    closers.push(real.close);
    const recording = new Recording();
    const proxy = await startHttpProxy({ target: real.url, recording });
    closers.push(proxy.close);
    const recorded = await transcript(http(proxy.url), SESSION);
    const definition = toDefinition(recording.exchanges, { secrets: recording.secrets });
    console.log(JSON.stringify(definition, null, 1));
    assertMockDefinition(definition);
    const mock = await McpMock.fromDefinition(definition, { onUnmatched: "silent" });
    closers.push(() => mock.close());
    const replayed = await transcript(http(mock.url), SESSION);
    expect(replayed).toEqual(recorded);
  });
});
