/**
 * The gate every HTTP request passes first: the Host check against DNS rebinding, then, for
 * browsers (which always send `Origin`), the Origin check and CORS on the MCP endpoint.
 * @module
 */
import type { Context } from "hono";
import { cors } from "hono/cors";
import os from "node:os";
import type { McpMockOptions } from "../../options.js";
import { HeaderNames } from "../../protocol/revisions.js";
import { header } from "./node-io.js";
import { Rejections } from "./rejections.js";

const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]", "::1"]);
const LOOPBACK_V4 = /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/;

/** Loopback names and literals only: `127.0.0.1.evil.example` is not one. */
export function isLoopback(name: string): boolean {
  return LOOPBACK_HOSTS.has(name) || LOOPBACK_V4.test(name);
}

/** The names loopback always answers to. */
const LOOPBACK_NAMES = ["localhost", "127.0.0.1", "[::1]"];

/**
 * The Host names a mock answers to, by what it binds: on loopback, loopback names; beyond it,
 * `allowedHosts` when given (and loopback names), else the machine's own names (its host name,
 * the address it binds, its interfaces' addresses; IPv6 in brackets) and loopback names.
 * A name without a port allows every port.
 */
export function allowedHostNames(options: Pick<McpMockOptions, "host" | "allowedHosts">): string[] {
  const named = options.allowedHosts?.map((h) => h.toLowerCase()) ?? [];
  const bound = options.host ?? "127.0.0.1";
  if (isLoopback(bound) || options.allowedHosts !== undefined) return [...new Set([...LOOPBACK_NAMES, ...named])];
  const own = [os.hostname().toLowerCase()];
  if (bound !== "0.0.0.0" && bound !== "::") own.push(bound.includes(":") ? `[${bound}]` : bound);
  for (const addresses of Object.values(os.networkInterfaces())) {
    for (const a of addresses ?? []) own.push(a.family === "IPv6" ? `[${a.address.replace(/%.*$/, "")}]` : a.address);
  }
  return [...new Set([...LOOPBACK_NAMES, ...own])];
}

/** A route's handler. */
export type Handler = (c: Context) => Response | Promise<Response>;

/** Host and Origin checks, and CORS for browsers. */
export class Gate {
  readonly #options: McpMockOptions;
  /** Clients send the same Host on every request: the last one allowed. */
  #allowedHost: string | undefined;
  readonly #cors = cors({
    origin: (origin) => origin,
    allowMethods: ["GET", "POST", "DELETE"],
    // DPoP (auth.dpop): the proof a browser client sends, the nonce it must read.
    allowHeaders: ["content-type", "accept", "authorization", "dpop", "last-event-id", HeaderNames.sessionId, HeaderNames.protocolVersion],
    exposeHeaders: [HeaderNames.sessionId, HeaderNames.protocolVersion, "www-authenticate", "dpop-nonce"],
  });

  /** Host names allowed, with or without a port; computed once (`allowedHostNames`). */
  readonly #names: Set<string>;
  /** The mock binds beyond loopback and was not told which names to allow. */
  readonly #ownNames: boolean;

  constructor(options: McpMockOptions) {
    this.#options = options;
    this.#names = new Set(allowedHostNames(options));
    this.#ownNames = !isLoopback(options.host ?? "127.0.0.1") && options.allowedHosts === undefined;
  }

  /**
   * A handler behind the gate. Each route calls it itself, and routes do not overlap, so Hono
   * runs one handler per request (no compose). `withCors` says where browsers get CORS.
   */
  guard(withCors: (c: Context) => boolean, handler: Handler): Handler {
    return (c) => {
      const denied = this.checkHost(header(c, "host"));
      if (denied) return denied;
      const origin = header(c, "origin");
      if (origin === undefined || !withCors(c)) return handler(c);
      return this.checkOrigin(origin) ?? this.#withCors(c, handler);
    };
  }

  async #withCors(c: Context, handler: Handler): Promise<Response> {
    // What Hono does around a route with a middleware: CORS headers set on c.res before it
    // are merged into the route's response; a preflight is answered by the middleware alone.
    const preflight = await this.#cors(c, async () => {
      c.res = await handler(c);
    });
    return preflight ?? c.res;
  }

  /** DNS-rebinding protection: a loopback-bound mock answers loopback Host names (and allowedHosts) only. */
  checkHost(host: string | undefined): Response | undefined {
    if (host === undefined || host === this.#allowedHost) return undefined;
    const denied = this.#hostDenied(host);
    if (!denied) this.#allowedHost = host;
    return denied;
  }

  #hostDenied(host: string): Response | undefined {
    if (this.#names.has(host.toLowerCase())) return undefined;
    const name = (host.startsWith("[") ? host.slice(0, host.indexOf("]") + 1) : host.replace(/:\d+$/, "")).toLowerCase();
    if (this.#names.has(name) || isLoopback(name)) return undefined;
    return this.#ownNames ? Rejections.foreignHost(host, [...this.#names], this.#options.host ?? "") : Rejections.invalidHost(host);
  }

  /** Browsers' requests from a page that is not on loopback (or in allowedOrigins) are refused. */
  checkOrigin(origin: string | undefined): Response | undefined {
    if (origin === undefined) return undefined;
    if (this.#options.allowedOrigins?.includes(origin)) return undefined;
    try {
      if (isLoopback(new URL(origin).hostname)) return undefined;
    } catch {
      // an Origin that is not a URL is not allowed
    }
    return Rejections.invalidOrigin(origin);
  }
}
