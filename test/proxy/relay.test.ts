/**
 * Proxy mode relays the traffic a real server starts itself: its requests (roots, elicitation)
 * to the client and the answers back, its notifications (log messages) to the client, the
 * client's notifications (roots list_changed) to it; and close() ends every upstream session
 * and child process.
 */
import { describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ElicitRequestSchema, ListRootsRequestSchema, LoggingMessageNotificationSchema, ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { McpMock } from "../../src/index.js";
import { STDIO_UPSTREAM } from "./everything.js";
import { execFileSync } from "node:child_process";

/** The server-everything processes children of this test process. */
function everythingChildren(): string[] {
  const out = execFileSync("ps", ["-o", "pid=,args=", "--ppid", String(process.pid)], { encoding: "utf8" });
  return out.split("\n").filter((l) => l.includes("server-everything"));
}

async function until(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 100 && !check(); i++) await new Promise((r) => setTimeout(r, 30));
  expect(check(), what).toBe(true);
}

describe("proxy mode relays what the real server starts", () => {
  it("server-to-client requests and notifications both ways reach the right client, and close() leaves no child process", async () => {
    const mock = await McpMock.start({ proxy: STDIO_UPSTREAM });
    const client = new Client({ name: "t", version: "1" }, { capabilities: { roots: { listChanged: true }, elicitation: {} } });
    let rootsAsked = 0;
    const logs: string[] = [];
    client.setRequestHandler(ListRootsRequestSchema, () => (rootsAsked++, { roots: [{ uri: "file:///work/project", name: "project" }] }));
    client.setRequestHandler(ElicitRequestSchema, () => ({ action: "accept", content: { name: "Ada" } }));
    client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void logs.push(String(n.params.data)));
    await client.connect(new StreamableHTTPClientTransport(new URL(mock.url)));
    try {
      const roots = await client.callTool({ name: "get-roots-list", arguments: {} });
      expect(JSON.stringify(roots)).toContain("file:///work/project");
      await until(() => logs.some((l) => l.startsWith("Roots updated: 1")), "the server's log message reached the client");
      const asked = rootsAsked;
      await client.sendRootsListChanged();
      await until(() => rootsAsked > asked, "the client's roots/list_changed reached the server, which asked again");
      const elicited = await client.callTool({ name: "trigger-elicitation-request", arguments: {} });
      expect(JSON.stringify(elicited)).toContain("Ada");
      expect(everythingChildren().length).toBeGreaterThanOrEqual(1);
    } finally {
      await client.close();
      await mock.close();
    }
    await until(() => everythingChildren().length === 0, "every upstream child process ended");
    const methods = mock.requests().map((e) => `${e.kind} ${e.method} ${e.proxied === true ? "proxied" : ""}`.trim());
    expect(methods).toEqual(expect.arrayContaining(["response roots/list", "response elicitation/create", "notification notifications/roots/list_changed", "request tools/call proxied"]));
  }, 30_000);
});

describe("proxy mode passes every method", () => {
  it("completion, logging/setLevel and a method the server does not know, over an in-memory connection too", async () => {
    await using mock = await McpMock.start({ proxy: STDIO_UPSTREAM, transport: "none" });
    const client = new Client({ name: "t", version: "1" });
    await client.connect(mock.clientTransport());
    try {
      const completion = await client.complete({ ref: { type: "ref/prompt", name: "completable-prompt" }, argument: { name: "department", value: "Eng" } });
      expect(completion.completion.values).toEqual(["Engineering"]);
      expect(await client.setLoggingLevel("debug")).toEqual({});
      const { z } = await import("zod");
      const unknown = await client.request({ method: "custom/unknown", params: { x: 1 } } as never, z.looseObject({}) as never).then(
        () => "answered",
        (error: { code?: number; message?: string }) => `${error.code}: ${error.message}`,
      );
      expect(unknown).toMatch(/^-32601: MCP error -32601: Method not found/);
    } finally {
      await client.close();
    }
    expect(mock.requests().filter((e) => e.proxied).map((e) => e.method)).toEqual(expect.arrayContaining(["completion/complete", "logging/setLevel", "custom/unknown"]));
    expect(mock.unmatched()).toEqual([]);
  }, 30_000);
});

describe("one upstream session per client session", () => {
  it("two clients get two upstream processes, each keeps its own, and ending a session ends its process", async () => {
    await using mock = await McpMock.start({ proxy: { command: process.execPath, args: ["test/fixtures/dying-server.mjs"] } });
    const pidOf = async (client: Client): Promise<number> => Number(/alive (\d+)/.exec(JSON.stringify(await client.callTool({ name: "alive", arguments: {} })))?.[1]);
    const a = new Client({ name: "a", version: "1" });
    const b = new Client({ name: "b", version: "1" });
    const transportA = new StreamableHTTPClientTransport(new URL(mock.url));
    await a.connect(transportA);
    await b.connect(new StreamableHTTPClientTransport(new URL(mock.url)));
    try {
      const [pa, pb] = [await pidOf(a), await pidOf(b)];
      expect(pa).not.toBe(pb);
      expect(await pidOf(a)).toBe(pa);
      expect(await pidOf(b)).toBe(pb);
      await transportA.terminateSession(); // DELETE: the client session ends, and its upstream session with it
      const alive = (pid: number): boolean => {
        try {
          process.kill(pid, 0);
          return true;
        } catch {
          return false;
        }
      };
      await until(() => !alive(pa), "the ended session's upstream process exited");
      expect(alive(pb)).toBe(true);
    } finally {
      await a.close();
      await b.close();
    }
  }, 30_000);
});

describe("the upstream's list_changed", () => {
  it("reaches the client's stream", async () => {
    await using mock = await McpMock.start({ proxy: { command: process.execPath, args: ["test/fixtures/dying-server.mjs"] } });
    const client = new Client({ name: "t", version: "1" });
    let changed = 0;
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => void changed++);
    await client.connect(new StreamableHTTPClientTransport(new URL(mock.url)));
    try {
      await until(() => mock.sessions()[0]?.streamOpen === true, "the client's GET stream is open");
      await client.callTool({ name: "announce", arguments: {} });
      await until(() => changed === 1, "notifications/tools/list_changed reached the client");
    } finally {
      await client.close();
    }
  }, 30_000);
});
