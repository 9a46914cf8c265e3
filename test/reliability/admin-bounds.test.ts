/**
 * The admin API under a flood: a body over `maxBodyBytes` is refused while it is read (a 32 MiB
 * body streamed without a length gets its 413 long before it is all sent), and a POST with a
 * body but no Content-Type is refused as the README says.
 */
import http from "node:http";
import { describe, expect, test } from "vitest";
import { McpMock } from "../../src/index.js";

const fragment = (size: number): string => JSON.stringify({ responses: [{ tool: "echo", result: "x".repeat(size) }] });

describe("the admin API's body limit", () => {
  test("a body over maxBodyBytes is 413 naming the option; nothing is added", async () => {
    await using mock = await McpMock.start({ admin: true, maxBodyBytes: 1000, tools: [{ name: "echo" }] });
    const res = await fetch(mock.url.replace(/\/mcp$/, "/__admin/stubs"), { method: "POST", headers: { "content-type": "application/json" }, body: fragment(2000) });
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({ error: "[mcpmock] the request body is larger than 1000 bytes (maxBodyBytes); send a smaller one, or raise maxBodyBytes." });
    expect(mock.stubs().filter((s) => s.source !== "default")).toEqual([]);
    const ok = await fetch(mock.url.replace(/\/mcp$/, "/__admin/stubs"), { method: "POST", headers: { "content-type": "application/json" }, body: fragment(10) });
    expect(ok.status).toBe(201);
  });

  test("a 32 MiB body sent without a length is refused while it is read, before it is all sent", async () => {
    await using mock = await McpMock.start({ admin: true, tools: [{ name: "echo" }] });
    const url = new URL(mock.url.replace(/\/mcp$/, "/__admin/stubs"));
    const chunk = Buffer.alloc(64 * 1024, "x");
    const total = 32 * 1024 * 1024;
    const { status, sent } = await new Promise<{ status: number; sent: number }>((resolve, reject) => {
      let sent = 0;
      let answered: number | undefined;
      const req = http.request({ host: url.hostname, port: url.port, path: url.pathname, method: "POST", headers: { "content-type": "application/json", "transfer-encoding": "chunked" } }, (res) => {
        answered = res.statusCode ?? 0;
        res.resume();
        resolve({ status: answered, sent });
        req.destroy();
      });
      req.on("error", (error) => (answered === undefined ? reject(error) : undefined));
      req.write('{"responses":[{"tool":"echo","result":"');
      const pump = (): void => {
        while (answered === undefined && sent < total) {
          sent += chunk.length;
          if (!req.write(chunk)) return void req.once("drain", pump);
        }
        if (answered === undefined) req.end('"}]}');
      };
      pump();
    });
    expect(status).toBe(413);
    expect(sent).toBeLessThan(total / 2);
    expect(mock.stubs().filter((s) => s.source !== "default")).toEqual([]);
  });

  test("a POST with a body and no Content-Type is 415; one without a body (a script's reset) passes", async () => {
    await using mock = await McpMock.start({ admin: true, tools: [{ name: "echo" }] });
    const admin = mock.url.replace(/\/mcp$/, "/__admin");
    const bare = new Blob([fragment(10)]); // fetch sends a Blob without a type with no Content-Type
    const res = await fetch(`${admin}/stubs`, { method: "POST", body: bare });
    expect(res.status).toBe(415);
    expect(await res.json()).toEqual({ error: "[mcpmock] an admin POST with a body must say content-type: application/json (it had none); only a POST without a body (a script's /reset) may leave it out." });
    expect(mock.stubs().filter((s) => s.source !== "default")).toEqual([]);
    expect((await fetch(`${admin}/reset`, { method: "POST" })).status).toBe(204);
  });
});
