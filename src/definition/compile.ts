/**
 * A definition's entries as DSL chains. Each entry starts at the DSL's entry point, narrows
 * with the same `with*` methods and modifiers, and answers through the same plan-makers as
 * the terminals (`respondsWith`, `respondsWithError`, `respondsWithStatus`, `fails`,
 * `streams`, `sends`, `andThen`), so an entry is accepted or refused exactly as its chain
 * is, with the chain's message after the file and the JSON path. Definition files, the admin
 * API and `mcpmock validate` (a dry run) all come through here.
 * @module
 */
import { fromDataForm, type ValuePattern } from "../values/value-patterns.js";
import { OPENING_METHODS } from "../protocol/methods/index.js";
import type { StubBuilder } from "../dsl/stub-builder.js";
import { ToolCallBuilder, type CompletionBuilder } from "../dsl/method-builders.js";
import type { McpCall } from "../stubs/call.js";
import type { LogLevel, StreamCall, StreamScriptBuilder, StreamValue } from "../stubs/stream-script.js";
import type { ResponsePlan, TaskPlan } from "../stubs/stub.js";
import type { AnswerDefinition, MatchingDefinition, MockDefinition, ModifierDefinition, StepDefinition } from "./format.js";
import { compileTemplate, hasPlaceholders } from "../values/placeholders.js";
import { McpMockError, PREFIX } from "../values/errors.js";
import { method, toolsCall } from "../dsl/patterns.js";
import { wrapToolPayload } from "../stubs/tool-result.js";
import { PROXY_PLAN } from "../engine/proxy-mode.js";

/** The DSL entry points a definition's entries start from: a running mock's, or a dry run's. */
export interface EntryPoints {
  toolsCall(name: string): StubBuilder;
  initialize(): StubBuilder;
  method(name: string): StubBuilder;
  promptsGet(name: string): StubBuilder;
  completionComplete(): CompletionBuilder;
  openStream(): StubBuilder;
}

/** Runs a step that may throw a DSL message; where it has a place in a file, the message gets the file and the JSON path in front. */
type Step = <T>(path: string, run: () => T) => T;

/** A step at a place in a file. */
function inFile(file: string): Step {
  return (path, run) => {
    try {
      return run();
    } catch (error) {
      if (!(error instanceof McpMockError)) throw error;
      throw new McpMockError(`Invalid mock definition — ${file}: ${path}: ${error.message.slice(PREFIX.length + 1)}`);
    }
  };
}

/**
 * A dry run's way through every entry (`mcpmock validate`): an entry's mistake is noted and the
 * next entry tried, so that all are reported at once; `skip` passes over an entry whose
 * mistakes were reported already.
 */
export interface CollectProblems {
  skip(where: string): boolean;
  problem(error: McpMockError): void;
}

/** A step without a place (patterns sent to the admin API): the DSL's message as is. */
const asIs: Step = (_path, run) => run();

/** What placeholders see for a call. */
function context(call: McpCall): Record<string, unknown> {
  const meta = call.params?.["_meta"] as { progressToken?: unknown } | undefined;
  const sc = call as Partial<StreamCall> & { variables?: unknown };
  return {
    args: call.args,
    params: call.params,
    sessionId: call.sessionId,
    progressToken: meta?.progressToken,
    answer: sc.answer,
    answers: sc.answers,
    uri: sc.variables,
  };
}

/** A value, or (when it holds placeholders) a function of the call that fills them: a definition's answer function. */
function templated(value: unknown): StreamValue {
  // A definition's value is JSON (checked by the schema), so it is a StreamValue as it is.
  if (!hasPlaceholders(value)) return value as StreamValue;
  // The template rides along, so stub sentences can show it.
  const fill = compileTemplate(value);
  return Object.assign((call: McpCall) => fill(context(call)), { template: value });
}

function steps(s: StreamScriptBuilder, list: readonly StepDefinition[]): void {
  for (const step of list) {
    if ("progress" in step) s.progress(step.progress, step.total, step.message);
    else if ("log" in step) s.log(step.log as LogLevel, templated(step.data), step.logger);
    else if ("delay" in step) s.delay(step.delay);
    else if ("notify" in step) s.notify(step.notify, templated(step.params));
    else if ("request" in step) s.request(step.request, templated(step.params), { ...(step.timeoutMs === undefined ? {} : { timeoutMs: step.timeoutMs }), ...(step.key === undefined ? {} : { key: step.key }) });
    else if ("requests" in step) {
      const members = Object.entries(step.requests).map(([key, r]) => [key, { method: r.request, ...(r.params === undefined ? {} : { params: templated(r.params) }), ...(r.timeoutMs === undefined ? {} : { timeoutMs: r.timeoutMs }) }]);
      s.requests(Object.fromEntries(members) as Parameters<StreamScriptBuilder["requests"]>[0]);
    } else if ("startTask" in step) s.startTask();
    else if ("send" in step) s.send(templated(step.send));
  }
}

/** One answer, made by the plan-maker of the terminal that gives it (nothing registered yet). */
function answerPlan(builder: StubBuilder, answer: AnswerDefinition): ResponsePlan {
  if (answer.stream !== undefined) {
    const stream = answer.stream;
    const script = (s: StreamScriptBuilder): void => {
      steps(s, stream);
      if (answer.error) s.error(answer.error.code, answer.error.message, answer.error.data);
      // A tool's streamed result may be a failure the model sees, as a plain result may.
      else if (answer.result !== undefined) s.result(templated(answer.isError === true ? wrapToolPayload(answer.result, { isError: true, hasOutputSchema: false, structuredContent: false }) : answer.result));
    };
    return builder.streamPlan(script, answer.dropAfter === undefined ? {} : { dropAfter: answer.dropAfter }, true);
  }
  if (answer.error) return builder.errorPlan(answer.error.code, answer.error.message, answer.error.data);
  if (answer.status !== undefined) return builder.statusPlan(answer.status, answer.body as string | object | undefined, answer.responseHeaders);
  if (answer.fault) return builder.faultPlan(answer.fault.kind, answer.fault.after, answer.rate);
  if (answer.proxy === true) return PROXY_PLAN;
  return builder.planFor(templated(answer.result), { isError: answer.isError === true, ...(answer.sessionId === undefined ? {} : { sessionId: answer.sessionId }) });
}

/** The narrowing methods only some builders have. */
type Narrowable<B> = B & {
  withArgs?(a: unknown): B;
  withArgsMatching?(a: unknown): B;
  withParams?(p: unknown): B;
  withParamsMatching?(p: Record<string, unknown>): B;
};

/** The entry's matching and modifiers, as the DSL's `with*` calls and modifiers, in the order a chain writes them. */
function narrow<B extends StubBuilder>(builder: B, m: MatchingDefinition & ModifierDefinition, where: string, step: Step): B {
  let b = builder as Narrowable<B>;
  const at = (key: string, run: () => B): void => {
    b = step(`${where}.${key}`, run) as Narrowable<B>;
  };
  // Data-form matchers ({ "$regex": ... } and the like) become the DSL's value patterns first.
  const data = (key: string, value: unknown): unknown =>
    fromDataForm(value, key, (path, reason) => step(`${where}.${path}`, () => {
      throw new McpMockError(reason);
    }));
  const { withArgs, withArgsMatching, withParams, withParamsMatching } = b;
  // Read outside `at`: a data-form mistake names its own path, deeper than the field's.
  const narrowBy = <V>(key: string, value: V | undefined, call: ((v: unknown) => B) | undefined): void => {
    if (value === undefined || !call) return;
    const read = data(key, value);
    at(key, () => call.call(b, read));
  };
  narrowBy("args", m.args, withArgs);
  narrowBy("argsMatching", m.argsMatching, withArgsMatching);
  narrowBy("params", m.params, withParams);
  narrowBy("paramsMatching", m.paramsMatching, withParamsMatching as ((v: unknown) => B) | undefined);
  // On the opening request (initialize), sessionId is the id to issue (an answer), not a session to match.
  if (m.sessionId !== undefined && !OPENING_METHODS.has(builder.pattern.method)) at("sessionId", () => b.withSessionId(m.sessionId as string));
  for (const [name, value] of Object.entries(m.headers ?? {})) {
    const read = data(`headers.${name}`, value) as string | ValuePattern;
    at(`headers.${name}`, () => b.withHeader(name, read));
  }
  if (m.protocolVersion !== undefined) at("protocolVersion", () => b.withProtocolVersion(m.protocolVersion as string));
  if (m.bodyContains !== undefined) at("bodyContains", () => b.withBodyContaining(m.bodyContains as string));
  if (m.clientExtension !== undefined) at("clientExtension", () => b.withClientExtension(m.clientExtension as string));
  if (m.priority !== undefined) at("priority", () => b.priority(m.priority as number));
  if (m.times !== undefined) at("times", () => b.times(m.times as number));
  if (m.optional) at("optional", () => b.optional());
  if (m.delay !== undefined) at("delay", () => b.withDelay(m.delay as NonNullable<ModifierDefinition["delay"]>));
  const task = (m as { task?: TaskPlan }).task;
  if (task !== undefined) {
    at("task", () => {
      if (!(b instanceof ToolCallBuilder)) throw new McpMockError(`"task" is for tool entries only ({ "tool": "build", "task": { "afterPolls": 2 }, ... }): only tools/call runs as a task.`);
      return b.asTask(task) as unknown as B;
    });
  }
  const scenario = m.scenario;
  if (scenario) {
    at("scenario.name", () => b.inScenario(scenario.name));
    if (scenario.whenState !== undefined) at("scenario.whenState", () => b.whenState(scenario.whenState as string));
    if (scenario.setState !== undefined) at("scenario.setState", () => b.willSetState(scenario.setState as string));
  }
  return b;
}

/** A pattern (for verification) from its data form: `{ tool | method, args?, sessionId?, ... }`. */
export function patternFromDefinition(def: MatchingDefinition & { tool?: string; method?: string }): StubBuilder {
  if (def.tool !== undefined) return narrow(toolsCall(def.tool), def, "pattern", asIs);
  if (typeof def.method === "string" && def.method !== "") return narrow(method(def.method), def, "pattern", asIs);
  throw new McpMockError(`a pattern needs "tool" (a tools/call) or "method" (any method), like { "tool": "add", "args": { "a": 1 } }.`);
}

/**
 * Registers a definition's stubs, from the given entry points, in the file's order; each
 * new stub's id goes into `ids` as soon as it is registered (so a caller can take them back
 * when a later entry is refused).
 */
export function compileDefinition(start: EntryPoints, def: MockDefinition, file: string, ids: string[], collect?: CollectProblems): void {
  const step = inFile(file);
  /** One entry, or, when collecting, one entry whose mistake is noted and the next entry tried. */
  const each = (where: string, run: () => void): void => {
    if (collect === undefined) return run();
    if (collect.skip(where)) return;
    try {
      run();
    } catch (error) {
      if (!(error instanceof McpMockError)) throw error;
      collect.problem(error);
    }
  };
  /** One entry: its chain, its first answer, then its next answers (`then`). */
  const entry = (where: string, begin: () => StubBuilder, m: MatchingDefinition & ModifierDefinition, first: (b: StubBuilder) => ResponsePlan): void => {
    const builder = narrow(step(where, begin), m, where, step);
    const handle = step(where, () => builder.registerPlan(first(builder), { file, path: where }));
    ids.push(handle.id);
    (m.then ?? []).forEach((next, j) => step(`${where}.then[${j}]`, () => handle.andThenPlan(answerPlan(builder, next))));
  };
  (def.responses ?? []).forEach((r, i) => {
    const begin = (): StubBuilder =>
      r.tool !== undefined ? start.toolsCall(r.tool) : r.prompt !== undefined ? start.promptsGet(r.prompt) : OPENING_METHODS.has(r.method as string) ? start.initialize() : start.method(r.method as string);
    each(`responses[${i}]`, () => entry(`responses[${i}]`, begin, r, (b) => answerPlan(b, r)));
  });
  (def.prompts ?? []).forEach((p, i) =>
    (p.responses ?? []).forEach((r, j) => {
      const answer = (b: StubBuilder): ResponsePlan =>
        r.error ? b.errorPlan(r.error.code, r.error.message, r.error.data) : b.planFor(templated(r.messages), r.description === undefined ? {} : { description: r.description });
      each(`prompts[${i}].responses[${j}]`, () => entry(`prompts[${i}].responses[${j}]`, () => start.promptsGet(p.name), r, answer));
    }),
  );
  (def.completions ?? []).forEach((c, i) => {
    const where = `completions[${i}]`;
    each(where, () => {
      let builder = step(where, () => start.completionComplete());
      const ref = c.ref;
      if (ref?.type === "ref/prompt") builder = step(`${where}.ref.name`, () => builder.forPrompt(ref.name));
      if (ref?.type === "ref/resource") builder = step(`${where}.ref.uri`, () => builder.forResource(ref.uri));
      if (c.argument !== undefined) builder = step(`${where}.argument`, () => builder.withArgument(c.argument as string));
      entry(where, () => builder, {}, (b) => b.planFor(c.values));
    });
  });
  const openStream = def.openStream;
  if (openStream) each("openStream", () => entry("openStream", () => start.openStream(), {}, (b) => b.streamPlan((s: StreamScriptBuilder) => steps(s, openStream), {}, false)));
}
