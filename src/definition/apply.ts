/**
 * Loading a definition into a mock: every entry goes through the same builders as the DSL,
 * so a definition and the equivalent code give the same stubs.
 * @module
 */
import type { StubBuilder } from "../dsl/stub-builder.js";
import type { McpCall } from "../stubs/call.js";
import type { AnswerDefinition, MatchingDefinition, MockDefinition, ModifierDefinition, StepDefinition } from "./definition.js";
import type { McpMock } from "../mock.js";
import { hasPlaceholders, substitute } from "../values/placeholders.js";
import type { LogLevel, StreamCall, StreamScriptBuilder } from "../stubs/stream-script.js";
import type { FaultKind, ResponsePlan, StubSource } from "../stubs/stub.js";
import { McpMockError } from "../values/errors.js";
import { method, toolsCall } from "../dsl/patterns.js";

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

/** A value, or (when it holds placeholders) a function of the call that fills them. */
function templated(value: unknown): unknown {
  if (!hasPlaceholders(value)) return value;
  // The template rides along, so stub sentences can show it.
  return Object.assign((call: McpCall) => substitute(value, context(call)), { template: value });
}

function steps(s: StreamScriptBuilder, list: readonly StepDefinition[]): void {
  for (const step of list) {
    if ("progress" in step) s.progress(step.progress, step.total, step.message);
    else if ("log" in step) s.log(step.log as LogLevel, templated(step.data), step.logger);
    else if ("delay" in step) s.delay(step.delay);
    else if ("notify" in step) s.notify(step.notify, templated(step.params));
    else if ("request" in step) s.request(step.request, templated(step.params), step.timeoutMs === undefined ? {} : { timeoutMs: step.timeoutMs });
    else if ("send" in step) s.send(templated(step.send));
  }
}

function plan(builder: StubBuilder, answer: AnswerDefinition): ResponsePlan {
  if (answer.stream !== undefined) {
    const stream = answer.stream;
    return builder.streamPlan(
      (s: StreamScriptBuilder) => {
        steps(s, stream);
        if (answer.error) s.error(answer.error.code, answer.error.message, answer.error.data);
        else if (answer.result !== undefined) s.result(templated(answer.result));
      },
      answer.dropAfter === undefined ? {} : { dropAfter: answer.dropAfter },
      true,
    );
  }
  if (answer.error) return { kind: "error", code: answer.error.code, message: answer.error.message, ...(answer.error.data === undefined ? {} : { data: answer.error.data }) };
  if (answer.status !== undefined) return { kind: "status", status: answer.status, ...(answer.body === undefined ? {} : { body: answer.body as string | object }) };
  if (answer.fault) return { kind: "fault", fault: answer.fault.kind as FaultKind, ...(answer.fault.after === undefined ? {} : { after: answer.fault.after }) };
  return builder.planFor(templated(answer.result), { isError: answer.isError === true, ...(answer.sessionId === undefined ? {} : { sessionId: answer.sessionId }) });
}

/** A pattern (for verification) from its data form: `{ tool | method, args?, sessionId?, ... }`. */
export function patternFromDefinition(def: MatchingDefinition & { tool?: string; method?: string }): StubBuilder {
  if (def.tool !== undefined) return narrow(toolsCall(def.tool), def);
  if (typeof def.method === "string" && def.method !== "") return narrow(method(def.method), def);
  throw new McpMockError(`a pattern needs "tool" (a tools/call) or "method" (any method), like { "tool": "add", "args": { "a": 1 } }.`);
}

function narrow<B extends StubBuilder>(builder: B, m: MatchingDefinition & ModifierDefinition): B {
  let b = builder as B & {
    withArgs?(a: unknown): B;
    withArgsMatching?(a: unknown): B;
    withParams?(p: unknown): B;
    withParamsMatching?(p: Record<string, unknown>): B;
  };
  if (m.args !== undefined && b.withArgs) b = b.withArgs(m.args) as typeof b;
  if (m.argsMatching !== undefined && b.withArgsMatching) b = b.withArgsMatching(m.argsMatching) as typeof b;
  if (m.params !== undefined && b.withParams) b = b.withParams(m.params) as typeof b;
  if (m.paramsMatching !== undefined && b.withParamsMatching) b = b.withParamsMatching(m.paramsMatching) as typeof b;
  // On an initialize entry, sessionId is the id to issue (an answer), not a session to match.
  if (m.sessionId !== undefined && builder.pattern.method !== "initialize") b = b.withSessionId(m.sessionId);
  for (const [name, value] of Object.entries(m.headers ?? {})) b = b.withHeader(name, value);
  if (m.protocolVersion !== undefined) b = b.withProtocolVersion(m.protocolVersion);
  if (m.bodyContains !== undefined) b = b.withBodyContaining(m.bodyContains);
  if (m.priority !== undefined) b = b.priority(m.priority);
  if (m.times !== undefined) b = b.times(m.times);
  if (m.optional) b = b.optional();
  if (m.delay !== undefined) b = b.withDelay(m.delay);
  if (m.scenario) {
    b = b.inScenario(m.scenario.name);
    if (m.scenario.whenState !== undefined) b = b.whenState(m.scenario.whenState);
    if (m.scenario.setState !== undefined) b = b.willSetState(m.scenario.setState);
  }
  return b;
}

function register(builder: StubBuilder, entry: AnswerDefinition & ModifierDefinition, source: StubSource): string {
  const plans = [plan(builder, entry), ...(entry.then ?? []).map((a) => plan(builder, a))];
  return builder.registerPlans(plans, source).id;
}

/** A definition's prompts without their responses: the declarations. */
export function promptDeclarations(def: MockDefinition): MockDefinition["prompts"] {
  return def.prompts?.map(({ responses: _responses, ...declaration }) => declaration);
}

/**
 * Adds a definition's stubs to a mock; returns the new stub ids. With `declare`, its tools,
 * resources and prompts are declared first (the admin API); `McpMock.fromDefinition`
 * declares them at start instead.
 */
export function applyDefinition(mock: McpMock, def: MockDefinition, file: string, declare: boolean): string[] {
  const ids: string[] = [];
  const src = (path: string): StubSource => ({ file, path });
  if (declare) {
    for (const tool of def.tools ?? []) mock.declareTool(tool);
    for (const resource of def.resources ?? []) mock.declareResource(resource);
    for (const prompt of promptDeclarations(def) ?? []) mock.declarePrompt(prompt);
  }
  (def.responses ?? []).forEach((r, i) => {
    const entry = r.tool !== undefined ? mock.toolsCall(r.tool) : r.method === "initialize" ? mock.initialize() : mock.method(r.method as string);
    ids.push(register(narrow(entry as StubBuilder, r), r, src(`responses[${i}]`)));
  });
  (def.prompts ?? []).forEach((p, i) =>
    (p.responses ?? []).forEach((r, j) => {
      const answer: AnswerDefinition = r.error ? { error: r.error } : { result: r.messages };
      const builder = narrow(mock.promptsGet(p.name) as StubBuilder, r);
      const plans = [r.error ? plan(builder, answer) : builder.planFor(templated(r.messages), r.description === undefined ? {} : { description: r.description })];
      ids.push(builder.registerPlans(plans, src(`prompts[${i}].responses[${j}]`)).id);
    }),
  );
  (def.completions ?? []).forEach((c, i) => {
    let builder = mock.completionComplete();
    if (c.ref?.type === "ref/prompt") builder = builder.forPrompt(c.ref.name);
    if (c.ref?.type === "ref/resource") builder = builder.forResource(c.ref.uri);
    if (c.argument !== undefined) builder = builder.withArgument(c.argument);
    ids.push(builder.registerPlans([builder.planFor(c.values)], src(`completions[${i}]`)).id);
  });
  if (def.openStream) {
    const stepsDef = def.openStream;
    const builder = mock.openStream();
    ids.push(builder.registerPlans([builder.streamPlan((s: StreamScriptBuilder) => steps(s, stepsDef), {}, false)], src("openStream")).id);
  }
  return ids;
}
