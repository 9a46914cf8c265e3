/**
 * `mcpmock validate`: checks a definition file without serving it, with the options that
 * change what a file may hold (`--proxy`: a tool or prompt the file does not declare may be the
 * upstream's, as `serve --proxy` accepts it).
 * @module
 */
import { loadDefinition } from "../definition/load.js";
import type { Command } from "./command.js";
import { styleFor } from "./style.js";

/** The value a bare `--proxy` stands for on a validate line: proxy mode, no upstream named. */
const ANY_UPSTREAM = "(any upstream)";

/**
 * A validate command line as the parser reads it: a bare `--proxy` (last, or before another
 * option) and `--proxy -- <command> [args...]` both mean proxy mode; the upstream is not started.
 */
export function validateLine(args: readonly string[]): string[] {
  const at = args.indexOf("--proxy");
  if (at === -1) return [...args];
  const next = args[at + 1];
  if (next === "--") return [...args.slice(0, at), `--proxy=${ANY_UPSTREAM}`];
  if (next === undefined || next.startsWith("-")) return [...args.slice(0, at), `--proxy=${ANY_UPSTREAM}`, ...args.slice(at + 1)];
  return [...args];
}

export const validate: Command = {
  options: ["proxy"],
  help: `mcpmock validate <definition.json> [--proxy [<url> | -- <command> [args...]]]

Checks a definition: exit 0 when valid, 1 with every problem (file, JSON path, what is wrong, the fix).
Besides the file's form: a "required" naming a property the schema does not declare, a stub's
"args" the tool's inputSchema refuses, a "result" that breaks the tool's outputSchema
("options": { "strict": false } keeps the last two on purpose).
  --proxy   check the file as serve --proxy reads it: a tool or prompt it answers without
            declaring may be the upstream's (nothing is started)`,

  async run(file, values) {
    const proxied = values.proxy !== undefined;
    loadDefinition(file, { proxied });
    const style = styleFor(process.stdout);
    process.stdout.write(`${style.green(`${file} is a valid mcpmock definition${proxied ? " for proxy mode" : ""}.`)}\n`);
    return 0;
  },
};
