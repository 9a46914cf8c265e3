/**
 * `subscriptions/listen` (2026-07-28): the long-lived POST whose SSE stream carries the
 * server's notifications, in place of the GET stream and `resources/subscribe`. It opens with
 * `notifications/subscriptions/acknowledged` (the honoured filter), and every frame carries
 * the subscription id. What the stream does is the transport's; a stub can refuse it
 * (`respondsWithError`) or script it after the acknowledgement (`streams()`).
 * @module
 */
import { STATELESS_PROTOCOL_VERSIONS } from "../revisions.js";
import type { MethodDescriptor } from "./descriptor.js";

/** `subscriptions/listen` → `mock.subscriptionsListen()`. */
export const subscriptionsListen: MethodDescriptor = {
  method: "subscriptions/listen",
  direction: "client-request",
  revisions: STATELESS_PROTOCOL_VERSIONS,
  entryPoint: "subscriptionsListen",
  pattern: true,
};
