const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/**
 * A random token of 24 letters and digits (about 143 bits), the default id generator of the
 * encoders: for call ids a provider does not give (Gemini), completion, message and run ids.
 * Uses `crypto.getRandomValues` where the runtime has it (every runtime but Node 18 without a
 * flag); ids only need to be unique, not secret, so `Math.random` stands in there. It takes no
 * argument, so `names.map(randomId)` gives tokens, not names with tokens after them.
 *
 * @example
 * ```ts
 * randomId(); // "V1StGXR8Z5jdHi6BmyTq0a3c"
 * ```
 */
export function randomId(): string {
  return flatId("");
}

/**
 * An id of `prefix` and a token of `generate`. With {@link randomId}, the two are made as one flat
 * string: V8's fast `JSON.stringify` takes an event only while each of its strings is flat, and a
 * string built by appending (`msg_` and the token) is not. Another generator's token is appended.
 */
export function prefixedId(generate: () => string, prefix: string): string {
  return generate === randomId ? flatId(prefix) : `${prefix}${generate()}`;
}

/** `prefix` and a random token, as one flat string. */
function flatId(prefix: string): string {
  // A long prefix would be as many arguments to `fromCharCode`: appended instead.
  if (prefix.length > MAX_PREFIX) return `${prefix}${flatId("")}`;
  if (at + ID_LENGTH > pool.length) refill();
  codes.length = 0;
  for (let i = 0; i < prefix.length; i++) codes.push(prefix.charCodeAt(i));
  for (let i = at; i < at + ID_LENGTH; i++) codes.push(ALPHABET.charCodeAt(pool[i]! % 62)); // a slight bias, harmless for uniqueness
  at += ID_LENGTH;
  return String.fromCharCode.apply(null, codes);
}

/** The character codes of the id being made, reused. */
const codes: number[] = [];
/** The longest prefix made into one string with the token. */
const MAX_PREFIX = 64;
const ID_LENGTH = 24;
/** Random bytes for the next 32 ids, each byte used once: one `getRandomValues` per 32 ids, not one each. */
const pool = new Uint8Array(ID_LENGTH * 32);
let at = pool.length;

/** Fills the pool, lazily (a Worker may not call `getRandomValues` outside a request). */
function refill(): void {
  const crypto = (globalThis as { crypto?: { getRandomValues?(array: Uint8Array): Uint8Array } }).crypto;
  if (crypto?.getRandomValues) crypto.getRandomValues(pool);
  else for (let i = 0; i < pool.length; i++) pool[i] = Math.floor(Math.random() * 256);
  at = 0;
}

/**
 * The id a client sees for each call: the provider's own when it gives one not seen before in
 * this stream, else a generated one (Gemini sends none; a repeated id would merge two calls in
 * clients that key parts by id). Keys are a call's choice and index, which the tool loop reuses
 * each step: `nextStep()` forgets the keys and keeps the ids used, so ids stay unique across steps.
 */
export class CallIds {
  readonly #generate: () => string;
  readonly #byKey = new Map<string, string>();
  readonly #used = new Set<string>();

  /** `generate` makes a fresh token; the id is `call_` and the token. */
  constructor(generate: () => string) {
    this.#generate = generate;
  }

  /** The id of the call at `key`, assigned on its first use. */
  assign(key: string, providerId: string | null): string {
    const known = this.#byKey.get(key);
    if (known !== undefined) return known;
    let id =
      providerId !== null && providerId !== "" && !this.#used.has(providerId)
        ? providerId
        : prefixedId(this.#generate, "call_");
    while (this.#used.has(id)) id = prefixedId(this.#generate, "call_");
    this.#used.add(id);
    this.#byKey.set(key, id);
    return id;
  }

  /** The id already assigned to the call at `key`, if any. */
  get(key: string): string | undefined {
    return this.#byKey.get(key);
  }

  /** A new step of a tool loop: indexes start over, ids used so far stay taken. */
  nextStep(): void {
    this.#byKey.clear();
  }
}
