/**
 * Turns recorded exchanges into an ordinary definition file: the declarations from the real
 * lists, the server's identity, capabilities and instructions, and one response entry per
 * distinct request with its exact arguments or params (repeated requests with other answers
 * as `then` sequences, streamed messages as `stream` steps, JSON-RPC errors as errors).
 * Secrets never reach it: no header is written, credential values seen on the wire are
 * replaced wherever they appear, and `--redact` pointers blank what they name.
 * @module
 */
import type { AnswerDefinition, MockDefinition, ResponseDefinition, StepDefinition } from "../definition/format.js";
import type { ToolDeclaration } from "../stubs/tool-catalog.js";
import type { ClientReply, Exchange, WireMessage } from "./exchanges.js";
import { has, replaceAt, type Pointer } from "./json-pointer.js";
import { orderedSecrets, REDACTED, scrubbed } from "../upstream/secrets.js";

/** The data-form matcher a volatile or redacted request field becomes: any value. */
const ANY_VALUE = { $any: true } as const;

/** How exchanges become a definition. */
export interface WriteOptions {
  /** Pointers into request params and answers whose values never reach the file. */
  readonly redact?: readonly Pointer[];
  /** Pointers into request params that vary from run to run: matched with `{ "$any": true }`. */
  readonly ignore?: readonly Pointer[];
  /** Credential values seen on the wire: replaced by `[redacted]` wherever they appear. */
  readonly secrets?: Iterable<string>;
  /** The client capabilities written in `recorded` (default: what the recorded clients declared in `initialize`). */
  readonly capabilities?: Record<string, unknown>;
}

/** Methods whose answers come from the declarations (or the mock itself), not from entries. */
const BUILT_IN = new Set(["initialize", "ping", "tools/list", "resources/list", "resources/templates/list", "prompts/list"]);
/** Methods whose built-in answer is `{}`: recorded only when the real server answered otherwise. */
const EMPTY_BY_DEFAULT = new Set(["logging/setLevel", "resources/subscribe", "resources/unsubscribe"]);

type Json = Record<string, unknown>;

/** JSON text with object keys sorted: equal values give equal text. */
export function stableJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v !== null && typeof v === "object" && !Array.isArray(v) ? Object.fromEntries(Object.entries(v as Json).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : v,
  );
}

/** Recorded values that look like data-form matchers (one `$` key) are written `{ "$literal": ... }`. */
function literal(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(literal);
  if (value === null || typeof value !== "object") return value;
  const keys = Object.keys(value);
  if (keys.length === 1 && keys[0]!.startsWith("$")) return { $literal: value };
  return Object.fromEntries(Object.entries(value as Json).map(([k, v]) => [k, literal(v)]));
}

/**
 * The text values `--redact` pointers name in the exchanges' params and answers: scrubbed
 * wherever else the recording repeats them (a server that echoes an argument back).
 */
function redactedValues(exchanges: readonly Exchange[], pointers: readonly Pointer[]): string[] {
  const found = new Set<string>();
  const collect = (value: unknown): void => {
    for (const pointer of pointers) {
      let at: unknown = value;
      for (const token of pointer) at = at !== null && typeof at === "object" && Object.hasOwn(at, token) ? (at as Json)[token] : undefined;
      if (typeof at === "string" || typeof at === "number") found.add(String(at));
    }
  };
  for (const e of exchanges) {
    collect(e.params);
    collect(e.answer?.result);
  }
  return [...found];
}

/** Applies pointers to a value: each one that names something there is replaced. */
function applyPointers(value: unknown, pointers: readonly Pointer[], replacement: unknown): unknown {
  return pointers.reduce((v, p) => (has(v, p) ? replaceAt(v, p, replacement) : v), value);
}

/** A stream step from a server message (a request with the client's answer, when it came). */
function step(message: WireMessage, reply: ClientReply | undefined): StepDefinition {
  const method = message["method"] as string;
  const params = message["params"] as Json | undefined;
  if (message["id"] !== undefined) {
    const answer = reply === undefined ? {} : { answer: reply as { result?: unknown; error?: Record<string, unknown> } };
    return params === undefined ? { request: method, ...answer } : { request: method, params, ...answer };
  }
  if (method === "notifications/progress" && typeof params?.["progress"] === "number") {
    const s: { progress: number; total?: number; message?: string } = { progress: params["progress"] };
    if (typeof params["total"] === "number") s.total = params["total"];
    if (typeof params["message"] === "string") s.message = params["message"];
    return s;
  }
  if (method === "notifications/message" && typeof params?.["level"] === "string") {
    const s: StepDefinition = { log: params["level"] as never, data: params["data"] };
    return typeof params["logger"] === "string" ? { ...s, logger: params["logger"] } : s;
  }
  return params === undefined ? { notify: method } : { notify: method, params };
}

/** Pauses shorter than this between streamed messages are not kept. */
const MIN_PAUSE_MS = 2;

/** The exchange's steps, with a `delay` step wherever the server paused before its next message. */
function streamOf(exchange: Exchange): StepDefinition[] {
  const last = exchange.steps.length - 1;
  return exchange.steps.flatMap((message, i) => {
    const pause = (exchange.times[i + 1] ?? Number.NaN) - (exchange.times[i] ?? Number.NaN);
    // Before the answer, at least 1 ms: the real server's answer came in a later read than its
    // last message, and a client (the SDK's) that reads both at once drops that message.
    const s = step(message, exchange.replies?.[i]);
    if (i === last) return [s, { delay: Math.max(1, Math.round(Number.isNaN(pause) ? 0 : pause)) }];
    return pause >= MIN_PAUSE_MS ? [s, { delay: Math.round(pause) }] : [s];
  });
}

/** The exchange's answer as an entry's answer fields. */
function answerOf(exchange: Exchange, redact: (value: unknown) => unknown): AnswerDefinition {
  const answer: AnswerDefinition = {};
  if (exchange.steps.length > 0) answer.stream = streamOf(exchange);
  const a = { ...exchange.answer!, result: redact(exchange.answer!.result) };
  if (a.error) answer.error = a.error.data === undefined ? { code: a.error.code, message: a.error.message } : { code: a.error.code, message: a.error.message, data: a.error.data };
  else answer.result = a.result ?? {};
  return answer;
}

/** The request's params without `_meta` (progress tokens and the like differ on every run; method entries match it with any value). */
function paramsOf(exchange: Exchange): Json {
  const { _meta: _ignored, ...rest } = exchange.params ?? {};
  return rest;
}

/** Adds list items to a declaration list, the first of each key kept. */
function addAll<T extends Json>(into: T[], items: unknown, key: string): void {
  if (!Array.isArray(items)) return;
  for (const item of items as T[]) if (!into.some((d) => d[key] === item[key])) into.push(item);
}

/** Whether two answers are the same but for the pauses in their streams. */
function sameAnswer(a: AnswerDefinition, b: AnswerDefinition): boolean {
  const strip = (x: AnswerDefinition): AnswerDefinition => (x.stream ? { ...x, stream: x.stream.filter((s) => !("delay" in s)) } : x);
  return stableJson(strip(a)) === stableJson(strip(b));
}

/** What the recorded clients declared in `initialize` (several sessions: all their capabilities); none without an initialize. */
function clientCapabilities(exchanges: readonly Exchange[]): Json | undefined {
  const declared = exchanges
    .filter((e) => e.method === "initialize")
    .map((e) => e.params?.["capabilities"])
    .filter((c): c is Json => c !== null && typeof c === "object" && !Array.isArray(c));
  return declared.length === 0 ? undefined : (Object.assign({}, ...declared) as Json);
}

interface Entry {
  readonly match: Json;
  readonly answers: AnswerDefinition[];
  readonly any: boolean;
}

/** Writes the definition a replay of these exchanges needs. */
export function toDefinition(exchanges: readonly Exchange[], options: WriteOptions = {}): MockDefinition {
  const redact = options.redact ?? [];
  const ignore = options.ignore ?? [];
  const secrets = orderedSecrets([...(options.secrets ?? []), ...redactedValues(exchanges, redact)]);
  const clean = (v: unknown): unknown => scrubbed(applyPointers(v, redact, REDACTED), secrets);
  const answered = exchanges.filter((e) => e.answer !== undefined);
  const def: MockDefinition = {};
  const tools: Json[] = [];
  const resources: Json[] = [];
  const prompts: Json[] = [];
  for (const e of answered) {
    const result = clean(e.answer!.result) as Json | undefined;
    if (!result || e.answer!.error) continue;
    if (e.method === "initialize") {
      const info = result["serverInfo"] as Json | undefined;
      if (info && !def.server) {
        def.server = { name: String(info["name"]), version: String(info["version"]) };
        if (typeof info["title"] === "string") def.server.title = info["title"];
        if (typeof result["instructions"] === "string") def.server.instructions = result["instructions"];
      }
    }
    if (e.method === "tools/list") addAll(tools, result["tools"], "name");
    if (e.method === "resources/list") addAll(resources, result["resources"], "uri");
    if (e.method === "resources/templates/list") addAll(resources, result["resourceTemplates"], "uriTemplate");
    if (e.method === "prompts/list") addAll(prompts, result["prompts"], "name");
  }
  const declared = new Set(tools.map((t) => t["name"]));
  const entries = new Map<string, Entry>();
  const add = (match: Json, answer: AnswerDefinition, any: boolean): void => {
    const key = stableJson(match);
    const entry = entries.get(key);
    if (entry) entry.answers.push(answer);
    else entries.set(key, { match, answers: [answer], any });
  };
  for (const e of answered) {
    const answer = clean(answerOf(e, (v) => applyPointers(v, redact, REDACTED))) as AnswerDefinition;
    const request = (): Json => applyPointers(applyPointers(literal(clean(paramsOf(e))), ignore, ANY_VALUE), redact, ANY_VALUE) as Json;
    if (e.method === "initialize") {
      const capabilities = (answer.result as Json | undefined)?.["capabilities"];
      if (!answer.error && capabilities !== undefined) add({ method: "initialize" }, { result: { capabilities } }, true);
      else if (answer.error) add({ method: "initialize" }, answer, true);
      continue;
    }
    if (BUILT_IN.has(e.method) && !answer.error) continue;
    if (EMPTY_BY_DEFAULT.has(e.method) && !answer.error && !answer.stream && stableJson(answer.result) === "{}") continue;
    const params = request();
    const name = params["name"];
    if (e.method === "tools/call" && typeof name === "string" && declared.has(name)) {
      // A call without arguments is matched as one with none: exact, and played by `check`.
      add({ tool: name, args: params["arguments"] ?? {} }, answer, false);
    } else {
      // `_meta` (a progress token, a trace id) differs on every run: present, with any value.
      const meta = e.params?.["_meta"] === undefined ? {} : { _meta: ANY_VALUE };
      add({ method: e.method, params: { ...params, ...meta } }, answer, false);
    }
  }
  if (tools.length > 0) def.tools = tools as unknown as ToolDeclaration[];
  if (resources.length > 0) def.resources = resources as unknown as NonNullable<MockDefinition["resources"]>;
  if (prompts.length > 0) def.prompts = prompts as unknown as NonNullable<MockDefinition["prompts"]>;
  // Entries for any arguments first: the later (newer) exact ones win over them.
  const ordered = [...entries.values()].sort((a, b) => Number(b.any) - Number(a.any));
  const responses = ordered.map(({ match, answers }) => {
    // Each call takes the next answer and the last repeats, so equal trailing answers are one.
    while (answers.length > 1 && sameAnswer(answers.at(-1)!, answers.at(-2)!)) answers.pop();
    const [first, ...then] = answers;
    return { ...match, ...first, ...(then.length > 0 ? { then } : {}) } as ResponseDefinition;
  });
  if (responses.length > 0) def.responses = responses;
  const capabilities = options.capabilities ?? clientCapabilities(exchanges);
  if (capabilities !== undefined) def.recorded = { clientCapabilities: clean(capabilities) as Json };
  return def;
}
