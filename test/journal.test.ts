/**
 * The journal's ring: the last `cap` entries in arrival order across many laps, the total
 * exact; and over HTTP, each entry keeps the headers its own request carried (the request's
 * own header object is kept, never one shared with another request).
 */
import http from "node:http";
import { describe, expect, test } from "vitest";
import { ANY, McpMock } from "../src/index.js";
import type { McpCall } from "../src/stubs/call.js";
import { Journal } from "../src/journal/journal.js";
import { openSession } from "./support/raw-http.js";

function record(journal: Journal, n: number): void {
  journal.record({ kind: "notification", method: `m${n}`, id: undefined, params: undefined, sessionId: undefined, headers: {}, protocolVersion: "2025-11-25", transport: "stdio", call: undefined as McpCall | undefined });
}

describe("Journal", () => {
  test("keeps the last cap entries, oldest first, through several laps of the ring", () => {
    const journal = new Journal(3);
    for (let n = 1; n <= 2; n++) record(journal, n);
    expect(journal.entries().map((e) => e.method)).toEqual(["m1", "m2"]);
    for (let n = 3; n <= 11; n++) {
      record(journal, n);
      expect(journal.entries().map((e) => e.method)).toEqual([n - 2, n - 1, n].filter((k) => k >= 1).map((k) => `m${k}`));
    }
    expect(journal.total).toBe(11);
    expect(journal.entries().map((e) => e.seq)).toEqual([9, 10, 11]);
  });

  test("clear() empties it, keeps the total, and it fills again in order", () => {
    const journal = new Journal(2);
    for (let n = 1; n <= 5; n++) record(journal, n);
    journal.clear();
    expect(journal.entries()).toEqual([]);
    for (let n = 6; n <= 8; n++) record(journal, n);
    expect(journal.entries().map((e) => e.method)).toEqual(["m7", "m8"]);
    expect(journal.total).toBe(8);
  });

  test("a cap of 0 keeps nothing and still counts", () => {
    const journal = new Journal(0);
    for (let n = 1; n <= 3; n++) record(journal, n);
    expect(journal.entries()).toEqual([]);
    expect(journal.total).toBe(3);
  });
});

function post(url: URL, headers: Record<string, string>, body: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: url.hostname, port: url.port, path: url.pathname, method: "POST", headers }, (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode ?? 0));
    });
    req.on("error", reject);
    req.end(body);
  });
}

describe("journaled headers", () => {
  test("each entry has the headers of its own request, whether or not they repeat the last ones", async () => {
    await using mock = await McpMock.start({ tools: [{ name: "add" }] });
    mock.toolsCall("add").withArgs(ANY).respondsWith("ok");
    const { headers } = await openSession(mock.url);
    const url = new URL(mock.url);
    const call = (id: number): string => JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "add", arguments: {} } });
    const tags = ["a", "a", "b", "a", "b", "b"];
    for (const [i, tag] of tags.entries()) expect(await post(url, { ...headers, "x-tag": tag }, call(10 + i))).toBe(200);
    const calls = mock.requests().filter((e) => e.method === "tools/call");
    expect(calls.map((e) => e.headers["x-tag"])).toEqual(tags);
    expect(calls.map((e) => e.call?.headers["x-tag"])).toEqual(tags);
    // A header that only some requests carry is not carried over to the next one.
    expect(await post(url, { ...headers, "x-tag": "a", "x-extra": "1" }, call(20))).toBe(200);
    expect(await post(url, { ...headers, "x-tag": "a" }, call(21))).toBe(200);
    const last = mock.requests().slice(-2);
    expect(last.map((e) => e.headers["x-extra"])).toEqual(["1", undefined]);
    expect(last.map((e) => e.sessionId)).toEqual([headers["mcp-session-id"], headers["mcp-session-id"]]);
  });
});
