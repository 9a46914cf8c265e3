/**
 * `mcpmock validate`: checks a definition file without serving it.
 * @module
 */
import { loadDefinition } from "../definition/load.js";
import type { Command } from "./command.js";
import { styleFor } from "./style.js";

export const validate: Command = {
  help: `mcpmock validate <definition.json>

Checks a definition: exit 0 when valid, 1 with the problem (file, JSON path, expected form).`,

  async run(file) {
    loadDefinition(file);
    const style = styleFor(process.stdout);
    process.stdout.write(`${style.green(`${file} is a valid mcpmock definition.`)}\n`);
    return 0;
  },
};
