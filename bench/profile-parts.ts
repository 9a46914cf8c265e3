/**
 * The parts of one call's pipeline that `npm run bench:profile` shares a profile's samples out
 * to, by the src/ module a sample's innermost frame of ours comes from. Written as data, so that
 * test/bench-profile-parts.test.ts can hold it against src/: every module it names exists, every
 * function it names is defined there, and every module of the layers a call runs through is
 * either in a part or named in {@link ROLLS_UP} (its samples go to the part of its caller), so a
 * new file cannot fall silently into "HTTP server".
 *
 * A module is written as its path under src/ without `.ts` (`engine/core`), or as a folder with
 * `/*` (`auth/*`: every module under it).
 */

/** One part: the modules whose frames it takes, and, where given, only these functions of them. */
export interface ProfilePart {
  readonly part: string;
  readonly modules: readonly string[];
  readonly functions?: readonly string[];
}

/** The parts, first match wins (the write functions of node-io before the rest of node-io, which parses). */
export const PARTS: readonly ProfilePart[] = [
  { part: "write", modules: ["transports/http/node-io"], functions: ["sendJson", "directResponse"] },
  { part: "parse", modules: ["transports/http/body", "transports/http/node-io", "protocol/jsonrpc", "stubs/call"] },
  {
    part: "gate",
    modules: [
      "transports/http/gate",
      "transports/http/streamable",
      "transports/http/stateless",
      "transports/http/stateless-headers",
      "transports/http/rejections",
      "engine/eras/era",
      "engine/eras/sessions",
      "engine/eras/stateless",
      "protocol/revisions",
      "auth/*",
      "engine/session-store",
    ],
  },
  {
    part: "select",
    modules: [
      "engine/selection",
      "engine/input-rounds",
      "engine/tasks/*",
      "engine/proxy-mode",
      "stubs/registry",
      "stubs/matchers",
      "stubs/predicates",
      "stubs/args-fields",
      "stubs/tool-catalog",
      "stubs/version-matchers",
      "stubs/prompt-catalog",
      "stubs/resource-catalog",
      "values/value-patterns",
      "values/any",
      "values/json-value",
    ],
  },
  {
    part: "answer",
    modules: [
      "engine/stub-play",
      "engine/answers",
      "engine/outcome",
      "engine/stream-player",
      "engine/input-answers",
      "engine/eras/stateless-results",
      "engine/built-in-answers",
      "engine/built-ins/*",
      "stubs/tool-result",
      "stubs/client-acceptance",
      "stubs/schema-check",
      "stubs/stream-script",
      "protocol/content",
      "protocol/result-schemas",
      "values/placeholders",
    ],
  },
  { part: "journal", modules: ["journal/*", "values/json-size"] },
  { part: "write", modules: ["transports/transport", "transports/http/sse-channel", "transports/http/sse-streams"] },
  { part: "dispatch", modules: ["engine/core", "engine/reporting"] },
  // Proxy mode: the exchange with the upstream (its HTTP or stdio client, its session, the
  // reading of its answer), so that a proxied call's samples do not land in "HTTP server".
  { part: "upstream", modules: ["upstream/*", "proxy-target", "values/line-reader"] },
];

/**
 * Modules of the call's layers that are in no part: a sample in one of them goes to the part of
 * the nearest caller that is in one (a method descriptor read during selection counts as
 * selection). Named one by one, so that adding a module is a decision.
 */
export const ROLLS_UP: readonly string[] = [
  "values/in-flight",
  // The authorization server's stores (with auth on, the MCP endpoint's auth event).
  "values/bounded-map",
  // A request body read as a web stream (off Node), and a fetched client ID metadata document.
  "values/capped-stream",
  // The longest delay a timer holds (a stub's delay checked against it).
  "values/max-delay",
  "protocol/methods/*",
  "protocol/entry-points",
  "protocol/pagination",
  "engine/client-requests",
  "engine/declarations",
  "engine/event-stream",
  "engine/fault-rate",
  "engine/operations",
  "engine/proxied-answers",
  "engine/proxy-target",
  "engine/push",
  "engine/skills",
  "stubs/skill-catalog",
  "protocol/skills",
  "engine/subscriptions",
  "engine/upstream-port",
  "engine/views",
  "stubs/answer",
  "stubs/baseline",
  "stubs/random-delay",
  "stubs/stub",
  "transports/faults",
  "transports/http/legacy-sse",
  "transports/http/listener",
  "transports/memory",
  "transports/pipe",
  "transports/stdio",
  "values/errors",
  "values/table",
  "values/version",
  "values/with-fields",
  // Wave 4: the extensions (MCP Apps, negotiation, server cards, icons, URL elicitation, sampling with tools).
  "engine/apps",
  "protocol/apps",
  "protocol/extensions",
  "protocol/icons",
  "protocol/sampling-tools",
  "protocol/server-card",
  "protocol/url-elicitation",
  "stubs/app-catalog",
  "stubs/declared-file",
  "stubs/extension-matchers",
  "transports/http/app-events",
  "transports/http/server-card-routes",
];

/** The src/ folders a call over HTTP runs through: every module in them is in a part or in {@link ROLLS_UP}. */
export const CALL_PATH_FOLDERS: readonly string[] = ["transports", "engine", "stubs", "journal", "protocol", "values", "auth", "upstream"];

/** Whether `module` (a path under src/ without `.ts`) is one that `pattern` names. */
export function names(pattern: string, module: string): boolean {
  return pattern.endsWith("/*") ? module.startsWith(pattern.slice(0, -1)) : module === pattern;
}

/** The part a frame of `module`'s function `fn` belongs to, if any (`#private` names without their `#`). */
export function partOfModule(module: string, fn: string): string | undefined {
  const name = fn.replace(/^#/, "");
  for (const p of PARTS) if (p.modules.some((m) => names(m, module)) && (!p.functions || p.functions.includes(name))) return p.part;
  return undefined;
}
