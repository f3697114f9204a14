/**
 * A protocol's encoder as the last of {@link mapChunks}'s steps over an answer's arrays of events.
 *
 * @module
 */
import { joinDeltas, type ProtocolEncoder } from "../../src/index.ts";
import { mapChunks } from "./batch-map.ts";

/**
 * Arrays of events as a protocol's bytes, one chunk per array (none for an array that writes
 * nothing) and the encoder's last frames at the end, adjacent fragments of one call (or of the
 * text) joined into one delta ({@link joinDeltas}): what `ProtocolEncoderStream` with `joinDeltas`
 * writes, as a step of {@link mapChunks}.
 *
 * @example
 * ```ts
 * const body = withHeartbeat(encodeBatches(batches, new ToolCallEventEncoder()), runtime.timers);
 * ```
 */
export function encodeBatches<E extends { readonly type: string }>(
  batches: ReadableStream<readonly E[]>,
  encoder: ProtocolEncoder<E>,
): ReadableStream<Uint8Array> {
  const utf8 = new TextEncoder();
  const out: string[] = [];
  const take = (): Uint8Array | undefined => {
    if (out.length === 0) return undefined;
    const text = out.join("");
    out.length = 0;
    return utf8.encode(text);
  };
  return mapChunks(
    batches,
    (batch) => {
      for (const event of joinDeltas(batch)) encoder.encode(event, out);
      return take();
    },
    () => {
      encoder.end(out);
      return take();
    },
    () => encoder.ended === true,
  );
}
