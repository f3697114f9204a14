/**
 * A string that matches a simple regular expression, written from the pattern itself (no search,
 * no backtracking): literals, escapes (`\d`, `\w`, `\s`, `\.`, ...), character classes with ranges
 * and negation, `.`, groups (capturing, `(?:...)`, named) with alternation, the quantifiers `?`,
 * `*`, `+`, `{n}`, `{n,}`, `{n,m}` (lazy too), and the anchors `^`, `$`, `\b`. Lookarounds and
 * back-references are not read: the pattern then has no sample, and the caller falls back to
 * another value. Each quantified part is written its fewest times (at least once for `+`), and
 * the first branch of an alternation is taken, so the sample is short and the same every time.
 *
 * @module
 */

/** Longest pattern read, as the library's checker reads at most this much of one. */
const MAX_PATTERN = 1_000;
/** Longest sample written. */
const MAX_SAMPLE = 1_000;
/** Deepest nesting of groups read. */
const MAX_DEPTH = 32;

/** What a character class or an escape allows: ranges of code points, or their complement. */
interface CharSet {
  ranges: [number, number][];
  negated: boolean;
}

/** Characters tried, in order, for a negated class or set. */
const FALLBACKS = [..."a1A_-x0 "].map((c) => c.codePointAt(0)!);

class Unsupported extends Error {}

/**
 * A string that `pattern` matches, or `undefined` when the pattern uses more than this reads.
 * `variant` (0 by default) repeats each quantified part that many more times, within its bounds,
 * for another sample of the same pattern (`SKU-\d+` gives `SKU-1`, then `SKU-11`).
 */
export function samplePattern(pattern: string, variant = 0): string | undefined {
  if (pattern.length > MAX_PATTERN) return undefined;
  try {
    const reader = new PatternReader([...pattern], variant);
    const sample = reader.alternation(0);
    if (reader.at < reader.chars.length) return undefined; // an unmatched `)`
    return sample.length <= MAX_SAMPLE ? sample : undefined;
  } catch (error) {
    if (error instanceof Unsupported) return undefined;
    throw error;
  }
}

class PatternReader {
  at = 0;
  readonly chars: string[];
  readonly variant: number;

  constructor(chars: string[], variant: number) {
    this.chars = chars;
    this.variant = variant;
  }

  alternation(depth: number): string {
    if (depth > MAX_DEPTH) throw new Unsupported();
    const first = this.sequence(depth);
    while (this.chars[this.at] === "|") {
      this.at++;
      this.sequence(depth); // read and dropped: the first branch is the sample
    }
    return first;
  }

  sequence(depth: number): string {
    let out = "";
    while (this.at < this.chars.length && this.chars[this.at] !== "|" && this.chars[this.at] !== ")") {
      const atom = this.atom(depth);
      const [min, max] = this.quantifier();
      out += atom.repeat(Math.min(min + this.variant, max));
      if (out.length > MAX_SAMPLE) throw new Unsupported();
    }
    return out;
  }

  /** The fewest and most repeats of the quantifier after an atom (1 and 1 without one). */
  quantifier(): [number, number] {
    const c = this.chars[this.at];
    let bounds: [number, number];
    if (c === "?") bounds = [0, 1];
    else if (c === "*") bounds = [0, Number.POSITIVE_INFINITY];
    else if (c === "+") bounds = [1, Number.POSITIVE_INFINITY];
    else if (c === "{") {
      const close = this.chars.indexOf("}", this.at);
      const body = close < 0 ? "" : this.chars.slice(this.at + 1, close).join("");
      const match = /^(\d{1,4})(,(\d{0,4}))?$/.exec(body);
      if (!match) return [1, 1]; // a literal `{`, as ECMAScript reads it without the u flag; the check decides
      const min = Number(match[1]);
      bounds = [min, match[2] === undefined ? min : match[3] ? Number(match[3]) : Number.POSITIVE_INFINITY];
      this.at = close;
    } else return [1, 1];
    this.at++;
    if (this.chars[this.at] === "?") this.at++; // lazy
    return bounds;
  }

  atom(depth: number): string {
    const c = this.chars[this.at++]!;
    if (c === "^" || c === "$") return "";
    if (c === "(") {
      if (this.chars[this.at] === "?") {
        const next = this.chars[this.at + 1];
        if (next === ":") this.at += 2;
        else if (next === "<" && this.chars[this.at + 2] !== "=" && this.chars[this.at + 2] !== "!") {
          const close = this.chars.indexOf(">", this.at);
          if (close < 0) throw new Unsupported();
          this.at = close + 1;
        } else throw new Unsupported(); // lookaround, flags
      }
      const inner = this.alternation(depth + 1);
      if (this.chars[this.at++] !== ")") throw new Unsupported();
      return inner;
    }
    if (c === "[") return pick(this.charClass());
    if (c === ".") return "a";
    if (c === "\\") {
      const escaped = this.escape();
      return typeof escaped === "string" ? escaped : pick(escaped);
    }
    if (c === "*" || c === "+" || c === "?" || c === ")" || c === "|") throw new Unsupported();
    return c;
  }

  /** After `\`: a literal, a class escape, or an anchor (`\b`, `\B`: nothing to write). */
  escape(): string | CharSet {
    const c = this.chars[this.at++];
    if (c === undefined) throw new Unsupported();
    const sets: Record<string, CharSet> = {
      d: { ranges: [[48, 57]], negated: false },
      D: { ranges: [[48, 57]], negated: true },
      w: { ranges: WORD, negated: false },
      W: { ranges: WORD, negated: true },
      s: {
        ranges: [
          [32, 32],
          [9, 13],
        ],
        negated: false,
      },
      S: {
        ranges: [
          [32, 32],
          [9, 13],
        ],
        negated: true,
      },
    };
    if (c in sets) return sets[c]!;
    if (c === "b" || c === "B") return "";
    if (/[1-9k]/.test(c)) throw new Unsupported(); // a back-reference
    const controls: Record<string, string> = { n: "\n", r: "\r", t: "\t", f: "\f", v: "\v", "0": "\0" };
    if (c in controls) return controls[c]!;
    if (c === "u" || c === "x") {
      const braced = c === "u" && this.chars[this.at] === "{";
      const end = braced ? this.chars.indexOf("}", this.at) : this.at + (c === "u" ? 4 : 2);
      const hex = this.chars.slice(braced ? this.at + 1 : this.at, end).join("");
      if (!/^[0-9a-f]{1,6}$/i.test(hex)) throw new Unsupported();
      this.at = braced ? end + 1 : end;
      return String.fromCodePoint(Number.parseInt(hex, 16));
    }
    if (c === "p" || c === "P" || c === "c") throw new Unsupported();
    return c;
  }

  charClass(): CharSet {
    const set: CharSet = { ranges: [], negated: false };
    if (this.chars[this.at] === "^") {
      set.negated = true;
      this.at++;
    }
    while (this.at < this.chars.length && this.chars[this.at] !== "]") {
      const low = this.classAtom();
      if (typeof low !== "number") {
        if (low.negated) throw new Unsupported(); // `[\D]`: not read
        set.ranges.push(...low.ranges);
        continue;
      }
      if (this.chars[this.at] === "-" && this.chars[this.at + 1] !== "]" && this.at + 1 < this.chars.length) {
        this.at++;
        const high = this.classAtom();
        if (typeof high !== "number" || high < low) throw new Unsupported();
        set.ranges.push([low, high]);
      } else set.ranges.push([low, low]);
    }
    if (this.chars[this.at++] !== "]") throw new Unsupported();
    return set;
  }

  classAtom(): number | CharSet {
    const c = this.chars[this.at++]!;
    if (c !== "\\") return c.codePointAt(0)!;
    if (this.chars[this.at] === "b") {
      this.at++;
      return 8; // backspace, inside a class
    }
    const escaped = this.escape();
    if (typeof escaped !== "string" || escaped === "") {
      if (typeof escaped === "string") throw new Unsupported();
      return escaped;
    }
    return escaped.codePointAt(0)!;
  }
}

const WORD: [number, number][] = [
  [97, 122],
  [65, 90],
  [48, 57],
  [95, 95],
];

/** A character of the set: its first, preferring a letter or digit a reader would expect. */
function pick(set: CharSet): string {
  const inSet = (code: number): boolean => set.ranges.some(([low, high]) => code >= low && code <= high);
  if (!set.negated) {
    const [low] = set.ranges[0] ?? [];
    if (low === undefined) throw new Unsupported(); // `[]` matches nothing
    // `[0-9]` gives 1 rather than 0, a value that reads as one ("ORD-1").
    return String.fromCodePoint(low === 48 && inSet(49) ? 49 : low);
  }
  const code = FALLBACKS.find((candidate) => !inSet(candidate));
  if (code === undefined) throw new Unsupported();
  return String.fromCodePoint(code);
}
