/**
 * The built-in answer of the four list methods: the declared items, one page at a time,
 * with an opaque `nextCursor`; an invalid cursor is -32602.
 * @module
 */
import type { McpCall } from "../../stubs/call.js";
import { JsonRpcFailure } from "../../protocol/jsonrpc.js";
import { InvalidCursorError, page } from "../../protocol/pagination.js";
import { ErrorCodes } from "../../protocol/revisions.js";
import type { BuiltInPlan, DefaultsSource } from "./source.js";

/** A paged list answer: `{ [field]: items, nextCursor? }`, labelled for `explain()`. */
export function pagedList(source: DefaultsSource, method: string, field: string, items: (call: McpCall) => unknown[]): BuiltInPlan {
  return {
    kind: "result",
    label: `the declared ${field}, ${source.pageSize()} a page`,
    result: (call) => {
      try {
        const { items: pageItems, nextCursor } = page(items(call), call.params?.["cursor"], source.pageSize(), method);
        return nextCursor === undefined ? { [field]: pageItems } : { [field]: pageItems, nextCursor };
      } catch (error) {
        if (error instanceof InvalidCursorError) throw new JsonRpcFailure(ErrorCodes.InvalidParams, `Invalid params: invalid cursor`, `[mcpmock] ${error.message}.`);
        throw error;
      }
    },
  };
}
