/**
 * Issue 44, the admin API's newest routes under hostile input: what they cannot do is refused
 * with a 400 naming the field (never a 500, an internal message, or a silent 201).
 */
import { describe, expect, it } from "vitest";
import { McpMock } from "../../src/index.js";
import { hostileHttpUpstream } from "../support/hostile-upstream.js";

async function post(url: string, body: unknown): Promise<{ status: number; json: Record<string, unknown> }> {
  const res = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}

describe("the admin API refuses what it cannot do, naming the field", () => {
  it("POST /__admin/recordings/snapshot with redact or ignore of the wrong type is 400 naming the field", async () => {
    const upstream = await hostileHttpUpstream();
    try {
      await using mock = await McpMock.start({ admin: true, proxy: { target: upstream.url } });
      const url = mock.url.replace(/\/mcp$/, "/__admin/recordings/snapshot");
      const cases: Array<[unknown, RegExp]> = [
        [{ redact: "/arguments/token" }, /^\[mcpmock\] "redact" must be an array of JSON Pointers \(strings like "\/arguments\/token"\), received "\/arguments\/token" \(string\)\.$/],
        [{ ignore: { a: 1 } }, /^\[mcpmock\] "ignore" must be an array of JSON Pointers .*received \{"a":1\} \(object\)\.$/],
        [{ redact: ["/arguments/token", 5] }, /^\[mcpmock\] "redact\[1\]" must be a JSON Pointer \(a string like "\/arguments\/token"\), received 5 \(number\)\.$/],
        [{ ignore: [null] }, /^\[mcpmock\] "ignore\[0\]" must be a JSON Pointer .*received null \(null\)\.$/],
        [[1, 2], /^\[mcpmock\] send \{ "redact": .*received \[1,2\] \(array\)\.$/],
      ];
      for (const [body, expected] of cases) {
        const { status, json } = await post(url, body);
        expect(status, JSON.stringify(body)).toBe(400);
        expect(String(json["error"])).toMatch(expected);
      }
      expect((await post(url, { redact: ["/arguments/token"] })).status).toBe(200);
    } finally {
      await upstream.close();
    }
  });

  it("POST /__admin/verify with pattern null, or tool 5, is 400 naming the field (not a 500, not a near-miss report)", async () => {
    await using mock = await McpMock.start({ admin: true, tools: [{ name: "add" }] });
    const url = mock.url.replace(/\/mcp$/, "/__admin/verify");
    const nullPattern = await post(url, { pattern: null });
    expect(nullPattern.status).toBe(400);
    expect(nullPattern.json["error"]).toBe(`[mcpmock] send { "pattern": { "tool": "add", "args": { ... } }, "count": 1 } ("pattern" is null (null)).`);
    const toolFive = await post(url, { pattern: { tool: 5 } });
    expect(toolFive.status).toBe(400);
    expect(toolFive.json["error"]).toBe(`[mcpmock] "pattern.tool" must be a string (a tool's name), received 5 (number).`);
    const methodArray = await post(url, { pattern: { method: ["tools/list"] } });
    expect(methodArray.status).toBe(400);
    expect(methodArray.json["error"]).toMatch(/^\[mcpmock\] "pattern\.method" must be a string .*received \["tools\/list"\] \(array\)\.$/);
    expect(await post(url, { pattern: { tool: "add" }, count: 0 })).toEqual({ status: 200, json: { ok: true, matched: 0 } });
  });

  it("a fragment with a proxy section is refused: the running mock's upstream cannot change, and nothing is applied", async () => {
    const upstream = await hostileHttpUpstream();
    try {
      await using mock = await McpMock.start({ admin: true, proxy: { target: upstream.url } });
      const url = mock.url.replace(/\/mcp$/, "/__admin/stubs");
      const before = mock.stubs().length;
      for (const proxy of [{ target: "http://127.0.0.1:1/mcp" }, { target: "https://example.com/mcp" }]) {
        const { status, json } = await post(url, { proxy, responses: [{ tool: "ok", result: "stubbed" }] });
        expect(status).toBe(400);
        expect(json["error"]).toMatch(/^\[mcpmock\] the admin request has a "proxy" section, and a running mock's upstream cannot be changed .*nothing was applied\. Remove "proxy"/);
      }
      expect(mock.stubs().length).toBe(before);
      expect((await post(url, { responses: [{ tool: "ok", result: "stubbed" }] })).status).toBe(201);
    } finally {
      await upstream.close();
    }
  });
});
