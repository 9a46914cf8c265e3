/**
 * Sampling with tools (SEP-1577, 2025-11-25): a `sampling/createMessage` request may offer
 * `tools` (name, inputSchema) and a `toolChoice` (`auto`, `required`, `none`); the client's
 * answer may then hold `tool_use` blocks (`{ type: "tool_use", id, name, input }`), only for
 * tools it was offered, never under `toolChoice: { mode: "none" }`.
 * @module
 */
import { isJsonObject } from "../values/json-value.js";

/** The tool uses one answer may carry; more is refused unread (memory stays bounded). */
export const MAX_TOOL_USES = 1000;
const MODES = ["auto", "required", "none"];

/** What is wrong with the `tools` and `toolChoice` of a sampling request's params; none when they are right. */
export function samplingToolsProblems(params: Readonly<Record<string, unknown>>, where: string): string[] {
  const problems: string[] = [];
  const tools = params["tools"];
  if (tools !== undefined) {
    if (!Array.isArray(tools)) problems.push(`${where}.tools must be an array of tools like [{ name: "get_weather", inputSchema: { type: "object" } }].`);
    else tools.forEach((tool: unknown, i) => {
      if (!isJsonObject(tool) || typeof tool["name"] !== "string" || !isJsonObject(tool["inputSchema"])) problems.push(`${where}.tools[${i}] must be { name, inputSchema: { type: "object", ... } }.`);
    });
  }
  const choice = params["toolChoice"];
  if (choice !== undefined && !(isJsonObject(choice) && MODES.includes(choice["mode"] as string))) problems.push(`${where}.toolChoice must be { mode: "auto" | "required" | "none" }, received ${JSON.stringify(choice)}.`);
  return problems;
}

/** Why a client's answer to a sampling request cannot be right about its tool uses, or `undefined`. */
export function toolUseAnswerProblem(params: unknown, answer: unknown): string | undefined {
  if (!isJsonObject(answer)) return undefined;
  const content = answer["content"];
  const blocks: unknown[] = Array.isArray(content) ? content : [content];
  if (blocks.length > MAX_TOOL_USES) return `the answer holds ${blocks.length} content blocks; at most ${MAX_TOOL_USES} are read.`;
  const offered = isJsonObject(params) && Array.isArray(params["tools"]) ? (params["tools"] as unknown[]).map((t) => (isJsonObject(t) ? t["name"] : undefined)) : [];
  const mode = isJsonObject(params) && isJsonObject(params["toolChoice"]) ? params["toolChoice"]["mode"] : undefined;
  for (const [i, block] of blocks.entries()) {
    if (!isJsonObject(block) || block["type"] !== "tool_use") continue;
    const at = Array.isArray(content) ? `content[${i}]` : "content";
    if (typeof block["id"] !== "string" || block["id"] === "") return `${at} is a tool_use without an id (a string the tool_result names).`;
    if (typeof block["name"] !== "string") return `${at} is a tool_use without a name.`;
    if (!isJsonObject(block["input"])) return `${at}.input must be an object (the tool's arguments), received ${JSON.stringify(block["input"]) ?? "nothing"}.`;
    if (offered.length === 0) return `${at} uses the tool ${JSON.stringify(block["name"])}, but the request offered no tools.`;
    if (mode === "none") return `${at} uses the tool ${JSON.stringify(block["name"])}, but the request's toolChoice was { mode: "none" }.`;
    if (!offered.includes(block["name"])) return `${at} uses the tool ${JSON.stringify(block["name"])}, which the request did not offer (offered: ${offered.map((n) => JSON.stringify(n)).join(", ")}).`;
  }
  return undefined;
}
