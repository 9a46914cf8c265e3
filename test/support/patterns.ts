import { ToolCallBuilder } from "../../src/dsl/method-builders.js";

/** A chain that is not attached to a mock (what `import { toolsCall } from "mcpmock"` will give). */
export function toolsCallPattern(): ToolCallBuilder {
  return new ToolCallBuilder({ method: "tools/call", key: "add", matchers: [], priority: 0, written: 'toolsCall("add")' }, undefined);
}
