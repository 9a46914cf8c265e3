/**
 * `mcpmock check`: plays every request of a definition that has specified arguments or
 * params against a real server and compares: the declared tools first (missing, extra, other
 * schemas), then each answer, in the file's order (an entry's `then` answers by calling
 * again), with what the server streamed on the way (progress, logs, notifications, its own
 * requests, which are answered with the answers the recording kept). The client declares
 * the capabilities the recording saw (`recorded.clientCapabilities`) unless told others: a
 * server may list some tools only to clients that declare elicitation or sampling. The
 * connection is `upstream/`'s, as record and proxy mode open it. The report has one verdict
 * per call, with the differences under it.
 * @module
 */
import { McpError } from "@modelcontextprotocol/sdk/types.js";
import type { AnswerDefinition, MockDefinition, StepDefinition } from "../definition/format.js";
import type { ProxyTarget } from "../proxy-target.js";
import { upstreamName } from "../proxy-target.js";
import type { SessionRelay, UpstreamAnswer } from "../engine/upstream-port.js";
import { isCallToolResult, wrapToolPayload } from "../stubs/tool-result.js";
import { PREFIX } from "../values/errors.js";
import { hasPlaceholders, substitute } from "../values/placeholders.js";
import { upstreamTransport } from "../upstream/target.js";
import { DEFAULT_CLIENT_TIMEOUT_MS } from "../engine/client-requests.js";
import { UpstreamSession } from "../upstream/upstream-session.js";
import { redactor, secretsOf, type Redactor } from "../upstream/secrets.js";
import { withWatchedProvider } from "../upstream/oauth.js";
import { changeLines, changesBetween, compareShape, exactChanges, type Answer, type Change } from "./answer-compare.js";
import { stableJson } from "./definition-writer.js";
import type { CheckDifference, CheckReport } from "./check-report.js";
import { parsePointer, type Pointer } from "./json-pointer.js";
import { SESSION_NOTIFICATIONS } from "./exchanges.js";
import { recordedOrder } from "./recorded-order.js";

/** How answers are compared, and what the client declares. */
export interface CheckOptions {
  /** Compare shapes instead of values (`--shape`): of streams, the same methods in order. */
  readonly shape?: boolean;
  /** Pointers into results left out of the comparison (`--ignore`). */
  readonly ignore?: readonly Pointer[];
  /** The client capabilities to declare (`--capabilities`); default: the definition's `recorded.clientCapabilities`, or none. */
  readonly capabilities?: Record<string, unknown>;
  /** Milliseconds the server gets to connect and to answer each request (progress starts it again, up to 10 times this in all); 10000 by default. */
  readonly timeoutMs?: number;
}

/** A whole call is bounded at this many times the timeout, however much progress it reports. */
const WHOLE_CALL_TIMEOUTS = 10;

type Json = Record<string, unknown>;

/** One call's expectations: its answer, and what the server streams before it. */
interface Expected extends Answer {
  readonly stream?: readonly StepDefinition[];
}

/** One request to play and the answers it should get, call after call. */
interface Planned {
  readonly label: string;
  readonly method: string;
  readonly params: Json;
  readonly expected: readonly Expected[];
  readonly tool?: string;
  /** The entry's own `ignore`: pointers into its results left out of the comparison. */
  readonly ignore: readonly Pointer[];
  /** The entry's index in `responses` (`undefined` for a prompt's), for the recorded order. */
  readonly entry?: number;
}

/** A streamed message as check compares it: a notification, or a request of the server's. */
interface Streamed {
  readonly kind: "notification" | "request";
  readonly method: string;
  readonly params: unknown;
}

/** Whether a value holds data-form matchers (which no real call can carry), `$literal` aside. */
function holdsMatchers(value: unknown): boolean {
  if (value === null || typeof value !== "object") return false;
  const keys = Object.keys(value);
  if (keys.length === 1 && keys[0]!.startsWith("$")) return keys[0] !== "$literal";
  return Object.values(value).some(holdsMatchers);
}

/** The value with `{ "$literal": v }` unwrapped. */
function unwrap(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(unwrap);
  if (value === null || typeof value !== "object") return value;
  const keys = Object.keys(value);
  if (keys.length === 1 && keys[0] === "$literal") return (value as Json)["$literal"];
  return Object.fromEntries(Object.entries(value as Json).map(([k, v]) => [k, unwrap(v)]));
}

/** Whether check can play a stream: every request of the server's has the answer the recording kept. */
function playable(stream: readonly StepDefinition[] | undefined): boolean {
  return (stream ?? []).every((s) => !("requests" in s) && (!("request" in s) || s.answer !== undefined));
}

/** The answers an entry gives, in order, as JSON-RPC answers (tool payloads wrapped as the mock wraps them), with their streams. */
function expectations(first: AnswerDefinition, then: readonly AnswerDefinition[] | undefined, context: Json, outputSchema: boolean | undefined): Expected[] {
  return [first, ...(then ?? [])].map((a) => {
    const stream = a.stream === undefined ? {} : { stream: (hasPlaceholders(a.stream) ? substitute(a.stream, context) : a.stream) as StepDefinition[] };
    if (a.error) return { error: a.error, ...stream };
    const result = hasPlaceholders(a.result) ? substitute(a.result, context) : a.result;
    if (outputSchema === undefined) return { result, ...stream };
    return { result: isCallToolResult(result) ? result : wrapToolPayload(result, { isError: a.isError === true, hasOutputSchema: outputSchema, structuredContent: true }), ...stream };
  });
}

/** The requests a definition specifies, and the entries that answer any request (not played). */
function plan(def: MockDefinition): { planned: Planned[]; unplayable: number } {
  const planned: Planned[] = [];
  let unplayable = 0;
  const tools = new Map((def.tools ?? []).map((t) => [t.name, t]));
  for (const [entry, r] of (def.responses ?? []).entries()) {
    const ignore = (r.ignore ?? []).map(parsePointer);
    if (r.status !== undefined || r.fault !== undefined || r.method === "initialize") continue;
    // A stream that asks the client without the answer it got (a hand-written one) cannot be played.
    if (![r, ...(r.then ?? [])].every((a) => playable(a.stream))) {
      unplayable++;
      continue;
    }
    if (r.tool !== undefined) {
      if (r.args === undefined || holdsMatchers(r.args)) unplayable++;
      else {
        const args = unwrap(r.args) as Json;
        const label = `tools/call "${r.tool}" ${stableJson(args)}`;
        const hasSchema = tools.get(r.tool)?.outputSchema !== undefined;
        planned.push({ label, method: "tools/call", params: { name: r.tool, arguments: args }, tool: r.tool, ignore, entry, expected: expectations(r, r.then, { args, params: { name: r.tool, arguments: args } }, hasSchema) });
      }
    } else if (r.method !== undefined) {
      // `_meta` matched with any value (as recordings write it) is left out of the request.
      const { _meta: meta, ...rest } = r.params ?? {};
      const sent = meta === undefined || holdsMatchers(meta) ? rest : r.params;
      if (r.params === undefined || holdsMatchers(sent)) unplayable++;
      else {
        const params = unwrap(sent) as Json;
        const name = typeof params["name"] === "string" && r.method === "tools/call" ? params["name"] : undefined;
        planned.push({ label: `${r.method} ${stableJson(params)}`, method: r.method, params, ignore, entry, ...(name === undefined ? {} : { tool: name }), expected: expectations(r, r.then, { params, args: params["arguments"] }, name === undefined ? undefined : tools.get(name)?.outputSchema !== undefined) });
      }
    }
  }
  for (const p of def.prompts ?? []) {
    for (const r of p.responses ?? []) {
      if (r.args === undefined || holdsMatchers(r.args)) {
        unplayable++;
        continue;
      }
      const args = unwrap(r.args) as Json;
      const messages = typeof r.messages === "string" ? [{ role: "user", content: { type: "text", text: r.messages } }] : r.messages;
      const result = substitute(r.description === undefined ? { messages } : { description: r.description, messages }, { args });
      planned.push({ label: `prompts/get "${p.name}" ${stableJson(args)}`, method: "prompts/get", params: { name: p.name, arguments: args }, ignore: [], expected: [r.error ? { error: r.error } : { result }] });
    }
  }
  return { planned, unplayable };
}

/** The messages a stream sends, as they arrive on the wire (pauses and the task's start are not messages). */
function streamedOf(stream: readonly StepDefinition[] | undefined): Streamed[] {
  const out: Streamed[] = [];
  for (const s of stream ?? []) {
    if ("progress" in s) out.push({ kind: "notification", method: "notifications/progress", params: { progress: s.progress, ...(s.total === undefined ? {} : { total: s.total }), ...(s.message === undefined ? {} : { message: s.message }) } });
    else if ("log" in s) out.push({ kind: "notification", method: "notifications/message", params: { level: s.log, ...(s.logger === undefined ? {} : { logger: s.logger }), data: s.data } });
    else if ("notify" in s) {
      if (!SESSION_NOTIFICATIONS.has(s.notify)) out.push({ kind: "notification", method: s.notify, params: s.params });
    }
    else if ("request" in s) out.push({ kind: "request", method: s.request, params: s.params });
    else if ("send" in s && typeof s.send["method"] === "string") out.push({ kind: s.send["id"] === undefined ? "notification" : "request", method: s.send["method"], params: s.send["params"] });
  }
  return out;
}

function showStreamed(m: Streamed | undefined): string {
  if (m === undefined) return "nothing";
  const params = m.params === undefined ? "" : ` ${stableJson(m.params)}`;
  return `${m.kind === "request" ? "the request " : ""}${m.method}${params}`;
}

/** The differences between what a call should stream and what it streamed: lines, and the places whose params differ. */
function compareStreams(expected: readonly Streamed[], actual: readonly Streamed[], shape: boolean): { lines: string[]; changes: Change[] } {
  const lines: string[] = [];
  const changes: Change[] = [];
  for (let i = 0; i < Math.max(expected.length, actual.length); i++) {
    const [e, a] = [expected[i], actual[i]];
    const where = `stream message ${i + 1}`;
    if (e === undefined || a === undefined || e.kind !== a.kind || e.method !== a.method) lines.push(`${where}: expected ${showStreamed(e)}, received ${showStreamed(a)}`);
    else if (!shape) {
      for (const c of changesBetween(e.params ?? {}, a.params ?? {})) {
        const change = { ...c, at: `${where} params${c.at}` };
        changes.push(change);
        lines.push(...changeLines({ ...c, at: `${where} (${e.method}) params${c.at}` }));
      }
    }
  }
  return { lines, changes };
}

/** Where a connection could not answer at all (not the server's own error): the check cannot go on. */
function trouble(answer: UpstreamAnswer, name: string): string | undefined {
  if (!("error" in answer)) return undefined;
  const data = answer.error.data as { upstream?: unknown } | undefined;
  return data?.upstream === name && answer.error.message.startsWith(PREFIX) ? answer.error.message : undefined;
}

/**
 * A session with the real server for one check: requests answered in order, what it streams
 * for the call in flight kept in wire order, its own requests answered from the recording.
 */
class CheckSession {
  readonly #name: string;
  /** The target's credentials, replaced in what the server answers before it is compared (as the recording replaced them) and in every message. */
  readonly #redact: Redactor;
  /** Milliseconds a whole call may take, progress or not (`WHOLE_CALL_TIMEOUTS` times the timeout). */
  #wholeMs = 0;
  #session!: UpstreamSession;
  /** What the call in flight has streamed so far; `undefined` between calls. */
  #streamed: Streamed[] | undefined;
  /** The server requests of the call in flight that the recording answers, in order. */
  #answers: Array<{ method: string; answer: { result?: unknown; error?: Record<string, unknown> } }> = [];

  private constructor(name: string, redact: Redactor) {
    this.#name = name;
    this.#redact = redact;
  }

  static async open(target: ProxyTarget, capabilities: Record<string, unknown>, timeoutMs: number): Promise<CheckSession> {
    const check = new CheckSession(upstreamName(target), redactor(secretsOf(target)));
    let words = "";
    const transport = upstreamTransport(withWatchedProvider(target, check.#redact), (chunk) => (words = (words + chunk).slice(-2_000)));
    const relay: SessionRelay = {
      clientCapabilities: capabilities,
      notify: () => {},
      request: async (method) => check.#answer(method),
    };
    check.#session = await UpstreamSession.open(transport, check.#name, relay, timeoutMs, () => words, (text) => check.#redact.text(text)).catch((error: Error) => {
      throw new Error(check.#redact.text(error.message));
    });
    check.#wholeMs = timeoutMs * WHOLE_CALL_TIMEOUTS;
    // The server's messages as they arrive, in order, before the SDK (and the session) handle them.
    const handle = transport.onmessage;
    transport.onmessage = (message, extra) => {
      const m = message as { method?: unknown; id?: unknown; params?: Json };
      // A session's notification may land during any call (over stdio, by timing): it is no call's.
      if (check.#streamed !== undefined && typeof m.method === "string" && !SESSION_NOTIFICATIONS.has(m.method)) {
        let params: unknown = m.params;
        if (m.method === "notifications/progress" && m.params) {
          const { progressToken: _token, ...rest } = m.params;
          params = rest;
        }
        check.#streamed.push({ kind: m.id === undefined ? "notification" : "request", method: m.method, params });
      }
      handle?.(message, extra);
    };
    return check;
  }

  /** Answers a server request with the recording's next answer for its method. */
  #answer(method: string): unknown {
    const at = this.#answers.findIndex((a) => a.method === method);
    if (at < 0) throw new McpError(-32601, `${PREFIX} check: the recording has no answer for this ${method} request.`);
    const { answer } = this.#answers.splice(at, 1)[0]!;
    if (answer.error) throw new McpError(typeof answer.error["code"] === "number" ? answer.error["code"] : -32603, String(answer.error["message"] ?? "refused"), answer.error["data"]);
    return answer.result ?? {};
  }

  /** One request; rejects when the server could not answer at all (it went away, it took too long). */
  async ask(method: string, params: Json, stream?: readonly StepDefinition[]): Promise<{ answer: Answer; streamed: Streamed[] }> {
    const streamed: Streamed[] = [];
    this.#streamed = streamed;
    this.#answers = (stream ?? []).flatMap((s) => ("request" in s && s.answer !== undefined ? [{ method: s.request, answer: s.answer }] : []));
    // Progress is asked for only when the recording had it (a progress token in the request).
    const wantsProgress = (stream ?? []).some((s) => "progress" in s);
    // Progress starts the wait again; this bounds the whole call, so a server streaming forever ends too.
    const whole = new AbortController();
    const bound = setTimeout(() => whole.abort(`no answer within ${this.#wholeMs} ms in all (${WHOLE_CALL_TIMEOUTS} times the timeout), though progress kept coming`), this.#wholeMs);
    try {
      const answer = await this.#session.request({
        sessionKey: "",
        method,
        params,
        relay: { clientCapabilities: {}, notify: () => {}, request: () => Promise.reject(new Error("unused")) },
        signal: whole.signal,
        ...(wantsProgress ? { onProgress: () => {} } : {}),
      });
      const why = trouble(answer, this.#name);
      if (why !== undefined) throw new Error(this.#redact.text(why));
      return { answer: this.#redact.value(answer), streamed: this.#redact.value(streamed) };
    } finally {
      clearTimeout(bound);
      this.#streamed = undefined;
      this.#answers = [];
    }
  }

  close(): Promise<void> {
    return this.#session.close();
  }
}

/** Compares the declared tools with the real list: missing, extra, other schemas. */
async function declarations(session: CheckSession, def: MockDefinition, lines: string[]): Promise<string[]> {
  if (def.tools === undefined) return [];
  const real: Json[] = [];
  let cursor: string | undefined;
  do {
    const { answer } = await session.ask("tools/list", cursor === undefined ? {} : { cursor });
    if (answer.error) throw new Error(`tools/list answered error ${answer.error.code}: ${answer.error.message}`);
    const page = answer.result as { tools?: Json[]; nextCursor?: string };
    real.push(...(page.tools ?? []));
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  const byName = new Map(real.map((t) => [t["name"], t]));
  const problems: string[] = [];
  for (const tool of def.tools) {
    const found = byName.get(tool.name);
    if (!found) problems.push(`tool "${tool.name}" is declared but the server does not list it`);
    else
      for (const key of ["inputSchema", "outputSchema"] as const)
        if (tool[key] !== undefined && stableJson(tool[key]) !== stableJson(found[key])) problems.push(`tool "${tool.name}": the ${key} differs: declared ${stableJson(tool[key])}, listed ${stableJson(found[key])}`);
  }
  for (const name of byName.keys()) if (!def.tools.some((t) => t.name === name)) problems.push(`tool "${String(name)}" is listed by the server but not declared`);
  if (problems.length > 0 && def.recorded?.clientCapabilities === undefined) problems.push("(a server may list some tools only to clients that declare elicitation or sampling: try --capabilities '{\"elicitation\":{},\"sampling\":{}}')");
  lines.push(problems.length === 0 ? `✓ tools/list: the ${def.tools.length} declared tools agree` : `✗ tools/list: differs`, ...problems.map((p) => `    ${p}`));
  return problems;
}

/**
 * Checks a definition against a real server. Rejects when the server cannot be reached.
 *
 * @example
 * ```ts
 * const report = await checkAgainst(definition, { target: "http://127.0.0.1:3001/mcp" });
 * console.log(report.lines.join("\n"));
 * ```
 */
export async function checkAgainst(def: MockDefinition, target: ProxyTarget, options: CheckOptions = {}): Promise<CheckReport> {
  const capabilities = options.capabilities ?? def.recorded?.clientCapabilities ?? {};
  const session = await CheckSession.open(target, capabilities, options.timeoutMs ?? DEFAULT_CLIENT_TIMEOUT_MS);
  const lines: string[] = [];
  const found: CheckDifference[] = [];
  let agreed = 0;
  try {
    const problems = await declarations(session, def, lines);
    if (problems.length > 0) found.push({ call: "tools/list", details: problems, changes: [] });
    else if (def.tools !== undefined) agreed++;
    const { planned, unplayable } = plan(def);
    const tools = new Map((def.tools ?? []).map((t) => [t.name, t]));
    for (const { p, i } of recordedOrder(planned, def.recorded?.order)) {
      const expected = p.expected[Math.min(i, p.expected.length - 1)] as Expected;
      const { answer: actual, streamed } = await session.ask(p.method, p.params, expected.stream);
      const shape = { tool: p.tool !== undefined, ...(p.tool === undefined ? {} : { outputSchema: tools.get(p.tool)?.outputSchema }) };
      const stream = compareStreams(streamedOf(expected.stream), streamed, options.shape === true);
      const exact = options.shape ? [] : exactChanges(expected, actual, [...(options.ignore ?? []), ...p.ignore]);
      const changes = [...stream.changes, ...exact.filter((c): c is Change => !("line" in c))];
      const diff = [...stream.lines, ...(options.shape ? compareShape(expected, actual, shape) : exact.flatMap((c) => ("line" in c ? [c.line] : changeLines(c))))];
      const label = p.expected.length > 1 ? `${p.label} (call ${i + 1} of ${p.expected.length})` : p.label;
      if (diff.length === 0) agreed++;
      else found.push({ call: label, details: diff, changes });
      lines.push(diff.length === 0 ? `✓ ${label}: agrees` : `✗ ${label}: differs`, ...diff.map((d) => `    ${d}`));
    }
    if (unplayable > 0) lines.push(`  (${unplayable} entries not played: they answer any arguments, match with matchers, or ask the client without a recorded answer)`);
    lines.push(`${agreed} agree, ${found.length} differ`);
  } finally {
    await session.close();
  }
  return { ok: found.length === 0, lines, differences: found, agreed, differed: found.length };
}
