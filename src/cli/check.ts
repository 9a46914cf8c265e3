/**
 * `mcpmock check`: a definition's calls against a real server, with a verdict per call.
 * Exit 0 when everything agrees, 1 when something differs, 2 when the check could not run.
 * @module
 */
import { parseArgs } from "node:util";
import { loadDefinition } from "../definition/load.js";
import { McpMockError } from "../values/errors.js";
import { checkDefinition } from "../recording/index.js";
import { UsageError } from "./command.js";
import { capabilitiesOption, pointers, splitCommand } from "./record.js";
import { CREDENTIAL_HELP, credentialOptions, shownAs } from "./credentials.js";
import { upstreamName } from "../engine/proxy-target.js";

/** The help of `mcpmock check`. */
export const CHECK_HELP = `mcpmock check <definition.json> --target <url> [options]
mcpmock check <definition.json> [options] -- <command> [args...]

Plays every request of the definition that has specified arguments or params against the
real server (Streamable HTTP at --target, or the stdio server the command starts) and
compares: the declared tools (missing, extra, other schemas), then each answer and what
the server streamed for it (its own requests, elicitation, sampling or roots, are answered
with the answers the recording kept).
  --capabilities JSON
                    the client capabilities to declare, e.g. '{"elicitation":{},"sampling":{}}'
                    (default: what the recorded client declared; a server may list some
                    tools only to clients that declare elicitation or sampling)
  --shape           compare shapes: the same isError, the same content types, structured
                    content valid against the declared outputSchema
  --ignore POINTER  a JSON Pointer into results left out of the comparison, e.g.
                    /structuredContent/time (repeatable); for one entry, give it
                    "ignore": ["/structuredContent/time"] in the file
Calls are played in the order they were recorded ("recorded": { "order" }), and each
difference is shown whole, with a diff of long texts and objects.
${CREDENTIAL_HELP}
Exit codes: 0 the server agrees, 1 it differs, 2 the check could not run.`;

/** Runs `mcpmock check` with the arguments after the command's name. */
export async function check(args: readonly string[]): Promise<number> {
  const { before, command } = splitCommand(args);
  let parsed;
  try {
    parsed = parseArgs({ args: before, allowPositionals: true, options: { help: { type: "boolean", short: "h" }, target: { type: "string" }, shape: { type: "boolean" }, ignore: { type: "string", multiple: true }, capabilities: { type: "string" }, header: { type: "string", multiple: true }, env: { type: "string", multiple: true } } });
  } catch (error) {
    throw new UsageError(`${(error as Error).message}. See mcpmock check --help.`);
  }
  const { values, positionals } = parsed;
  if (values.help) {
    process.stdout.write(`${CHECK_HELP}\n`);
    return 0;
  }
  const file = positionals[0];
  if (!file || positionals.length > 1) throw new UsageError("mcpmock check takes one definition file: mcpmock check <definition.json> --target <url> | -- <command> [args...]");
  const hasCommand = command !== undefined && command.length > 0;
  if (hasCommand === (values.target !== undefined)) throw new UsageError("mcpmock check needs one real server: --target <url> (Streamable HTTP) or -- <command> [args...] (stdio)");
  if (values.target !== undefined && !URL.canParse(values.target)) throw new UsageError(`--target takes the real server's URL, like http://127.0.0.1:3001/mcp; received ${shownAs(values.target)}`);
  pointers("ignore", values.ignore);
  const capabilities = capabilitiesOption(values.capabilities);
  const credentials = credentialOptions(values, !hasCommand, "check");
  let definition;
  try {
    definition = loadDefinition(file).definition;
  } catch (error) {
    if (!(error instanceof McpMockError)) throw error;
    process.stderr.write(`${error.message}\n`);
    return 2;
  }
  const [program, ...rest] = command ?? [];
  const target = hasCommand ? { command: program as string, args: rest, ...credentials } : { target: values.target as string, ...credentials };
  try {
    const report = await checkDefinition(definition, { ...target, shape: values.shape === true, ignore: values.ignore ?? [], ...(capabilities === undefined ? {} : { capabilities }) });
    process.stdout.write(`${report.lines.join("\n")}\n`);
    return report.ok ? 0 : 1;
  } catch (error) {
    const where = hasCommand ? command.join(" ") : upstreamName({ target: values.target as string });
    process.stderr.write(`mcpmock check: could not check against ${where}: ${(error as Error).message}\n`);
    return 2;
  }
}
