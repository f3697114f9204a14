import type { ErrorCode } from "../../shared/errors.ts";
import type { JsonValue } from "../../shared/json.ts";
import { isRecord } from "../../shared/values.ts";
import type { Emit } from "../provider-decoder.ts";

/**
 * An open image block of ConverseStream: its start's fields (ImageBlockStart's `format`), its
 * deltas' base64 bytes (gone once the image is left out) and their length.
 */
export interface ImageBlock {
  image?: Record<string, unknown>;
  chunks?: string[];
  resultLength?: number;
}

/**
 * An image delta (ImageBlockDelta: `source.bytes`, base64 on the JSON wire, or `error`) on its
 * open block. Its bytes are kept while the image's are within `max` characters. Past it the image
 * is left out (its later deltas too) with an `error` of code `arguments-too-large`, and the turn
 * goes on: an image is no call, and the text and calls around it stand. A delta's `error` (an
 * ErrorBlock, "if this image delta could not be processed": that block's failure, where the
 * stream's own are its exception events) leaves the image out the same way, with an `error` of code
 * `block-failed` (`data`: `{ image: { error } }`).
 *
 * @example
 * ```ts
 * imageDelta(block, { source: { bytes: "iVBO" } }, 262144, emit); // block.chunks: ["iVBO"]
 * ```
 */
export function imageDelta(block: ImageBlock, delta: Record<string, unknown>, max: number, emit: Emit): void {
  const { error, source } = delta;
  const bytes = isRecord(source) && source["bytes"];
  if (typeof bytes === "string" && block.chunks) {
    if ((block.resultLength = (block.resultLength ?? 0) + bytes.length) <= max) block.chunks.push(bytes);
    else leftOut(block, emit, "arguments-too-large", `is over maxArgumentsLength (${max})`);
  }
  // The image is incomplete: left out, its later deltas too.
  if (isRecord(error) && block.chunks) leftOut(block, emit, "block-failed", "failed", { image: { error } });
}

/** Leaves an image out (its later deltas too), with an `error` saying why. */
function leftOut(block: ImageBlock, emit: Emit, code: ErrorCode, why: string, data?: unknown): void {
  delete block.chunks;
  emit({ type: "error", error: { code, message: `An image the model made ${why}; it was left out.`, data } });
}

/**
 * An image at its stop: its deltas' bytes (each base64 of its own, padded) decoded, then encoded
 * again as one, as a `block` reasoning part `{image}` (Converse's ImageBlock, which the next turn
 * sends back); bytes that are not base64 are a `block-failed` error, the image left out (every
 * payload was read: no call open meanwhile lost a fragment, as a `malformed-payload` would say),
 * and so is an image with no bytes (`data`: `{ image }`, its start's fields), never dropped silently.
 *
 * @example
 * ```ts
 * imageStop({ image: { format: "png" }, chunks: ["iVBO", "Rw0KGgo="] }, emit); // bytes "iVBORw0KGgo="
 * ```
 */
export function imageStop({ image, chunks }: ImageBlock, emit: Emit): void {
  let bytes: string;
  if (!chunks) return;
  try {
    bytes = btoa(chunks.map((chunk) => atob(chunk)).join(""));
  } catch {
    return leftOut({}, emit, "block-failed", "is not base64");
  }
  if (!bytes) return leftOut({}, emit, "block-failed", "has no bytes", { image });
  const block = { image: { ...image, source: { bytes } } } as { [key: string]: JsonValue };
  emit({ type: "reasoning-part", part: { type: "block", block } });
}
