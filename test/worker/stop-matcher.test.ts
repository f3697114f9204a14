// The Worker's own stop sequences (worker/services/stop-matcher.ts): however the text is cut into
// pieces, what goes out is the text before the first stop sequence to complete, and nothing is held
// that could not begin one.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { StopMatcher } from "../../worker/services/stop-matcher.ts";

/** The text before the first stop to complete (the longer of two that end together), by brute force. */
function expected(text: string, stops: readonly string[]): { text: string; stop?: string } {
  for (let end = 1; end <= text.length; end++) {
    const done = stops.filter((stop) => text.slice(0, end).endsWith(stop));
    if (done.length === 0) continue;
    const stop = done.reduce((a, b) => (b.length > a.length ? b : a));
    return { text: text.slice(0, end - stop.length), stop };
  }
  return { text };
}

/** `text` in pieces cut at `cuts` (positions taken modulo its length). */
function pieces(text: string, cuts: readonly number[]): string[] {
  const at = [...new Set(cuts.map((cut) => cut % (text.length + 1)))].sort((a, b) => a - b);
  const out: string[] = [];
  let from = 0;
  for (const cut of [...at, text.length]) {
    out.push(text.slice(from, cut));
    from = cut;
  }
  return out;
}

/** What the matcher gives for the pieces: every piece's text, and at the end (no stop) what it holds. */
function run(stops: readonly string[], parts: readonly string[]): { text: string; stop?: string } {
  const matcher = new StopMatcher(stops);
  const out: string[] = [];
  for (const part of parts) {
    const step = matcher.push(part);
    out.push(step.text);
    if (step.stop !== undefined) return { text: out.join(""), stop: step.stop };
  }
  return { text: out.join("") + matcher.flush() };
}

const alphabet = fc.constantFrom("a", "b", "<", "/", "x");
const word = (max: number) => fc.array(alphabet, { minLength: 1, maxLength: max }).map((chars) => chars.join(""));

describe("StopMatcher", () => {
  it("gives the text before the first stop sequence, whatever the pieces", () => {
    fc.assert(
      fc.property(
        fc.array(alphabet, { maxLength: 60 }).map((chars) => chars.join("")),
        fc.array(word(6), { minLength: 1, maxLength: 5 }),
        fc.array(fc.nat(), { maxLength: 12 }),
        (text, stops, cuts) => {
          expect(run(stops, pieces(text, cuts))).toEqual(expected(text, stops));
        },
      ),
      { seed: 20261203, numRuns: 400 },
    );
  });

  it("holds back only what can still begin a stop, and gives it out as soon as it cannot", () => {
    fc.assert(
      fc.property(
        fc.array(alphabet, { maxLength: 40 }).map((chars) => chars.join("")),
        fc.array(word(5), { minLength: 1, maxLength: 4 }),
        (text, stops) => {
          const matcher = new StopMatcher(stops);
          let given = "";
          for (let i = 0; i < text.length; i++) {
            const step = matcher.push(text[i]!);
            given += step.text;
            if (step.stop !== undefined) return;
            // The held end of the text: the longest that is the beginning of some stop.
            const seen = text.slice(0, i + 1);
            let held = 0;
            for (const stop of stops)
              for (let n = Math.min(stop.length - 1, seen.length); n > held; n--)
                if (seen.endsWith(stop.slice(0, n))) held = n;
            expect(given).toBe(seen.slice(0, seen.length - held));
          }
        },
      ),
      { seed: 20261203, numRuns: 300 },
    );
  });

  it("finds a stop that spans pieces, and of two that end together the longer", () => {
    const matcher = new StopMatcher(["</block>"]);
    expect(matcher.push("yes</bl")).toEqual({ text: "yes" });
    expect(matcher.push("ock> more")).toEqual({ text: "", stop: "</block>" });
    const overlapping = new StopMatcher(["bc", "abc"]);
    expect(overlapping.push("xab")).toEqual({ text: "x" });
    expect(overlapping.push("cd")).toEqual({ text: "", stop: "abc" });
    // The first to complete wins over one that began earlier but ends later.
    expect(new StopMatcher(["abcd", "bc"]).push("abcd")).toEqual({ text: "a", stop: "bc" });
  });

  it("holds up to the longest stop less one character, and gives it all out when the run breaks off", () => {
    // A 1,000-character stop of one letter and a text of that letter broken every 999 characters:
    // each run is held whole (it may begin the stop) until its break, then given out.
    const stop = "a".repeat(1000);
    const matcher = new StopMatcher([stop, "b".repeat(1000)]);
    const chunk = `${"a".repeat(999)}c`;
    let out = 0;
    for (let i = 0; i < 1000; i++)
      for (const piece of pieces(chunk, [1, 500, 998])) {
        const step = matcher.push(piece);
        out += step.text.length;
        expect(step.text).toBe(piece.endsWith("c") ? chunk : "");
      }
    expect(out + matcher.flush().length).toBe(1_000_000);
  });
});
