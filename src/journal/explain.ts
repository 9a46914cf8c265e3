/**
 * Pure text: stub sentences and miss reports. Everything a user reads about stubs is
 * written here, from the matchers' own descriptions.
 * @module
 */
import type { McpCall } from "../stubs/call.js";
import { entryCall } from "../protocol/entry-points.js";
import { PREFIX, showValue } from "../values/errors.js";
import { renderStubMisses, methodTarget, type StubMiss } from "./near-miss.js";
import type { StubEntry } from "../stubs/registry.js";
import type { DelayDistribution, ResponsePlan, Stub, TaskPlan } from "../stubs/stub.js";
import type { StreamPlan } from "../stubs/stub.js";

/** The entry-point phrase of a stub: `tools/call "add"`, `ping`, `DELETE session`. */
export function targetPhrase(stub: Pick<Stub, "method" | "key">): string {
  return methodTarget(stub.method, stub.key);
}

/** A response plan in a few words. */
export function planPhrase(plan: ResponsePlan): string {
  switch (plan.kind) {
    case "result": {
      const what =
        plan.label ?? (typeof plan.result === "function" ? "a result computed from the call" : `result ${showValue(plan.result, 80)}`);
      return plan.sessionId === undefined ? what : `${what} and session id ${JSON.stringify(plan.sessionId)}`;
    }
    case "resource-result":
      return typeof plan.payload === "function" ? "contents computed from the call" : `contents ${showValue(plan.payload, 80)}`;
    case "prompt-result":
      return typeof plan.payload === "function" ? "messages computed from the call" : `messages ${showValue(plan.payload, 80)}`;
    case "tool-result": {
      const what = typeof plan.payload === "function" ? templateOf(plan.payload) ?? "a payload computed from the call" : showPayload(plan.payload);
      return plan.isError ? `an error result ${what}` : what;
    }
    case "error":
      return `error ${plan.code} ${JSON.stringify(plan.message)}`;
    case "status":
      return plan.headers ? `HTTP ${plan.status} with ${Object.keys(plan.headers).join(", ")}` : `HTTP ${plan.status}`;
    case "stream":
      return streamPhrase(plan);
    case "fault": {
      const what = plan.after === undefined ? `the fault ${plan.fault}` : `the fault ${plan.fault} (${plan.after} event${plan.after === 1 ? "" : "s"})`;
      return plan.rate === undefined ? what : `${what} for ${Math.round(plan.rate * 1000) / 10}% of the calls`;
    }
    case "proxy":
      return plan.merge !== undefined ? `the upstream's ${plan.merge}, with the declared ones` : plan.transform ? "the upstream's answer, altered" : "the upstream's answer";
  }
}

function streamPhrase(plan: StreamPlan): string {
  if (plan.source) return "a stream of messages from a generator";
  const counts = new Map<string, number>();
  for (const step of plan.steps) {
    // Named requests show their keys: `request user_name`, `requests (team, roots)`.
    const label = step.kind === "request" && step.key !== undefined ? `request ${step.key}` : step.kind === "requests" ? `requests (${Object.keys(step.requests).join(", ")})` : step.kind;
    counts.set(label, (counts.get(label) ?? 0) + 1);
  }
  // "progress ×2": step kinds are not nouns with plurals ("2 progresss", "2 notifys").
  const steps = [...counts].map(([kind, n]) => (n === 1 ? kind : `${kind} ×${n}`)).join(", ");
  const end = plan.end ? `, then ${planPhrase(plan.end)}` : "";
  return `a stream (${steps || "no steps"}${end})${plan.dropAfter === undefined ? "" : `, dropped after ${plan.dropAfter} event${plan.dropAfter === 1 ? "" : "s"}`}`;
}

function delayPhrase(d: DelayDistribution): string {
  return d.distribution === "uniform"
    ? `a uniform random ${d.min}-${d.max} ms`
    : `a log-normal random delay (median ${d.median} ms, sigma ${d.sigma})`;
}

/** The template of a definition file's answer (a function with its template attached). */
function templateOf(answer: unknown): string | undefined {
  const template = (answer as { template?: unknown }).template;
  return template === undefined ? undefined : `the template ${showPayload(template)}`;
}

function showPayload(payload: unknown): string {
  if (typeof payload === "string") return `text ${showValue(payload, 80)}`;
  const block = payload as { type?: unknown; text?: unknown } | null;
  if (block && block.type === "text" && typeof block.text === "string") return `text ${showValue(block.text, 80)}`;
  return showValue(payload, 80);
}

/** The plan as a phrase of the stub's sentence: `as a task (result after 2 polls, poll every 10 ms)`. */
function taskPhrase(plan: TaskPlan): string {
  const parts: string[] = [];
  if (plan.statuses?.length) parts.push(`polls report ${plan.statuses.map((s) => (typeof s === "string" ? s : s.status)).join(", ")}`);
  const after = plan.afterPolls ?? plan.statuses?.length ?? 0;
  if (after > 0) parts.push(`result after ${after} poll${after === 1 ? "" : "s"}`);
  if (plan.ttl !== undefined) parts.push(plan.ttl === null ? "kept until close" : `ttl ${plan.ttl} ms`);
  if (plan.pollInterval !== undefined) parts.push(`poll every ${plan.pollInterval} ms`);
  if (plan.statusMessage !== undefined) parts.push(`status message ${JSON.stringify(plan.statusMessage)}`);
  return parts.length ? `as a task (${parts.join(", ")})` : "as a task";
}

/**
 * One sentence per stub:
 * `tools/call "add" with arguments equal to {"a":1} → {"sum":3}, once (seen 0)`.
 */
export function stubSentence(stub: Stub, hits?: number): string {
  let sentence = targetPhrase(stub);
  for (const m of stub.matchers) sentence += ` ${m.describe()}`;
  sentence += ` → ${stub.responses.map(planPhrase).join(", then ")}`;
  if (stub.task !== undefined) sentence += ` ${taskPhrase(stub.task)}`;
  if (stub.delay !== undefined) sentence += ` after ${typeof stub.delay === "number" ? `${stub.delay} ms` : delayPhrase(stub.delay)}`;
  // With several answers, `times` counts the calls of all of them.
  if (stub.times !== undefined) sentence += `, ${stub.responses.length > 1 ? `${stub.times} calls in all` : stub.times === 1 ? "once" : `${stub.times} times`}`;
  if (stub.priority !== 0 && stub.source !== "default") sentence += `, priority ${stub.priority}`;
  if (stub.setsState) sentence += `, then scenario ${JSON.stringify(stub.setsState.scenario)} moves to ${JSON.stringify(stub.setsState.state)}`;
  if (stub.optional) sentence += ", optional";
  if (hits !== undefined) sentence += ` (seen ${hits})`;
  return sentence;
}

/** The entry point call for a method (and key): `mock.toolsCall("add")`, `mock.ping()`. */
export function entryDsl(method: string, key?: string): string {
  return `mock.${entryCall(method, key)}`;
}

function sentenceOf(entry: StubEntry): string {
  return stubSentence(entry.stub, entry.hits);
}

/** The source name of stubs added through the admin API (`POST /__admin/stubs`), as a definition file's name is theirs. */
export const ADMIN_REQUEST = "the admin request";

/** How to add a responses entry where the stubs came from: the definition file, or the admin API. */
export function addEntryHint(file: string, entry: string): string {
  return file === ADMIN_REQUEST ? `add it through the admin API: POST /__admin/stubs with { "responses": [${entry}] }` : `add to the responses of ${file}: ${entry}`;
}

/** The seed's rule 4: a tool call no stub answers, what is stubbed, and how to stub it. */
export function toolMissReport(call: McpCall, tool: string, misses: readonly StubMiss[], definitionFile?: string): string {
  const args = showValue(call.args, 300);
  const lines = [`${PREFIX} No stub answers tools/call ${JSON.stringify(tool)} with arguments ${args}.`];
  if (misses.length === 0) lines.push(`Nothing is stubbed for ${JSON.stringify(tool)} yet.`);
  else lines.push(`Stubbed for "${tool}", closest first:`, ...renderStubMisses(call, misses, sentenceOf));
  if (definitionFile !== undefined) {
    // Stubs from a definition file: the place to fix is the file, not code.
    const entry = `{ "tool": ${JSON.stringify(tool)}, "args": ${args}, "result": ... }`;
    lines.push(
      misses.length === 0
        ? `To answer it, ${addEntryHint(definitionFile, entry)}`
        : definitionFile === ADMIN_REQUEST
          ? `Check that the args of the "${tool}" stubs added through the admin API (GET /__admin/stubs lists them) match the call, or ${addEntryHint(definitionFile, entry)}`
          : `Check that the args of the "${tool}" entries in the responses of ${definitionFile} match the call, or add one: ${entry}`,
      `To accept any arguments, add an entry for "${tool}" without args.`,
    );
    return lines.join("\n");
  }
  lines.push(
    `To answer these arguments: mock.toolsCall(${JSON.stringify(tool)}).withArgs(${args}).respondsWith(...)`,
    `To answer any arguments:   mock.toolsCall(${JSON.stringify(tool)}).withArgs(ANY).respondsWith(...)`,
  );
  return lines.join("\n");
}

/** A prompts/get no stub answers, what is stubbed, and how to stub it. */
export function promptMissReport(call: McpCall, prompt: string, misses: readonly StubMiss[], definitionFile?: string): string {
  const args = showValue(call.args, 300);
  const lines = [`${PREFIX} No stub answers prompts/get ${JSON.stringify(prompt)} with arguments ${args}.`];
  if (misses.length === 0) lines.push(`Nothing is stubbed for ${JSON.stringify(prompt)} yet, and its declaration has no messages.`);
  else lines.push(`Stubbed for "${prompt}", closest first:`, ...renderStubMisses(call, misses, sentenceOf));
  if (definitionFile !== undefined) {
    lines.push(
      `To answer these arguments, add to the responses of prompt ${JSON.stringify(prompt)} in ${definitionFile}: { "args": ${args}, "messages": "..." }`,
      `To answer any arguments, give prompt ${JSON.stringify(prompt)} "messages" in ${definitionFile}.`,
    );
    return lines.join("\n");
  }
  lines.push(
    `To answer these arguments: mock.promptsGet(${JSON.stringify(prompt)}).withArgs(${args}).respondsWith("...")`,
    `To answer any arguments:   mock.promptsGet(${JSON.stringify(prompt)}).withArgs(ANY).respondsWith("...")`,
  );
  return lines.join("\n");
}

/** A request to a method no stub answers. */
export function methodMissReport(call: McpCall, misses: readonly StubMiss[], knownMethods: readonly string[], definitionFile?: string): string {
  const params = call.params === undefined ? "no params" : `params ${showValue(call.params, 300)}`;
  const lines = [`${PREFIX} No stub answers ${showValue(call.method, MAX_SHOWN_NAME)} with ${params}.`];
  // A name nobody would declare (a client's of a million characters): said cut, and no stub to copy.
  if (call.method.length > MAX_SHOWN_NAME) {
    lines.push(`Nothing is stubbed for it (a method name of ${call.method.length} characters).`);
    return lines.join("\n");
  }
  // A mock served from a file (the CLI): the entry to add, as the file writes it.
  const entry = `{ "method": ${JSON.stringify(call.method)}, ${call.params === undefined ? "" : `"params": ${showValue(call.params, 300)}, `}"result": { ... } }`;
  const fix = definitionFile === undefined ? undefined : `To answer it, ${addEntryHint(definitionFile, entry)}`;
  if (misses.length > 0) {
    lines.push(`Stubbed for "${call.method}", closest first:`, ...renderStubMisses(call, misses, sentenceOf));
    lines.push(fix ?? `To answer it: ${entryDsl(call.method)}${call.params === undefined ? "" : `.withParams(${showValue(call.params, 300)})`}.respondsWith(...)`);
  } else {
    const similar = closestNames(call.method, knownMethods);
    lines.push(`Nothing is stubbed for ${JSON.stringify(call.method)}.${similar.length ? ` Did you mean ${similar.map((m) => `"${m}"`).join(" or ")}?` : ""}`);
    lines.push(fix ?? `To answer it: mock.method(${JSON.stringify(call.method)}).respondsWith({ ... })`);
  }
  return lines.join("\n");
}

/** The longest name a report shows whole (a client's method, tool or prompt name); a longer one is cut. */
export const MAX_SHOWN_NAME = 200;

/** Names within a small edit distance of `name`, closest first (at most 2). */
export function closestNames(name: string, names: readonly string[]): string[] {
  const limit = Math.max(2, Math.floor(name.length / 3));
  return names
    // Names whose lengths differ by more than the limit are further apart than it: not compared
    // (a client's name of a million characters took seconds against each declared one).
    .filter((n) => Math.abs(n.length - name.length) <= limit)
    .map((n) => ({ n, d: editDistance(name, n) }))
    .filter((x) => x.d > 0 && x.d <= limit)
    .sort((a, b) => a.d - b.d)
    .slice(0, 2)
    .map((x) => x.n);
}

function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min((prev[j] as number) + 1, (cur[j - 1] as number) + 1, (prev[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = cur;
  }
  return prev[b.length] as number;
}
