#!/usr/bin/env node
/**
 * The `mcpmock` command: serve a definition over Streamable HTTP or stdio, or validate one.
 * Each command is a file of `cli/`; this one reads the command line and reports the outcome.
 * @module
 */
import { McpMockError, PREFIX } from "./values/errors.js";
import { closestNames } from "./journal/explain.js";
import { styleFor } from "./cli/style.js";
import { VERSION } from "./values/version.js";
import { checkOptionsTaken, parse, UsageError, type Command } from "./cli/command.js";
import { serve, splitProxyCommand } from "./cli/serve.js";
import { stdio } from "./cli/stdio.js";
import { validate, validateLine } from "./cli/validate.js";

const COMMANDS: Readonly<Record<string, Command>> = { serve, stdio, validate };

/** Commands that read their own command line (they take `-- <command> [args...]`); loaded when used, so `serve` starts no slower. */
const OWN_LINE: Readonly<Record<string, (args: string[]) => Promise<number | undefined>>> = {
  record: async (args) => (await import("./cli/record.js")).record(args),
  check: async (args) => (await import("./cli/check.js")).check(args),
  scenarios: async (args) => (await import("./cli/scenarios.js")).scenarios(args),
};

/** Every command's name, in one list: what a mistyped command is compared with. */
const ALL_COMMANDS: readonly string[] = [...Object.keys(COMMANDS), ...Object.keys(OWN_LINE)];

const HELP = `mcpmock ${VERSION}: a mock MCP server for tests.

Usage:
  mcpmock serve <definition.json> [--port N] [--host H] [--stateless] [--verbose]
  mcpmock serve [definition.json] --proxy <url> | --proxy -- <command> [args...]
  mcpmock stdio <definition.json> [--verbose]
  mcpmock validate <definition.json> [--proxy]
  mcpmock record --out <file.json> --target <url> [--port N] | -- <command> [args...]
  mcpmock check <definition.json> [--shape] --target <url> | -- <command> [args...]
  mcpmock scenarios --command "<client command>" [--scenario <name>]... [--suite official|hostile|all] [--json <file>]
  mcpmock <command> --help

Exit codes: 0 done, 1 the definition or the server failed, 2 the command line is wrong.`;

function fileArgument(positionals: string[], command: string): string {
  const file = positionals[1];
  // The message follows "mcpmock: ", so it names the command without repeating the program.
  if (!file) throw new UsageError(`the ${command} command needs a definition file: mcpmock ${command} <definition.json>`);
  if (positionals.length > 2) throw new UsageError(`the ${command} command takes one file, received ${positionals.length - 1}: ${positionals.slice(1).join(" ")}`);
  return file;
}

/** Runs the command line; resolves with the exit code for commands that end. */
export async function main(args: string[]): Promise<number | undefined> {
  const own = args[0] !== undefined && Object.hasOwn(OWN_LINE, args[0]) ? OWN_LINE[args[0]] : undefined;
  if (own) return own(args.slice(1));
  // `serve --proxy -- <command> [args...]`: the upstream's command line is not mcpmock's.
  const split = args[0] === "serve" ? splitProxyCommand(args) : { args: args[0] === "validate" ? validateLine(args) : args };
  const { values, positionals } = parse(split.args);
  const name = positionals[0];
  if (values.version) {
    process.stdout.write(`${VERSION}\n`);
    return 0;
  }
  const command = name === undefined ? undefined : Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (values.help || name === undefined || name === "help") {
    process.stdout.write(`${command?.help ?? HELP}\n`);
    return name === undefined && !values.help ? 2 : 0;
  }
  if (!command) {
    const similar = closestNames(name, ALL_COMMANDS);
    const hint = similar.length ? ` Did you mean "${similar[0]}"?` : "";
    throw new UsageError(`unknown command ${JSON.stringify(name)}.${hint} Commands: ${ALL_COMMANDS.join(", ")}. See mcpmock --help.`);
  }
  checkOptionsTaken(name, command.options, values);
  // With a proxy, serve needs no file: what no stub answers, the upstream does.
  if (name === "serve" && (values.proxy !== undefined || split.command) && positionals.length === 1) return command.run("", values, split.command);
  return command.run(fileArgument(positionals, name), values, split.command);
}

main(process.argv.slice(2)).then(
  (code) => {
    if (code !== undefined) process.exitCode = code;
  },
  (error: unknown) => {
    const style = styleFor(process.stderr);
    if (error instanceof UsageError) {
      process.stderr.write(`${style.red("mcpmock:")} ${error.message}\n`);
      process.exitCode = 2;
    } else if (error instanceof McpMockError) {
      process.stderr.write(`${style.red(PREFIX)}${error.message.slice(PREFIX.length)}\n`);
      process.exitCode = 1;
    } else {
      process.stderr.write(`mcpmock: ${String((error as Error)?.stack ?? error)}\n`);
      process.exitCode = 1;
    }
  },
);
