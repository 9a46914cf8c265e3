/**
 * `mcpmock serve --watch`: the definition file is read again when it changes. A good edit
 * moves the mock to it (clients get `list_changed` for the declarations that changed; the
 * journal and sessions stay); an edit with mistakes prints every one and the mock keeps
 * serving the last good definition. An app's `file` (MCP Apps) is watched too: saved, the
 * app is declared again from it.
 * @module
 */
import { watch, type FSWatcher } from "node:fs";
import { basename, dirname, isAbsolute, resolve } from "node:path";
import type { McpMock } from "../mock.js";
import type { ReloadChanges } from "../definition/reload.js";
import { PREFIX } from "../values/errors.js";
import { MAX_DEFINITION_BYTES } from "../definition/load.js";
import { readRegularFile } from "../stubs/declared-file.js";

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
  // A regular file only: one replaced by a FIFO is not waited on with the server held. What
  // cannot be read is as if gone; a file that is not UTF-8 changed, and its reload says why.
  const read = readRegularFile(path, MAX_DEFINITION_BYTES);
  return typeof read === "string" ? undefined : read.toString("utf8");
}

/** The apps of a definition's text that have a `file`, by the file's absolute path. */
function appFiles(text: string | undefined, dir: string): Map<string, Record<string, unknown>[]> {
  const files = new Map<string, Record<string, unknown>[]>();
  let apps: unknown;
  try {
    apps = (JSON.parse(text ?? "{}") as { apps?: unknown } | null)?.apps;
  } catch {
    return files;
  }
  if (!Array.isArray(apps)) return files;
  for (const app of apps as unknown[]) {
    const file = (app as { file?: unknown } | null)?.file;
    if (typeof file !== "string" || file === "") continue;
    const path = isAbsolute(file) ? file : resolve(dir, file);
    files.set(path, [...(files.get(path) ?? []), { ...(app as Record<string, unknown>), file: path }]);
  }
  return files;
}

/**
 * Watches the folders of a definition's app files and declares an app again when its file is
 * saved. `update(text)` follows the definition's last good text. `close()` stops every watcher.
 */
class AppFileWatch {
  readonly #mock: McpMock;
  readonly #output: WatchOutput;
  readonly #dir: string;
  readonly #watchers = new Map<string, FSWatcher>();
  readonly #timers = new Map<string, NodeJS.Timeout>();
  #files = new Map<string, Record<string, unknown>[]>();
  #texts = new Map<string, string | undefined>();

  constructor(mock: McpMock, output: WatchOutput, dir: string) {
    this.#mock = mock;
    this.#output = output;
    this.#dir = dir;
  }

  update(text: string | undefined): void {
    this.#files = appFiles(text, this.#dir);
    this.#texts = new Map([...this.#files.keys()].map((f) => [f, textOf(f)]));
    const dirs = new Set([...this.#files.keys()].map((f) => dirname(f)));
    for (const [dir, watcher] of this.#watchers) {
      if (dirs.has(dir)) continue;
      watcher.close();
      this.#watchers.delete(dir);
    }
    for (const dir of dirs) {
      if (this.#watchers.has(dir)) continue;
      try {
        const watcher = watch(dir, { persistent: true }, (_event, name) => this.#changed(dir, name));
        watcher.on("error", (error) => this.#output.err(`${PREFIX} watching ${dir} (app files) stopped: ${error.message}`));
        this.#watchers.set(dir, watcher);
      } catch (error) {
        this.#output.err(`${PREFIX} cannot watch ${dir} for app files: ${(error as Error).message}`);
      }
    }
  }

  #changed(dir: string, name: string | null): void {
    const files = [...this.#files.keys()].filter((f) => dirname(f) === dir && (name === null || basename(f) === name));
    for (const file of files) {
      clearTimeout(this.#timers.get(file));
      this.#timers.set(file, setTimeout(() => this.#reload(file), WATCH_DEBOUNCE_MS));
    }
  }

  #reload(file: string): void {
    this.#timers.delete(file);
    const text = textOf(file);
    if (text === undefined || text === this.#texts.get(file)) return;
    this.#texts.set(file, text);
    for (const app of this.#files.get(file) ?? []) {
      try {
        this.#mock.declareApp(app as never);
        this.#output.out(`${PREFIX} reloaded ${file}: app ${String(app["uri"])} (clients told with list_changed)`);
      } catch (error) {
        this.#output.err(`${PREFIX} ${file} changed but app ${String(app["uri"])} cannot be served from it; still serving the last good one:\n${(error as Error).message}`);
      }
    }
  }

  close(): void {
    for (const timer of this.#timers.values()) clearTimeout(timer);
    for (const watcher of this.#watchers.values()) watcher.close();
    this.#watchers.clear();
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
  const apps = new AppFileWatch(mock, output, dirname(path));
  apps.update(last);
  const reload = (): void => {
    timer = undefined;
    const text = textOf(path);
    // Gone (or no longer a regular file) past the debounce: said once, and the file is read
    // afresh when it comes back, even with the text it had.
    if (text === undefined) {
      if (last !== undefined) output.err(`${PREFIX} ${file} is gone (or cannot be read); still serving the last good definition. Save it again to reload.`);
      last = undefined;
      return;
    }
    // Saved without a change.
    if (text === last) return;
    last = text;
    try {
      output.out(`${PREFIX} reloaded ${file}: ${summary(mock.reloadDefinition(path))}`);
      apps.update(text);
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
    apps.close();
  };
}
