/**
 * The text of an answer cut before its first stop sequence, as it streams: the pure core of the
 * stop sequences the Worker applies itself where the provider has no field for them
 * (./stop-sequences.ts).
 *
 * @module
 */

/** What one piece of text gives: the text that can go out now, and the stop sequence it completed, if one. */
export interface StopStep {
  /** The text before any stop sequence that can no longer begin one; `""` when all of it is held. */
  text: string;
  /** The stop sequence the text completed: nothing after `text` goes out. */
  stop?: string;
}

/**
 * Finds the first stop sequence in a text given in pieces, and holds back only what could still
 * begin one: the longest end of the text so far that is the beginning of a stop sequence (at most
 * the longest stop less one character), given out as soon as the next piece shows it begins none.
 * "First" is the first to complete, as a provider's sampler stops at the first it writes; of two
 * that complete at the same character, the longer, which began first. Each stop sequence is
 * followed by its own Knuth-Morris-Pratt automaton, so the work is linear in the text times the
 * number of stop sequences, never in the text times their length, whatever the pieces; the text
 * held is never stored: it is the beginning of the stop sequence whose automaton is furthest in.
 *
 * @example
 * ```ts
 * const matcher = new StopMatcher(["</block>"]);
 * matcher.push("yes</bl"); // { text: "yes" }: "</bl" may begin the stop
 * matcher.push("ock> more"); // { text: "", stop: "</block>" }
 * ```
 */
export class StopMatcher {
  readonly #stops: readonly string[];
  /** Per stop sequence, its prefix function: the longest proper border of each of its prefixes. */
  readonly #borders: Int32Array[];
  /** Per stop sequence, how many of its characters the text so far ends with. */
  readonly #matched: Int32Array;
  /** The stop sequence whose beginning is held, and how much of it (the largest of `#matched`). */
  #heldStop = 0;
  #held = 0;

  /** `stops`: non-empty strings (the request's bounds have checked them). */
  constructor(stops: readonly string[]) {
    this.#stops = stops;
    this.#borders = stops.map(borders);
    this.#matched = new Int32Array(stops.length);
  }

  /** Takes the next piece of the text. */
  push(piece: string): StopStep {
    const stops = this.#stops;
    const matched = this.#matched;
    for (let at = 0; at < piece.length; at++) {
      const code = piece.charCodeAt(at);
      let found = -1;
      for (let i = 0; i < stops.length; i++) {
        const stop = stops[i]!;
        const border = this.#borders[i]!;
        let length = matched[i]!;
        while (length > 0 && stop.charCodeAt(length) !== code) length = border[length - 1]!;
        if (stop.charCodeAt(length) === code) length++;
        if (length === stop.length) {
          if (found < 0 || stop.length > stops[found]!.length) found = i;
          length = border[length - 1]!;
        }
        matched[i] = length;
      }
      if (found >= 0) {
        // The text before the stop: the held beginning and this piece up to the stop's first character.
        const start = this.#held + at + 1 - stops[found]!.length;
        return { text: this.#given(start, piece), stop: stops[found]! };
      }
    }
    let held = 0;
    let heldStop = 0;
    for (let i = 0; i < stops.length; i++)
      if (matched[i]! > held) {
        held = matched[i]!;
        heldStop = i;
      }
    const text = this.#given(this.#held + piece.length - held, piece);
    this.#held = held;
    this.#heldStop = heldStop;
    return { text };
  }

  /** The text ended (or something other than its text came): what is held, which begins no stop now. */
  flush(): string {
    const text = this.#stops[this.#heldStop]!.slice(0, this.#held);
    this.#held = 0;
    this.#matched.fill(0);
    return text;
  }

  /** The first `count` characters of the held text followed by `piece`. */
  #given(count: number, piece: string): string {
    const held = this.#stops[this.#heldStop]!;
    if (count <= this.#held) return held.slice(0, count);
    return held.slice(0, this.#held) + piece.slice(0, count - this.#held);
  }
}

/** The prefix function of `stop`: for each prefix, the length of its longest proper prefix that is also its suffix. */
function borders(stop: string): Int32Array {
  const out = new Int32Array(stop.length);
  for (let i = 1, length = 0; i < stop.length; i++) {
    const code = stop.charCodeAt(i);
    while (length > 0 && stop.charCodeAt(length) !== code) length = out[length - 1]!;
    if (stop.charCodeAt(length) === code) length++;
    out[i] = length;
  }
  return out;
}
