/**
 * `mcpmock/recording`: what `mcpmock record` and `mcpmock check` do, as code. `record` drives
 * a client of its own through a recorder and resolves with the definition it wrote;
 * `startRecorder` records an outside client's session; `checkDefinition` plays a definition
 * against the real server and resolves with its verdict and differences (the lines the CLI
 * prints).
 *
 * ```ts
 * import { record, checkDefinition } from "mcpmock/recording";
 * ```
 * @module mcpmock/recording
 */
import type { MockDefinition } from "../definition/format.js";
import { loadDefinition } from "../definition/load.js";
import { McpMockError } from "../values/errors.js";
import { checkAgainst } from "./checker.js";
import type { CheckReport } from "./check-report.js";
import { parsePointers } from "./json-pointer.js";
import type { RecordTarget } from "./recorder.js";
import { credentialProblems } from "../upstream/credentials.js";
import { shownTarget } from "../proxy-target.js";

export { record, startRecorder, type RecordTarget, type RecordFileOptions, type RecorderOptions, type RecordOptions, type RecordResult, type Recorder } from "./recorder.js";
export type { CheckReport, CheckDifference, CheckChange } from "./check-report.js";

/**
 * Options of {@link checkDefinition}: the real server, the capabilities its client declares,
 * and how answers are compared.
 *
 * @example
 * ```ts
 * import type { CheckDefinitionOptions } from "mcpmock/recording";
 * const options: CheckDefinitionOptions = { command: "node", args: ["server.js", "stdio"], capabilities: { elicitation: {} }, ignore: ["/structuredContent/time"] };
 * ```
 * @category Definitions
 */
export type CheckDefinitionOptions = RecordTarget & {
  /** The client capabilities to declare (`--capabilities`); default: what the recording saw the client declare (`recorded.clientCapabilities`), or none. */
  readonly capabilities?: Record<string, unknown>;
  /** Compare shapes instead of values (`--shape`): the same `isError` and content types, structured content valid against the `outputSchema`, the same streamed methods. */
  readonly shape?: boolean;
  /** JSON Pointers into results left out of the comparison, e.g. `"/structuredContent/time"` (`--ignore`). */
  readonly ignore?: readonly string[];
  /** Milliseconds the server gets to connect and to answer each request (progress starts it again, up to 10 times this in all); 10000 by default. */
  readonly timeoutMs?: number;
};

/**
 * Plays every request of a definition (a file, or the object) that has specified arguments
 * or params against the real server and compares: the declared tools, then each answer with
 * what it streamed (its own requests answered with the answers the recording kept). Resolves
 * with `ok`, the differences, and the report `mcpmock check` prints; rejects when the
 * definition is invalid or the server cannot be reached.
 *
 * @example
 * ```ts
 * import { checkDefinition } from "mcpmock/recording";
 * const result = await checkDefinition("recorded.json", { command: "node", args: ["server.js", "stdio"], env: { API_KEY: process.env["API_KEY"] ?? "" } });
 * if (!result.ok) console.log(result.lines.join("\n"));
 * for (const { call, details } of result.differences) console.log(call, details);
 * ```
 * @category Definitions
 */
export async function checkDefinition(fileOrDefinition: string | MockDefinition, options: CheckDefinitionOptions): Promise<CheckReport> {
  const { definition } = loadDefinition(fileOrDefinition);
  const ignore = parsePointers(options.ignore, (message) => new McpMockError(`checkDefinition({ ignore }): ${message}`));
  const problems = credentialProblems(options, "checkDefinition");
  if ("target" in options && (typeof options.target !== "string" || !URL.canParse(options.target))) problems.unshift(`checkDefinition({ target }) takes the real server's URL, like "http://127.0.0.1:3001/mcp"; received ${typeof options.target === "string" ? JSON.stringify(shownTarget(options.target)) : shownTarget(options.target)}.`);
  if (problems.length > 0) throw new McpMockError(problems.join("\n"));
  // The same target record and proxy mode take: a stdio server starts with the SDK's default environment plus `env`.
  const target = "command" in options
    ? { command: options.command, args: options.args ?? [], ...(options.env === undefined ? {} : { env: options.env }) }
    : { target: options.target, ...(options.headers === undefined ? {} : { headers: options.headers }), ...(options.authProvider === undefined ? {} : { authProvider: options.authProvider }) };
  return checkAgainst(definition, target, {
    ignore,
    shape: options.shape === true,
    ...(options.capabilities === undefined ? {} : { capabilities: options.capabilities }),
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
  });
}
