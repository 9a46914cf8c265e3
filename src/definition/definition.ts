/**
 * Definition files: a mock as JSON data. They are checked against the shipped JSON Schema
 * (`mcpmock/schema.json`) and then for meaning (a response for an undeclared tool, an
 * unknown placeholder), and load into the very stubs the DSL builds.
 * @module
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { basename } from "node:path";
import type { ErrorObject, ValidateFunction } from "ajv";
import type { ToolDeclaration } from "../stubs/tool-catalog.js";
import { McpMockError, jsonTypeOf, showValue } from "../values/errors.js";
import type { McpMockOptions } from "../options.js";
import { checkPlaceholders } from "../values/placeholders.js";
import { ToolCatalog } from "../stubs/tool-catalog.js";
import type { PromptDeclaration } from "../stubs/prompt-catalog.js";
import type { AnyResourceDeclaration } from "../stubs/resource-catalog.js";

/** One stream step as data. */
export type StepDefinition =
  | {
      /** Sends a `notifications/progress` with this progress value (skipped when the request carried no progress token). */
      progress: number;
      /** The progress notification's `total`, if known. */
      total?: number;
      /** The progress notification's human-readable `message` (protocol 2025-03-26 and later). */
      message?: string;
    }
  | {
      /** Sends a `notifications/message` log at this level (`"debug"` to `"emergency"`), if the session's `logging/setLevel` lets it through. */
      log: string;
      /** The log message's `data`: any JSON (placeholders allowed). */
      data: unknown;
      /** The log message's `logger` name. */
      logger?: string;
    }
  | {
      /** Waits this many milliseconds before the next step. */
      delay: number;
    }
  | {
      /** Sends a notification with this method, e.g. `"notifications/resources/updated"`. */
      notify: string;
      /** The notification's `params` (placeholders allowed). */
      params?: Record<string, unknown>;
    }
  | {
      /** Sends a server-to-client request with this method (`"elicitation/create"`, `"sampling/createMessage"`, `"roots/list"`, ...) and waits for the client's answer. */
      request: string;
      /** The request's `params` (placeholders allowed). */
      params?: Record<string, unknown>;
      /** Milliseconds to wait for the client's answer (the mock's `clientTimeoutMs`, 10000, by default). */
      timeoutMs?: number;
    }
  | {
      /** Sends this raw JSON-RPC message as is (placeholders allowed). */
      send: Record<string, unknown>;
    };

/** How a stub answers, as data. */
export interface AnswerDefinition {
  /** The answer: for a tool, a payload wrapped into a `CallToolResult` as `respondsWith` does; for a method, the JSON-RPC result as is. `{{...}}` placeholders are filled from the call. */
  result?: unknown;
  /** For a tool: mark the result `isError: true` (a tool failure the model sees, not a protocol error). */
  isError?: boolean;
  /** Answer with a JSON-RPC error instead of a result. */
  error?: {
    /** The JSON-RPC error code, e.g. `-32603` (internal error). */
    code: number;
    /** The error message. */
    message: string;
    /** The error's optional `data`. */
    data?: unknown;
  };
  /** Answer with an SSE stream: these steps, then `result` or `error` if given. */
  stream?: StepDefinition[];
  /** With `stream`, over HTTP: drop the connection after this many events; the stream goes on, to be resumed with `Last-Event-ID`. */
  dropAfter?: number;
  /** Answer with this raw HTTP status instead of JSON-RPC (over stdio: an internal error naming the status). */
  status?: number;
  /** With `status`: the HTTP body, a string or JSON. */
  body?: unknown;
  /** Answer wrong on purpose, to test how a client copes. */
  fault?: {
    /** The fault: `"connection-reset"`, `"empty-response"`, `"malformed-json"`, `"wrong-id"`, `"duplicate-response"` or `"drop-stream-after"`. */
    kind: string;
    /** For `"drop-stream-after"`: the number of events sent before the connection drops. */
    after?: number;
  };
  /** For method `"initialize"`: the `Mcp-Session-Id` to issue. */
  sessionId?: string;
}

/** What a stub matches, as data. */
export interface MatchingDefinition {
  /** Exact arguments; omitted means any (the seed's ANY). */
  args?: Record<string, unknown>;
  /** Arguments that contain these fields (deeply; others ignored), as `withArgsMatching`. */
  argsMatching?: Record<string, unknown>;
  /** For a `method` entry: params equal to these (key order free), as `withParams`. */
  params?: Record<string, unknown>;
  /** For a `method` entry: params that contain these fields (deeply; others ignored), as `withParamsMatching`. */
  paramsMatching?: Record<string, unknown>;
  /** Only requests in this session (their `Mcp-Session-Id`); on an `initialize` entry, the session id to issue instead. */
  sessionId?: string;
  /** Only requests with these headers (names case-insensitive, values equal). */
  headers?: Record<string, string>;
  /** Only requests at this protocol version (the negotiated one, or the `MCP-Protocol-Version` header), e.g. `"2025-06-18"`. */
  protocolVersion?: string;
  /** Only requests whose raw JSON text contains this substring. */
  bodyContains?: string;
}

/** Modifiers, as data. */
export interface ModifierDefinition {
  /** Ranks the stub: higher wins; among equals the newest wins. Default 0. */
  priority?: number;
  /** Answer at most this many calls, then let later calls fall through to the next stub. */
  times?: number;
  /** Not required by `assertAllStubsUsed()`. */
  optional?: boolean;
  /** Wait before answering: milliseconds, or a random delay drawn from a seeded distribution (the mock's `seed` option). */
  delay?:
    | number
    | {
        /** A uniform random delay. */
        distribution: "uniform";
        /** The shortest delay, in milliseconds. */
        min: number;
        /** The longest delay, in milliseconds. */
        max: number;
      }
    | {
        /** A log-normal random delay: mostly near the median, with a long tail. */
        distribution: "lognormal";
        /** The median delay, in milliseconds. */
        median: number;
        /** The spread: the standard deviation of the delay's natural logarithm. */
        sigma: number;
      };
  /** Put the stub in a scenario (WireMock's state machine); every scenario starts in state `"Started"`. */
  scenario?: {
    /** The scenario's name. */
    name: string;
    /** Answer only while the scenario is in this state. */
    whenState?: string;
    /** After answering, move the scenario to this state. */
    setState?: string;
  };
  /** Answers for the next calls, in order; the last repeats. */
  then?: AnswerDefinition[];
}

/** A response entry: for a tool (`tool`) or any method (`method`). */
export type ResponseDefinition = AnswerDefinition &
  MatchingDefinition &
  ModifierDefinition &
  (
    | {
        /** The tool whose `tools/call` this entry answers; it must be declared in `tools`. */
        tool: string;
        /** Not with `tool`: an entry answers a tool or a method. */
        method?: never;
      }
    | {
        /** The JSON-RPC method this entry answers, e.g. `"resources/read"` or `"initialize"`. */
        method: string;
        /** Not with `method`: an entry answers a tool or a method. */
        tool?: never;
      }
  );

/** A prompt with optional answers per arguments. */
export type PromptDefinition = PromptDeclaration & {
  /** `prompts/get` answers, narrowed like responses (`args`, `sessionId`, ...); each needs `messages` or `error`. */
  responses?: Array<
    MatchingDefinition &
      ModifierDefinition & {
        /** The answer: a string (one user message) or prompt messages; `{{args.name}}` placeholders are filled from the call. */
        messages?: unknown;
        /** The `GetPromptResult`'s `description`. */
        description?: string;
        /** Answer with a JSON-RPC error instead of messages. */
        error?: AnswerDefinition["error"];
      }
  >;
};

/**
 * A mock as data (the format of `mcpmock serve <file>`). The seeds' format (`tools`,
 * `responses` with `tool`, `args` (omitted = any), `result`, `isError`) is a subset.
 *
 * @example
 * ```ts
 * import { McpMock, type MockDefinition } from "mcpmock";
 * const definition: MockDefinition = {
 *   tools: [{ name: "add", inputSchema: { type: "object" } }],
 *   responses: [{ tool: "add", args: { a: 1, b: 2 }, result: { sum: 3 } }, { tool: "add", result: { sum: 0 } }],
 * };
 * await using mock = await McpMock.fromDefinition(definition);
 * ```
 */
export interface MockDefinition {
  /** The JSON Schema the file follows (for editors), e.g. `"node_modules/mcpmock/schema.json"`; ignored by the mock. */
  $schema?: string;
  /** The server's `serverInfo` and `instructions` in the initialize result. */
  server?: {
    /** The server's name, e.g. `"weather"`. */
    name: string;
    /** The server's version, e.g. `"1.0.0"`. */
    version: string;
    /** A human-readable display name (protocol 2025-06-18 and later). */
    title?: string;
    /** `instructions` in the initialize result: how a client should use the server. */
    instructions?: string;
  };
  /** Declared tools, listed by `tools/list`; responses may only name declared tools. */
  tools?: ToolDeclaration[];
  /** Answers to `tools/call` (with `tool`) or any method (with `method`). */
  responses?: ResponseDefinition[];
  /** Declared resources and resource templates, listed by `resources/list` and `resources/templates/list`. */
  resources?: AnyResourceDeclaration[];
  /** Declared prompts, listed by `prompts/list`, with optional answers. */
  prompts?: PromptDefinition[];
  /** Answers to `completion/complete`: values offered for a prompt argument or a resource template variable. */
  completions?: Array<{
    /** What is being completed; omitted means any prompt or resource. */
    ref?:
      | {
          /** A prompt's argument. */
          type: "ref/prompt";
          /** The prompt's name. */
          name: string;
        }
      | {
          /** A resource template's variable. */
          type: "ref/resource";
          /** The resource's URI or URI template. */
          uri: string;
        };
    /** Only completions of this argument (or template variable); omitted means any. */
    argument?: string;
    /** The values, filtered by the typed prefix and sent at most 100 at a time, as a real server would. */
    values: string[];
  }>;
  /** Steps played on every GET stream (server-initiated messages) when it opens. */
  openStream?: StepDefinition[];
  /** Mock options a file may set: `sessions`, `responseMode`, `pageSize`, `resourceNotFoundCode`, `strict` and `seed`. */
  options?: Pick<McpMockOptions, "sessions" | "responseMode" | "pageSize" | "resourceNotFoundCode" | "strict" | "seed">;
}

const FORMAT =
  'Format: { "tools": [ { "name": ..., "inputSchema": ... } ], "responses": [ { "tool": ..., "args": ..., "result": ... } ] } (see mcpmock/schema.json)';

const EXAMPLES: ReadonlyArray<[RegExp, string]> = [
  [/^responses\[\d+\]\.stream/, '{ "progress": 1, "total": 2 }, { "log": "info", "data": "working" }, { "delay": 50 }, { "notify": "notifications/resources/updated", "params": { "uri": "test://x" } }, { "request": "elicitation/create", "params": { ... } }'],
  [/^responses\[\d+\]\.fault/, '{ "fault": { "kind": "drop-stream-after", "after": 2 } }'],
  [/^responses\[\d+\]\.error/, '{ "tool": "add", "error": { "code": -32603, "message": "internal" } }'],
  [/^responses/, '{ "tool": "add", "args": { "a": 1, "b": 2 }, "result": { "sum": 3 } }'],
  [/^tools/, '{ "name": "add", "inputSchema": { "type": "object", "properties": { "a": { "type": "number" } } } }'],
  [/^resources/, '{ "uri": "test://hello", "name": "hello", "text": "Hello, world" } or { "uriTemplate": "test://items/{id}", "name": "item", "text": "item {{uri.id}}" }'],
  [/^prompts\[\d+\]\.responses/, '{ "args": { "name": "Ada" }, "messages": "Hello, Ada" }'],
  [/^prompts/, '{ "name": "greet", "arguments": [{ "name": "name", "required": true }], "messages": "Hello, {{args.name}}" }'],
  [/^completions/, '{ "ref": { "type": "ref/prompt", "name": "greet" }, "argument": "name", "values": ["Ada", "Alan"] }'],
  [/^openStream/, '[{ "delay": 100 }, { "notify": "notifications/tools/list_changed" }]'],
  [/^server/, '{ "name": "weather", "version": "1.0.0" }'],
  [/^options/, '{ "sessions": "stateless", "responseMode": "sse" }'],
];

const require = createRequire(import.meta.url);
let validator: ValidateFunction | undefined;

function validate(value: unknown): readonly ErrorObject[] {
  if (!validator) {
    const Ajv = (require("ajv/dist/2020") as { default: new (o: object) => { compile(s: object): ValidateFunction } }).default;
    // The package refers to itself by name (its exports map has ./schema.json): the same from src/ and dist/.
    const schema = require("mcpmock/schema.json") as object;
    validator = new Ajv({ allErrors: true, strict: false }).compile(schema);
  }
  return validator(value) ? [] : (validator.errors ?? []);
}

function jsonPath(pointer: string): string {
  let path = "";
  for (const part of pointer.split("/").slice(1)) path += /^\d+$/.test(part) ? `[${part}]` : path ? `.${part}` : part;
  return path || "(the root)";
}

function valueAt(root: unknown, pointer: string): unknown {
  let v: unknown = root;
  for (const part of pointer.split("/").slice(1)) v = v !== null && typeof v === "object" ? (v as Record<string, unknown>)[part] : undefined;
  return v;
}

/** The most telling schema error: the deepest one that is not a combinator summary. */
function bestError(errors: readonly ErrorObject[]): ErrorObject {
  const concrete = errors.filter((e) => !["oneOf", "anyOf", "allOf", "if"].includes(e.keyword));
  const pool = concrete.length ? concrete : errors;
  const rank = (e: ErrorObject): number => (e.keyword === "additionalProperties" || e.keyword === "unevaluatedProperties" ? 0 : e.keyword === "required" ? 2 : 1);
  return [...pool].sort((a, b) => b.instancePath.split("/").length - a.instancePath.split("/").length || rank(a) - rank(b))[0] as ErrorObject;
}

function describeError(error: ErrorObject, root: unknown): { path: string; message: string } {
  const params = error.params as Record<string, unknown>;
  const path = jsonPath(error.instancePath);
  const received = valueAt(root, error.instancePath);
  switch (error.keyword) {
    case "required":
      return { path, message: `"${String(params["missingProperty"])}" is required here.` };
    case "additionalProperties":
    case "unevaluatedProperties": {
      const key = String(params["additionalProperty"] ?? params["unevaluatedProperty"]);
      return { path: `${path === "(the root)" ? "" : `${path}.`}${key}`, message: `"${key}" is not a field here (a typo?).` };
    }
    case "type":
      return { path, message: `must be ${String(params["type"])}, received ${showValue(received, 60)} (${jsonTypeOf(received)}).` };
    case "enum":
      return { path, message: `must be one of ${(params["allowedValues"] as unknown[]).map((v) => JSON.stringify(v)).join(", ")}, received ${showValue(received, 60)}.` };
    case "const":
      return { path, message: `must be ${JSON.stringify(params["allowedValue"])}, received ${showValue(received, 60)}.` };
    default:
      return { path, message: `${error.message ?? "is not valid"}, received ${showValue(received, 60)}.` };
  }
}

function fail(source: string, path: string, message: string): never {
  const example = EXAMPLES.find(([re]) => re.test(path))?.[1];
  throw new McpMockError(`Invalid mock definition — ${source}: ${path}: ${message}\n→ ${example ? `Expected like: ${example}` : FORMAT}`);
}

/** The placeholder roots each place may use. */
const TOOL_ROOTS = ["args", "params", "sessionId", "progressToken", "answer", "answers"];
const METHOD_ROOTS = ["params", "sessionId", "progressToken", "answer", "answers"];

/**
 * Throws a {@link McpMockError} naming the source, the JSON path, what was expected and an
 * example, unless `value` is a valid definition.
 *
 * @example
 * ```ts
 * import { assertMockDefinition } from "mcpmock";
 * assertMockDefinition({ tools: [{ name: "add" }], responses: [{ tool: "sum", result: 1 }] }, "weather.mock.json");
 * // throws: Invalid mock definition — weather.mock.json: responses[0].tool: tool "sum" is not in tools. Available tools: add
 * ```
 */
export function assertMockDefinition(value: unknown, source = "definition"): asserts value is MockDefinition {
  checkDefinition(value, source, []);
}

/** @internal The check, where `alsoDeclared` names tools a running mock already has (admin fragments). */
export function checkDefinition(value: unknown, source: string, alsoDeclared: readonly string[]): asserts value is MockDefinition {
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw new McpMockError(`Invalid mock definition — ${source}: the root must be an object, received ${jsonTypeOf(value)}.\n→ ${FORMAT}`);
  }
  shapeChecks(value as Record<string, unknown>, source);
  const errors = validate(value);
  if (errors.length > 0) {
    const { path, message } = describeError(bestError(errors), value);
    fail(source, path, message);
  }
  const def = value as MockDefinition;
  const tools = [...alsoDeclared, ...(def.tools ?? []).map((t) => t.name)];
  declarationChecks(def, source);
  (def.responses ?? []).forEach((r, i) => {
    const where = `responses[${i}]`;
    if (r.tool !== undefined && !tools.includes(r.tool)) {
      fail(source, `${where}.tool`, `tool ${JSON.stringify(r.tool)} is not in tools. Available tools: ${tools.join(", ") || "none"}.`);
    }
    (r.then ?? []).forEach((next, j) => answerCount(next, `${where}.then[${j}]`, source));
    const roots = r.tool !== undefined ? TOOL_ROOTS : METHOD_ROOTS;
    for (const key of ["result", "stream", "then", "error", "body"] as const) {
      checkPlaceholders(r[key], `${where}.${key}`, roots, (path, message) => fail(source, path, message));
    }
    answerCount(r, where, source);
  });
  (def.resources ?? []).forEach((r, i) => {
    const templated = "uriTemplate" in r && r.uriTemplate !== undefined;
    checkPlaceholders((r as { text?: unknown }).text, `resources[${i}].text`, templated ? ["uri"] : [], (path, message) => fail(source, path, message));
  });
  (def.prompts ?? []).forEach((p, i) => {
    (p.responses ?? []).forEach((r, j) => {
      if (r.messages === undefined && r.error === undefined) fail(source, `prompts[${i}].responses[${j}]`, `an entry needs "messages" (a string or prompt messages) or "error".`);
    });
    checkPlaceholders(p.messages, `prompts[${i}].messages`, ["args"], (path, message) => fail(source, path, message));
    (p.responses ?? []).forEach((r, j) => checkPlaceholders(r.messages, `prompts[${i}].responses[${j}].messages`, ["args", "sessionId"], (path, message) => fail(source, path, message)));
  });
}

/** Exactly one answer per entry (a stream may end with a result or an error). */
function answerCount(r: AnswerDefinition, where: string, source: string): void {
  const answers = [r.result !== undefined, r.error !== undefined, r.stream !== undefined, r.status !== undefined, r.fault !== undefined].filter(Boolean).length;
  if (answers !== 1 && !(answers === 2 && r.stream !== undefined && (r.result !== undefined || r.error !== undefined))) {
    fail(source, where, answers === 0 ? "an entry needs an answer: result, error, stream, status or fault." : "give one answer: result, error, stream (optionally with result or error), status or fault.");
  }
}

/** Mistakes the schema can only report as "must match exactly one schema", said plainly. */
function shapeChecks(def: Record<string, unknown>, source: string): void {
  const list = (key: string): unknown[] => (Array.isArray(def[key]) ? (def[key] as unknown[]) : []);
  list("responses").forEach((r, i) => {
    const entry = r as Record<string, unknown> | null;
    if (!entry || typeof entry !== "object") return;
    if (entry["tool"] !== undefined && entry["method"] !== undefined) fail(source, `responses[${i}]`, `give "tool" (a tools/call answer) or "method" (any method), not both.`);
    if (entry["tool"] === undefined && entry["method"] === undefined) fail(source, `responses[${i}]`, `"tool" (a tools/call answer) or "method" (any method) is required here.`);
  });
  list("resources").forEach((r, i) => {
    const entry = r as Record<string, unknown> | null;
    if (!entry || typeof entry !== "object") return;
    if (entry["uri"] !== undefined && entry["uriTemplate"] !== undefined) fail(source, `resources[${i}]`, `give "uri" (a fixed resource) or "uriTemplate" (a template), not both.`);
    if (entry["uri"] === undefined && entry["uriTemplate"] === undefined) fail(source, `resources[${i}]`, `"uri" (a fixed resource) or "uriTemplate" (a template like "test://items/{id}") is required here.`);
  });
}

/** What McpMock.start would refuse in the declarations: checked here, so validate and serve agree. */
function declarationChecks(def: MockDefinition, source: string): void {
  const catalog = new ToolCatalog();
  const seen = new Set<string>();
  (def.tools ?? []).forEach((tool, i) => {
    if (seen.has(tool.name)) fail(source, `tools[${i}].name`, `tool ${JSON.stringify(tool.name)} is declared twice. Give each tool one declaration.`);
    seen.add(tool.name);
    try {
      catalog.declare(tool, `tools[${i}]`);
    } catch (error) {
      // The catalog's message already names tools[i]; only the file is added.
      throw new McpMockError(`Invalid mock definition — ${source}: ${(error as Error).message.replace(/^\[mcpmock\] /, "")}`);
    }
  });
  const prompts = new Set<string>();
  (def.prompts ?? []).forEach((p, i) => {
    if (prompts.has(p.name)) fail(source, `prompts[${i}].name`, `prompt ${JSON.stringify(p.name)} is declared twice.`);
    prompts.add(p.name);
  });
}

/** Reads and checks a definition file (or checks an object); the source names the file in messages. */
export function loadDefinition(fileOrObject: string | MockDefinition): { definition: MockDefinition; source: string } {
  if (typeof fileOrObject !== "string") {
    assertMockDefinition(fileOrObject, "definition");
    return { definition: fileOrObject, source: "definition" };
  }
  const source = basename(fileOrObject);
  let text: string;
  try {
    text = readFileSync(fileOrObject, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new McpMockError(code === "ENOENT" ? `no definition file at ${fileOrObject}. Check the path (it is relative to ${process.cwd()}).` : `cannot read ${fileOrObject}: ${(error as Error).message}`);
  }
  let parsed: unknown;
  text = text.replace(/^\uFEFF/, ""); // positions count in the text JSON.parse reads
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    const reason = (error as Error).message.replace(/\s+/g, " ");
    const position = /position (\d+)/.exec(reason);
    let where = "";
    if (position) {
      const before = text.slice(0, Number(position[1]));
      const line = before.split("\n").length;
      where = ` at line ${line}, column ${before.length - before.lastIndexOf("\n")}`;
    }
    throw new McpMockError(`Invalid mock definition — ${source}: not valid JSON${where} (${reason}). Check the commas, quotes and brackets there; JSON allows no trailing commas or comments.`);
  }
  assertMockDefinition(parsed, source);
  return { definition: parsed, source };
}
