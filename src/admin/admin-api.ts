/**
 * The admin REST API (WireMock's), so tests in any language can drive a running mock:
 * add and remove stubs (definition fragments), read the journal, verify, push
 * notifications, reset. Same stub model as the DSL and definition files: no second
 * implementation.
 * @module
 */
import { Hono, type Context } from "hono";
import type { IncomingMessage } from "node:http";
import { checkDefinition } from "../definition/validate.js";
import type { MatchingDefinition, MockDefinition } from "../definition/format.js";
import { applyDefinition } from "../definition/apply.js";
import { patternFromDefinition } from "../definition/compile.js";
import { McpMockError } from "../values/errors.js";
import { depthExceeds } from "../values/json-value.js";
import { MAX_MESSAGE_DEPTH } from "../protocol/jsonrpc.js";
import type { MockControl } from "../dsl/mock-control.js";
import type { DefinitionTarget } from "../definition/apply.js";
import type { MockCore } from "../engine/core.js";
import { scenarioStates } from "../engine/views.js";
import type { McpMockOptions } from "../options.js";
import type { StubBuilder } from "../dsl/stub-builder.js";
import { verifyRequests } from "../dsl/verify.js";
import type { JournalEntry } from "../journal/entry.js";
import { entryJson, LiveFeed, type EntryJson, type LiveSource } from "./live-feed.js";
import { inspectorAsset } from "./inspector-page.js";
import { atLeast, atMost, exactly, never, VerificationError, type CountExpectation } from "../journal/verification.js";
import { readBody } from "../transports/http/node-io.js";
import { ADMIN_REQUEST, closestNames } from "../journal/explain.js";
import { DEFAULT_MAX_BODY_BYTES } from "../transports/http/streamable.js";

/** The admin API's path prefix. */
export const ADMIN_PREFIX = "/__admin";

const LOOPBACK = /^(127\.|::1$|::ffff:127\.)/;

function problem(status: number, message: string): Response {
  return new Response(JSON.stringify({ error: message }), { status, headers: { "content-type": "application/json" } });
}

/** A refusal with its own HTTP status (the others are 400). */
class AdminProblem extends McpMockError {
  constructor(
    readonly status: 413,
    message: string,
  ) {
    super(message);
  }
}

const UTF8 = new TextDecoder("utf-8", { fatal: true });

/** The body as JSON (`undefined` when there is none), read no further than `maxBody` bytes (`maxBodyBytes`, as on the MCP endpoint). */
async function body(c: Context, maxBody: number): Promise<unknown> {
  const bytes = await readBody(c, maxBody);
  if (typeof bytes === "string") throw new AdminProblem(413, `the request body is larger than ${maxBody} bytes (maxBodyBytes); send a smaller one, or raise maxBodyBytes.`);
  if (bytes.length === 0) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(UTF8.decode(bytes));
  } catch {
    throw new McpMockError("the request body must be JSON (content-type: application/json).");
  }
  // The same nesting limit as a message: nothing deeper reaches the definitions or verify().
  if (depthExceeds(parsed, MAX_MESSAGE_DEPTH)) throw new McpMockError(`the request body must not nest deeper than ${MAX_MESSAGE_DEPTH} levels; send a flatter value.`);
  return parsed;
}

/**
 * `POST /__admin/verify`'s `"count"`, every form: left out (at least once), a number `n`
 * (exactly n), `"never"`, `{ "exactly": n }`, `{ "atLeast": n }`, `{ "atMost": n }`.
 */
function countOf(value: unknown): CountExpectation | undefined {
  if (value === undefined) return undefined;
  if (typeof value === "number") return exactly(value);
  if (value === "never") return never();
  const v = value as { exactly?: number; atLeast?: number; atMost?: number } | null;
  if (v && typeof v.exactly === "number") return exactly(v.exactly);
  if (v && typeof v.atLeast === "number") return atLeast(v.atLeast);
  if (v && typeof v.atMost === "number") return atMost(v.atMost);
  throw new McpMockError(`"count" must be a number n (exactly n), "never", { "exactly": n }, { "atLeast": n } or { "atMost": n }, or left out (at least once); received ${JSON.stringify(value)}.`);
}

/**
 * Why a verify names a tool nobody declared and no client called, or undefined: a count of that
 * tool (never, or at most n) would hold whatever the client did, so the answer would be a false green.
 */
function undeclaredTool(mock: MockControl, tool: unknown): string | undefined {
  if (typeof tool !== "string") return undefined;
  const declared = mock.toolNames();
  if (declared.includes(tool) || mock.requests().some((e) => e.call?.method === "tools/call" && e.call.params?.["name"] === tool)) return undefined;
  const similar = closestNames(tool, declared);
  return (
    `[mcpmock] verify: no tool "${tool}" is declared, and no client called it (declared: ${declared.join(", ") || "none"}).` +
    (similar.length ? ` Did you mean "${similar[0]}"?` : "") +
    " A count of it would hold whatever the client did, so it is refused: verify a declared tool's name."
  );
}

/** The peer's address when it is beyond loopback (`undefined` for a loopback peer, or in process without one). */
function remotePeer(c: Context): string | undefined {
  const peer = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming?.socket.remoteAddress ?? "";
  return peer !== "" && !LOOPBACK.test(peer) ? peer : undefined;
}

/**
 * The JSON paths of a fragment's `file` fields (an app's HTML, a skill's body and files): paths
 * on the mock's machine, which a peer beyond loopback may not make the mock read and serve.
 */
function filePaths(fragment: unknown): string[] {
  const paths: string[] = [];
  const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
  const at = (value: unknown, key: string): unknown => (value !== null && typeof value === "object" ? (value as Record<string, unknown>)[key] : undefined);
  list(at(fragment, "apps")).forEach((app, i) => {
    if (at(app, "file") !== undefined) paths.push(`apps[${i}].file`);
  });
  list(at(fragment, "skills")).forEach((skill, i) => {
    if (at(skill, "file") !== undefined) paths.push(`skills[${i}].file`);
    const files = at(skill, "files");
    if (files !== null && typeof files === "object") for (const [path, value] of Object.entries(files)) if (at(value, "file") !== undefined) paths.push(`skills[${i}].files[${JSON.stringify(path)}].file`);
  });
  return paths;
}

const ADMIN_CORS = { "access-control-allow-methods": "GET, POST, DELETE", "access-control-allow-headers": "content-type", "access-control-max-age": "600", vary: "origin" };

/**
 * Browsers: a request carrying an `Origin` not in `allowedOrigins` is refused (loopback pages
 * too: any dev server on the machine could drive the mock), a preflight is answered for
 * `allowedOrigins` only, and a write must be JSON, so no page can send one without a preflight.
 */
function browserProblem(c: Context, allowedOrigins: readonly string[]): Response | undefined {
  const origin = c.req.header("origin");
  // The inspector page is served here: its own origin (behind the Host check) may call back.
  if (origin !== undefined && origin === new URL(c.req.url).origin) return undefined;
  if (origin !== undefined && !allowedOrigins.includes(origin)) {
    return problem(403, `[mcpmock] the admin API does not answer browsers' cross-origin requests (Origin: ${origin}). To let a page drive it: McpMock.start({ allowedOrigins: [${JSON.stringify(origin)}] }).`);
  }
  if (c.req.method === "OPTIONS" && origin !== undefined) return new Response(null, { status: 204, headers: { "access-control-allow-origin": origin, ...ADMIN_CORS } });
  const type = c.req.header("content-type");
  // A POST without a body or a type (a script's reset) is no form a page can send unseen: a page's carries Origin.
  if (c.req.method === "POST" && type !== undefined && type.split(";")[0]?.trim().toLowerCase() !== "application/json") {
    return problem(415, `[mcpmock] admin writes must be sent with content-type: application/json (received ${type}), so a browser page cannot send them without a CORS preflight.`);
  }
  const hasBody = c.req.header("transfer-encoding") !== undefined || Number(c.req.header("content-length") ?? 0) > 0;
  if (c.req.method === "POST" && type === undefined && hasBody) {
    return problem(415, "[mcpmock] an admin POST with a body must say content-type: application/json (it had none); only a POST without a body (a script's /reset) may leave it out.");
  }
  return undefined;
}

/** What the inspector reads beyond the mock's public API: the live journal and the scenarios' states. */
export interface InspectorSource extends LiveSource {
  /** Every scenario a stub names, with its state now. */
  scenarios(): Array<{ name: string; state: string }>;
}

/** The inspector's view of a mock's engine. @internal */
export function inspectorSource(core: MockCore): InspectorSource {
  return {
    journal: core.journal,
    closing: core.closing.signal,
    declared: { hasTool: (name) => core.tools.has(name), hasPrompt: (name) => core.prompts.has(name) },
    scenarios: () => scenarioStates(core),
    appEvents: core.apps.events,
  };
}

/** What `POST /__admin/recordings/snapshot` may ask: the recorder's `redact` and `ignore` pointers. @internal */
export interface SnapshotRequest {
  readonly redact?: readonly string[];
  readonly ignore?: readonly string[];
}

/** Turns what was proxied into a definition (the composition root hands in the recorder's writer). @internal */
export type Snapshotter = (request: SnapshotRequest) => MockDefinition;

/**
 * The admin API a mock's options ask for (`admin`), or none: its `verify()` reports point at
 * the admin routes, not at `mock.requests()`. The composition root mounts it on the HTTP listener.
 * @internal
 */
export function adminFor(mock: MockControl & DefinitionTarget, core: MockCore, options: McpMockOptions, snapshot?: Snapshotter): Hono | undefined {
  if (!options.admin) return undefined;
  const admin = typeof options.admin === "object" ? options.admin : {};
  const verify = (pattern: StubBuilder, count?: number | CountExpectation): JournalEntry[] => verifyRequests(core, pattern, count, "admin");
  return adminApp(mock, {
    remote: admin.remote === true,
    ...(options.allowedOrigins === undefined ? {} : { allowedOrigins: options.allowedOrigins }),
    ...(admin.token === undefined ? {} : { token: admin.token }),
    inspector: inspectorSource(core),
    verify,
    ...(options.maxBodyBytes === undefined ? {} : { maxBody: options.maxBodyBytes }),
    ...(snapshot === undefined ? {} : { snapshot }),
    proxied: core.proxied !== undefined,
    appEvents: () => core.apps.events.all(),
  });
}

/** How an admin app is set up. @internal */
export interface AdminAppOptions {
  /** Let non-loopback peers call it (default: loopback only). */
  readonly remote?: boolean;
  /** Browser origins it answers (besides the inspector page's own). */
  readonly allowedOrigins?: readonly string[];
  /** The bearer token peers beyond loopback must send. */
  readonly token?: string;
  /** The inspector page and its live feed, when given. */
  readonly inspector?: InspectorSource;
  /** The mock's verify, with reports in the admin API's terms (default: `mock.verify`). */
  readonly verify?: MockControl["verify"];
  /** The largest request body read, in bytes (default: the MCP endpoint's). */
  readonly maxBody?: number;
  /** Makes `POST /__admin/recordings/snapshot`'s definition. */
  readonly snapshot?: Snapshotter;
  /** The mock has an upstream: a fragment may answer tools and prompts it does not declare (the upstream's). */
  readonly proxied?: boolean;
  /** What the MCP Apps probe views reported (`GET /__admin/app-events`). */
  readonly appEvents?: () => readonly unknown[];
}

/**
 * The admin routes for a mock. Only loopback peers may call them unless `remote` is set;
 * browsers only from `allowedOrigins` (and the inspector page, from the mock's own origin).
 * With `inspector`, also the inspector page and its live feed. `verify` is the mock's, with
 * reports in the admin API's terms.
 * @internal
 */
export function adminApp(mock: MockControl & DefinitionTarget, options: AdminAppOptions = {}): Hono {
  const { remote = false, allowedOrigins = [], token, inspector, verify = (p, c) => mock.verify(p, c), maxBody = DEFAULT_MAX_BODY_BYTES, snapshot, proxied = false, appEvents = () => [] } = options;
  const app = new Hono();
  const feed = inspector ? new LiveFeed(inspector) : undefined;
  const bearer = token === undefined ? undefined : `Bearer ${token}`;
  app.use("*", async (c, next) => {
    const peer = remotePeer(c);
    const beyond = peer !== undefined;
    if (!remote && beyond) return problem(403, `the admin API answers loopback clients only; ${peer} is not one (start with --admin-host to open it).`);
    if (beyond && bearer !== undefined && c.req.header("authorization") !== bearer) {
      return problem(401, "[mcpmock] the admin API beyond loopback needs its token: send Authorization: Bearer <token> (the one mcpmock serve printed, or admin.token).");
    }
    const refused = browserProblem(c, allowedOrigins);
    if (refused) return refused;
    await next();
    const origin = c.req.header("origin");
    if (origin !== undefined) c.res.headers.set("access-control-allow-origin", origin);
  });
  app.onError((error) => {
    const refused = problem(error instanceof AdminProblem ? error.status : error instanceof McpMockError ? 400 : 500, error.message);
    // The rest of a body over the limit is never read: this connection cannot carry another request.
    if (error instanceof AdminProblem) refused.headers.set("connection", "close");
    return refused;
  });
  app.get(`${ADMIN_PREFIX}/stubs`, () => Response.json(mock.stubs()));
  app.post(`${ADMIN_PREFIX}/stubs`, async (c) => {
    const fragment = await body(c, maxBody);
    // The upstream is the mock's from its start: a fragment cannot change it, and is refused rather than half applied.
    if (fragment !== null && typeof fragment === "object" && !Array.isArray(fragment) && "proxy" in fragment) {
      throw new McpMockError(`the admin request has a "proxy" section, and a running mock's upstream cannot be changed (it is set when the mock starts: the proxy option, or mcpmock serve --proxy); nothing was applied. Remove "proxy" from the fragment to add its stubs, or start another mock for another upstream.`);
    }
    // A path is read on the mock's machine and served to every MCP client: not for a peer elsewhere.
    const files = remotePeer(c) === undefined ? [] : filePaths(fragment);
    if (files.length > 0) {
      return problem(403, `[mcpmock] the admin API reads no files of the mock's machine for a client beyond loopback (${files.join(", ")}); nothing was applied. Send the content inline: an app's HTML as "html", a skill's body as "content" and its files as text or blob.`);
    }
    checkDefinition(fragment, ADMIN_REQUEST, { alsoDeclared: mock.toolNames(), proxied });
    const ids = applyDefinition(mock, fragment, ADMIN_REQUEST, true);
    return Response.json({ ids }, { status: 201 });
  });
  app.delete(`${ADMIN_PREFIX}/stubs/:id`, (c) =>
    mock.removeStub(c.req.param("id")) ? new Response(null, { status: 204 }) : problem(404, `no stub ${JSON.stringify(c.req.param("id"))}; GET ${ADMIN_PREFIX}/stubs lists them.`),
  );
  const json = (entry: JournalEntry): EntryJson => entryJson(entry, inspector?.declared);
  app.get(`${ADMIN_PREFIX}/requests`, () => Response.json(mock.requests().map(json)));
  // The requests no stub answered, each with its miss report (mock.unmatched()).
  app.get(`${ADMIN_PREFIX}/requests/unmatched`, () => Response.json(mock.unmatched().map(json)));
  app.get(`${ADMIN_PREFIX}/sessions`, () => Response.json(mock.sessions()));
  app.get(`${ADMIN_PREFIX}/app-events`, () => Response.json(appEvents()));
  if (inspector && feed) {
    app.get(`${ADMIN_PREFIX}/scenarios`, () => Response.json(inspector.scenarios()));
    app.get(`${ADMIN_PREFIX}/events`, (c) => feed.open(() => (c.env as { incoming?: IncomingMessage } | undefined)?.incoming?.socket.destroy()));
    app.get(`${ADMIN_PREFIX}/ui`, (c) => inspectorAsset("") ?? c.notFound());
    app.get(`${ADMIN_PREFIX}/ui/`, (c) => inspectorAsset("") ?? c.notFound());
    app.get(`${ADMIN_PREFIX}/ui/:file`, (c) => inspectorAsset(c.req.param("file")) ?? problem(404, `no inspector file ${JSON.stringify(c.req.param("file"))}; the page is GET ${ADMIN_PREFIX}/ui.`));
  }
  app.post(`${ADMIN_PREFIX}/verify`, async (c) => {
    const request = (await body(c, maxBody)) as { pattern?: MatchingDefinition & { tool?: string; method?: string }; count?: unknown } | null;
    if (!request || typeof request.pattern !== "object" || request.pattern === null || Array.isArray(request.pattern)) throw new McpMockError(`send { "pattern": { "tool": "add", "args": { ... } }, "count": 1 }${request && typeof request === "object" && "pattern" in request ? ` ("pattern" is ${shown(request.pattern)})` : ""}.`);
    for (const field of ["tool", "method"] as const) {
      const value = (request.pattern as Record<string, unknown>)[field];
      if (value !== undefined && typeof value !== "string") throw new McpMockError(`"pattern.${field}" must be a string (${field === "tool" ? "a tool's name" : "a method, like \"tools/list\""}), received ${shown(value)}.`);
    }
    const undeclared = proxied ? undefined : undeclaredTool(mock, request.pattern?.tool);
    if (undeclared) return problem(404, undeclared);
    try {
      const matched = verify(patternFromDefinition(request.pattern), countOf(request.count));
      return Response.json({ ok: true, matched: matched.length });
    } catch (error) {
      if (error instanceof VerificationError) return Response.json({ ok: false, message: error.message }, { status: 422 });
      throw error;
    }
  });
  app.post(`${ADMIN_PREFIX}/notify`, async (c) => {
    const request = (await body(c, maxBody)) as { method?: string; params?: Record<string, unknown>; sessionId?: string } | null;
    if (!request || typeof request.method !== "string") throw new McpMockError(`send { "method": "notifications/...", "params": { ... }, "sessionId"?: "..." }.`);
    const sessions = await mock.notify(request.method, request.params, request.sessionId === undefined ? {} : { sessionId: request.sessionId });
    return Response.json({ sessions });
  });
  // Proxy mode: what the upstream answered, as a definition that replays without it.
  app.post(`${ADMIN_PREFIX}/recordings/snapshot`, async (c) => {
    if (!proxied) return problem(409, "[mcpmock] this mock has no upstream, so nothing was proxied to snapshot. Start it in proxy mode: mcpmock serve --proxy <url> (or --proxy -- <command>), or McpMock.start({ proxy: { target: \"http://127.0.0.1:3001/mcp\" } }).");
    const request = ((await body(c, maxBody)) ?? {}) as SnapshotRequest;
    if (typeof request !== "object" || Array.isArray(request)) throw new McpMockError(`send { "redact": ["/arguments/token"], "ignore": ["/arguments/requestId"] } (both optional), received ${shown(request)}.`);
    for (const field of ["redact", "ignore"] as const) {
      const value: unknown = request[field];
      if (value === undefined) continue;
      const bad = Array.isArray(value) ? value.findIndex((p) => typeof p !== "string") : -1;
      if (!Array.isArray(value)) throw new McpMockError(`"${field}" must be an array of JSON Pointers (strings like "/arguments/token"), received ${shown(value)}.`);
      if (bad !== -1) throw new McpMockError(`"${field}[${bad}]" must be a JSON Pointer (a string like "/arguments/token"), received ${shown(value[bad])}.`);
    }
    return snapshot ? Response.json(snapshot(request)) : problem(404, "this mock makes no snapshots (it is served without the composition root's recorder).");
  });
  app.post(`${ADMIN_PREFIX}/reset`, () => {
    mock.reset();
    feed?.broadcast("reset");
    return new Response(null, { status: 204 });
  });
  app.all("*", (c) => problem(404, `no admin route ${c.req.method} ${c.req.path}. Routes: GET/POST ${ADMIN_PREFIX}/stubs, DELETE ${ADMIN_PREFIX}/stubs/:id, GET ${ADMIN_PREFIX}/requests, GET ${ADMIN_PREFIX}/requests/unmatched, GET ${ADMIN_PREFIX}/sessions, GET ${ADMIN_PREFIX}/app-events,${feed ? ` GET ${ADMIN_PREFIX}/scenarios, GET ${ADMIN_PREFIX}/events, GET ${ADMIN_PREFIX}/ui,` : ""} POST ${ADMIN_PREFIX}/verify, POST ${ADMIN_PREFIX}/notify, POST ${ADMIN_PREFIX}/recordings/snapshot, POST ${ADMIN_PREFIX}/reset.`));
  return app;
}

/** A value as a message shows it: short JSON and its type. */
function shown(value: unknown): string {
  const json = JSON.stringify(value) ?? String(value);
  const type = value === null ? "null" : Array.isArray(value) ? "array" : typeof value;
  return `${json.length > 80 ? `${json.slice(0, 80)}…` : json} (${type})`;
}
