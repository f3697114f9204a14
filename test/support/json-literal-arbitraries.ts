// Arbitraries for the decoders' fast paths (a payload read without its object), whose cases check
// that the fast path gives exactly what the full JSON.parse gives, near misses included.
import fc from "fast-check";

/**
 * JSON string literals. `anyLiteral`: any text (escapes, quotes, backslash runs, controls,
 * non-ASCII, `extra`) written as JSON, as `\u` escapes, raw (unescaped) or unclosed. `literal`:
 * mostly as a provider writes ids and names (so that the fast path is taken), else `anyLiteral`.
 */
export function jsonLiterals(...extra: string[]): { literal: fc.Arbitrary<string>; anyLiteral: fc.Arbitrary<string> } {
  const text = fc.oneof(
    fc.string({ unit: "grapheme", maxLength: 8 }),
    fc.constantFrom("", '"', "\\", '\\"', "\\\\", '{"a":', "\n", "杭州 😀", "\u2028", "\ud800", ...extra),
  );
  const anyLiteral = fc.tuple(text, fc.constantFrom("json", "unicode", "raw", "unclosed")).map(([value, how]) => {
    if (how === "json") return JSON.stringify(value);
    if (how === "unicode")
      return `"${[...value].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`).join("")}"`;
    if (how === "raw") return `"${value}"`;
    return `"${value}`;
  });
  const literal = fc.oneof(
    { weight: 6, arbitrary: fc.stringMatching(/^[a-zA-Z0-9_-]{0,12}$/).map((value) => JSON.stringify(value)) },
    { weight: 1, arbitrary: anyLiteral },
  );
  return { literal, anyLiteral };
}

/** `good` six times in seven, else one of `bad`. */
export const usually = <T>(good: fc.Arbitrary<T> | T, ...bad: T[]): fc.Arbitrary<T> =>
  fc.oneof(
    { weight: 6, arbitrary: good instanceof fc.Arbitrary ? good : fc.constant(good) },
    { weight: 1, arbitrary: fc.constantFrom(...bad) },
  );
