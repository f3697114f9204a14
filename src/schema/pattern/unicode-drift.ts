/**
 * The code points whose Unicode properties the runtimes' tables disagree on: a `\p{...}` of a
 * pattern reads the runtime's own tables, and Deno 2.9's V8 ships Unicode 16 where Node 24,
 * workerd and Chromium ship 17. Measured by matching every code point against every property
 * escape ECMAScript has (General_Category, Script, Script_Extensions, the binary properties) in
 * Deno 2.9.6 and Node 24.21: 5,533 code points differ. Each list is ranges, sorted, as base-36
 * gaps from the previous range's end and lengths (`gap-length`, a length of 0 left out).
 *
 * @module
 */

/**
 * Every escape: the 4,803 code points Unicode 17 assigned, and 58 others (U+0295's category,
 * U+0308's Script_Extensions, Diacritic, case).
 */
const ANY =
  "id 35 2 o 3 e hd z 2 js 5e-1 lm 3k 2r7-e 3-b dm-3 a 7-2 2 4u-z lf 251 ojc-1 3-3 s gk2-f ce-1 1j-6 29e-p 12k-2 9-8 y-1 2g5-7 g9-17 5-9 fxz-o 3-o 7z-4 4qq-7 zu-l 2q-36 cg8-2 ce-m g-g 4pc-u 2-l 9-1 34p 4f-3 9i-8 ak-3 1f 4 1m 5 t 5 7f 10zk-5 4mb-b gsj-3bd";
/** The emoji properties only (`Emoji`, `Extended_Pictographic`...): 672 symbols, ★ U+2605 among them, that left them. */
const EMOJI =
  "70o hp 2-6 2-1 2 4-1 2-3 2-1 2 3-1 2-2 2-2 3-7 4-4 2 2-4 d-a 3-1 2 3 2-h 2-1 3-5 b-1 7 2 3-2 3-4 2-1 3-3 3-a 3-4 3-1 2-4 3 2 3-j 3-4 7 5-1 2-3 2-1 a 2-1 2c-2 2i6x-3 2-12 5-2r d-e 3-e 2-d 3-10 o-2 w 1p-3 1q 4z-5 59-1 35-1 3 4-1 2c-1 4 7c 20-2 7 p-6 3-1 9-b 2-1 5-1 2-3 3-c 3-1 2-7 3-8 2-4 4-b 4-7 4-1 2 2-3 2-5 2-2 2-5 5p-4 9-1 i-2 2 7-1 3m-2 5-4 2e-4 5z-b 5-1 8v-2b d-d";

/** A list as a bit per code point, kept for the blocks of 256 that hold one: `slots[code >> 8]` is the block's place in `bits` plus one, or 0. */
interface Bits {
  readonly slots: Uint16Array;
  readonly bits: Int32Array;
}

let any: Bits | undefined;
let emojis: Bits | undefined;

function decode(text: string): Bits {
  const slots = new Uint16Array(0x1100);
  const ranges: number[] = [];
  let end = 0;
  let used = 0;
  for (const part of text.split(" ")) {
    const [gap, length = "0"] = part.split("-");
    const start = (end += Number.parseInt(gap!, 36));
    ranges.push(start, (end += Number.parseInt(length, 36)));
    for (let block = start >> 8; block <= end >> 8; block++) slots[block] ||= ++used;
  }
  const bits = new Int32Array(used * 8);
  for (let i = 0; i < ranges.length; i += 2)
    for (let code = ranges[i]!; code <= ranges[i + 1]!; code++)
      bits[(slots[code >> 8]! - 1) * 8 + ((code >> 5) & 7)]! |= 1 << (code & 31);
  return { slots, bits };
}

const holds = ({ slots, bits }: Bits, code: number): boolean => {
  const slot = slots[code >> 8]!;
  return slot !== 0 && ((bits[(slot - 1) * 8 + ((code >> 5) & 7)]! >>> (code & 31)) & 1) !== 0;
};

/**
 * Whether the runtimes' Unicode tables may disagree on `code` for a property escape (`emoji`:
 * one of the emoji properties).
 */
export function drifts(code: number, emoji: boolean): boolean {
  return holds((any ??= decode(ANY)), code) || (emoji && holds((emojis ??= decode(EMOJI)), code));
}
