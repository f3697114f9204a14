/** The largest scratch buffer kept between calls; longer texts are encoded on their own. */
const MAX_SCRATCH_BYTES = 256 * 1024;

/**
 * UTF-8 encoding through one reused scratch buffer: `encodeInto` writes the text there and the
 * chunk is a copy of exactly the bytes written, so a stage that encodes many batches allocates
 * one right-sized array per batch and no worst-case buffer per call.
 */
export class Utf8Writer {
  readonly #encoder = new TextEncoder();
  #scratch = new Uint8Array(0);

  /** The UTF-8 bytes of `text`, in a new array the caller owns. */
  encode(text: string): Uint8Array {
    // A UTF-16 code unit is at most 3 bytes of UTF-8 (a surrogate pair is 4 bytes for 2 units).
    const worst = text.length * 3;
    if (worst > MAX_SCRATCH_BYTES) return this.#encoder.encode(text);
    if (worst > this.#scratch.length)
      this.#scratch = new Uint8Array(Math.min(MAX_SCRATCH_BYTES, Math.max(worst, this.#scratch.length * 2, 4096)));
    const { written } = this.#encoder.encodeInto(text, this.#scratch);
    return this.#scratch.slice(0, written);
  }
}
