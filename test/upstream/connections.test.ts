/**
 * Connections (src/upstream/connections.ts), the HTTP/1.1 client under proxy mode, record and
 * check, against real servers on loopback: node:http for what a well-behaved upstream does, raw
 * TCP for what a broken one does, and TLS with a certificate for 127.0.0.1 and localhost
 * (test/fixtures/tls, self-signed, for these tests only).
 */
import { spawn } from "node:child_process";
import { once } from "node:events";
import { readFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { createServer as createTcpServer, type Server as TcpServer, type Socket } from "node:net";
import { createServer as createTlsServer } from "node:tls";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, test } from "vitest";
import { Connections, type ResponseHandler, type UpstreamRequest } from "../../src/upstream/connections.js";
import { HttpUpstreamTransport } from "../../src/upstream/http-client.js";

const ROOT = new URL("../..", import.meta.url).pathname;
const TLS = { cert: readFileSync(new URL("../fixtures/tls/localhost.crt", import.meta.url)), key: readFileSync(new URL("../fixtures/tls/localhost.key", import.meta.url)) };

/** What a handler was told, in order, and a promise for the end (complete or error). */
interface Told {
  readonly events: string[];
  readonly chunks: Buffer[];
  status?: number;
  headers?: readonly string[];
  error?: Error & { code?: string };
  abort?: (error?: Error) => void;
  readonly done: Promise<void>;
  readonly handler: ResponseHandler;
}

function told(onData?: (chunk: Buffer, t: Told) => void): Told {
  let finish!: () => void;
  const t: Told = {
    events: [],
    chunks: [],
    done: new Promise<void>((resolve) => (finish = resolve)),
    handler: {
      onConnect: (abort) => {
        t.events.push("connect");
        t.abort = abort;
      },
      onHeaders: (status, headers) => {
        t.events.push(`headers ${status}`);
        t.status = status;
        t.headers = headers;
      },
      onData: (chunk) => {
        t.events.push("data");
        t.chunks.push(chunk);
        onData?.(chunk, t);
      },
      onComplete: () => {
        t.events.push("complete");
        finish();
      },
      onError: (error) => {
        t.events.push("error");
        t.error = error;
        finish();
      },
    },
  };
  return t;
}

const body = (t: Told): string => Buffer.concat(t.chunks).toString("utf8");
const POST = (text: string, headers: Record<string, string> = {}): UpstreamRequest => ({ method: "POST", path: "/mcp?x=1", headers: { "content-type": "application/json", ...headers }, body: text });

const closing: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const close of closing.splice(0).reverse()) await close();
});

/** A node:http server on a free port; its URL and the sockets it accepted. */
async function http(handle: (req: IncomingMessage, res: ServerResponse, text: string) => void, setup?: (server: Server) => void): Promise<{ url: URL; sockets: Socket[]; server: Server }> {
  const sockets: Socket[] = [];
  const server = createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on("data", (c: Buffer) => parts.push(c));
    req.on("end", () => handle(req, res, Buffer.concat(parts).toString("utf8")));
  });
  server.on("connection", (socket) => sockets.push(socket));
  setup?.(server);
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  closing.push(() => new Promise((resolve) => (server.closeAllConnections(), server.close(resolve))));
  return { url: new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`), sockets, server };
}

/** A raw TCP server answering each connection's first request with `reply` (bytes, or a function of the socket). */
async function raw(reply: (socket: Socket, request: string) => void): Promise<{ url: URL; server: TcpServer; accepted: () => number }> {
  let accepted = 0;
  const server = createTcpServer((socket) => {
    accepted++;
    let request = "";
    socket.on("data", (c: Buffer) => {
      request += c.toString("latin1");
      if (!request.includes("\r\n\r\n")) return;
      reply(socket, request);
      request = "";
    });
    socket.on("error", () => {});
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  closing.push(() => new Promise((resolve) => server.close(resolve)));
  return { url: new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`), server, accepted: () => accepted };
}

function connections(url: URL): Connections {
  const c = new Connections(url);
  closing.push(() => c.destroy());
  return c;
}

describe("Connections", () => {
  test("sends the request as given (method, path with query, host, headers, length) and keeps one connection for calls one after another", async () => {
    const seen: string[] = [];
    const upstream = await http((req, res, text) => {
      seen.push(`${req.method} ${req.url} host=${req.headers.host} type=${req.headers["content-type"]} length=${req.headers["content-length"]} auth=${req.headers.authorization} ${text}`);
      res.writeHead(200, { "content-type": "application/json", "mcp-session-id": "s1" }).end(text.replace("ping", "pong"));
    });
    const pool = connections(upstream.url);
    for (const n of [1, 2, 3]) {
      const t = told();
      pool.dispatch(POST(`{"n":${n},"ping":"é"}`, { authorization: "Bearer t" }), t.handler);
      await t.done;
      expect(t.events).toEqual(["connect", "headers 200", "data", "complete"]);
      expect(body(t)).toBe(`{"n":${n},"pong":"é"}`);
      expect(t.headers).toContain("mcp-session-id");
    }
    expect(seen[0]).toBe(`POST /mcp?x=1 host=${upstream.url.host} type=application/json length=${Buffer.byteLength('{"n":1,"ping":"é"}')} auth=Bearer t {"n":1,"ping":"é"}`);
    expect(upstream.sockets.length).toBe(1);
  });

  test("calls at once go on connections of their own, each answer to its own call", async () => {
    const upstream = await http((_req, res, text) => setTimeout(() => res.writeHead(200).end(text), 20));
    const pool = connections(upstream.url);
    const calls = [1, 2, 3, 4].map((n) => {
      const t = told();
      pool.dispatch(POST(`{"n":${n}}`), t.handler);
      return t;
    });
    await Promise.all(calls.map((t) => t.done));
    expect(calls.map(body)).toEqual(['{"n":1}', '{"n":2}', '{"n":3}', '{"n":4}']);
    expect(upstream.sockets.length).toBe(4);
    // Then they are reused.
    const again = told();
    pool.dispatch(POST("{}"), again.handler);
    await again.done;
    expect(upstream.sockets.length).toBe(4);
  });

  test("a connection the upstream will close is not reused: `connection: close`, and a keep-alive timeout of a second or less", async () => {
    const upstream = await http((req, res) => res.writeHead(200, req.url?.includes("close") ? { connection: "close" } : {}).end("{}"), (server) => (server.keepAliveTimeout = 1_000));
    const pool = connections(upstream.url);
    for (const path of ["/close", "/close", "/short", "/short"]) {
      const t = told();
      pool.dispatch({ method: "GET", path, headers: {} }, t.handler);
      await t.done;
      expect(t.events.at(-1)).toBe("complete");
    }
    expect(upstream.sockets.length).toBe(4);
  });

  test("an idle connection is not used past the upstream's keep-alive timeout less a second", async () => {
    const upstream = await http((_req, res) => res.writeHead(200).end("{}"), (server) => (server.keepAliveTimeout = 2_000));
    const pool = connections(upstream.url);
    for (const wait of [0, 0, 1_100]) {
      await new Promise((resolve) => setTimeout(resolve, wait));
      const t = told();
      pool.dispatch(POST("{}"), t.handler);
      await t.done;
      expect(t.events.at(-1)).toBe("complete");
    }
    // `keep-alive: timeout=2`: kept 1 s, so the call after 1.1 s went on a new connection.
    expect(upstream.sockets.length).toBe(2);
  });

  test("a body comes chunk by chunk as the upstream writes it (an SSE stream), then its end", async () => {
    let next!: () => void;
    const upstream = await http((_req, res) => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.write("event: message\ndata: 1\n\n");
      next = () => res.end("data: 2\n\n");
    });
    const pool = connections(upstream.url);
    const t = told((_chunk, t) => t.chunks.length === 1 && next());
    pool.dispatch(POST("{}"), t.handler);
    await t.done;
    expect(t.events).toEqual(["connect", "headers 200", "data", "data", "complete"]);
    expect(body(t)).toBe("event: message\ndata: 1\n\ndata: 2\n\n");
  });

  test("a body with no length is read until the upstream closes, and is then whole", async () => {
    const upstream = await raw((socket) => socket.end("HTTP/1.1 200 OK\r\ncontent-type: application/json\r\n\r\n{\"whole\":true}"));
    const t = told();
    connections(upstream.url).dispatch(POST("{}"), t.handler);
    await t.done;
    expect(t.events.at(-1)).toBe("complete");
    expect(body(t)).toBe('{"whole":true}');
  });

  test("an interim 1xx head is passed over, a 204 has no body and keeps the connection", async () => {
    const upstream = await raw((socket, request) => {
      socket.write(request.startsWith("POST") ? "HTTP/1.1 103 Early Hints\r\nlink: </x>\r\n\r\nHTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\n{}" : "HTTP/1.1 204 No Content\r\n\r\n");
    });
    const pool = connections(upstream.url);
    const first = told();
    pool.dispatch(POST("{}"), first.handler);
    await first.done;
    expect(first.events).toEqual(["connect", "headers 200", "data", "complete"]);
    const second = told();
    pool.dispatch({ method: "DELETE", path: "/mcp", headers: {} }, second.handler);
    await second.done;
    expect(second.events).toEqual(["connect", "headers 204", "complete"]);
    const third = told();
    pool.dispatch(POST("{}"), third.handler);
    await third.done;
    expect(body(third)).toBe("{}");
    expect(upstream.accepted()).toBe(1);
  });

  test("abort ends the request at once (the connection closed, the handler told), and the next call gets a fresh connection", async () => {
    const upstream = await http((req, res) => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      if (req.method === "GET") res.write("data: 1\n\n");
      else res.end("data: done\n\n");
    });
    const pool = connections(upstream.url);
    const t = told((_chunk, t) => t.abort?.(new Error("dropped by the reader")));
    pool.dispatch({ method: "GET", path: "/mcp", headers: { accept: "text/event-stream" } }, t.handler);
    await t.done;
    expect(t.events).toEqual(["connect", "headers 200", "data", "error"]);
    expect(t.error?.message).toBe("dropped by the reader");
    await once(upstream.sockets[0] as Socket, "close");
    const after = told();
    pool.dispatch(POST("{}"), after.handler);
    await after.done;
    expect(body(after)).toBe("data: done\n\n");
    expect(upstream.sockets.length).toBe(2);
  });

  test("a reader that ends its request in the read that also completes the response leaves the connection closed, not idle", async () => {
    // The whole answer in one write: the reader drops it at its first chunk, the parser still ends the message.
    const upstream = await raw((socket) => socket.write('HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 12\r\n\r\n{"big":true}'));
    const pool = connections(upstream.url);
    const dropped = told((_chunk, t) => t.abort?.(new Error("too large for the reader")));
    pool.dispatch(POST("{}"), dropped.handler);
    await dropped.done;
    expect(dropped.events).toEqual(["connect", "headers 200", "data", "error"]);
    const next = told();
    pool.dispatch(POST("{}"), next.handler);
    await next.done;
    expect(next.events).toEqual(["connect", "headers 200", "data", "complete"]);
    expect(upstream.accepted()).toBe(2);
  });

  test("responses written in pieces cut anywhere (head, chunk sizes, body, a 1xx before them) each reach their own request whole, on kept connections", async () => {
    // A seeded generator: the same cuts on every run.
    let seed = 45;
    const random = (n: number): number => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
    const upstream = await raw((socket, request) => {
      const n = /"n":(\d+)/.exec(request)?.[1] ?? "?";
      const text = `{"n":${n},"pad":"${"é".repeat(random(300))}"}`;
      const chunked = random(2) === 0;
      const body = chunked ? `${Buffer.byteLength(text.slice(0, 7)).toString(16)}\r\n${text.slice(0, 7)}\r\n${Buffer.byteLength(text.slice(7)).toString(16)};ext=1\r\n${text.slice(7)}\r\n0\r\n\r\n` : text;
      const head = `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\n${chunked ? "transfer-encoding: chunked" : `content-length: ${Buffer.byteLength(text)}`}\r\n\r\n`;
      const bytes = Buffer.from(`${random(3) === 0 ? "HTTP/1.1 100 Continue\r\n\r\n" : ""}${head}${body}`);
      const write = (from: number): void => {
        if (from >= bytes.length || socket.destroyed) return;
        const to = Math.min(bytes.length, from + 1 + random(40));
        socket.write(bytes.subarray(from, to));
        setImmediate(() => write(to));
      };
      write(0);
    });
    const pool = connections(upstream.url);
    for (let round = 0; round < 10; round++) {
      const calls = [0, 1, 2].map((i) => {
        const t = told();
        pool.dispatch(POST(`{"n":${round * 3 + i}}`), t.handler);
        return t;
      });
      await Promise.all(calls.map((t) => t.done));
      for (const [i, t] of calls.entries()) {
        expect(t.events.at(-1)).toBe("complete");
        expect(JSON.parse(body(t)).n).toBe(round * 3 + i);
      }
    }
    expect(upstream.accepted()).toBe(3);
  });

  test("a response nobody asked for (a second one after the answer) closes its connection; calls after it are each answered on a connection of their own", async () => {
    const upstream = await raw((socket, request) => {
      const n = /"n":(\d+)/.exec(request)?.[1] ?? "?";
      const answer = `HTTP/1.1 200 OK\r\ncontent-length: ${`{"n":${n}}`.length}\r\n\r\n{"n":${n}}`;
      socket.write(answer + answer);
    });
    const pool = connections(upstream.url);
    const first = told();
    pool.dispatch(POST('{"n":1}'), first.handler);
    await first.done;
    expect(body(first)).toBe('{"n":1}');
    const calls = [2, 3].map((n) => {
      const t = told();
      pool.dispatch(POST(`{"n":${n}}`), t.handler);
      return t;
    });
    await Promise.all(calls.map((t) => t.done));
    expect(calls.map((t) => `${t.events.join(",")} ${body(t)}`)).toEqual(['connect,headers 200,data,complete {"n":2}', 'connect,headers 200,data,complete {"n":3}']);
    expect(upstream.accepted()).toBe(3);
  });

  test("faults are named: refused, cut in the middle of a body, an answer that is not HTTP", async () => {
    const gone = await raw(() => {});
    const port = gone.url.port;
    await new Promise((resolve) => gone.server.close(resolve));
    const refused = told();
    connections(new URL(`http://127.0.0.1:${port}/mcp`)).dispatch(POST("{}"), refused.handler);
    await refused.done;
    expect(refused.error?.code).toBe("ECONNREFUSED");

    const cutting = await raw((socket) => socket.end("HTTP/1.1 200 OK\r\ncontent-length: 100\r\n\r\n{\"partial\":"));
    const cut = told();
    connections(cutting.url).dispatch(POST("{}"), cut.handler);
    await cut.done;
    expect(cut.events).toEqual(["connect", "headers 200", "data", "error"]);
    expect(cut.error?.message).toMatch(/closed the connection/);

    const garbage = await raw((socket) => socket.end("SMTP ready\r\n\r\n"));
    const bad = told();
    connections(garbage.url).dispatch(POST("{}"), bad.handler);
    await bad.done;
    expect(bad.error?.message).toMatch(/^the upstream's HTTP response could not be read: /);

    // A head that does not end within 80 KiB.
    const endless = await raw((socket) => socket.write(`HTTP/1.1 200 OK\r\nx-long: ${"a".repeat(100 * 1024)}`));
    const long = told();
    connections(endless.url).dispatch(POST("{}"), long.handler);
    await long.done;
    expect(long.error?.message).toBe("the upstream's HTTP response could not be read: max header size exceeded");
  });

  test("a header that would break the request is refused before anything is sent", async () => {
    const upstream = await raw((socket) => socket.end("HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n"));
    const pool = connections(upstream.url);
    const injected = told();
    pool.dispatch(POST("{}", { authorization: "Bearer x\r\nx-evil: 1" }), injected.handler);
    await injected.done;
    expect(injected.error?.message).toBe("the value of the header authorization holds a line break or NUL; the request was not sent");
    const badName = told();
    pool.dispatch(POST("{}", { "bad name": "1" }), badName.handler);
    await badName.done;
    expect(badName.error?.message).toBe('the header name "bad name" is not an HTTP token; the request was not sent');
    const framing = told();
    pool.dispatch(POST("{}", { "Transfer-Encoding": "chunked" }), framing.handler);
    await framing.done;
    expect(framing.error?.message).toBe("the header Transfer-Encoding belongs to the connection, which mcpmock opens and frames itself; leave it out of the upstream's headers; the request was not sent");
    expect(upstream.accepted()).toBe(0);
  });

  test("a `host` header given replaces the origin's", async () => {
    const upstream = await http((req, res) => res.writeHead(200).end(JSON.stringify(req.headers.host)));
    const t = told();
    connections(upstream.url).dispatch(POST("{}", { Host: "mcp.example" }), t.handler);
    await t.done;
    expect(body(t)).toBe('"mcp.example"');
  });

  test("destroy() closes every connection, tells a call in flight, and refuses new ones", async () => {
    const upstream = await http((_req, res) => res.writeHead(200, { "content-type": "text/event-stream" }).write("data: 1\n\n"));
    const pool = new Connections(upstream.url);
    const t = told();
    pool.dispatch(POST("{}"), t.handler);
    while (t.chunks.length === 0) await new Promise((r) => setTimeout(r, 5));
    const socket = upstream.sockets[0] as Socket;
    await pool.destroy();
    expect(t.events.at(-1)).toBe("error");
    // The upstream sees its side closed: no connection is left open.
    if (!socket.destroyed) await once(socket, "close");
    expect(await new Promise((resolve) => upstream.server.getConnections((_error, count) => resolve(count)))).toBe(0);
    const late = told();
    pool.dispatch(POST("{}"), late.handler);
    await late.done;
    expect(late.error?.message).toBe("the upstream's connections are closed");
  });

  test("https: the upstream's certificate is checked (a self-signed one is refused)", async () => {
    const server = createTlsServer(TLS, (socket) => socket.end("HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\n{}"));
    server.listen(0, "127.0.0.1");
    await once(server, "listening");
    closing.push(() => new Promise((resolve) => server.close(resolve)));
    const t = told();
    connections(new URL(`https://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`)).dispatch(POST("{}"), t.handler);
    await t.done;
    expect(t.error?.code).toBe("DEPTH_ZERO_SELF_SIGNED_CERT");

    // Through the upstream transport, the failure says how to trust the certificate.
    const transport = new HttpUpstreamTransport(new URL(`https://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`), {});
    closing.push(() => transport.close());
    await expect(transport.send({ jsonrpc: "2.0", id: 1, method: "ping" })).rejects.toThrow(
      "self-signed certificate (DEPTH_ZERO_SELF_SIGNED_CERT): the upstream's certificate is not trusted; to trust its CA, start mcpmock with NODE_EXTRA_CA_CERTS=<the CA's PEM file>",
    );
  });

  test("https: with the certificate trusted (NODE_EXTRA_CA_CERTS), a call to localhost is answered", async () => {
    const server = createTlsServer(TLS, (socket) => {
      socket.on("data", (c: Buffer) => c.includes("\r\n\r\n") && socket.write("HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 12\r\n\r\n{\"tls\":true}"));
    });
    server.listen(0, "127.0.0.1");
    await once(server, "listening");
    closing.push(() => new Promise((resolve) => server.close(resolve)));
    const url = `https://localhost:${(server.address() as AddressInfo).port}/mcp`;
    const script = `import { Connections } from "./src/upstream/connections.ts";
const pool = new Connections(new URL(${JSON.stringify(url)}));
const parts = [];
pool.dispatch({ method: "POST", path: "/mcp", headers: {}, body: "{}" }, {
  onConnect() {}, onHeaders(status) { parts.push(String(status)); }, onData(c) { parts.push(c.toString()); },
  onComplete() { console.log(parts.join(" ")); void pool.destroy(); }, onError(e) { console.log("error", e.code ?? e.message); void pool.destroy(); },
});`;
    const child = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], { cwd: ROOT, env: { ...process.env, NODE_EXTRA_CA_CERTS: new URL("../fixtures/tls/localhost.crt", import.meta.url).pathname } });
    let out = "";
    child.stdout.on("data", (c: Buffer) => (out += String(c)));
    child.stderr.on("data", (c: Buffer) => (out += String(c)));
    const [code] = await once(child, "exit");
    expect(out.trim()).toBe('200 {"tls":true}');
    expect(code).toBe(0);
  });
});
