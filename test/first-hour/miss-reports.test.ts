/**
 * Issue 32, item 6: miss reports under a test runner. A miss is reported through
 * `console.warn`, so the runner shows it under the test that made it (vitest labels it
 * "stderr | file > test"), not as raw unlabelled stderr; it is printed once (with
 * `onUnmatched: "error"` the rejection of `close()` carries it, and nothing is printed at call
 * time); and the verification guide gives the handler's signature, `(entry, report) => void`.
 */
import { readFileSync } from "node:fs";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterEach, expect, test, vi } from "vitest";
import { McpMock, type McpMockOptions } from "mcpmock";

afterEach(() => {
  vi.restoreAllMocks();
});

async function missOnce(options: McpMockOptions): Promise<McpMock> {
  const mock = await McpMock.start({ transport: "none", tools: [{ name: "search" }], ...options });
  mock.toolsCall("search").withArgs({ q: "cats" }).respondsWith("cats");
  const client = new Client({ name: "first-hour", version: "1.0.0" });
  await client.connect(mock.clientTransport());
  await client.callTool({ name: "search", arguments: { q: "dogs" } });
  await client.close();
  return mock;
}

function watchOutput(): { warned: string[]; written: string[] } {
  const warned: string[] = [];
  const written: string[] = [];
  vi.spyOn(console, "warn").mockImplementation((...args: unknown[]) => void warned.push(args.map(String).join(" ")));
  const write = process.stderr.write.bind(process.stderr);
  vi.spyOn(process.stderr, "write").mockImplementation(((chunk: string | Uint8Array, ...rest: unknown[]) => {
    written.push(String(chunk));
    return (write as (...a: unknown[]) => boolean)(chunk, ...rest);
  }) as typeof process.stderr.write);
  return { warned, written };
}

test("the default reports a miss once, through console.warn (which a runner labels with the test), not raw stderr", async () => {
  const out = watchOutput();
  const mock = await missOnce({});
  await mock.close();
  expect(out.warned).toHaveLength(1);
  expect(out.warned[0]).toMatch(/^\[mcpmock\] No stub answers tools\/call "search" with arguments \{"q":"dogs"\}\./);
  expect(out.warned[0]).toContain("[stub-1]"); // the closest stub
  expect(out.written.filter((w) => w.includes("No stub answers"))).toEqual([]);
});

test('"error" prints nothing at call time: close() rejects with the report, once', async () => {
  const out = watchOutput();
  const mock = await missOnce({ onUnmatched: "error" });
  expect(out.warned).toEqual([]);
  expect(out.written.filter((w) => w.includes("No stub answers"))).toEqual([]);
  await expect(mock.close()).rejects.toThrow(/1 request\(s\) matched no stub:[\s\S]*args\.q: "cats"/);
});

test("the verification guide gives the onUnmatched handler's signature, and a handler that uses the report", () => {
  const readme = readFileSync(new URL("../../docs/guides/verification.md", import.meta.url), "utf8");
  expect(readme).toContain("(entry: JournalEntry, report: string) => void");
  expect(readme).toMatch(/onUnmatched: \(entry, report\) =>/);
});
