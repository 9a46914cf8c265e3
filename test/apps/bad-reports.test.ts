/**
 * A probe view that misbehaves (issue 40): floods of reports, 10 MB bodies, garbage JSON, and
 * reports that are not app events leave the mock answering, the events bounded by bytes,
 * and a clear answer (and journal line) saying what was refused.
 */
import { describe, expect, test } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { McpMock, toolsCall } from "../../src/index.js";

const PROBE = "ui://probe/view.html";

describe("bad probe reports", () => {
  test("the direct route refuses 10 MB and garbage, and floods stay bounded by bytes", async () => {
    await using mock = await McpMock.start({ apps: [{ uri: PROBE, probe: true }] });
    const route = `${new URL(mock.url).origin}/__mcpmock/app-events`;
    const post = (body: string): Promise<Response> => fetch(route, { method: "POST", headers: { "content-type": "text/plain" }, body });
    const huge = await post(JSON.stringify({ app: PROBE, instance: "a", events: [{ from: "view", method: "x", params: { blob: "x".repeat(10 * 1024 * 1024) } }] }));
    expect(huge.status).toBe(413);
    const garbage = await post("{not json");
    expect(garbage.status).toBe(400);
    expect(await garbage.json()).toEqual({ error: "a probe report is JSON: { app, instance, events: [...] }" });
    const wrong = await post(JSON.stringify({ app: PROBE, events: [{ from: "nobody" }, "x"] }));
    expect(wrong.status).toBe(400);
    expect((await wrong.json()).problems[0]).toContain('events[0] is not an app event ({ from: "host" | "view", method, ... })');
    // Each refusal is a line of its own in the events (and so in the inspector and on --verbose), with its reason.
    expect(mock.appEvents().map((e) => [e.method, e.app, (e.error as { message: string }).message])).toEqual([
      ["mcpmock/report-refused", "(unread report)", expect.stringMatching(/^a probe report is at most \d+ bytes; a larger one was refused unread$/)],
      ["mcpmock/report-refused", "(unread report)", expect.stringMatching(/^a report that is not JSON \(.+\): "\{not json"$/)],
      ["mcpmock/report-refused", PROBE, expect.stringContaining("a report refused: events[0] is not an app event")],
    ]);
    // A flood: 150 reports of forty 1 KB events each (about 6 MB in all).
    const big = "y".repeat(1000);
    for (let r = 0; r < 150; r++) {
      const events = Array.from({ length: 40 }, (_, i) => ({ seq: r * 40 + i, from: "view", method: "ui/message", params: { text: big }, at: 1 }));
      const answer = await post(JSON.stringify({ app: PROBE, instance: "flood", events }));
      expect(answer.status).toBe(200);
    }
    const events = mock.appEvents();
    const bytes = events.reduce((n, e) => n + JSON.stringify(e).length, 0);
    expect(bytes).toBeLessThanOrEqual(4 * 1024 * 1024);
    expect(events.length).toBeGreaterThan(1000);
    expect(events.at(-1)?.params).toEqual({ text: big });
    // Still answering, and one value over 64 KB is cut, not kept.
    await post(JSON.stringify({ app: PROBE, instance: "b", events: [{ from: "host", method: "ui/notifications/tool-input", params: { text: "z".repeat(100_000) } }] }));
    expect(String(mock.appEvents().at(-1)?.params)).toMatch(/^\[mcpmock: \d+ bytes, cut\]/);
    const client = new Client({ name: "t", version: "1" });
    await client.connect(new StreamableHTTPClientTransport(new URL(mock.url)));
    await expect(client.ping()).resolves.toEqual({});
    await client.close();
  });

  test("a report's app and instance, kept with each of its events, are refused when over-long; a report holds at most 2000 events", async () => {
    await using mock = await McpMock.start({ apps: [{ uri: PROBE, probe: true }] });
    const route = `${new URL(mock.url).origin}/__mcpmock/app-events`;
    const post = (body: object): Promise<Response> => fetch(route, { method: "POST", headers: { "content-type": "text/plain" }, body: JSON.stringify(body) });
    const small = (n: number, from = 0): object[] => Array.from({ length: n }, (_, i) => ({ seq: from + i, from: "host", method: "m" }));
    // Unbounded, 200 KB kept once per event: 2000 such events in one 400 KB report held 400 MB and took seconds.
    const long = "a".repeat(200_000);
    const badApp = await post({ app: long, instance: "x", events: small(50) });
    expect(badApp.status).toBe(400);
    expect((await badApp.json()).problems).toEqual([expect.stringMatching(/^the report's app must be a ui:\/\/ URI of at most 2048 characters, received 200000: "a+…$/)]);
    const badInstance = await post({ app: PROBE, instance: long, events: small(50) });
    expect(badInstance.status).toBe(400);
    expect((await badInstance.json()).problems).toEqual([expect.stringMatching(/^the report's instance must be an id of at most 128 characters, received 200000: "a+…$/)]);
    expect(mock.appEvents().map((e) => [e.method, e.app])).toEqual([
      ["mcpmock/report-refused", "a".repeat(200)],
      ["mcpmock/report-refused", PROBE],
    ]);
    const many = await post({ app: PROBE, instance: "x", events: small(2500) });
    expect(many.status).toBe(200);
    expect(await many.json()).toEqual({ taken: 2000, problems: ["a report holds at most 2000 events; the 500 after the first 2000 were refused (send them in another report)"] });
    expect(mock.appEvents()).toHaveLength(2002);
  });

  test("a broken report through the host is answered as an error the journal shows", async () => {
    await using mock = await McpMock.start({ transport: "none", apps: [{ uri: PROBE, probe: true }] });
    const client = new Client({ name: "host", version: "1" }, { capabilities: { extensions: { "io.modelcontextprotocol/ui": {} } } });
    await client.connect(mock.clientTransport());
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(["mcpmock_probe_report"]);
    const answer = await client.callTool({ name: "mcpmock_probe_report", arguments: { app: PROBE, instance: "v", events: [{ from: "view", method: "ui/message", seq: 0 }, 42] } });
    expect(answer.isError).toBe(true);
    expect(answer.content).toEqual([{ type: "text", text: "[mcpmock] 1 app event(s) taken; the rest refused: events[1] is not an app event ({ from: \"host\" | \"view\", method, ... }): 42" }]);
    expect(mock.findRequests(toolsCall("mcpmock_probe_report"))).toHaveLength(1);
    expect(mock.appEvents()).toEqual([{ from: "view", method: "ui/message", app: PROBE, at: expect.any(Number) }]);
    // The same event reported again (through the other path) counts once.
    await client.callTool({ name: "mcpmock_probe_report", arguments: { app: PROBE, instance: "v", events: [{ from: "view", method: "ui/message", seq: 0 }] } });
    expect(mock.appEvents()).toHaveLength(1);
    mock.reset();
    expect(mock.appEvents()).toEqual([]);
    await client.close();
  });
});

describe("waitForAppEvent's timeout", () => {
  // NaN, a negative number and one past what a timer holds (2^31 - 1 ms) each waited 1 ms
  // (the last with a TimeoutOverflowWarning on stderr): checked as waitFor checks it.
  test.each([[Number.NaN, "NaN"], [-1, "-1"], [3e9, "3000000000"]])("%s is refused with the rule", async (timeout, shown) => {
    const { appEvent } = await import("../../src/index.js");
    await using mock = await McpMock.start({ transport: "none", apps: [{ uri: PROBE, probe: true }] });
    await expect(mock.waitForAppEvent(appEvent("ui/notifications/tool-input"), { timeout })).rejects.toThrow(
      `[mcpmock] waitForAppEvent: timeout is milliseconds, 0 to 2147483647, received ${shown}.`,
    );
  });
});

describe("the vitest matcher", () => {
  test("toHaveAppEvents passes in order and fails with the report", async () => {
    const { installMatchers } = await import("../../src/vitest/index.js");
    const { appEvent } = await import("../../src/index.js");
    installMatchers();
    await using mock = await McpMock.start({ transport: "none", apps: [{ uri: PROBE, probe: true }] });
    const client = new Client({ name: "host", version: "1" }, { capabilities: { extensions: { "io.modelcontextprotocol/ui": {} } } });
    await client.connect(mock.clientTransport());
    const events = [{ seq: 0, from: "host", method: "ui/notifications/tool-input", params: {} }, { seq: 1, from: "host", method: "ui/notifications/tool-result", params: {} }];
    await client.callTool({ name: "mcpmock_probe_report", arguments: { app: PROBE, instance: "v", events } });
    expect(mock).toHaveAppEvents([appEvent("ui/notifications/tool-input", { from: "host" }), appEvent("ui/notifications/tool-result", { from: "host" })]);
    expect(() => expect(mock).toHaveAppEvents([appEvent("ui/notifications/tool-result"), appEvent("ui/notifications/tool-input")])).toThrow(/2\. ui\/notifications\/tool-input: ✗ out of order: it came at #0/);
    await client.close();
  });
});
