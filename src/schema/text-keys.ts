/**
 * Keys for sets of strings that may be long. V8, the engine of every runtime the checks run in
 * (Node, Deno, workerd, Chromium), hashes a string past 16,383 characters by its length alone
 * (`String::kMaxHashCalcLength`): a `Set` of such strings of one length is one chain, each added
 * or looked up string compared with all the others (400 `enum` strings of 16,400 characters, 6.5
 * MB: 143 ms to check the schema; 2,000 strings 15 s). A long string is keyed by the ids of its
 * pieces instead, each piece short enough to be hashed by its content: linear in its length.
 *
 * @module
 */

import { MAX_MEMBER_NAME_LENGTH } from "../shared/long-member-name.ts";
import type { StepBudget } from "./pattern/pattern-vm.ts";

/** The longest string V8 hashes by its content. */
export const HASHED_LENGTH: number = MAX_MEMBER_NAME_LENGTH;

/**
 * The ids of the pieces of the long strings keyed so far (one table per set of keys: a key means
 * nothing in another's).
 */
export type Pieces = Map<string, number>;

/**
 * `text`'s key in a set keyed by `pieces`: `text` itself when short (not beginning with U+0000),
 * else U+0000 and the ids of its pieces of {@link HASHED_LENGTH} characters (a short string
 * beginning with U+0000 is keyed so too, so no text is another's key). With `add` false, a piece without an id
 * yet gives `undefined`: no key in the set can be this text's, and the table does not grow.
 *
 * @example
 * ```ts
 * const pieces: Pieces = new Map();
 * textKey("celsius", pieces); // "celsius"
 * textKey("a".repeat(20_000), pieces); // "\u00000,1,"
 * ```
 */
export function textKey(text: string, pieces: Pieces, add = true): string | undefined {
  if (text.length <= HASHED_LENGTH && text.charCodeAt(0) !== 0) return text;
  let key = "\0";
  for (let at = 0; at < text.length; at += HASHED_LENGTH) {
    const piece = text.slice(at, at + HASHED_LENGTH);
    let id = pieces.get(piece);
    if (id === undefined) {
      if (!add) return undefined;
      pieces.set(piece, (id = pieces.size));
    }
    key += `${id.toString(36)},`;
  }
  // Some 44 million characters and more (past any request's size) make a long key: slow, not wrong.
  return key;
}

/**
 * The strings of `list`, each once, in their first order (a `Set` of them, past 16,383 characters
 * each, was quadratic: see the module).
 *
 * @example
 * ```ts
 * distinct(["a", "b", "a"]); // ["a", "b"]
 * ```
 */
export function distinct(list: readonly string[]): string[] {
  const [seen, pieces] = [new Set<string>(), new Map<string, number>()];
  return list.filter((text) => {
    const key = textKey(text, pieces)!;
    return !seen.has(key) && !!seen.add(key);
  });
}

/** Each map's long names keyed as {@link textKey} says, built at the first long name asked. */
const longNames = new WeakMap<ReadonlyMap<string, unknown>, readonly [Map<string, unknown>, Pieces]>();

/**
 * `map.get(name)` (a schema's `properties`) for a name the early check read from the streamed
 * text, charged to `budget`: a long name was compared with every long name of its length the map
 * holds, for each schema alive at the key (400 names of 16,400 characters under an `anyOf` of 48
 * held one call of 15 such keys for 0.6 s, uncharged); it is looked up by its pieces instead.
 *
 * @example
 * ```ts
 * propertyOf(new Map([["city", 1]]), "city", { steps: 100 }); // 1
 * ```
 */
export function propertyOf<T>(map: ReadonlyMap<string, T>, name: string, budget: StepBudget): T | undefined {
  if (name.length <= HASHED_LENGTH) return map.get(name);
  budget.steps -= name.length >> 4;
  let long = longNames.get(map);
  if (!long) {
    const [keyed, pieces]: [Map<string, unknown>, Pieces] = [new Map(), new Map()];
    for (const [key, value] of map) if (key.length > HASHED_LENGTH) keyed.set(textKey(key, pieces)!, value);
    longNames.set(map, (long = [keyed, pieces]));
  }
  return long[0].get(textKey(name, long[1], false)!) as T | undefined;
}
