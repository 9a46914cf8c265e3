/**
 * A snapshot of proxy mode: what the upstream answered, read from the journal, written as a
 * definition by the recorder's writer (so `redact` and `ignore` work as `mcpmock record`'s
 * `--redact` and `--ignore`), which then replays without the upstream.
 * @module
 */
import type { MockDefinition } from "../definition/format.js";
import type { JournalEntry } from "../journal/entry.js";
import type { UpstreamInfo } from "../engine/upstream-port.js";
import { McpMockError } from "../values/errors.js";
import { toDefinition } from "./definition-writer.js";
import type { Exchange } from "./exchanges.js";
import { parsePointers, type Pointer } from "./json-pointer.js";

/**
 * How a snapshot is written: JSON Pointers into request params (and answers, for `redact`)
 * as `mcpmock record` takes them.
 *
 * @example
 * ```ts
 * const definition = mock.snapshot({ redact: ["/arguments/token"], ignore: ["/arguments/requestId"] });
 * ```
 * @category Starting
 */
export interface SnapshotOptions {
  /** Pointers whose values never reach the definition, e.g. `"/arguments/token"` or `"/content/0/text"`. */
  readonly redact?: readonly string[];
  /** Pointers into request params that vary from run to run: matched with any value. */
  readonly ignore?: readonly string[];
}

/** The definition of what the upstream answered: its identity, its lists, one entry per distinct request. */
export function snapshotOf(entries: readonly JournalEntry[], info: UpstreamInfo | undefined, options: SnapshotOptions = {}): MockDefinition {
  const exchanges: Exchange[] = [];
  if (info) {
    const result = { capabilities: info.capabilities, serverInfo: info.serverInfo ?? { name: "upstream", version: "0" }, ...(info.instructions === undefined ? {} : { instructions: info.instructions }) };
    exchanges.push({ method: "initialize", params: undefined, steps: [], times: [], answer: { result } });
  }
  for (const entry of entries) {
    if (entry.proxied !== true || entry.method === undefined || entry.upstream === undefined) continue;
    const answer = entry.upstream.answer as Exchange["answer"];
    exchanges.push({ method: entry.method, params: entry.params, steps: [], times: [], ...(answer === undefined ? {} : { answer }) });
  }
  return toDefinition(exchanges, { redact: pointers("redact", options.redact), ignore: pointers("ignore", options.ignore) });
}

function pointers(name: string, texts: readonly string[] | undefined): Pointer[] {
  return parsePointers(texts, (message) => new McpMockError(`snapshot({ ${name} }): ${message}`));
}
