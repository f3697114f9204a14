/**
 * The small pieces every scripted writer uses: a seeded random source (so that the same request
 * always gets the same bytes, like a replay), the way models cut text and arguments into
 * fragments, provider-shaped ids and padding, and token counts for usage.
 *
 * @module
 */

/** A seeded pseudo-random source: mulberry32, enough for shapes and ids, never for secrets. */
export class Dice {
  #state: number;

  constructor(seed: number) {
    this.#state = seed >>> 0;
  }

  /** A float in [0, 1). */
  next(): number {
    this.#state = (this.#state + 0x6d2b79f5) >>> 0;
    let t = this.#state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** An integer from `min` to `max`, both included. */
  between(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  /** `length` characters drawn from `alphabet`. */
  token(length: number, alphabet: string = BASE62): string {
    let out = "";
    for (let i = 0; i < length; i++) out += alphabet[Math.floor(this.next() * alphabet.length)];
    return out;
  }
}

export const BASE62 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
export const HEX = "0123456789abcdef";
export const LOWER_ALNUM = "abcdefghijklmnopqrstuvwxyz0123456789";

/** FNV-1a of a string: the seed of a scripted answer, from what the request asked. */
export function seedOf(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}

/**
 * Text as a model streams it: word-sized tokens, each with the space before it, now and then
 * two words in one delta. Joined, the pieces are the text.
 */
export function textPieces(text: string, dice: Dice): string[] {
  const words = text.match(/\s*\S+/g) ?? [];
  const pieces: string[] = [];
  for (let i = 0; i < words.length; i++) {
    const take = dice.next() < 0.2 && i + 1 < words.length ? 2 : 1;
    pieces.push(words.slice(i, i + take).join(""));
    i += take - 1;
  }
  const trailing = text.slice(pieces.join("").length);
  if (trailing !== "") pieces.push(trailing);
  return pieces;
}

/** Argument JSON as providers stream it: fragments of 1 to `max` characters, cut anywhere. */
export function jsonPieces(json: string, dice: Dice, max = 6): string[] {
  const pieces: string[] = [];
  for (let at = 0; at < json.length; ) {
    const size = dice.between(1, max);
    pieces.push(json.slice(at, at + size));
    at += size;
  }
  return pieces;
}

/** OpenAI's `obfuscation` padding: random characters of a random length, so sizes say nothing. */
export function obfuscation(dice: Dice): string {
  return dice.token(dice.between(1, 15));
}

/** Bedrock's `p` padding: a prefix of the alphabet and digits, of a random length. */
export function bedrockPadding(dice: Dice): string {
  return "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789".slice(0, dice.between(1, 62));
}

/** A rough token count (four characters a token), for the usage a scripted answer reports. */
export function tokens(text: string): number {
  return Math.max(1, Math.ceil(text.length / 4));
}
