/**
 * What every `mcpmock` command shares: the command line's options, its mistakes (exit 2), and
 * the shape of a command (its help and what it runs).
 * @module
 */
import { parseArgs } from "node:util";
import { closestNames } from "../journal/explain.js";

/** A mistake on the command line (exit code 2). */
export class UsageError extends Error {}

/** The command line's options (parseArgs' form); every command reads the ones it needs. */
const OPTIONS = {
  help: { type: "boolean", short: "h" },
  version: { type: "boolean", short: "v" },
  port: { type: "string" },
  host: { type: "string" },
  stateless: { type: "boolean" },
  sse: { type: "boolean" },
  verbose: { type: "boolean" },
  watch: { type: "boolean" },
  "no-admin": { type: "boolean" },
  "no-legacy-sse": { type: "boolean" },
  auth: { type: "boolean" },
  "admin-host": { type: "string" },
  "allowed-host": { type: "string", multiple: true },
  proxy: { type: "string" },
  header: { type: "string", multiple: true },
  env: { type: "string", multiple: true },
} as const;

/** What an option that takes a value looks like, for the message when the value is missing. */
const VALUE_EXAMPLES: Readonly<Record<string, string>> = { "--port": "3000", "--host": "127.0.0.1", "--admin-host": "0.0.0.0", "--allowed-host": "mock.test", "--proxy": "http://127.0.0.1:3001/mcp (or --proxy -- <command> [args...])", "--header": '"Authorization: Bearer <token>"', "--env": "API_KEY=<key>" };

/** Parses the command line; a mistake is a {@link UsageError} that says where to look. */
export function parse(args: string[]) {
  try {
    return parseArgs({ args, allowPositionals: true, options: OPTIONS });
  } catch (error) {
    throw new UsageError(`${parseMistake(error as Error & { code?: string })} See mcpmock --help.`);
  }
}

/** Node's parseArgs message, said in the command line's own terms, with a did-you-mean. */
function parseMistake(error: Error & { code?: string }): string {
  const option = /'(-{1,2}[^' ]+)/.exec(error.message)?.[1];
  if (error.code === "ERR_PARSE_ARGS_UNKNOWN_OPTION" && option !== undefined) {
    const name = option.replace(/^-+/, "").split("=")[0] as string;
    const similar = closestNames(name, Object.keys(OPTIONS));
    const hint = similar.length ? ` Did you mean --${similar[0]}?` : "";
    return `unknown option ${option}.${hint}`;
  }
  if (error.code === "ERR_PARSE_ARGS_INVALID_OPTION_VALUE" && option !== undefined) {
    return error.message.endsWith("argument missing") ? `${option} needs a value, like ${option} ${VALUE_EXAMPLES[option] ?? "VALUE"}.` : `${option} takes no value.`;
  }
  return `${error.message}.`;
}

/** The parsed options. */
export type Options = ReturnType<typeof parse>["values"];

/** One command: its `--help` text, and what it does with its definition file. */
export interface Command {
  readonly help: string;
  /** Resolves with the exit code, or `undefined` for a command that keeps running (a server). */
  run(file: string, options: Options, proxyCommand?: readonly string[]): Promise<number | undefined>;
}
