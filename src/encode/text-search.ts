/**
 * The work that placing citations may still take, in code units read: the encoders give it a few
 * units for each unit of text shown and each unit of a cited text, and every search or join past
 * the one that placing needs spends from it, so that the whole costs time linear in the response,
 * whatever its texts (a search that would overspend is not made: its citation is left out).
 *
 * @example
 * ```ts
 * const work = new Work(8 * text.length);
 * if (work.spend(text.length)) text.lastIndexOf(cited);
 * ```
 */
export class Work {
  #left: number;

  /** Allows `units` of work at first. */
  constructor(units = 0) {
    this.#left = units;
  }

  /** Allows `units` more. */
  earn(units: number): void {
    this.#left += units;
  }

  /** True, and counted, when `units` more is allowed; false (nothing counted) otherwise. */
  spend(units: number): boolean {
    if (units > this.#left) return false;
    this.#left -= units;
    return true;
  }
}

/**
 * Where `needle` is in `text` between `from` and `to` (starting at or after `from`, ending at or
 * before `to`): its first place, or its last with `last`, or -1. Knuth, Morris and Pratt's search,
 * which reads each unit of the range once: V8's `indexOf` and `lastIndexOf` can take the range's
 * length times the needle's (`"a".repeat(2 ** 20).lastIndexOf("a".repeat(15999) + "b")` takes
 * seconds). The search is `work`'s to allow (the range and the needle): -1 when it is not.
 *
 * @example
 * ```ts
 * findText("a cat, a cat", "cat", 0, 12, true, new Work(100)); // 9
 * ```
 */
export function findText(text: string, needle: string, from: number, to: number, last: boolean, work: Work): number {
  const size = needle.length;
  if (size === 0 || from < 0 || to > text.length || to - from < size || !work.spend(to - from + size)) return -1;
  // back[i]: the length of the longest proper prefix of needle[0..i] that also ends it.
  const back = new Int32Array(size);
  for (let i = 1, k = 0; i < size; i++) {
    while (k > 0 && needle.charCodeAt(i) !== needle.charCodeAt(k)) k = back[k - 1]!;
    if (needle.charCodeAt(i) === needle.charCodeAt(k)) k++;
    back[i] = k;
  }
  let found = -1;
  for (let i = from, k = 0; i < to; i++) {
    while (k > 0 && text.charCodeAt(i) !== needle.charCodeAt(k)) k = back[k - 1]!;
    if (text.charCodeAt(i) === needle.charCodeAt(k)) k++;
    if (k === size) {
      found = i - size + 1;
      if (!last) return found;
      k = back[k - 1]!;
    }
  }
  return found;
}
