// The re-chunking property the provider cases share: a body's events do not depend on how its
// bytes were split into reads.
import fc from "fast-check";
import type { EncodableEvent, ToolCallEvent } from "../../src/index.ts";
import { assertEquals } from "./harness.ts";
import { splitAt } from "./streams.ts";

/** Asserts that any split of `data` into reads gives `run` the same events as `data` whole. */
export async function assertAnySplitSame(
  data: Uint8Array,
  run: (chunks: Uint8Array[]) => Promise<ToolCallEvent[]>,
): Promise<void> {
  const whole = await run([data]);
  await fc.assert(
    fc.asyncProperty(fc.array(fc.integer({ min: 1, max: data.length - 1 }), { maxLength: 40 }), async (cuts) => {
      assertEquals(await run(splitAt(data, cuts)), whole);
    }),
    { seed: 34, numRuns: 12 },
  );
}

/** Each text-delta split at `cuts` (positions in its text, taken modulo its length), as another provider's chunking would give it. */
export function resplitText(events: readonly EncodableEvent[], cuts: readonly number[]): EncodableEvent[] {
  return events.flatMap((event): EncodableEvent[] => {
    if (event.type !== "text-delta") return [event];
    const at = [...new Set(cuts.map((cut) => cut % event.text.length))].filter((cut) => cut > 0).sort((a, b) => a - b);
    return [0, ...at].map((from, i) => ({
      type: "text-delta",
      text: event.text.slice(from, at[i] ?? event.text.length),
    }));
  });
}
