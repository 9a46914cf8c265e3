/**
 * A web stream read whole up to a limit: past it the read stops and the stream is cancelled, so a
 * body or document that streams without end never grows the mock's memory.
 * @module
 */

/** The bytes of `body` up to `limit`; `"cut"` when it held more (the rest is never read). */
export async function readStreamCapped(body: ReadableStream<Uint8Array>, limit: number): Promise<Uint8Array | "cut"> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => undefined);
      return "cut";
    }
    chunks.push(value);
  }
  return chunks.length === 1 ? (chunks[0] as Uint8Array) : Buffer.concat(chunks);
}
