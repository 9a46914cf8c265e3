/**
 * Loading a definition into a running mock: its declarations (for the admin API) and its
 * stubs, compiled through the DSL (compile.ts) on the mock's own entry points, so a
 * definition and the equivalent code give the same stubs.
 * @module
 */
import type { ProxyTarget } from "../proxy-target.js";
import type { MockControl } from "../dsl/mock-control.js";
import type { MockDefinition } from "./format.js";
import type { McpMockOptions } from "../options.js";
import { compileDefinition, type EntryPoints } from "./compile.js";
import type { StubRegistry } from "../stubs/registry.js";
import { McpMockError } from "../values/errors.js";

/** A definition's prompts without their responses: the declarations. */
/** What a definition says about the mock as start options: its server, declarations and `options`. */
export function definitionOptions(definition: MockDefinition): McpMockOptions {
  const server = definition.server;
  return {
    ...definition.options,
    ...(server ? { serverInfo: { name: server.name, version: server.version, ...(server.title ? { title: server.title } : {}), ...(server.description === undefined ? {} : { description: server.description }), ...(server.websiteUrl === undefined ? {} : { websiteUrl: server.websiteUrl }), ...(server.icons === undefined ? {} : { icons: server.icons }) } } : {}),
    ...(server?.instructions === undefined ? {} : { instructions: server.instructions }),
    ...(definition.auth === undefined || definition.auth === false ? {} : { auth: definition.auth }),
    ...(definition.tools ? { tools: definition.tools } : {}),
    ...(definition.resources ? { resources: definition.resources } : {}),
    ...(definition.prompts ? { prompts: promptDeclarations(definition) } : {}),
    ...(definition.apps ? { apps: definition.apps } : {}),
    ...(definition.skills ? { skills: definition.skills } : {}),
    ...(definition.proxy ? { proxy: proxyTargetOf(definition.proxy) } : {}),
    ...(definition.extensions ? { extensions: definition.extensions } : {}),
    ...(definition.serverCard === undefined ? {} : { serverCard: definition.serverCard }),
  };
}

/** A checked definition's `proxy` section as the `proxy` option: a target, or a command and its arguments. */
function proxyTargetOf(proxy: NonNullable<MockDefinition["proxy"]>): ProxyTarget {
  if (proxy.target !== undefined) return { target: proxy.target };
  // validate.ts refuses a section with neither; this guards a definition that skipped it.
  if (proxy.command === undefined || proxy.command === "") throw new McpMockError(`the definition's "proxy" needs "target" (a Streamable HTTP URL) or "command" (a stdio server), like { "proxy": { "target": "http://127.0.0.1:3001/mcp" } }.`);
  return { command: proxy.command, args: proxy.args ?? [] };
}

export function promptDeclarations(def: MockDefinition): MockDefinition["prompts"] {
  return def.prompts?.map(({ responses: _responses, ...declaration }) => declaration);
}

/** What loading a definition needs of a mock: its entry points and its operations. */
export type DefinitionTarget = EntryPoints & Pick<MockControl, "declareTool" | "declareResource" | "declarePrompt" | "declareApp" | "declareSkill" | "removeStub" | "declareExtension">;

/**
 * Adds a definition's stubs to a mock; returns the new stub ids. With `declare`, its tools,
 * resources and prompts are declared first (the admin API); `McpMock.fromDefinition`
 * declares them at start instead. An entry the DSL refuses (checked already by the dry run
 * of validate.ts, unless the mock's options differ, such as `strict`) takes back the stubs
 * this call added, and the refusal is thrown.
 */
export function applyDefinition(mock: DefinitionTarget, def: MockDefinition, file: string, declare: boolean): string[] {
  if (declare) {
    for (const tool of def.tools ?? []) mock.declareTool(tool);
    for (const resource of def.resources ?? []) mock.declareResource(resource);
    for (const prompt of promptDeclarations(def) ?? []) mock.declarePrompt(prompt);
    for (const app of def.apps ?? []) mock.declareApp(app);
    for (const skill of def.skills ?? []) mock.declareSkill(skill);
    for (const [id, settings] of Object.entries(def.extensions ?? {})) mock.declareExtension(id, settings);
  }
  const ids: string[] = [];
  try {
    compileDefinition(mock, def, file, ids);
  } catch (error) {
    for (const id of ids) mock.removeStub(id);
    throw error;
  }
  return ids;
}

/**
 * Puts a definition's stubs back after `reset()`, with the ids they had when the mock started
 * (`stub-1`, ...) rather than new ones, so ids a test or an admin client noted stay true.
 */
export function reapplyDefinition(mock: DefinitionTarget, baseline: { readonly definition: MockDefinition; readonly source: string; readonly ids?: readonly string[] }, registry: StubRegistry): void {
  const ids = applyDefinition(mock, baseline.definition, baseline.source, false);
  ids.forEach((id, i) => {
    const kept = baseline.ids?.[i];
    if (kept !== undefined) registry.rename(id, kept);
  });
}
