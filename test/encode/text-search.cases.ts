// findText, the search that places a cited text when it does not end its place: the same answer as
// JavaScript's indexOf / lastIndexOf within its range, for texts and needles drawn from two letters
// (where a search backs up most), and no search that its Work does not allow.
import fc from "fast-check";
import { BlockSequencer } from "../../src/encode/block-sequencer.ts";
import { findText, Work } from "../../src/encode/text-search.ts";
import { assertEquals, group } from "../support/harness.ts";

/** What indexOf / lastIndexOf find of `needle` starting at or after `from` and ending at or before `to`. */
function expected(text: string, needle: string, from: number, to: number, last: boolean): number {
  const range = text.slice(0, to);
  const at = last ? range.lastIndexOf(needle) : range.indexOf(needle, from);
  return at >= from ? at : -1;
}

group("findText (where a cited text is, in time linear in the range)", (test) => {
  test("finds what indexOf and lastIndexOf find within the range, first or last", () => {
    const letters = fc.string({ unit: fc.constantFrom("a", "b"), maxLength: 40 });
    fc.assert(
      fc.property(
        letters,
        fc.string({ unit: fc.constantFrom("a", "b"), minLength: 1, maxLength: 6 }),
        fc.nat(40),
        fc.nat(40),
        fc.boolean(),
        (text, needle, a, b, last) => {
          const [from, to] = [Math.min(a, b, text.length), Math.min(Math.max(a, b), text.length)];
          assertEquals(
            findText(text, needle, from, to, last, new Work(Infinity)),
            expected(text, needle, from, to, last),
          );
        },
      ),
      { seed: 20261203, numRuns: 2000 },
    );
  });

  test("overlapping places: the last is the last start", () => {
    assertEquals(findText("aaaa", "aa", 0, 4, true, new Work(100)), 2);
    assertEquals(findText("aaaa", "aa", 1, 4, false, new Work(100)), 1);
  });

  test("a search its Work does not allow is not made; one it allows spends the range and the needle", () => {
    const work = new Work(13);
    assertEquals(findText("the cat sat", "sat", 0, 11, false, new Work(13)), -1);
    assertEquals(findText("the cat sat", "sat", 0, 11, false, new Work(14)), 8);
    assertEquals([findText("the cat", "cat", 0, 7, false, work), work.spend(3), work.spend(1)], [4, true, false]);
  });
});

group("BlockSequencer's placing of Gemini's grounding (work linear in the blocks)", (test) => {
  test("thousands of text blocks, each with a grounding part: the blocks are not scanned once per block", () => {
    const grounding = {
      groundingSupports: [{ segment: { startIndex: 0, endIndex: 1, text: "a" }, groundingChunkIndices: [0] }],
      groundingChunks: [{ web: { uri: "https://example.com", title: "example.com" } }],
    };
    let reads = 0;
    const sequencer = new BlockSequencer({
      // Each read of a block's kind counted: a scan of all the blocks per placing reads them n^2 / 2 times.
      open: (block) => {
        const { kind } = block;
        Object.defineProperty(block, "kind", { get: () => (reads++, kind) });
      },
      delta: () => {},
      close: () => {},
    });
    const n = 2000;
    for (let i = 0; i < n; i++) {
      sequencer.text("text", "a");
      sequencer.reasoningPart({ type: "block", block: { groundingMetadata: grounding } });
      sequencer.text("reasoning", "r");
    }
    sequencer.finish();
    const placed = sequencer.blocks.filter((block) => block.kind === "text" && block.cited.length > 0).length;
    assertEquals([placed > 0, reads < 40 * n], [true, true]);
  });
});
