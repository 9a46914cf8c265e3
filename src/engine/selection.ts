/**
 * Which stub answers a call: one ordering rule for every method, plus the seed's tiers for
 * tools and prompts (specified arguments, then the declaration's check, then ANY, then the
 * miss answer), and declared contents for resources. Misses come with their report. Which
 * rule a method follows, its descriptor says (`selection`).
 * @module
 */
import { SKILL_URI_SCHEME } from "../protocol/skills.js";
import { APP_MIME_TYPE } from "../protocol/apps.js";
import type { McpCall } from "../stubs/call.js";
import type { RequestId } from "../protocol/jsonrpc.js";
import type { ToolCatalog } from "../stubs/tool-catalog.js";
import { PREFIX, showValue } from "../values/errors.js";
import { addEntryHint, methodMissReport, promptMissReport, toolMissReport } from "../journal/explain.js";
import { depthExceeds, isJsonObject, MAX_JSON_DEPTH } from "../values/json-value.js";
import { errorResponse, resultResponse, type JsonRpcResponse } from "../protocol/jsonrpc.js";
import { rankStubs } from "../journal/near-miss.js";
import { missingArguments, toMessages, type PromptCatalog } from "../stubs/prompt-catalog.js";
import { ErrorCodes } from "../protocol/revisions.js";
import { isAvailable, type StubEntry, type StubRegistry } from "../stubs/registry.js";
import { closestNames, MAX_SHOWN_NAME } from "../journal/explain.js";
import { wrapReadPayload, type ResourceCatalog } from "../stubs/resource-catalog.js";
import { showViolation } from "../stubs/schema-check.js";
import { substitute } from "../values/placeholders.js";
import { isSpecific } from "../stubs/stub.js";
import { matchesAll } from "../stubs/matchers.js";
import { SELECTION_BY_METHOD, type SelectionRule } from "../protocol/methods/index.js";

/** What selection reads. */
export interface SelectionContext {
  readonly registry: StubRegistry;
  readonly tools: ToolCatalog;
  readonly prompts: PromptCatalog;
  readonly resources: ResourceCatalog;
  /** The code for "resource not found" at this call's protocol version. */
  resourceNotFoundCode(call: McpCall): number;
  /** `hintsFile`: the definition file whose JSON miss reports suggest instead of DSL calls (a mock the CLI serves). */
  readonly options: { readonly hintsFile?: string | undefined; readonly proxy?: unknown };
}

/** A stub to play, or an answer the mock gives itself (with a report when it is a miss). */
export type Selection =
  | { readonly entry: StubEntry }
  | { readonly message: JsonRpcResponse; readonly miss?: string };

/** A JSON-RPC error answer. */
export function errorMessage(call: McpCall, code: number, message: string, data?: unknown): JsonRpcResponse {
  return errorResponse(call.id ?? null, code, message, data);
}

/** An `isError` tool result carrying a text. */
function toolError(call: McpCall, text: string): JsonRpcResponse {
  return resultResponse(call.id as RequestId, { content: [{ type: "text", text }], isError: true });
}

function invalid(call: McpCall, message: string): Selection {
  return { message: errorMessage(call, ErrorCodes.InvalidParams, message), miss: message };
}

/** Stubs a call passed over (a fault's `rate` let it through): selection leaves them out as if spent. */
type Passed = ReadonlySet<StubEntry> | undefined;

/** Whether a stub can answer this call: available, and not one the call passed over. */
function usable(entry: StubEntry, passed: Passed): boolean {
  return isAvailable(entry) && (passed === undefined || !passed.has(entry));
}

/** Selects the answer for a call (leaving out the stubs it `passed` over). */
export function select(ctx: SelectionContext, call: McpCall, passed?: Passed): Selection {
  // params hold the arguments one level down: the same 512 limit as withArgs. Params parsed
  // from a message nest no deeper than its text is long, so a short message needs no walk.
  const parsedFromShortText = call.body !== "" && call.body.length <= MAX_JSON_DEPTH;
  if (call.params !== undefined && !parsedFromShortText && depthExceeds(call.params, MAX_JSON_DEPTH + 1)) {
    const message = `${PREFIX} the params of ${call.method} nest deeper than ${MAX_JSON_DEPTH} levels; the mock does not match on them.`;
    return SELECTION_BY_METHOD.get(call.method) === "tool-tiers" ? { message: toolError(call, message), miss: message } : invalid(call, message);
  }
  return (SELECTOR_BY_METHOD.get(call.method) ?? selectPlain)(ctx, call, passed);
}

/** The one ordering rule for every method, then a `Method not found` miss with its report. */
function selectPlain(ctx: SelectionContext, call: McpCall, passed: Passed): Selection {
  const candidates = ctx.registry.candidates(call, call.key);
  for (const entry of candidates) if (usable(entry, passed) && matchesAll(entry.stub.matchers, call)) return { entry };
  const known = [...new Set(ctx.registry.all().map((e) => e.stub.method))];
  const report = methodMissReport(call, rankStubs(call, reported(ctx.registry.forMethod(call.method, call.key), passed)), known, ctx.options.hintsFile);
  return { message: errorMessage(call, ErrorCodes.MethodNotFound, "Method not found", report), miss: report };
}

/** The first specific stub that matches, and the first any-arguments one. */
function tiers(ctx: SelectionContext, call: McpCall, key: string, passed: Passed): { specific?: StubEntry; any?: StubEntry } {
  let any: StubEntry | undefined;
  for (const entry of ctx.registry.candidates(call, key)) {
    if (!usable(entry, passed) || !matchesAll(entry.stub.matchers, call)) continue;
    if (isSpecific(entry.stub)) return { specific: entry };
    any ??= entry;
  }
  return any ? { any } : {};
}

/** The definition file every one of these stubs came from, if they all came from one. */
function definitionFileOf(stubs: readonly StubEntry[]): string | undefined {
  const files = new Set(stubs.map((e) => (typeof e.stub.source === "object" ? e.stub.source.file : undefined)));
  return files.size === 1 ? [...files][0] : undefined;
}

/** The stubs a miss report ranks: a stub the call passed over did not miss it, so it is left out. */
function reported(stubs: StubEntry[], passed: Passed): StubEntry[] {
  return passed === undefined ? stubs : stubs.filter((e) => !passed.has(e));
}

function userStubs(ctx: SelectionContext, method: string, key: string, passed: Passed): StubEntry[] {
  return reported(ctx.registry.forMethod(method, key).filter((e) => e.stub.source !== "default"), passed);
}

/** What differs between the answers to an unknown tool and to an unknown prompt. */
const UNKNOWN_NAME = {
  tool: {
    dataKeys: ["unknownTool", "declaredTools"],
    declare: (name: string) => `mock.declareTool({ name: ${JSON.stringify(name)}, inputSchema: { type: "object" } })`,
    declareIn: (name: string, file: string) => `add to the tools of ${file}: { "name": ${JSON.stringify(name)}, "inputSchema": { "type": "object" } }`,
    suggest: true,
  },
  prompt: {
    dataKeys: ["unknownPrompt", "declaredPrompts"],
    declare: (name: string) => `mock.declarePrompt({ name: ${JSON.stringify(name)} })`,
    declareIn: (name: string, file: string) => `add to the prompts of ${file}: { "name": ${JSON.stringify(name)}, "messages": "..." }`,
    suggest: false, // the prompt report has never offered "Did you mean"
  },
} as const;

/**
 * In proxy mode, a name nothing declares: the call goes to the upstream, so the mock's own
 * answer and report (the declared names, a did-you-mean) would never be read, and are not made.
 */
const TO_UPSTREAM: Selection = { message: { jsonrpc: "2.0", id: null, error: { code: ErrorCodes.InvalidParams, message: "not declared here: the upstream answers it" } }, miss: `${PREFIX} not declared here: the upstream answers it.` };

/**
 * A tools/call or prompts/get of a name nothing declares: the protocol's
 * `Unknown tool: <name>` (or prompt) error with the declared names in `data`, and a report
 * that says how to serve it.
 */
function unknownName(call: McpCall, kind: keyof typeof UNKNOWN_NAME, name: string, declared: string[], file?: string): Selection {
  const { dataKeys: [unknownKey, declaredKey], declare, declareIn, suggest } = UNKNOWN_NAME[kind];
  const similar = suggest ? closestNames(name, declared) : [];
  // A name nobody would declare (a client's of a million characters) is shown cut, with no declaration to copy.
  const long = name.length > MAX_SHOWN_NAME;
  const report =
    `${PREFIX} ${call.method} ${long ? showValue(name, MAX_SHOWN_NAME) : `"${name}"`}: no such ${kind} is declared (declared: ${declared.join(", ") || "none"}).` +
    (similar.length ? ` Did you mean "${similar[0]}"?` : "") +
    (long ? ` The name is ${name.length} characters long: no declaration is suggested.` : file === undefined ? ` To serve it, declare it: ${declare(name)}.` : ` To serve it, ${declareIn(name, file)}.`);
  const data = { [unknownKey]: name, [declaredKey]: declared };
  return { message: errorMessage(call, ErrorCodes.InvalidParams, `Unknown ${kind}: ${long ? showValue(name, MAX_SHOWN_NAME) : name}`, data), miss: report };
}

/** The seed's rules for tools: specified arguments, then the schema check, then ANY, then the miss answer. */
function selectToolCall(ctx: SelectionContext, call: McpCall, passed: Passed): Selection {
  const name = call.params?.["name"];
  if (typeof name !== "string") return invalid(call, `${PREFIX} tools/call needs params.name (the tool's name, a string), received ${showValue(name)}.`);
  const rawArgs = call.params?.["arguments"];
  if (rawArgs !== undefined && !isJsonObject(rawArgs)) return invalid(call, `${PREFIX} tools/call params.arguments must be an object, received ${showValue(rawArgs)}.`);
  const { specific, any } = tiers(ctx, call, name, passed);
  if (specific) return { entry: specific };
  // In proxy mode a stub may answer a tool it does not declare (the upstream's).
  if (!ctx.tools.has(name)) return ctx.options.proxy !== undefined ? (any ? { entry: any } : TO_UPSTREAM) : unknownName(call, "tool", name, ctx.tools.names(), ctx.options.hintsFile);
  const violations = ctx.tools.check(name)?.(call.args) ?? [];
  if (violations.length > 0) {
    const file = definitionFileOf(userStubs(ctx, call.method, name, passed)) ?? ctx.options.hintsFile;
    const fix =
      file === undefined
        ? `stub these arguments: mock.toolsCall(${JSON.stringify(name)}).withArgs(${showValue(call.args, 300)}).respondsWith(...)`
        : addEntryHint(file, `{ "tool": ${JSON.stringify(name)}, "args": ${showValue(call.args, 300)}, "result": ... }`);
    const text = [
      `${PREFIX} tool "${name}" rejected the arguments ${showValue(call.args, 300)}: they do not match its inputSchema.`,
      ...violations.slice(0, 10).map((v) => `- ${showViolation(v)}`),
      ...(violations.length > 10 ? [`- … and ${violations.length - 10} more`] : []),
      `The inputSchema declared for "${name}" (listed by tools/list) requires it.`,
      `If the rejection is intended, ${fix}`,
    ].join("\n");
    return { message: toolError(call, text) };
  }
  if (any) return { entry: any };
  const stubs = userStubs(ctx, call.method, name, passed);
  const report = toolMissReport(call, name, rankStubs(call, stubs), definitionFileOf(stubs) ?? ctx.options.hintsFile);
  return { message: toolError(call, report), miss: report };
}

/** The same rules for prompts: specified arguments, required arguments, ANY or declared messages, the miss. */
function selectPromptGet(ctx: SelectionContext, call: McpCall, passed: Passed): Selection {
  const name = call.params?.["name"];
  if (typeof name !== "string") return invalid(call, `${PREFIX} prompts/get needs params.name (the prompt's name, a string), received ${showValue(name)}.`);
  const rawArgs = call.params?.["arguments"];
  if (rawArgs !== undefined && !isJsonObject(rawArgs)) return invalid(call, `${PREFIX} prompts/get params.arguments must be an object of strings, received ${showValue(rawArgs)}.`);
  const { specific, any } = tiers(ctx, call, name, passed);
  if (specific) return { entry: specific };
  const prompt = ctx.prompts.get(name);
  if (!prompt) return ctx.options.proxy !== undefined ? (any ? { entry: any } : TO_UPSTREAM) : unknownName(call, "prompt", name, ctx.prompts.names(), ctx.options.hintsFile);
  const missing = missingArguments(prompt, call.args);
  if (missing.length > 0) {
    const message = `Invalid params: prompt "${name}" requires the argument${missing.length > 1 ? "s" : ""} ${missing.map((m) => `"${m}"`).join(", ")}`;
    const fix =
      ctx.options.hintsFile === undefined
        ? `stub these arguments: mock.promptsGet(${JSON.stringify(name)}).withArgs(${showValue(call.args, 200)}).respondsWith(...)`
        : `add to the responses of prompt ${JSON.stringify(name)} in ${ctx.options.hintsFile}: { "args": ${showValue(call.args, 200)}, "messages": "..." }`;
    const data = `${PREFIX} ${message}. If the rejection is intended, ${fix}`;
    return { message: errorMessage(call, ErrorCodes.InvalidParams, message, data) };
  }
  if (any) return { entry: any };
  if (prompt.messages !== undefined) {
    const result = { messages: toMessages(substitute(prompt.messages, { args: call.args }), `prompt "${name}"`) };
    return { message: resultResponse(call.id as RequestId, prompt.description === undefined ? result : { description: prompt.description, ...result }) };
  }
  const report = promptMissReport(call, name, rankStubs(call, userStubs(ctx, call.method, name, passed)), ctx.options.hintsFile);
  return { message: errorMessage(call, ErrorCodes.InvalidParams, `No stub answers prompts/get ${JSON.stringify(name)} with these arguments`, report), miss: report };
}

/** The longest URI a resource miss's report shows whole (a longer one is cut, and no stub is suggested). */
const MAX_SHOWN_URI = 2_000;

/** Resource reads: stubs (exact URI, template, predicate), then declared contents, then not found. */
function selectResourceRead(ctx: SelectionContext, call: McpCall, passed: Passed): Selection {
  const uri = call.params?.["uri"];
  if (typeof uri !== "string") return invalid(call, `${PREFIX} resources/read needs params.uri (a string), received ${showValue(uri)}.`);
  for (const entry of ctx.registry.candidates(call, uri)) if (usable(entry, passed) && matchesAll(entry.stub.matchers, call)) return { entry };
  const declared = ctx.resources.read(uri);
  const d = declared?.declaration as { text?: string; blob?: string; mimeType?: string; _meta?: Record<string, unknown> } | undefined;
  if (d && (d.text !== undefined || d.blob !== undefined)) {
    // An app's HTML is served as it is (never a template), with its `_meta.ui` on the contents, as hosts read it; a skill's file too (its digest covers these bytes).
    if ((d.mimeType === APP_MIME_TYPE || uri.startsWith(SKILL_URI_SCHEME)) && d.text !== undefined) return { message: resultResponse(call.id as RequestId, { contents: [{ uri, mimeType: d.mimeType, text: d.text, ...(d._meta === undefined ? {} : { _meta: d._meta }) }] }) };
    const payload = d.text !== undefined ? { text: substitute(d.text, { uri: declared?.variables }) as string } : { blob: d.blob };
    return { message: resultResponse(call.id as RequestId, wrapReadPayload(payload, uri, d.mimeType)) };
  }
  const known = ctx.resources.known();
  const stubbed = userStubs(ctx, call.method, uri, passed).map((e) => e.stub.key ?? e.stub.matchers.map((m) => m.describe()).join(" "));
  const close = closestNames(uri, [...known, ...stubbed]);
  // A URI nobody would declare (a client's of a million characters) is shown cut, with no stub to copy.
  const long = uri.length > MAX_SHOWN_URI;
  const report =
    `${PREFIX} No resource answers resources/read ${showValue(uri, MAX_SHOWN_URI)}.` +
    `\nDeclared: ${known.length ? known.join(", ") : "none"}. Stubbed: ${stubbed.length ? stubbed.join(", ") : "none"}.` +
    (close.length ? `\nDid you mean ${close.map((c) => JSON.stringify(c)).join(" or ")}?` : "") +
    (long
      ? `\nThe URI is ${uri.length} characters long: no stub is suggested.`
      : ctx.options.hintsFile === undefined
        ? `\nTo answer it: mock.resourcesRead(${JSON.stringify(uri)}).respondsWith({ text: "..." })`
        : `\nTo answer it, add to the resources of ${ctx.options.hintsFile}: { "uri": ${JSON.stringify(uri)}, "name": "...", "text": "..." }`);
  const data = { uri, knownUris: [...known, ...stubbed.filter((s) => !known.includes(s))], report };
  return { message: errorMessage(call, ctx.resourceNotFoundCode(call), "Resource not found", data), miss: report };
}

/**
 * The selection function of each rule a descriptor can name. The descriptors (protocol/)
 * name a rule as data, since they may not import the engine; the engine owns the behaviour.
 * A `Record` over the rule names makes a new rule a compile error here until it has a
 * function, and the per-method map is built once, so a call costs one Map read.
 */
const SELECTORS: Readonly<Record<SelectionRule, (ctx: SelectionContext, call: McpCall, passed: Passed) => Selection>> = {
  plain: selectPlain,
  "tool-tiers": selectToolCall,
  "prompt-tiers": selectPromptGet,
  "resource-read": selectResourceRead,
};

const SELECTOR_BY_METHOD = new Map([...SELECTION_BY_METHOD].map(([method, rule]) => [method, SELECTORS[rule]]));
