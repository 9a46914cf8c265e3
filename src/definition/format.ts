/**
 * The definition format as TypeScript types: what `schema.json` (the source of the format)
 * allows, with a doc comment on every field for editors. test/definition-schema.test.ts
 * keeps the two equal, field by field.
 * @module
 */
import type { AppDeclaration } from "../stubs/app-catalog.js";
import type { SkillDeclaration } from "../stubs/skill-catalog.js";
import type { Icon } from "../protocol/icons.js";
import type { ToolDeclaration } from "../stubs/tool-catalog.js";
import type { McpMockOptions } from "../options.js";
import type { AuthOptions } from "../auth/auth-options.js";
import type { PromptDeclaration } from "../stubs/prompt-catalog.js";
import type { AnyResourceDeclaration } from "../stubs/resource-catalog.js";
import type { FaultKind } from "../stubs/stub.js";
import type { LogLevel } from "../stubs/stream-script.js";

/**
 * One stream step as data.
 *
 * @example
 * ```ts
 * import { McpMock, type StepDefinition } from "mcpmock";
 * const steps: StepDefinition[] = [
 *   { progress: 1, total: 2, message: "fetching" },
 *   { log: "info", data: "half way" },
 *   { delay: 50 },
 *   { request: "elicitation/create", params: { message: "Name?", requestedSchema: { type: "object" } } },
 *   { progress: 2, total: 2 },
 * ];
 * await using mock = await McpMock.fromDefinition({ tools: [{ name: "slow" }], responses: [{ tool: "slow", stream: steps, result: "done" }] });
 * ```
 * @category Definitions
 */
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
      log: LogLevel;
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
      /** The request's name: in 2026-07-28 the `inputRequests` key the client answers under; later steps read `{{answers.KEY...}}`. Unnamed: `elicitation-1`, ... */
      key?: string;
      /** What the client answered when this was recorded (`mcpmock record` writes it): `mcpmock check` answers the real server's request with it; the mock ignores it. */
      answer?: {
        /** The client's result. */
        result?: unknown;
        /** The client's JSON-RPC error, instead of a result. */
        error?: Record<string, unknown>;
      };
    }
  | {
      /** Several input requests at once, by key: one `input_required` round carrying all (2026-07-28), or sent together and awaited together (a session). Later steps read `{{answers.KEY...}}`; partial answers are allowed. */
      requests: Record<
        string,
        {
          /** The request's method: `"elicitation/create"`, `"sampling/createMessage"` or `"roots/list"`. */
          request: string;
          /** The request's `params` (placeholders allowed). */
          params?: Record<string, unknown>;
          /** Milliseconds to wait for the client's answer (sessions). */
          timeoutMs?: number;
        }
      >;
    }
  | {
      /** The task starts here (a tool that may run as a task, called as one): the steps before run synchronously (2026-07-28: plain `input_required` rounds), the rest is the task's work. */
      startTask: true;
    }
  | {
      /** Sends this raw JSON-RPC message as is (placeholders allowed). */
      send: Record<string, unknown>;
    };

/**
 * How a stub answers, as data.
 *
 * @example
 * ```ts
 * import { McpMock, type AnswerDefinition } from "mcpmock";
 * const overloaded: AnswerDefinition = { error: { code: -32603, message: "overloaded" } };
 * const streamed: AnswerDefinition = { stream: [{ progress: 1, total: 2 }, { progress: 2, total: 2 }], result: "built" };
 * await using mock = await McpMock.fromDefinition({ tools: [{ name: "build" }], responses: [{ tool: "build", ...streamed, then: [overloaded] }] });
 * ```
 * @category Definitions
 */
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
  /** With `status`: the response's headers, e.g. a hand-made `WWW-Authenticate` challenge (`headers` matches the request's). */
  responseHeaders?: Record<string, string>;
  /** Answer wrong on purpose, to test how a client copes. */
  fault?: {
    /** The fault: `"connection-reset"`, `"empty-response"`, `"malformed-json"`, `"wrong-id"`, `"duplicate-response"` or `"drop-stream-after"`. */
    kind: FaultKind;
    /** For `"drop-stream-after"`: the number of events sent before the connection drops. */
    after?: number;
  };
  /** With `fault`: the share of calls that fail (0 to 1), drawn from the mock's `seed`; the others go on to the next stub, or the upstream in proxy mode. */
  rate?: number;
  /** Proxy mode: the upstream (the real server) answers, so that delays, `times` and scenarios apply to real answers. */
  proxy?: true;
  /** For method `"initialize"`: the `Mcp-Session-Id` to issue. */
  sessionId?: string;
}

/**
 * A data-form matcher, anywhere an expected value may stand (`args`, `argsMatching`, `params`,
 * `paramsMatching`, `headers`): `{ "$any": true }` any value, `{ "$regex": "^err" }` a string
 * matching it, `{ "$contains": "text" }` a string holding it, `{ "$absent": true }` no value at
 * all, `{ "$literal": ... }` that value exactly, even if it looks like one of these.
 *
 * @example
 * ```ts
 * import { McpMock, type DataMatcher } from "mcpmock";
 * const anyCity: DataMatcher = { $any: true };
 * await using mock = await McpMock.fromDefinition({
 *   tools: [{ name: "search" }],
 *   responses: [{ tool: "search", args: { city: anyCity, query: { $contains: "weather" }, page: { $absent: true } }, result: { hits: 3 } }],
 * });
 * ```
 * @category Definitions
 */
export type DataMatcher =
  | {
      /** Any value (for a header: sent, with any value). */
      $any: true;
    }
  | {
      /** A string this regular expression (JavaScript syntax, unicode) matches. */
      $regex: string;
    }
  | {
      /** A string that holds this text. */
      $contains: string;
    }
  | {
      /** No value: the field or header is not sent. */
      $absent: true;
    }
  | {
      /** This value exactly, even if it looks like a data-form matcher. */
      $literal: unknown;
    };

/**
 * What a stub matches, as data. In `args` and the others, a data-form matcher may stand for any value.
 *
 * @example
 * ```ts
 * import { McpMock, type MatchingDefinition } from "mcpmock";
 * const parisWithToken: MatchingDefinition = { argsMatching: { city: "Paris" }, headers: { authorization: { $regex: "^Bearer " } } };
 * await using mock = await McpMock.fromDefinition({ tools: [{ name: "get_weather" }], responses: [{ tool: "get_weather", ...parisWithToken, result: "Sunny" }] });
 * ```
 * @category Definitions
 */
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
  /** Only requests with these headers (names case-insensitive): a value equal to a string, or a data-form matcher. */
  headers?: Record<string, string | DataMatcher>;
  /** Only requests at this protocol version (the negotiated one, or the `MCP-Protocol-Version` header), e.g. `"2025-06-18"`. */
  protocolVersion?: string;
  /** Only requests whose raw JSON text contains this substring. */
  bodyContains?: string;
  /** Only requests from a client that declared this extension (SEP-2133), e.g. `"io.modelcontextprotocol/ui"`, as `withClientExtension`. */
  clientExtension?: string;
}

/**
 * Modifiers, as data.
 *
 * @example
 * ```ts
 * import { McpMock, type ModifierDefinition } from "mcpmock";
 * const flaky: ModifierDefinition = { priority: 5, delay: { distribution: "uniform", min: 10, max: 50 }, then: [{ result: "recovered" }] };
 * await using mock = await McpMock.fromDefinition({ tools: [{ name: "fetch" }], responses: [{ tool: "fetch", fault: { kind: "connection-reset" }, ...flaky }] });
 * ```
 * @category Definitions
 */
export interface ModifierDefinition {
  /** Ranks the stub: higher wins; among equals the newest wins. Default 0. */
  priority?: number;
  /** Answer at most this many calls in all (the first answer's and the `then` answers'), then let later calls fall through to the next stub. */
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

/**
 * How a task-augmented call of a tool runs as a task: the entry's answer is the task's work
 * and its result; an `error` or `isError: true` makes the task `failed`.
 *
 * @example
 * ```ts
 * import { McpMock, type TaskDefinition } from "mcpmock";
 * const task: TaskDefinition = { afterPolls: 2, statuses: ["working", "input_required"], pollInterval: 10 };
 * await using mock = await McpMock.fromDefinition({
 *   tools: [{ name: "build", execution: { taskSupport: "optional" } }],
 *   responses: [{ tool: "build", task, result: { ok: true } }],
 * });
 * ```
 * @category Definitions
 */
export interface TaskDefinition {
  /** The task's ttl in milliseconds. Default: what the client asked, else the mock's `tasks.ttl`. */
  ttl?: number;
  /** The `pollInterval` the task suggests, in milliseconds. */
  pollInterval?: number;
  /** Hold the result back until the client has polled (`tasks/get`) this many times; `tasks/result` releases it. */
  afterPolls?: number;
  /** What those polls report, one status each. */
  statuses?: Array<"working" | "input_required">;
  /** The `statusMessage` of the final status. */
  statusMessage?: string;
}

/**
 * A response entry: for a tool (`tool`) or any method (`method`).
 *
 * @example
 * ```ts
 * import { McpMock, type ResponseDefinition } from "mcpmock";
 * const responses: ResponseDefinition[] = [
 *   { tool: "get_weather", args: { city: "Paris" }, result: "Sunny" },
 *   { tool: "get_weather", result: "No weather for {{args.city}}", isError: true },
 *   { method: "resources/read", params: { uri: "test://hello" }, result: { contents: [{ uri: "test://hello", text: "Hello" }] } },
 * ];
 * await using mock = await McpMock.fromDefinition({ tools: [{ name: "get_weather" }], responses });
 * ```
 * @category Definitions
 */
export type ResponseDefinition = AnswerDefinition &
  MatchingDefinition &
  ModifierDefinition & {
    /** JSON Pointers into this entry's results that `mcpmock check` leaves out (values that vary from run to run), beside `--ignore`; the mock ignores it. */
    ignore?: string[];
  } & (
    | {
        /** The tool whose `tools/call` this entry answers; it must be declared in `tools`. */
        tool: string;
        /** Not with `tool`: an entry answers a tool, a prompt or a method. */
        method?: never;
        /** Not with `tool`: an entry answers a tool, a prompt or a method. */
        prompt?: never;
        /** How a task-augmented call (`params.task`) of the tool runs as a task (`asTask(...)`). */
        task?: TaskDefinition;
      }
    | {
        /** The JSON-RPC method this entry answers, e.g. `"resources/read"` or `"initialize"`. */
        method: string;
        /** Not with `method`: an entry answers a tool, a prompt or a method. */
        tool?: never;
        /** Not with `method`: an entry answers a tool, a prompt or a method. */
        prompt?: never;
        /** Only tool entries run as tasks. */
        task?: never;
      }
    | {
        /** The prompt whose `prompts/get` this entry answers (`args` narrows it by the prompt's arguments), with a `stream` (2026-07-28: its requests are `input_required` rounds) and a `GetPromptResult` as `result`; it must be declared in `prompts`. */
        prompt: string;
        /** Not with `prompt`: an entry answers a tool, a prompt or a method. */
        tool?: never;
        /** Not with `prompt`: an entry answers a tool, a prompt or a method. */
        method?: never;
        /** Only tool entries run as tasks. */
        task?: never;
      }
  );

/**
 * A prompt with optional answers per arguments.
 *
 * @example
 * ```ts
 * import { McpMock, type PromptDefinition } from "mcpmock";
 * const greet: PromptDefinition = {
 *   name: "greet",
 *   arguments: [{ name: "name", required: true }],
 *   messages: "Hello, {{args.name}}",
 *   responses: [{ args: { name: "Ada" }, messages: "Welcome back, Ada" }],
 * };
 * await using mock = await McpMock.fromDefinition({ prompts: [greet] });
 * ```
 * @category Definitions
 */
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
 * @category Definitions
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
    /** What the server does (2025-11-25). */
    description?: string;
    /** The server's website (2025-11-25). */
    websiteUrl?: string;
    /** Icons for the server (2025-11-25). */
    icons?: Icon[];
  };
  /** Declared tools, listed by `tools/list`; responses may only name declared tools. */
  tools?: ToolDeclaration[];
  /** Answers to `tools/call` (with `tool`) or any method (with `method`). */
  responses?: ResponseDefinition[];
  /** Declared resources and resource templates, listed by `resources/list` and `resources/templates/list`; in a file, a `blob` is base64 text. */
  resources?: Array<
    AnyResourceDeclaration & {
      /** The contents as base64 text (a file holds no bytes). */
      readonly blob?: string;
    }
  >;
  /** Declared prompts, listed by `prompts/list`, with optional answers. */
  prompts?: PromptDefinition[];
  /** MCP Apps: `ui://` views (inline `html`, a `file` relative to the definition, or `probe`) a host renders for the tools whose `ui` names them. */
  apps?: AppDeclaration[];
  /** Skills (the Skills extension): `SKILL.md` written from the declaration (its body inline, or a `file` relative to the definition) and its supporting files, served under `skill://`. */
  skills?: SkillDeclaration[];
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
  /** Proxy mode: what no stub answers goes to this real server (a Streamable HTTP `target`, or a stdio `command` with `args`). */
  proxy?: {
    /** The real server's MCP endpoint, e.g. `http://127.0.0.1:3001/mcp`. */
    target?: string;
    /** A command that serves MCP on its stdio. */
    command?: string;
    /** Its arguments. */
    args?: string[];
  };
  /**
   * What `mcpmock record` saw of the client: the capabilities it declared, which `mcpmock check`
   * declares by default (a server lists some tools only to clients that declare elicitation or
   * sampling). The mock ignores it.
   */
  recorded?: {
    /** The client's capabilities in its `initialize` request, e.g. `{ "elicitation": {}, "sampling": {} }`. */
    clientCapabilities?: Record<string, unknown>;
    /**
     * The order the calls were recorded in: the index in `responses` of each call's entry, in
     * turn. `mcpmock check` plays them in this order (a `then` answer after the calls made
     * between), so a stateful server agrees with its own recording.
     */
    order?: number[];
  };
  /** Steps played on every GET stream (server-initiated messages) when it opens. */
  openStream?: StepDefinition[];
  /**
   * Authorization mocking, as the `auth` start option ({@link AuthOptions}): `true`, or which
   * scopes exist and are required, and the metadata variants (`mcpmock serve --auth` sets `true`).
   */
  auth?: boolean | AuthOptions;
  /**
   * Mock options a file may set: `sessions`, `responseMode`, `pageSize`, `resourceNotFoundCode`,
   * `strict`, `seed`, `protocolVersions` and `cacheHints` (2026-07-28).
   */
  options?: Pick<McpMockOptions, "sessions" | "responseMode" | "pageSize" | "resourceNotFoundCode" | "strict" | "seed" | "protocolVersions" | "cacheHints">;
  /** Extensions the mock advertises (SEP-2133), by identifier with their settings, as the `extensions` start option. */
  extensions?: Record<string, Record<string, unknown>>;
  /** The server card (SEP-2127): `false` serves none (`true`, the default, the card made from the declarations), an object replaces fields of the card, as the `serverCard` start option. */
  serverCard?: boolean | Record<string, unknown>;
}
