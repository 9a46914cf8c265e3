/**
 * `mcpmock record`: records a real MCP server into a definition file, as a proxy in front of
 * a Streamable HTTP server (`--target <url>`) or as the stdio server a client launches
 * (`-- <command> [args...]`). The file is rewritten as each answer arrives and once more at
 * the end (stdin closed, SIGINT, SIGTERM).
 * @module
 */
import { whenParentGoes } from "./parent-watch.js";
import { parseArgs } from "node:util";
import { DEFAULT_RECORD_TIMEOUT_MS } from "../recording/http-proxy.js";
import { parsePointers, type Pointer } from "../recording/json-pointer.js";
import { startRecorder, type Recorder } from "../recording/index.js";
import { portOption, UsageError } from "./command.js";
import { CREDENTIAL_HELP, credentialOptions, shownAs } from "./credentials.js";
import { upstreamName } from "../engine/proxy-target.js";

/** The help of `mcpmock record`. */
export const RECORD_HELP = `mcpmock record --out <file.json> --target <url> [--port N] [options]
mcpmock record --out <file.json> [options] -- <command> [args...]

Records a real MCP server into a definition file that \`mcpmock serve\` or \`mcpmock stdio\`
replays. With --target it is a proxy on 127.0.0.1: it prints its URL; point the client there.
With -- <command> it is the stdio server the client launches: it starts the real server and
relays both ways. The file is valid at every moment, written soon after each answer, and
written last when the recording ends (stdin closed, SIGINT, SIGTERM).
  --out FILE        the definition file to write (required)
  --target URL      the real server's Streamable HTTP endpoint
  --port N          the proxy's port (default 0: a free one)
  --timeout MS      how long the target gets to answer a request (an SSE answer: to start it);
                    then the client gets a JSON-RPC error naming it (default 10000)
  --redact POINTER  a JSON Pointer into request params or answers whose value never reaches
                    the file, e.g. /arguments/password (repeatable)
  --ignore POINTER  a JSON Pointer into request params that varies from run to run (a time,
                    an id): the replay matches it with { "$any": true } (repeatable)
  --capabilities JSON
                    the client capabilities written in the file for \`mcpmock check\` to
                    declare, e.g. '{"elicitation":{},"sampling":{}}' (default: what the
                    recorded client declared in its initialize)
${CREDENTIAL_HELP}
Headers are never written; values of credential headers (Authorization, Cookie, *token*,
*secret*, *api-key*, ...), a URL's password and secret-looking --header and --env values are
replaced by "[redacted]" wherever they appear in a body.`;

/** Parses the record/check option lines: the options before \`--\`, the command after it. */
export function splitCommand(args: readonly string[]): { before: string[]; command: string[] | undefined } {
  const at = args.indexOf("--");
  return at < 0 ? { before: [...args], command: undefined } : { before: args.slice(0, at), command: args.slice(at + 1) };
}

/** The example `--capabilities` messages show. */
const CAPABILITIES_EXAMPLE = `'{"elicitation":{},"sampling":{}}'`;

/** Parses `--capabilities`: a JSON object of client capabilities, each one an object. */
export function capabilitiesOption(text: string | undefined): Record<string, unknown> | undefined {
  if (text === undefined) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`--capabilities takes the client capabilities as a JSON object, like --capabilities ${CAPABILITIES_EXAMPLE}; ${JSON.stringify(text)} is not JSON (${(error as Error).message}). Quote it for the shell.`);
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw new UsageError(`--capabilities takes a JSON object of client capabilities, like --capabilities ${CAPABILITIES_EXAMPLE}; received ${text}.`);
  }
  for (const [name, settings] of Object.entries(value)) {
    if (settings === null || typeof settings !== "object" || Array.isArray(settings)) {
      throw new UsageError(`--capabilities: "${name}" must be an object (its settings, {} for none), like --capabilities '{"${name}":{}}'; received ${JSON.stringify(settings)}.`);
    }
  }
  return value as Record<string, unknown>;
}

/** Parses JSON Pointers given on the command line. */
export function pointers(option: string, values: readonly string[] | undefined): Pointer[] {
  return parsePointers(values, (message) => new UsageError(`--${option}: ${message}`));
}

function options(args: string[]) {
  try {
    return parseArgs({
      args,
      allowPositionals: false,
      options: {
        help: { type: "boolean", short: "h" },
        out: { type: "string" },
        target: { type: "string" },
        port: { type: "string" },
        redact: { type: "string", multiple: true },
        ignore: { type: "string", multiple: true },
        timeout: { type: "string" },
        capabilities: { type: "string" },
        header: { type: "string", multiple: true },
        env: { type: "string", multiple: true },
      },
    }).values;
  } catch (error) {
    throw new UsageError(`${(error as Error).message}. See mcpmock record --help.`);
  }
}

/** Runs `mcpmock record` with the arguments after the command's name; resolves when the recording ends. */
export async function record(args: readonly string[]): Promise<number | undefined> {
  const { before, command } = splitCommand(args);
  const values = options(before);
  if (values.help) {
    process.stdout.write(`${RECORD_HELP}\n`);
    return 0;
  }
  const out = values.out;
  if (!out) throw new UsageError("mcpmock record needs --out <file.json>: where the recording goes");
  const hasCommand = command !== undefined && command.length > 0;
  if (hasCommand === (values.target !== undefined)) throw new UsageError("mcpmock record records one server: --target <url> (Streamable HTTP) or -- <command> [args...] (stdio)");
  const port = portOption(values.port);
  let target: URL | undefined;
  if (values.target !== undefined) {
    try {
      target = new URL(values.target);
    } catch {
      throw new UsageError(`--target takes the real server's URL, like http://127.0.0.1:3001/mcp; received ${shownAs(values.target)}`);
    }
  }
  const timeoutMs = values.timeout === undefined ? DEFAULT_RECORD_TIMEOUT_MS : Number(values.timeout);
  if (!Number.isSafeInteger(timeoutMs) || timeoutMs <= 0) throw new UsageError(`--timeout takes milliseconds (a whole number above 0), received ${values.timeout}`);
  pointers("redact", values.redact);
  pointers("ignore", values.ignore);
  const capabilities = capabilitiesOption(values.capabilities);
  const credentials = credentialOptions(values, !hasCommand, "record");
  const written = { out, timeoutMs, redact: values.redact ?? [], ignore: values.ignore ?? [], ...(capabilities === undefined ? {} : { capabilities }) };
  let recorder: Recorder;
  if (hasCommand) {
    const [program, ...rest] = command as [string, ...string[]];
    recorder = await startRecorder({ command: program, args: rest, ...credentials, input: process.stdin, output: process.stdout, ...written });
    process.stderr.write(`mcpmock recording ${command.join(" ")} over stdio into ${out}\n`);
  } else if (target) {
    recorder = await startRecorder({ target: target.href, ...credentials, port, ...written });
    // Named without its user information or query (they may hold credentials).
    process.stdout.write(`mcpmock recording ${upstreamName({ target: target.href })} at ${recorder.url} into ${out}\n`);
  } else throw new UsageError("mcpmock record records one server: --target <url> or -- <command> [args...]");
  const finish = async (code = 0): Promise<void> => {
    const { exchanges } = await recorder.stop();
    process.stderr.write(`mcpmock wrote ${exchanges} exchanges to ${out}\n`);
    process.exit(code);
  };
  process.once("SIGINT", () => void finish());
  process.once("SIGTERM", () => void finish());
  if (!hasCommand) {
    // npx does not always forward signals: when the parent goes away, so does the recorder.
    whenParentGoes(() => void finish());
  }
  // A server that could not be started (127, as a shell says) fails the recording.
  await finish((await recorder.exited) === 127 ? 1 : 0);
  return 0;
}
