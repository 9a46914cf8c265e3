/**
 * What `mcpmock serve` lists at start, after its URLs: the declarations (tools, resources,
 * prompts) and one line per stub.
 * @module
 */
import type { MockDefinition } from "../definition/format.js";
import type { McpMock } from "../mock.js";
import type { Style } from "./style.js";

/** The declared tools, resources and prompts, one line per kind that has any. */
export function declarationLines(def: MockDefinition): string[] {
  const lines: string[] = [];
  const tools = (def.tools ?? []).map((t) => t.name);
  if (tools.length) lines.push(`tools: ${tools.join(", ")}`);
  const resources = (def.resources ?? []).map((r) => {
    const { uri, uriTemplate } = r as { uri?: string; uriTemplate?: string };
    return uri ?? `${uriTemplate} (template)`;
  });
  if (resources.length) lines.push(`resources: ${resources.join(", ")}`);
  const prompts = (def.prompts ?? []).map((p) => (p.arguments?.length ? `${p.name} (${p.arguments.map((a) => (a.required ? a.name : `${a.name}?`)).join(", ")})` : p.name));
  if (prompts.length) lines.push(`prompts: ${prompts.join(", ")}`);
  return lines;
}

/** The start-up listing: the declarations, then every stub the definition made (not the built-in answers). */
export function startupListing(def: MockDefinition, mock: McpMock, style: Style): string {
  const stubs = mock.stubs().filter((s) => s.source !== "default");
  return [...declarationLines(def).map((line) => `  ${line}`), ...stubs.map((s) => `  ${style.dim(`${s.id}:`)} ${s.sentence}`)].map((line) => `${line}\n`).join("");
}
