// What the fast readers hand on (an argument fragment, a text delta) is a string of its own, never a
// slice that holds the whole text of the read it was cut from: an open call keeps up to 64
// fragments before joining them, the finish's text every delta, so a read padded to 1 MiB (an SSE
// comment) behind each 27-character fragment kept 1 MiB per fragment. Measured in a Node process of
// its own (kept-fragments-probe.ts): the reads' texts alive in a heap snapshot, and the memory the
// open stream holds beside the same stream without the comments.
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const PROBE = fileURLToPath(new URL("./kept-fragments-probe.ts", import.meta.url));
const MiB = 2 ** 20;

describe("fragments and text deltas kept by an open turn", () => {
  it("hold their own few bytes, not the 1 MiB reads they came in", () => {
    const out = execFileSync(process.execPath, ["--expose-gc", PROBE], { encoding: "utf8" });
    const measured = JSON.parse(out) as Record<string, { reads: number; heap: number }>;
    // The probe sees a retained read: 8 slices kept as they are hold 8 MiB.
    const { "slices kept as they are": control, ...cases } = measured;
    expect(control!.reads).toBeGreaterThan(8 * MiB);
    expect(control!.heap).toBeGreaterThan(7 * MiB);
    expect(Object.keys(cases)).toEqual([
      "openai chat fragment",
      "openai chat text",
      "responses fragment",
      "responses text",
      "responses escaped text",
      "anthropic fragment",
      "anthropic escaped fragment",
    ]);
    // 8 fragments of 27 characters: none of the reads' texts alive, and far less than one read's MiB held.
    for (const [stage, { reads, heap }] of Object.entries(cases))
      expect({ stage, reads, heap: heap < MiB }).toEqual({ stage, reads: 0, heap: true });
  }, 60_000);
});
