/**
 * `mcpmock serve --watch`: the definition file is read again when it changes. A good edit
 * moves the mock to it (clients get `list_changed` for the declarations that changed; the
 * journal and sessions stay); an edit with mistakes prints every one and the mock keeps
 * serving the last good definition.
 * @module
 */
import { watch, readFileSync, type FSWatcher } from "node:fs";
import { basename, dirname, resolve } from "node:path";
import type { McpMock } from "../mock.js";
import type { ReloadChanges } from "../definition/reload.js";
import { PREFIX } from "../values/errors.js";

/** Editors write a file in bursts (truncate, write, rename): one reload per burst. */
export const WATCH_DEBOUNCE_MS = 100;

/** Where the watcher reports. */
export interface WatchOutput {
  out(line: string): void;
  err(line: string): void;
}

function summary(changes: ReloadChanges): string {
  const parts = (["tools", "resources", "prompts"] as const).filter((k) => changes[k].length > 0).map((k) => `${k} changed: ${changes[k].join(", ")}`);
  const restart = changes.atStartOnly.length ? `; ${changes.atStartOnly.map((k) => `"${k}"`).join(" and ")} changed too, which is read at start only: restart mcpmock to apply it` : "";
  return `${changes.stubs.length} stub${changes.stubs.length === 1 ? "" : "s"}${parts.length ? `; ${parts.join("; ")} (clients told with list_changed)` : ""}${restart}`;
}

function textOf(path: string): string | undefined {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return undefined;
  }
}

/**
 * Watches `file` (its folder, so editors that save by renaming a new file over it are seen
 * too) and reloads `mock` from it. Returns the function that stops watching.
 */
export function watchDefinition(file: string, mock: McpMock, output: WatchOutput): () => void {
  const path = resolve(file);
  const name = basename(path);
  let last = textOf(path);
  let timer: NodeJS.Timeout | undefined;
  const reload = (): void => {
    timer = undefined;
    const text = textOf(path);
    // Saved without a change, or gone for a moment between an editor's unlink and rename.
    if (text === undefined || text === last) return;
    last = text;
    try {
      output.out(`${PREFIX} reloaded ${file}: ${summary(mock.reloadDefinition(path))}`);
    } catch (error) {
      output.err(`${PREFIX} ${file} changed but cannot be served; still serving the last good definition. Fix these and save again:\n${(error as Error).message}`);
    }
  };
  const watcher: FSWatcher = watch(dirname(path), { persistent: true }, (_event, changed) => {
    if (changed !== null && changed !== name) return;
    clearTimeout(timer);
    timer = setTimeout(reload, WATCH_DEBOUNCE_MS);
  });
  watcher.on("error", (error) => output.err(`${PREFIX} watching ${file} stopped: ${error.message}`));
  return () => {
    clearTimeout(timer);
    watcher.close();
  };
}
