/**
 * Clients that misbehave while they are judged, over stdio: the client spawns the scenario's
 * command as any stdio client does, then writes what a broken or hostile client writes. The
 * runner must stay bounded in memory and give a verdict.
 */
import { spawn } from "node:child_process";
import { once } from "node:events";
import { describe, expect, test } from "vitest";
import { runScenario, type ScenarioClientContext } from "../../src/scenarios/index.js";

const MB = 1024 * 1024;

/** Spawns the scenario's stdio server the way a client does; `line` writes one message. */
function spawnServer(context: ScenarioClientContext) {
  const stdio = context.stdio as NonNullable<ScenarioClientContext["stdio"]>;
  const child = spawn(stdio.command, [...stdio.args], { stdio: ["pipe", "pipe", "ignore"] });
  const line = (message: Record<string, unknown>): boolean => child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", ...message })}\n`);
  line({ id: 0, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "misbehaving", version: "1.0.0" } } });
  line({ method: "notifications/initialized" });
  return { child, line };
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
});
