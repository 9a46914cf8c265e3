/**
 * Every MCP method the mock knows, one descriptor each, and the lookups the rest of the mock
 * reads, all derived from the list once at module load (Map reads on the hot path, never a
 * scan per call).
 *
 * A new method is a new file in this folder and one line in {@link METHODS}. With an entry
 * point it also needs its typed method (`dsl/mock-entry-points.ts`, delegated to by `McpMock`), and with `pattern` a
 * pattern function (`dsl/patterns.ts`, exported from `src/index.ts`): types cannot be
 * derived at run time, so `test/methods.test.ts` checks them against the descriptor.
 * @module
 */
import { completionComplete } from "./completion-complete.js";
import { deleteSession } from "./delete-session.js";
import type { KeyParam, MethodDescriptor, SelectionRule } from "./descriptor.js";
import { elicitationCreate } from "./elicitation-create.js";
import { initialize } from "./initialize.js";
import { loggingSetLevel } from "./logging-set-level.js";
import { notificationsCancelled } from "./notifications-cancelled.js";
import { notificationsInitialized } from "./notifications-initialized.js";
import { openStream } from "./open-stream.js";
import { ping } from "./ping.js";
import { promptsGet } from "./prompts-get.js";
import { promptsList } from "./prompts-list.js";
import { resourcesList } from "./resources-list.js";
import { resourcesRead } from "./resources-read.js";
import { resourcesSubscribe } from "./resources-subscribe.js";
import { resourcesTemplatesList } from "./resources-templates-list.js";
import { resourcesUnsubscribe } from "./resources-unsubscribe.js";
import { rootsList } from "./roots-list.js";
import { samplingCreateMessage } from "./sampling-create-message.js";
import { serverDiscover } from "./server-discover.js";
import { skillsGet } from "./skills-get.js";
import { skillsList } from "./skills-list.js";
import { resourcesDirectoryRead } from "./resources-directory-read.js";
import { tasksCancel } from "./tasks-cancel.js";
import { tasksGet } from "./tasks-get.js";
import { tasksUpdate } from "./tasks-update.js";
import { tasksList } from "./tasks-list.js";
import { tasksResult } from "./tasks-result.js";
import { notificationsTasksStatus } from "./notifications-tasks-status.js";
import { subscriptionsListen } from "./subscriptions-listen.js";
import { toolsCall } from "./tools-call.js";
import { toolsList } from "./tools-list.js";

/**
 * Every method, in the order the built-in answers (`engine/built-ins/`) are registered (`explain()` and
 * `mock.stubs()` list them in this order) and the conditional capabilities are advertised.
 */
export const METHODS: readonly MethodDescriptor[] = [
  initialize,
  ping,
  serverDiscover,
  toolsList,
  resourcesList,
  resourcesTemplatesList,
  promptsList,
  skillsList,
  skillsGet,
  resourcesDirectoryRead,
  completionComplete,
  loggingSetLevel,
  resourcesSubscribe,
  resourcesUnsubscribe,
  toolsCall,
  tasksGet,
  tasksResult,
  tasksList,
  tasksCancel,
  tasksUpdate,
  resourcesRead,
  promptsGet,
  samplingCreateMessage,
  elicitationCreate,
  rootsList,
  notificationsInitialized,
  notificationsCancelled,
  notificationsTasksStatus,
  openStream,
  deleteSession,
  subscriptionsListen,
];

function index<T>(pick: (d: MethodDescriptor) => T | undefined): ReadonlyMap<string, T> {
  const map = new Map<string, T>();
  for (const d of METHODS) {
    const value = pick(d);
    if (value !== undefined) map.set(d.method, value);
  }
  return map;
}

/** The descriptor of a method, by its name. */
export const METHOD_BY_NAME: ReadonlyMap<string, MethodDescriptor> = index((d) => d);

/** The DSL entry point of each method that has one (`tools/call` → `toolsCall`). */
export const ENTRY_POINT_BY_METHOD: ReadonlyMap<string, string> = index((d) => d.entryPoint);

/** What each keyed method's stubs are keyed by (read by `McpCall.key` on every call). */
export const KEY_BY_METHOD: ReadonlyMap<string, KeyParam> = index((d) => d.key);

/** The methods whose stubs match `params.arguments`. */
export const ARGUMENT_METHODS: ReadonlySet<string> = new Set(METHODS.filter((d) => d.arguments).map((d) => d.method));

/**
 * The SDK result schema a stub's answer must satisfy, for the methods the mock answers
 * (client requests; a server-to-client request's schema is the client's business).
 */
export const RESULT_SCHEMA_BY_METHOD: ReadonlyMap<string, string> = index((d) => (d.direction === "client-request" ? d.resultSchema : undefined));

/** The client capability each server-to-client request needs. */
export const CLIENT_CAPABILITY_BY_METHOD: ReadonlyMap<string, string> = index((d) => d.clientCapability);

/**
 * The capability a server-to-client request needs with its params, as a path
 * (`["elicitation", "url"]`), when the client's declared `capabilities` lack it; `undefined`
 * when they have it or the request needs none.
 */
export function missingClientCapability(method: string, params: Readonly<Record<string, unknown>> | undefined, capabilities: Readonly<Record<string, unknown>>): readonly string[] | undefined {
  const descriptor = METHODS.find((d) => d.method === method);
  const capability = descriptor?.clientCapability;
  if (capability === undefined) return undefined;
  const declared = capabilities[capability];
  if (declared === undefined || declared === null) return [capability];
  const sub = descriptor?.clientSubCapability?.(params);
  if (sub === undefined) return undefined;
  return typeof declared === "object" && (declared as Record<string, unknown>)[sub] !== undefined ? undefined : [capability, sub];
}

/** The selection rule of each method that is not `plain`. */
export const SELECTION_BY_METHOD: ReadonlyMap<string, SelectionRule> = index((d) => (d.selection === "plain" ? undefined : d.selection));

/** The requests that open a session (`initialize`). */
export const OPENING_METHODS: ReadonlySet<string> = new Set(METHODS.filter((d) => d.opens).map((d) => d.method));

/** The probes a client may send before it has a session. */
export const BEFORE_SESSION_METHODS: ReadonlySet<string> = new Set(METHODS.filter((d) => d.beforeSession).map((d) => d.method));

/** The methods whose 2026-07-28 results carry `ttlMs` and `cacheScope`. */
export const CACHEABLE_METHODS: ReadonlySet<string> = new Set(METHODS.filter((d) => d.cacheable).map((d) => d.method));

/** The least result of each method whose least result is not `{}`. */
export const EMPTY_RESULT_BY_METHOD: ReadonlyMap<string, Readonly<Record<string, unknown>>> = index((d) => d.emptyResult);

export type { AdvertisedCapability, Catalog, Direction, KeyParam, MethodDescriptor, SelectionRule } from "./descriptor.js";
