/**
 * What every `mcpmock` command shares: the command line's options, its mistakes (exit 2), and
 * the shape of a command (its help and what it runs).
 * @module
 */
import { parseArgs } from "node:util";

/** A mistake on the command line (exit code 2). */
export class UsageError extends Error {}

/** Parses the command line; a mistake is a {@link UsageError} that says where to look. */
export function parse(args: string[]) {
  try {
    return parseArgs({
      args,
      allowPositionals: true,
      options: {
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
        "admin-host": { type: "string" },
        "allowed-host": { type: "string", multiple: true },
      },
    });
  } catch (error) {
    throw new UsageError(`${(error as Error).message}. See mcpmock --help.`);
  }
}

/** The parsed options. */
export type Options = ReturnType<typeof parse>["values"];

/** One command: its `--help` text, and what it does with its definition file. */
export interface Command {
  readonly help: string;
  /** Resolves with the exit code, or `undefined` for a command that keeps running (a server). */
  run(file: string, options: Options): Promise<number | undefined>;
}
