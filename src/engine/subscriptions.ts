/**
 * The open `subscriptions/listen` streams (2026-07-28): what each asked to hear, and the
 * notifications that reach it. Every frame carries the subscription's id in `_meta`. The
 * session era's push streams are the sessions'; these belong to no session.
 * @module
 */
import { MetaKeys } from "../protocol/revisions.js";
import type { RequestId } from "../protocol/jsonrpc.js";
import { isJsonObject } from "../values/json-value.js";
import { withFields } from "../values/with-fields.js";

/** What a listen request may ask for (its `params.notifications`). */
interface SubscriptionFilter {
  readonly toolsListChanged?: boolean;
  readonly promptsListChanged?: boolean;
  readonly resourcesListChanged?: boolean;
  readonly resourceSubscriptions?: readonly string[];
  /** The tasks extension: `notifications/tasks` of these tasks. */
  readonly taskIds?: readonly string[];
}

/** One open listen stream. */
export interface Subscription {
  /** The listen request's id: the subscription id on every frame. */
  readonly id: RequestId;
  /** What the mock honours of what it asked for. */
  readonly filter: SubscriptionFilter;
  /** Writes one message (already carrying the id) on the stream. */
  emit(json: string): void;
  /** With `auth`, who opened it (its token's client and user): a task's notifications reach only its owner's streams. */
  readonly principal?: string | undefined;
}

/** Which filter key lets a notification through, for the ones a filter governs. */
const GOVERNED: ReadonlyMap<string, keyof SubscriptionFilter> = new Map([
  ["notifications/tools/list_changed", "toolsListChanged"],
  ["notifications/prompts/list_changed", "promptsListChanged"],
  ["notifications/resources/list_changed", "resourcesListChanged"],
  ["notifications/resources/updated", "resourceSubscriptions"],
  ["notifications/tasks", "taskIds"],
]);

/** Whether a notification is one a listen stream asks for (in 2026-07-28 it goes there, not on a call's own stream). */
export function isListened(method: string): boolean {
  return GOVERNED.has(method);
}

/**
 * What the mock honours of a requested filter: the list changes of the lists it serves (the
 * capabilities it advertises), and resource subscriptions when it serves resources.
 */
function honouredFilter(requested: unknown, capabilities: Record<string, unknown>): SubscriptionFilter {
  const asked = isJsonObject(requested) ? requested : {};
  const filter: Record<string, unknown> = {};
  if (asked["toolsListChanged"] === true && capabilities["tools"] !== undefined) filter["toolsListChanged"] = true;
  if (asked["promptsListChanged"] === true && capabilities["prompts"] !== undefined) filter["promptsListChanged"] = true;
  if (asked["resourcesListChanged"] === true && capabilities["resources"] !== undefined) filter["resourcesListChanged"] = true;
  const uris = asked["resourceSubscriptions"];
  if (Array.isArray(uris) && capabilities["resources"] !== undefined) {
    const strings = uris.filter((u): u is string => typeof u === "string");
    if (strings.length > 0) filter["resourceSubscriptions"] = strings;
  }
  const tasks = asked["taskIds"];
  if (Array.isArray(tasks) && capabilities["tasks"] !== undefined) {
    const ids = tasks.filter((t): t is string => typeof t === "string");
    if (ids.length > 0) filter["taskIds"] = ids;
  }
  return filter;
}

/** A message with the subscription id added to its `params._meta`. */
export function withSubscriptionId(message: Record<string, unknown>, id: RequestId): Record<string, unknown> {
  const params = isJsonObject(message["params"]) ? message["params"] : {};
  const meta = isJsonObject(params["_meta"]) ? params["_meta"] : {};
  return withFields(message, { params: withFields(params, { _meta: withFields(meta, { [MetaKeys.subscriptionId]: id }) }) });
}

/**
 * Opens a listen stream on any transport: the acknowledgement of what is honoured of the
 * `requested` filter goes out on `emit`, then the stream is registered; the returned `close`
 * ends the registration.
 */
export function openSubscription(subscriptions: Subscriptions, id: RequestId, requested: unknown, capabilities: Record<string, unknown>, emit: (json: string) => void, principal?: string): { readonly filter: SubscriptionFilter; readonly close: () => void } {
  const filter = honouredFilter(requested, capabilities);
  emit(JSON.stringify(withSubscriptionId({ jsonrpc: "2.0", method: "notifications/subscriptions/acknowledged", params: { notifications: filter } }, id)));
  return { filter, close: subscriptions.add({ id, filter, emit, principal }) };
}

/** The open listen streams of a mock. */
export class Subscriptions {
  readonly #open = new Set<Subscription>();

  /** Registers an open stream; the returned function ends the registration. */
  add(subscription: Subscription): () => void {
    this.#open.add(subscription);
    return () => this.#open.delete(subscription);
  }

  /** How many are open. */
  get size(): number {
    return this.#open.size;
  }

  /**
   * Sends a notification to every subscription whose filter lets it through (list changes and
   * resource updates as asked; anything else a test pushes, to all); returns the ids reached.
   * A task's notifications go to the streams of who created it (`principal`) only.
   */
  deliver(method: string, params: Record<string, unknown> | undefined, principal?: string): RequestId[] {
    const key = GOVERNED.get(method);
    const reached: RequestId[] = [];
    for (const sub of this.#open) {
      if (key === "resourceSubscriptions") {
        if (!sub.filter.resourceSubscriptions?.includes(String(params?.["uri"]))) continue;
      } else if (key === "taskIds") {
        if (!sub.filter.taskIds?.includes(String(params?.["taskId"])) || sub.principal !== principal) continue;
      } else if (key !== undefined && sub.filter[key] !== true) continue;
      const message = params === undefined ? { jsonrpc: "2.0", method } : { jsonrpc: "2.0", method, params };
      sub.emit(JSON.stringify(withSubscriptionId(message, sub.id)));
      reached.push(sub.id);
    }
    return reached;
  }
}
