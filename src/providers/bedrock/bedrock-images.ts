import type { JsonValue } from "../../shared/json.ts";
import { isRecord } from "../../shared/values.ts";
import { providerError } from "../payload.ts";
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
 * goes on: an image is no call, and the text and calls around it stand. A delta's `error` is a
 * `provider-error` (`data`: `{ image: { error } }`), the image left out.
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
    else {
      delete block.chunks;
      emit({
        type: "error",
        error: {
          code: "arguments-too-large",
          message: `An image the model made is over maxArgumentsLength (${max}); it was left out.`,
        },
      });
    }
  }
  if (isRecord(error) && block.chunks) {
    delete block.chunks; // the image is incomplete: left out, its later deltas too
    emit(providerError({ image: { error } }));
  }
}

/**
 * An image at its stop: its deltas' bytes (each base64 of its own, padded) decoded, then encoded
 * again as one, as a `block` reasoning part `{image}` (Converse's ImageBlock, which the next turn
 * sends back); bytes that are not base64 are a `malformed-payload` error, the image left out.
 *
 * @example
 * ```ts
 * imageStop({ image: { format: "png" }, chunks: ["iVBO", "Rw0KGgo="] }, emit); // bytes "iVBORw0KGgo="
 * ```
 */
export function imageStop({ image, chunks }: ImageBlock, emit: Emit): void {
  let bytes: string;
  if (!chunks?.length) return;
  try {
    bytes = btoa(chunks.map((chunk) => atob(chunk)).join(""));
  } catch {
    return emit({
      type: "error",
      error: { code: "malformed-payload", message: "An image's bytes are not base64; it was skipped." },
    });
  }
  const block = { image: { ...image, source: { bytes } } } as { [key: string]: JsonValue };
  emit({ type: "reasoning-part", part: { type: "block", block } });
}
