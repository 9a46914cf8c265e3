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
    // "argument missing" (last on the line), "argument is ambiguous" (followed by an option, or by
    // a value starting with "-", like --port -1): the value is missing either way.
    const example = `${option} needs a value, like ${option} ${VALUE_EXAMPLES[option] ?? "VALUE"}`;
    if (error.message.endsWith("argument missing")) return `${example}.`;
    if (error.message.includes("argument is ambiguous")) return `${example} (a value starting with "-" is written ${option}=-VALUE).`;
    return `${option} takes no value.`;
  }
  return `${error.message}.`;
}

/**
 * A `--port` value: decimal digits, 0-65535 (0: a free port). `Number()` alone let "0x10", "1e3"
 * and "" through (port 16, 1000, a free one).
 */
export function portOption(value: string | undefined): number {
  if (value === undefined) return 0;
  const port = /^\d{1,5}$/.test(value) ? Number(value) : Number.NaN;
  if (!(port <= 65535)) throw new UsageError(`--port takes a port number 0-65535, received ${value === "" ? "nothing" : value}`);
  return port;
}

/**
 * Refuses an option the command does not take: it would be ignored without a word (`stdio
 * --watch` watches nothing, `validate --port` listens on nothing).
 */
export function checkOptionsTaken(command: string, taken: readonly string[], values: Record<string, unknown>): void {
  const given = Object.keys(values).filter((name) => values[name] !== undefined && name !== "help" && name !== "version" && !taken.includes(name));
  if (given.length === 0) return;
  const names = given.map((g) => `--${g}`);
  const takes = taken.length === 0 ? "takes no options" : `takes ${taken.map((t) => `--${t}`).join(", ")}`;
  throw new UsageError(`${names.length === 1 ? names[0] : `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`} ${given.length === 1 ? "is not an option" : "are not options"} of ${command}: it ${takes}. See mcpmock ${command} --help.`);
}

/** The parsed options. */
export type Options = ReturnType<typeof parse>["values"];

/** One command: its `--help` text, and what it does with its definition file. */
export interface Command {
  readonly help: string;
  /** The options it takes (the parser's names, without `--`); any other is a usage error. */
  readonly options: readonly (keyof Options)[];
  /** Resolves with the exit code, or `undefined` for a command that keeps running (a server). */
  run(file: string, options: Options, proxyCommand?: readonly string[]): Promise<number | undefined>;
}
