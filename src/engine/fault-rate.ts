/**
 * A fault's `rate`: the share of calls it fails. A call it lets through is selected again
 * with that stub left out, as if it were not there (the same draws for the same seed, so the
 * same calls fail twice).
 * @module
 */
import type { McpCall } from "../stubs/call.js";
import { nextResponse, type StubEntry } from "../stubs/registry.js";
import { select, type Selection, type SelectionContext } from "./selection.js";

/** Whether a call passes a stub whose next answer is a fault with a rate: a draw at or above the rate. */
function passesRate(entry: StubEntry, random: () => number): boolean {
  const plan = nextResponse(entry);
  return plan.kind === "fault" && plan.rate !== undefined && random() >= plan.rate;
}

/** Selects the answer for a call, passing over each fault whose rate lets the call through. */
export function selectWithRates(ctx: SelectionContext, call: McpCall, random: () => number): Selection {
  let selection = select(ctx, call);
  let passed: Set<StubEntry> | undefined;
  while ("entry" in selection && passesRate(selection.entry, random)) {
    (passed ??= new Set()).add(selection.entry);
    selection = select(ctx, call, passed);
  }
  return selection;
}
