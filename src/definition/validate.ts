/**
 * Checking a definition: against the schema, then for meaning (a response for an undeclared
 * tool, an unknown placeholder), then as a dry run of its stubs through the DSL, so that
 * `mcpmock validate`, `McpMock.fromDefinition` and the admin API refuse the same entries
 * with the same messages.
 * @module
 */
import { McpMockError, PREFIX, jsonTypeOf } from "../values/errors.js";
import { checkPlaceholders, type KnownNames } from "../values/placeholders.js";
import { MAX_JSON_DEPTH, pathBeyondDepth } from "../values/json-value.js";
import { closestNames } from "../journal/explain.js";
import { ToolCatalog, type ToolDeclaration } from "../stubs/tool-catalog.js";
import { PromptCatalog } from "../stubs/prompt-catalog.js";
import { ResourceCatalog, type AnyResourceDeclaration } from "../stubs/resource-catalog.js";
import { appProblems, toolUiProblems, type AppDeclaration } from "../stubs/app-catalog.js";
import { skillListProblems } from "../stubs/skill-catalog.js";
import { MockCore } from "../engine/core.js";
import type { UpstreamPort } from "../engine/upstream-port.js";
import { proxyTargetProblems } from "../proxy-target.js";
import { completionCompleteOn, initializeOn, methodOn, openStreamOn, promptsGetOn, toolsCallOn } from "../dsl/bound-entry-points.js";
import type { AnswerDefinition, MockDefinition } from "./format.js";
import { FORMAT, schemaErrors } from "./schema.js";
import { describeError, entryOf, schemaProblems } from "./schema-errors.js";
import { Problems } from "./problems.js";
import { compileDefinition } from "./compile.js";
import { schemaSemantics } from "./schema-semantics.js";

/** How deep a definition may nest: a value's limit, and room for the entries that hold it (`responses[0].stream[0].result`). */
const MAX_DEFINITION_DEPTH = MAX_JSON_DEPTH + 16;

/** The placeholder roots each place may use. */
const TOOL_ROOTS = ["args", "params", "sessionId", "progressToken", "answer", "answers"];
const METHOD_ROOTS = ["params", "sessionId", "progressToken", "answer", "answers"];
const PROMPT_ROOTS = ["args", "sessionId"];

/**
 * Throws a {@link McpMockError} naming the source, the JSON path, what was expected and an
 * example, unless `value` is a valid definition. Its stubs are tried as the DSL would build
 * them, so an entry the DSL refuses (say `fails("wrong-id", 3)`) is refused here too.
 *
 * @example
 * ```ts
 * import { assertMockDefinition } from "mcpmock";
 * assertMockDefinition({ tools: [{ name: "add" }], responses: [{ tool: "sum", result: 1 }] }, "weather.mock.json");
 * // throws: Invalid mock definition — weather.mock.json: responses[0].tool: tool "sum" is not in tools. Available tools: add
 * ```
 * @category Definitions
 */
export function assertMockDefinition(value: unknown, source = "definition"): asserts value is MockDefinition {
  checkDefinition(value, source);
}

/**
 * Where a definition is checked for: the one rule every loader passes on (a file, a reload, an
 * admin fragment, a dry run). Not exported from the package; the loaders' declarations name it.
 */
export interface DefinitionContext {
  /** Tools a running mock already declares (an admin fragment may answer them). */
  readonly alsoDeclared?: readonly string[];
  /** The mock has an upstream (proxy mode): a tool or prompt the definition does not declare may be the upstream's. */
  readonly proxied?: boolean;
}

/** @internal The check, in a context (a running mock's declarations, proxy mode); a definition's own `proxy` section counts as proxy mode. */
export function checkDefinition(value: unknown, source: string, context: DefinitionContext = {}): asserts value is MockDefinition {
  const alsoDeclared = context.alsoDeclared ?? [];
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw new McpMockError(`Invalid mock definition — ${source}: the root must be an object, received ${jsonTypeOf(value)}.\n→ ${FORMAT}`);
  }
  // Checked first, without recursion: the checks below walk values recursively.
  const deep = pathBeyondDepth(value, MAX_DEFINITION_DEPTH);
  if (deep !== undefined) {
    throw new McpMockError(`Invalid mock definition — ${source}: ${deep} nests objects and arrays deeper than ${MAX_DEFINITION_DEPTH} levels from the root; a stubbed value may nest ${MAX_JSON_DEPTH}. Flatten it.`);
  }
  const problems = new Problems(source);
  // An entry with a shape problem (both "tool" and "method", say) gets no schema noise besides.
  const shaped = shapeChecks(value as Record<string, unknown>, problems);
  const errors = schemaErrors(value);
  for (const error of schemaProblems(errors, shaped)) {
    const { path, message, field } = describeError(error, value);
    problems.add(path, message, field === true);
  }
  // The checks below read the definition as the schema shapes it: in the same pass, they skip
  // the entries the schema refused (and a list that is not one).
  const broken = new Set([...shaped, ...errors.map((e) => entryOf(e.instancePath))]);
  const def = value as MockDefinition;
  const entries = <T>(list: string): Array<[T, number]> => {
    const items = (def as Record<string, unknown>)[list];
    if (!Array.isArray(items) || broken.has(`/${list}`)) return [];
    return (items as T[]).map((item, i) => [item, i] as [T, number]).filter(([, i]) => !broken.has(`/${list}/${i}`));
  };
  // In proxy mode, a tool or prompt the file does not declare may be the upstream's.
  const proxied = def.proxy !== undefined || context.proxied === true;
  const declaredTools = declaredNames(def.tools ?? []);
  const tools = [
    ...alsoDeclared,
    ...(declaredTools ?? []),
    ...(proxied ? entries<{ tool?: string }>("responses").flatMap(([r]) => (r.tool === undefined ? [] : [r.tool])) : []),
  ];
  const toolDeclarations = entries<NonNullable<MockDefinition["tools"]>[number]>("tools").map(([t]) => t);
  // A fragment without prompts (the admin API's) may answer a prompt the running mock declares.
  const prompts = def.prompts === undefined || proxied ? undefined : declaredNames(def.prompts);
  declarationChecks(def, entries, broken, problems);
  schemaSemantics(def, entries("tools"), entries("responses"), problems);
  appChecks(def, entries, proxied || (context.alsoDeclared !== undefined && def.apps === undefined), problems);
  // The skills (files relative to the definition, resolved when it was loaded), a URI declared twice.
  for (const message of skillListProblems(entries("skills"), "skills")) addAt(problems, message);
  entries<NonNullable<MockDefinition["responses"]>[number]>("responses").forEach(([r, i]) => {
    const where = `responses[${i}]`;
    if (r.tool !== undefined && declaredTools !== undefined && !tools.includes(r.tool)) {
      const near = closestNames(r.tool, tools)[0];
      problems.add(`${where}.tool`, `tool ${JSON.stringify(r.tool)} is not in tools.${near === undefined ? "" : ` Did you mean "${near}"?`} Available tools: ${[...new Set(tools)].join(", ") || "none"}.`);
    }
    if (r.prompt !== undefined && prompts !== undefined && !prompts.includes(r.prompt)) {
      const near = closestNames(r.prompt, prompts)[0];
      problems.add(`${where}.prompt`, `prompt ${JSON.stringify(r.prompt)} is not in prompts.${near === undefined ? "" : ` Did you mean "${near}"?`} Available prompts: ${prompts.join(", ") || "none"}.`);
    }
    (r.then ?? []).forEach((next, j) => answerCount(next, `${where}.then[${j}]`, problems));
    unreachableThen(r, where, problems);
    const roots = r.tool !== undefined || r.prompt !== undefined ? TOOL_ROOTS : METHOD_ROOTS;
    const args = r.tool === undefined ? undefined : toolArguments(toolDeclarations, r.tool);
    for (const key of ["result", "stream", "then", "error", "body"] as const) {
      checkPlaceholders(r[key], `${where}.${key}`, roots, (path, message) => problems.add(path, message), args ? { args } : {});
    }
    answerCount(r, where, problems);
  });
  entries<NonNullable<MockDefinition["resources"]>[number]>("resources").forEach(([r, i]) => {
    const templated = "uriTemplate" in r && r.uriTemplate !== undefined;
    const variables: Record<string, KnownNames> = templated ? { uri: known(templateVariables(r.uriTemplate as string), `the variables of ${JSON.stringify(r.uriTemplate)}`) } : {};
    checkPlaceholders((r as { text?: unknown }).text, `resources[${i}].text`, templated ? ["uri"] : [], (path, message) => problems.add(path, message), variables);
  });
  entries<NonNullable<MockDefinition["prompts"]>[number]>("prompts").forEach(([p, i]) => {
    (p.responses ?? []).forEach((r, j) => {
      if (r.messages === undefined && r.error === undefined) problems.add(`prompts[${i}].responses[${j}]`, `an entry needs "messages" (a string or prompt messages) or "error".`);
      (r.then ?? []).forEach((next, k) => answerCount(next, `prompts[${i}].responses[${j}].then[${k}]`, problems));
      unreachableThen(r, `prompts[${i}].responses[${j}]`, problems);
    });
    const args = { args: known((p.arguments ?? []).map((a) => a.name), `the arguments of prompt ${JSON.stringify(p.name)}`) };
    checkPlaceholders(p.messages, `prompts[${i}].messages`, ["args"], (path, message) => problems.add(path, message), args);
    (p.responses ?? []).forEach((r, j) => {
      for (const key of ["messages", "then"] as const) checkPlaceholders(r[key], `prompts[${i}].responses[${j}].${key}`, PROMPT_ROOTS, (path, message) => problems.add(path, message), args);
    });
  });
  // The dry run tries every entry the checks above passed, so its mistakes are listed with theirs.
  const skip = (where: string): boolean => broken.has(pointerOf(where)) || problems.hasAt(where);
  let found: McpMockError[];
  try {
    found = dryRun(def, source, tools, alsoDeclared, proxied, skip);
  } catch (error) {
    // A definition with problems may not even set up a dry run (a list that is not one): those are reported.
    if (problems.size === 0) throw error;
    found = [];
  }
  // One mistake alone keeps the DSL's message as it is.
  if (problems.size === 0 && found.length === 1) throw found[0] as McpMockError;
  const head = `${PREFIX} Invalid mock definition — ${source}: `;
  for (const error of found) addAt(problems, error.message.startsWith(head) ? error.message.slice(head.length) : error.message.slice(PREFIX.length + 1));
  problems.throwIfAny();
}

/** The JSON pointer of an entry's path: `/responses/3` for `responses[3]`, `/prompts/1` for `prompts[1].responses[0]`. */
function pointerOf(where: string): string {
  const m = /^(\w+)(?:\[(\d+)\])?/.exec(where);
  return m ? `/${m[1]}${m[2] === undefined ? "" : `/${m[2]}`}` : where;
}

function known(names: readonly string[], what: string): KnownNames {
  return { names, what, closest: closestNames };
}

/**
 * The names a list of declarations gives, or `undefined` when the list, or one of its entries'
 * names, cannot be read: then no response is said to name something the list lacks (its
 * problem is reported already).
 */
function declaredNames(list: unknown): string[] | undefined {
  if (!Array.isArray(list)) return undefined;
  const names = list.map((item: unknown) => (item !== null && typeof item === "object" ? (item as { name?: unknown }).name : undefined));
  return names.every((name): name is string => typeof name === "string") ? names : undefined;
}

/**
 * The arguments a tool's inputSchema names, when it says which exist: its `properties`, unless
 * it also allows others (`additionalProperties`, `patternProperties`); `undefined` otherwise.
 */
function toolArguments(declarations: NonNullable<MockDefinition["tools"]>, tool: string): KnownNames | undefined {
  const schema = declarations.find((t) => t.name === tool)?.inputSchema as Record<string, unknown> | undefined;
  const properties = schema?.["properties"];
  if (properties === null || typeof properties !== "object") return undefined;
  const others = schema?.["additionalProperties"];
  if ((others !== undefined && others !== false) || schema?.["patternProperties"] !== undefined) return undefined;
  return known(Object.keys(properties), `the arguments of tool ${JSON.stringify(tool)}'s inputSchema`);
}

/** The variable names of an RFC 6570 URI template: `test://items/{id}{?q,page*}` has id, q, page. */
function templateVariables(template: string): string[] {
  return [...template.matchAll(/\{[+#./;?&]?([^}]*)\}/g)].flatMap((m) => (m[1] as string).split(",").map((v) => v.replace(/(\*|:\d+)$/, "").trim()));
}

/** Exactly one answer per entry (a stream may end with a result or an error). */
function answerCount(r: AnswerDefinition, where: string, problems: Problems): void {
  const answers = [r.result !== undefined, r.error !== undefined, r.stream !== undefined, r.status !== undefined, r.fault !== undefined, r.proxy !== undefined].filter(Boolean).length;
  if (answers !== 1 && !(answers === 2 && r.stream !== undefined && (r.result !== undefined || r.error !== undefined))) {
    problems.add(where, answers === 0 ? "an entry needs an answer: result, error, stream, status, fault or proxy." : "give one answer: result, error, stream (optionally with result or error), status, fault or proxy.");
  }
  if (r.rate !== undefined && r.fault === undefined) problems.add(`${where}.rate`, 'rate is the share of calls a fault fails: give it beside "fault", e.g. { "fault": { "kind": "connection-reset" }, "rate": 0.2 }.');
}

/**
 * `times` counts every call an entry answers, its first answer's and its `then` answers', as
 * `.times(n)` does for `andThen`; a `then` answer past that count would never be given.
 */
function unreachableThen(r: { times?: number; then?: readonly unknown[] }, where: string, problems: Problems): void {
  const { times, then = [] } = r;
  if (times === undefined || then.length < times) return;
  const calls = `${times} call${times === 1 ? "" : "s"}`;
  problems.add(
    `${where}.then[${times - 1}]`,
    `this answer would never be given: "times": ${times} lets the entry answer ${calls} in all, and the answers before it take ${times === 1 ? "it" : "them"}. ` +
      `Drop "times" to answer the first call with the entry's answer and every later call with the "then" answers (the last one repeats), or make "times" ${then.length + 1} or more to stop after them.`,
  );
}

/** Mistakes the schema can only report as "must match exactly one schema", said plainly. */
function shapeChecks(def: Record<string, unknown>, problems: Problems): Set<string> {
  const shaped = new Set<string>();
  const add = (list: string, i: number, message: string): void => {
    shaped.add(`/${list}/${i}`);
    problems.add(`${list}[${i}]`, message);
  };
  const list = (key: string): unknown[] => (Array.isArray(def[key]) ? (def[key] as unknown[]) : []);
  list("responses").forEach((r, i) => {
    const entry = r as Record<string, unknown> | null;
    if (!entry || typeof entry !== "object") return;
    const kinds = ["tool", "prompt", "method"].filter((k) => entry[k] !== undefined);
    if (kinds.length > 1) add("responses", i, `give "tool" (a tools/call answer), "prompt" (a prompts/get answer) or "method" (any method), not ${kinds.map((k) => `"${k}"`).join(" and ")}.`);
    if (kinds.length === 0) {
      // A misspelt key ("tol") is the likely cause: name it with its fix.
      const typo = Object.keys(entry).map((key) => [key, closestNames(key, ["tool", "prompt", "method"])[0]] as const).find(([, near]) => near !== undefined);
      const hint = typo ? ` "${typo[0]}" is not a field: did you mean "${typo[1]}"?` : "";
      add("responses", i, `"tool" (a tools/call answer), "prompt" (a prompts/get answer) or "method" (any method) is required here.${hint}`);
    }
  });
  list("resources").forEach((r, i) => {
    const entry = r as Record<string, unknown> | null;
    if (!entry || typeof entry !== "object") return;
    if (entry["uri"] !== undefined && entry["uriTemplate"] !== undefined) add("resources", i, `give "uri" (a fixed resource) or "uriTemplate" (a template), not both.`);
    if (entry["uri"] === undefined && entry["uriTemplate"] === undefined) add("resources", i, `"uri" (a fixed resource) or "uriTemplate" (a template like "test://items/{id}") is required here.`);
  });
  return shaped;
}

/** An app's or a tool link's problem (`apps[0].uri must be ...`) at its path in the file. */
function addAt(problems: Problems, message: string): void {
  const m = /^(\S+?):? (.*)$/s.exec(message);
  if (m) problems.add(m[1] as string, m[2] as string);
  else problems.add("apps", message);
}

/** The apps (a `file` is relative to the definition, resolved when it was loaded) and the tools' links to them; `anyLink`: a tool may name an app the file does not declare. */
function appChecks(def: MockDefinition, entries: <T>(list: string) => Array<[T, number]>, anyLink: boolean, problems: Problems): void {
  const uris: string[] = [];
  entries<AppDeclaration>("apps").forEach(([app, i]) => {
    const found = appProblems(app, `apps[${i}]`);
    if (found.length === 0 && uris.includes(app.uri)) found.push(`apps[${i}].uri ${JSON.stringify(app.uri)} is declared twice. Give each app one declaration.`);
    for (const message of found) addAt(problems, message);
    uris.push(app.uri);
  });
  // A tool may name an app whose entry has a problem of its own (reported once, there).
  const all = Array.isArray(def.apps) ? (def.apps as unknown[]).flatMap((a) => (typeof (a as { uri?: unknown } | null)?.uri === "string" ? [(a as { uri: string }).uri] : [])) : [];
  const resources = entries<{ uri?: string }>("resources").flatMap(([r]) => (typeof r.uri === "string" ? [r.uri] : []));
  entries<ToolDeclaration>("tools").forEach(([tool, i]) => {
    const uri = tool.ui?.resourceUri;
    if (uri !== undefined) for (const message of toolUiProblems({ resourceUri: uri }, `tools[${i}].ui`, anyLink ? undefined : [...new Set([...all, ...resources])])) addAt(problems, message);
  });
}

/** What McpMock.start would refuse in the declarations: checked here, so validate and serve agree. */
function declarationChecks(def: MockDefinition, entries: <T>(list: string) => Array<[T, number]>, broken: ReadonlySet<string>, problems: Problems): void {
  // The upstream: what the schema cannot say (one of target and command, an http(s) URL, a command that is not empty).
  if (def.proxy !== undefined && !broken.has("/proxy")) {
    // The schema's example of the section follows each (the fix in the file's terms).
    for (const message of proxyTargetProblems(def.proxy)) problems.add("proxy", message);
  }
  const catalog = new ToolCatalog();
  const seen = new Set<string>();
  entries<NonNullable<MockDefinition["tools"]>[number]>("tools").forEach(([tool, i]) => {
    if (seen.has(tool.name)) problems.add(`tools[${i}].name`, `tool ${JSON.stringify(tool.name)} is declared twice. Give each tool one declaration.`);
    if (seen.has(tool.name)) return;
    seen.add(tool.name);
    try {
      catalog.declare(tool, `tools[${i}]`);
    } catch (error) {
      // The catalog's message names the tool; it is listed with the others.
      problems.add(`tools[${i}]`, (error as Error).message.replace(/^\[mcpmock\] /, ""));
    }
  });
  const auth = typeof def.auth === "object" ? def.auth : undefined;
  const unknownScopes = Array.isArray(auth?.scopes) && Array.isArray(auth?.required) ? auth.required.filter((s) => !auth.scopes?.includes(s)) : [];
  if (unknownScopes.length > 0) problems.add("auth.required", `names ${unknownScopes.map((s) => JSON.stringify(s)).join(", ")}, which auth.scopes does not list: add it to scopes, or leave scopes out (it defaults to required).`);
  const prompts = new Set<string>();
  const promptCatalog = new PromptCatalog();
  entries<NonNullable<MockDefinition["prompts"]>[number]>("prompts").forEach(([p, i]) => {
    if (prompts.has(p.name)) problems.add(`prompts[${i}].name`, `prompt ${JSON.stringify(p.name)} is declared twice.`);
    prompts.add(p.name);
    declareOrNote(() => promptCatalog.declare(p, `prompts[${i}]`), problems);
  });
  // Resources as the mock declares them at start (a template that does not parse, a uri that is
  // one), and each URI or template once: a second declaration would replace the first.
  const resourceCatalog = new ResourceCatalog();
  const keys = new Map<string, number>();
  entries<AnyResourceDeclaration>("resources").forEach(([r, i]) => {
    const field = "uriTemplate" in r && r.uriTemplate !== undefined ? "uriTemplate" : "uri";
    const key = (r as unknown as Record<string, unknown>)[field];
    const first = typeof key === "string" ? keys.get(key) : undefined;
    if (first !== undefined) return problems.add(`resources[${i}].${field}`, `${JSON.stringify(key)} is declared twice (first at resources[${first}]), and the second would replace the first. Give each resource one declaration.`);
    if (typeof key === "string") keys.set(key, i);
    declareOrNote(() => resourceCatalog.declare(r, `resources[${i}]`), problems);
  });
}

/** Runs a catalog's declare; its refusal (which names its path) is noted with the others. */
function declareOrNote(declare: () => void, problems: Problems): void {
  try {
    declare();
  } catch (error) {
    if (!(error instanceof McpMockError)) throw error;
    addAt(problems, error.message.slice(PREFIX.length + 1));
  }
}

/** A dry run's upstream in proxy mode: the core checks stubs as a proxied mock's would, and nothing is ever sent. */
const NO_UPSTREAM: UpstreamPort = {
  name: "the dry run's upstream",
  info: undefined,
  request: () => Promise.resolve({ error: { code: -32603, message: "a dry run sends nothing upstream" } }),
  open: () => undefined,
  notify: () => undefined,
  endSession: () => undefined,
  close: () => Promise.resolve(),
};

/**
 * Builds the definition's stubs, as `McpMock.fromDefinition` will, on a mock core of its
 * own that is then dropped: every DSL check runs (the file's `strict` included), nothing
 * listens and nothing is kept.
 */
function dryRun(def: MockDefinition, source: string, tools: readonly string[], alsoDeclared: readonly string[], proxied: boolean, skip: (where: string) => boolean): McpMockError[] {
  // A tool the file declares keeps its task support; one the running mock declares (whose
  // declaration is not here) may run as a task: the mock's own check runs when the stubs are added.
  const executions = new Map((def.tools ?? []).map((t) => [t.name, t.execution]));
  const core = new MockCore({
    tools: [...new Set(tools)].map((name) => {
      const execution = executions.has(name) ? executions.get(name) : alsoDeclared.includes(name) ? ({ taskSupport: "optional" } as const) : undefined;
      return execution === undefined ? { name } : { name, execution };
    }),
    prompts: (def.prompts ?? []).map((p) => ({ name: p.name })),
    ...(def.options?.strict === undefined ? {} : { strict: def.options.strict }),
  }, proxied ? NO_UPSTREAM : undefined);
  const start = {
    toolsCall: (name: string) => toolsCallOn(core, name),
    initialize: () => initializeOn(core),
    method: (name: string) => methodOn(core, name),
    promptsGet: (name: string) => promptsGetOn(core, name),
    completionComplete: () => completionCompleteOn(core),
    openStream: () => openStreamOn(core),
  };
  const found: McpMockError[] = [];
  compileDefinition(start, def, source, [], { skip, problem: (error) => found.push(error) });
  return found;
}
