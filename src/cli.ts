#!/usr/bin/env node
/**
 * The `mcpmock` command: serve a definition over Streamable HTTP or stdio, or validate one.
 * @module
 */
import { parseArgs } from "node:util";
import { McpMock } from "./mock.js";
import { McpMockError } from "./values/errors.js";
import { loadDefinition } from "./definition/load.js";
import { VERSION } from "./values/version.js";

const HELP: Record<string, string> = {
  main: `mcpmock ${VERSION}: a mock MCP server for tests.

Usage:
  mcpmock serve <definition.json> [--port N] [--host H] [--stateless] [--verbose]
  mcpmock stdio <definition.json> [--verbose]
  mcpmock validate <definition.json>
  mcpmock <command> --help

Exit codes: 0 done, 1 the definition or the server failed, 2 the command line is wrong.`,
  serve: `mcpmock serve <definition.json> [options]

Serves the definition over Streamable HTTP and prints the URL, then one line per stub.
  --port N          port (default 0: a free one)
  --host H          interface (default 127.0.0.1)
  --stateless       no sessions
  --sse             answer every request as an SSE stream
  --verbose         log each request and its answer on stderr
  --no-admin        no admin REST API
  --admin-host H    let non-loopback clients use the admin API (when --host is not loopback)
Admin API: GET/POST /__admin/stubs, DELETE /__admin/stubs/:id, GET /__admin/requests,
POST /__admin/verify, POST /__admin/notify, POST /__admin/reset.`,
  stdio: `mcpmock stdio <definition.json> [--verbose]

The process is the server: newline-delimited JSON-RPC on stdin and stdout. Nothing but
protocol goes to stdout; logs go to stderr. Exits when stdin closes.`,
  validate: `mcpmock validate <definition.json>

Checks a definition: exit 0 when valid, 1 with the problem (file, JSON path, expected form).`,
};

class UsageError extends Error {}

function parse(args: string[]) {
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
        "no-admin": { type: "boolean" },
        "admin-host": { type: "string" },
      },
    });
  } catch (error) {
    throw new UsageError(`${(error as Error).message}. See mcpmock --help.`);
  }
}

function fileArgument(positionals: string[], command: string): string {
  const file = positionals[1];
  if (!file) throw new UsageError(`mcpmock ${command} needs a definition file: mcpmock ${command} <definition.json>`);
  if (positionals.length > 2) throw new UsageError(`mcpmock ${command} takes one file, received ${positionals.length - 1}: ${positionals.slice(1).join(" ")}`);
  return file;
}

async function serve(file: string, values: ReturnType<typeof parse>["values"]): Promise<void> {
  const port = values.port === undefined ? 0 : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`--port takes a port number 0-65535, received ${values.port}`);
  const adminHost = values["admin-host"];
  const mock = await McpMock.fromDefinition(file, {
    port,
    host: values.host ?? "127.0.0.1",
    ...(values.stateless ? { sessions: "stateless" as const } : {}),
    ...(values.sse ? { responseMode: "sse" as const } : {}),
    verbose: values.verbose === true,
    admin: values["no-admin"] ? false : { remote: adminHost !== undefined && !/^(127\.|localhost$|::1$)/.test(adminHost) },
  });
  // Handlers first: a supervisor may stop the server as soon as it sees the URL.
  const stop = (): void => void mock.close().then(() => process.exit(0));
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
  // npx does not forward signals: when the parent goes away, so does the server.
  const parent = process.ppid;
  setInterval(() => process.ppid !== parent && stop(), 1000).unref();
  process.stdout.write(`mcpmock serving ${file} at ${mock.url}\n`);
  if (!values["no-admin"]) process.stdout.write(`admin API at ${mock.url.replace(/\/[^/]*$/, "")}/__admin\n`);
  for (const stub of mock.stubs()) if (stub.source !== "default") process.stdout.write(`  ${stub.id}: ${stub.sentence}\n`);
}

async function stdio(file: string, verbose: boolean): Promise<void> {
  const mock = await McpMock.fromDefinition(file, { transport: "none", verbose, onUnmatched: verbose ? "warn" : "silent" });
  await mock.serveStdio({ input: process.stdin, output: process.stdout, log: process.stderr }, () => process.exit(1));
  await mock.close();
  process.exit(0);
}

/** Runs the command line; resolves with the exit code for commands that end. */
export async function main(args: string[]): Promise<number | undefined> {
  const { values, positionals } = parse(args);
  const command = positionals[0];
  if (values.version) {
    process.stdout.write(`${VERSION}\n`);
    return 0;
  }
  if (values.help || command === undefined || command === "help") {
    process.stdout.write(`${HELP[command !== undefined && command !== "help" ? command : "main"] ?? HELP["main"]}\n`);
    return command === undefined && !values.help ? 2 : 0;
  }
  if (!(command in HELP) || command === "main") throw new UsageError(`unknown command ${JSON.stringify(command)}. Commands: serve, stdio, validate. See mcpmock --help.`);
  const file = fileArgument(positionals, command);
  switch (command) {
    case "validate":
      loadDefinition(file);
      process.stdout.write(`${file} is a valid mcpmock definition.\n`);
      return 0;
    case "serve":
      await serve(file, values);
      return undefined;
    default:
      // stdio: stdout carries protocol only
      await stdio(file, values.verbose === true);
      return undefined;
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    if (code !== undefined) process.exitCode = code;
  },
  (error: unknown) => {
    if (error instanceof UsageError) {
      process.stderr.write(`mcpmock: ${error.message}\n`);
      process.exitCode = 2;
    } else if (error instanceof McpMockError) {
      process.stderr.write(`${error.message}\n`);
      process.exitCode = 1;
    } else {
      process.stderr.write(`mcpmock: ${String((error as Error)?.stack ?? error)}\n`);
      process.exitCode = 1;
    }
  },
);
