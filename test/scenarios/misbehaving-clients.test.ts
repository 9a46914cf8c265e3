/**
 * Clients that misbehave while they are judged, over stdio: the client spawns the scenario's
 * command as any stdio client does, then writes what a broken or hostile client writes. The
 * runner must stay bounded in memory and give a verdict.
 */
import { spawn } from "node:child_process";
import { request as httpRequest, type IncomingMessage } from "node:http";
import { once } from "node:events";
import { describe, expect, test } from "vitest";
import { runScenario, type ScenarioClientContext } from "../../src/scenarios/index.js";

const MB = 1024 * 1024;

const initialize = (id: number, protocolVersion = "2025-11-25") => ({ id, method: "initialize", params: { protocolVersion, capabilities: {}, clientInfo: { name: "misbehaving", version: "1.0.0" } } });

/** Spawns the scenario's stdio server the way a client does; `line` writes one message. */
function spawnServer(context: ScenarioClientContext, first: Array<Record<string, unknown>> = [initialize(0), { method: "notifications/initialized" }]) {
  const stdio = context.stdio as NonNullable<ScenarioClientContext["stdio"]>;
  const child = spawn(stdio.command, [...stdio.args], { stdio: ["pipe", "pipe", "ignore"] });
  const line = (message: Record<string, unknown>): boolean => child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", ...message })}\n`);
  for (const message of first) line(message);
  return { child, line };
}

/** Resolves with the first line of `child`'s stdout that answers `id`. */
function answerTo(child: ReturnType<typeof spawn>, id: number): Promise<Record<string, unknown>> {
  let text = "";
  return new Promise((done) => {
    child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
      text += chunk;
      for (const line of text.split("\n").slice(0, -1)) {
        const message = JSON.parse(line) as Record<string, unknown>;
        if (message["id"] === id) done(message);
      }
    });
  });
}

const sleep = (ms: number): Promise<void> => new Promise((done) => setTimeout(done, ms));

describe("a stdio client that misbehaves", () => {
  test("one that asks for 8 MB answers and never reads them is held back, as by a pipe, instead of every answer piling up in memory", async () => {
    const CALLS = 40; // 320 MB of answers, were they all made
    let grew = Number.NaN;
    const verdict = await runScenario("hostile/huge-result", { transport: "stdio", timeout: 20_000 }, async (_url, context) => {
      const before = process.memoryUsage().rss;
      const { child, line } = spawnServer(context);
      child.stdout.pause(); // it never reads what the server writes
      for (let id = 1; id <= CALLS; id++) line({ id, method: "tools/call", params: { name: "dump", arguments: {} } });
      line({ id: CALLS + 1, method: "tools/call", params: { name: "healthy", arguments: {} } });
      await sleep(1_500);
      grew = (process.memoryUsage().rss - before) / MB;
      child.kill();
      await once(child, "exit");
    });
    // Held back, its last call never came through: it is judged for what it did.
    expect(verdict.checks).toEqual([expect.objectContaining({ id: "client-survives-huge-result", status: "FAILURE", errorMessage: "the client sent nothing after the 8 MB result: call dump, then healthy" })]);
    expect(grew).toBeLessThan(120);
  });

  test("one that writes a 48 MB line without a newline, where the scenario reads its messages itself, is still answered at once after it", async () => {
    // sep-2322-client-request-state over stdio reads each line the client sends (a message tap).
    let answer: Record<string, unknown> | undefined;
    const verdict = await runScenario("sep-2322-client-request-state", { transport: "stdio", timeout: 15_000 }, async (_url, context) => {
      const { child, line } = spawnServer(context, []);
      const piece = "x".repeat(MB);
      for (let i = 0; i < 48; i++) if (!child.stdin.write(piece)) await once(child.stdin, "drain");
      child.stdin.write("\n");
      line(initialize(1, "2026-07-28"));
      answer = await answerTo(child, 1);
      child.kill();
      await once(child, "exit");
    });
    expect(verdict.clientError).toBeUndefined();
    expect(answer).toMatchObject({ id: 1, result: { serverInfo: { name: "mrtr-mock-server" } } });
  }, 60_000);
});


describe("an HTTP client that misbehaves", () => {
  test("one that streams a body that never ends, where the scenario records the wire, gets the mock's 413 once past its limit, not a wait for ever", async () => {
    // tools_call over HTTP plays behind the wire tap, which records what the client sends.
    let answered: { status: number | undefined; body: string; sent: number } | undefined;
    const verdict = await runScenario("tools_call", { timeout: 10_000 }, async (url) => {
      const piece = Buffer.alloc(MB, "x");
      let sent = 0;
      const request = httpRequest(url, { method: "POST", headers: { "content-type": "application/json", accept: "application/json, text/event-stream" } });
      request.on("error", () => undefined); // the server closes the connection once it has answered
      const answer = once(request, "response").then(async ([response]) => {
        let body = "";
        for await (const chunk of response as IncomingMessage) body += String(chunk);
        answered = { status: (response as IncomingMessage).statusCode, body, sent };
      });
      // A body without end: 1 MB at a time until the server answers (or 64 MB, if it never does).
      while (answered === undefined && sent < 64 * MB) {
        sent += piece.length;
        // once() rejects on an "error" (EPIPE when the server closes after its answer): that ends the
        // wait as the answer does, and the answer is still read.
        if (!request.write(piece)) await Promise.race([once(request, "drain").catch(() => undefined), answer]);
      }
      await answer;
      request.destroy();
    });
    expect(verdict.clientError).toBeUndefined();
    expect(answered?.status).toBe(413);
    expect(JSON.parse(answered?.body ?? "")).toEqual({ jsonrpc: "2.0", error: { code: -32000, message: "Payload Too Large: Request body must not exceed 4194304 bytes" }, id: null });
    expect(answered?.sent).toBeLessThan(16 * MB);
  }, 30_000);
});
