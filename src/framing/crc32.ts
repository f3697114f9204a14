/**
 * CRC-32 as zlib computes it (IEEE 802.3, reflected polynomial 0xEDB88320, initial and final
 * XOR 0xFFFFFFFF): the checksum of the AWS event stream's prelude and messages.
 *
 * @module
 */

/** The byte table, built once when the module is first used. */
const TABLE: Uint32Array = /* @__PURE__ */ (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c;
  }
  return table;
})();

/**
 * CRC-32 of `bytes[start, end)`, as an unsigned 32-bit integer: what a writer of the AWS event
 * stream puts after a message's prelude and at its end.
 *
 * @example
 * ```ts
 * const bytes = new TextEncoder().encode("123456789");
 * crc32(bytes, 0, bytes.length); // 0xcbf43926
 * ```
 */
export function crc32(bytes: Uint8Array, start: number, end: number): number {
  let crc = -1;
  for (let i = start; i < end; i++) crc = TABLE[(crc ^ bytes[i]!) & 0xff]! ^ (crc >>> 8);
  return (crc ^ -1) >>> 0;
}
