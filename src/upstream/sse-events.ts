/**
 * Server-sent events read from an upstream's response: bytes to complete events (each event's
 * data, a cap on its size) and an event's data to a JSON-RPC message.
 * @module
 */
import { LineReader } from "../values/line-reader.js";
import { MAX_LINE_BYTES } from "./line-reader.js";

/** A JSON-RPC message as read from the upstream, before anything is checked. */
export type Message = { method?: string; id?: string | number; params?: Record<string, unknown>; result?: unknown; error?: unknown };

/** SSE events from bytes: each event's data, once complete. */
export class EventParser {
  readonly #lines: LineReader;
  #data: string[] = [];
  #dataBytes = 0;
  #event = "";
  /** Bytes of an event (or line) over the cap, once one came. */
  oversized: number | undefined;

  constructor(event: (data: string) => void) {
    this.#lines = new LineReader({
      line: (line) => {
        if (line === "") {
          if (this.#data.length > 0 && (this.#event === "" || this.#event === "message")) event(this.#data.join("\n"));
          this.#data = [];
          this.#dataBytes = 0;
          this.#event = "";
          return;
        }
        if (line.startsWith(":")) return;
        const colon = line.indexOf(":");
        const field = colon === -1 ? line : line.slice(0, colon);
        const value = colon === -1 ? "" : line.slice(line[colon + 1] === " " ? colon + 2 : colon + 1);
        if (field === "data") {
          this.#dataBytes += value.length;
          if (this.#dataBytes > MAX_LINE_BYTES) this.oversized = this.#dataBytes;
          else this.#data.push(value);
        } else if (field === "event") this.#event = value;
      },
      oversize: (bytes) => (this.oversized = bytes),
    }, MAX_LINE_BYTES);
  }

  /** Whether part of an event has arrived and not its end. */
  get midEvent(): boolean {
    return this.#data.length > 0 || this.#event !== "" || this.#lines.pending > 0;
  }

  push(chunk: Uint8Array): void {
    this.#lines.push(chunk);
  }
}

/** An event's data as a message (`undefined`, and nothing delivered, when it is not JSON). */
export function parseEvent(data: string): Message | undefined {
  try {
    const parsed = JSON.parse(data) as unknown;
    return parsed !== null && typeof parsed === "object" && !Array.isArray(parsed) ? (parsed as Message) : undefined;
  } catch {
    return undefined;
  }
}
