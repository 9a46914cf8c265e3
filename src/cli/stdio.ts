/**
 * `mcpmock stdio`: the process is the server; stdout carries protocol only.
 * @module
 */
import { basename } from "node:path";
import { McpMock } from "../mock.js";
import type { Command } from "./command.js";

export const stdio: Command = {
  options: ["verbose"],
  help: `mcpmock stdio <definition.json> [--verbose]

The process is the server: newline-delimited JSON-RPC on stdin and stdout. Nothing but
protocol goes to stdout; logs go to stderr. Exits when stdin closes.`,

  async run(file, values) {
    const verbose = values.verbose === true;
    const mock = await McpMock.fromDefinition(file, { transport: "none", verbose, onUnmatched: verbose ? "warn" : "silent", hintsFile: basename(file) });
    await mock.serveStdio({ input: process.stdin, output: process.stdout, log: process.stderr }, () => process.exit(1));
    await mock.close();
    process.exit(0);
  },
};
