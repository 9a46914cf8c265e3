/**
 * close() leaves nothing behind: no listening socket, no connections, no timers.
 */
import { expect, test } from "vitest";
import { McpMock } from "../../src/index.js";
import { connect, type TestClient } from "../support/clients.js";
import { countOf as count, settle as settleTurns } from "../support/resources.js";

const settle = () => settleTurns(5);

test("start then close leaves no server socket or timer", async () => {
  await settle();
  const servers = count("TCPServerWrap");
  const timers = count("Timeout");
  const mock = await McpMock.start();
  expect(count("TCPServerWrap")).toBe(servers + 1);
  await mock.close();
  await settle();
  expect(count("TCPServerWrap")).toBe(servers);
  expect(count("Timeout")).toBeLessThanOrEqual(timers);
  await mock.close(); // twice is fine
});

test("close() with open GET streams and a delayed answer in flight resolves quickly and drops every connection", async () => {
  await settle();
  const sockets = count("TCPSocketWrap");
  const servers = count("TCPServerWrap");
  const mock = await McpMock.start({ tools: [{ name: "slow" }], keepAliveMs: 50 });
  mock.toolsCall("slow").withDelay(60_000).respondsWith("never");
  const clients: TestClient[] = [];
  for (let i = 0; i < 10; i++) clients.push(await connect(i % 2 ? "v1" : "v2", mock.url));
  const inFlight = clients[0]!.callTool("slow", {}).then(
    () => "answered",
    () => "failed",
  );
  await new Promise((r) => setTimeout(r, 100));
  expect(count("TCPSocketWrap")).toBeGreaterThan(sockets);

  const started = performance.now();
  await mock.close();
  const took = performance.now() - started;
  expect(took).toBeLessThan(1_000);
  expect(await inFlight).toBe("failed");
  await Promise.all(clients.map((c) => c.close()));
  await settle();
  expect(count("TCPServerWrap")).toBe(servers);
  expect(count("TCPSocketWrap")).toBeLessThanOrEqual(sockets);
});
