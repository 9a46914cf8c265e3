/**
 * The built-in answers: what the mock answers by itself when no user stub does, one per
 * method that has one, keyed by the method (its descriptor, in `protocol/methods/`, says what
 * the method is; this table says how the mock answers it). A new built-in answer is one row.
 * @module
 */
import { METHODS, type MethodDescriptor } from "../../protocol/methods/index.js";
import { initializeAnswer } from "./initialize.js";
import { loggingSetLevelAnswer } from "./logging-set-level.js";
import { pagedList } from "./paged-list.js";
import { serverDiscoverAnswer } from "./server-discover.js";
import { toolsListAnswer } from "./tools-list.js";
import type { BuiltInAnswer } from "./source.js";

const EMPTY: BuiltInAnswer = () => ({ kind: "result", label: "{}", result: () => ({}) });

/** Each method's built-in answer, by the method. */
export const BUILT_IN_ANSWER_BY_METHOD: ReadonlyMap<string, BuiltInAnswer> = new Map<string, BuiltInAnswer>([
  ["initialize", initializeAnswer],
  ["ping", EMPTY],
  ["server/discover", serverDiscoverAnswer],
  ["tools/list", toolsListAnswer],
  ["resources/list", (source) => pagedList(source, "resources/list", "resources", () => source.resources.listed())],
  ["resources/templates/list", (source) => pagedList(source, "resources/templates/list", "resourceTemplates", () => source.resources.listedTemplates())],
  ["prompts/list", (source) => pagedList(source, "prompts/list", "prompts", () => source.prompts.listed())],
  ["skills/list", (source) => pagedList(source, "skills/list", "skills", () => source.skills.listed())],
  ["skills/get", (source) => ({ kind: "result", label: "the declared skill's entry", result: (call) => source.skills.get(call.params?.["uri"]) })],
  ["resources/directory/read", (source) => ({ kind: "result", label: "the skills' directory, " + String(source.pageSize()) + " a page", result: (call) => source.skills.directory(call.params?.["uri"], call.params?.["cursor"], source.pageSize()) })],
  ["completion/complete", () => ({ kind: "result", label: "no completions", result: () => ({ completion: { values: [], hasMore: false } }) })],
  ["logging/setLevel", loggingSetLevelAnswer],
  ["resources/subscribe", EMPTY],
  ["resources/unsubscribe", EMPTY],
  ["tasks/get", (source) => ({ kind: "result", label: "the task's status", result: (call) => source.tasks.get(call) })],
  ["tasks/result", (source) => ({ kind: "result", label: "the task's result, once it ends", result: (call) => source.tasks.result(call) })],
  ["tasks/list", (source) => ({ kind: "result", label: "the live tasks", result: (call) => source.tasks.list(call) })],
  ["tasks/cancel", (source) => ({ kind: "result", label: "the task, cancelled", result: (call) => source.tasks.cancel(call) })],
  ["tasks/update", (source) => ({ kind: "result", label: "the answers taken, {}", result: (call) => source.tasks.update(call) })],
]);

for (const method of BUILT_IN_ANSWER_BY_METHOD.keys()) {
  if (!METHODS.some((d) => d.method === method)) throw new Error(`[mcpmock] internal: a built-in answer for ${method}, which no descriptor in protocol/methods/ describes.`);
}

/** The methods with a built-in answer, in the descriptors' order (the order they are registered in). */
export const BUILT_IN_METHODS: readonly MethodDescriptor[] = METHODS.filter((d) => BUILT_IN_ANSWER_BY_METHOD.has(d.method));
