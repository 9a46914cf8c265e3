/**
 * A running mock moved from one definition to the next (`mcpmock serve --watch`): the
 * declarations that changed are declared again or removed (so clients get `list_changed`
 * for those lists only), the old definition's stubs give way to the new ones, and the rest
 * stays: the journal, sessions, scenario states and stubs added by code or the admin API.
 * @module
 */
import type { MockControl } from "../dsl/mock-control.js";
import type { MockDefinition } from "./format.js";
import { canonicalJson } from "../values/json-value.js";
import { applyDefinition, promptDeclarations, type DefinitionTarget } from "./apply.js";
import { loadDefinition } from "./load.js";
import type { DefinitionContext } from "./validate.js";

/** What a reload changed, for the console: `tools: add, get_weather`, say. */
export interface ReloadChanges {
  /** Tools declared anew, changed or removed. */
  readonly tools: string[];
  /** Resources (URIs or templates) declared anew, changed or removed. */
  readonly resources: string[];
  /** Prompts declared anew, changed or removed. */
  readonly prompts: string[];
  /** The new definition's stub ids. */
  readonly stubs: string[];
  /** Parts of the file read at start only (`server`, `options`) that changed: a restart applies them. */
  readonly atStartOnly: string[];
}

/** Pairs of (key, declaration) by name, for comparing two lists. */
function byKey<T>(list: readonly T[] | undefined, key: (item: T) => string): Map<string, T> {
  return new Map((list ?? []).map((item) => [key(item), item]));
}

/** Declares what is new or changed and removes what went; returns the keys it touched. */
function sync<T>(before: Map<string, T>, after: Map<string, T>, declare: (item: T) => void, remove: (key: string) => void): string[] {
  const touched: string[] = [];
  for (const key of before.keys()) {
    if (!after.has(key)) {
      remove(key);
      touched.push(key);
    }
  }
  for (const [key, item] of after) {
    const old = before.get(key);
    if (old === undefined || canonicalJson(old) !== canonicalJson(item)) {
      declare(item);
      touched.push(key);
    }
  }
  return touched;
}

const resourceKey = (r: { uri?: string; uriTemplate?: string }): string => r.uri ?? r.uriTemplate ?? "";

/** What a reload needs of a mock: what loading needs, and its declarations and stubs to take back. */
export type ReloadTarget = DefinitionTarget & MockControl;

/**
 * Moves `mock` from `before` (whose stubs came from `beforeSource`) to `after`, checked
 * already. If the new stubs are refused, the old ones are put back and the refusal is thrown.
 */
export function reloadDefinition(mock: ReloadTarget, before: MockDefinition, beforeSource: string, after: MockDefinition, afterSource: string): ReloadChanges {
  const tools = sync(byKey(before.tools, (t) => t.name), byKey(after.tools, (t) => t.name), (t) => mock.declareTool(t), (n) => mock.removeTool(n));
  const resources = sync(byKey(before.resources, resourceKey), byKey(after.resources, resourceKey), (r) => mock.declareResource(r), (k) => mock.removeResource(k));
  // Apps are resources too: declared again when changed (an app's file is read again then), removed when gone.
  resources.push(...sync(byKey(before.apps, (a) => a.uri), byKey(after.apps, (a) => a.uri), (a) => mock.declareApp(a), (uri) => mock.removeResource(uri)));
  const prompts = sync(
    byKey(promptDeclarations(before), (p) => p.name),
    byKey(promptDeclarations(after), (p) => p.name),
    (p) => mock.declarePrompt(p),
    (n) => mock.removePrompt(n),
  );
  const old = mock.stubs().filter((s) => s.source.startsWith(`${beforeSource} `));
  for (const stub of old) mock.removeStub(stub.id);
  try {
    const atStartOnly = (["server", "options"] as const).filter((k) => canonicalJson(before[k] ?? null) !== canonicalJson(after[k] ?? null));
    return { tools, resources, prompts, stubs: applyDefinition(mock, after, afterSource, false), atStartOnly };
  } catch (error) {
    applyDefinition(mock, before, beforeSource, false);
    throw error;
  }
}

/** A definition and the name its stubs carry as their source. */
export interface Baseline {
  readonly definition: MockDefinition;
  readonly source: string;
  /** The ids its stubs got, which `reset()` gives them again. */
  readonly ids?: readonly string[];
}

/**
 * Reads `file` (every mistake thrown at once, before anything changes) and moves `mock` from
 * `baseline` to it; `commit` receives the new baseline, which `reset()` goes back to. The file
 * is checked in the mock's `context` (proxy mode), as it was at start.
 */
export function reloadFile(mock: ReloadTarget, file: string, baseline: Baseline | undefined, commit: (next: Baseline) => void, context: DefinitionContext = {}): ReloadChanges {
  const next = loadDefinition(file, context);
  const before = baseline ?? { definition: {}, source: next.source };
  const changes = reloadDefinition(mock, before.definition, before.source, next.definition, next.source);
  commit({ ...next, ids: changes.stubs });
  return changes;
}
