// Other projects' recordings through streamToolCalls, each compared with the result THAT project's
// tests expect (../shared/external-fixtures: vercel/ai, ollama, the Anthropic and OpenAI SDKs,
// Google's genai, and the cases rebuilt in test/recordings/external/ from other projects' recordings
// and the providers' docs): the calls a client must run, the text, the finish reason and, where an
// entry states it, the next turn `assistantMessage` builds. An entry the
// manifest marks `disputed` (this project differs on purpose, and says why) runs but is not
// counted, and must still differ as the dispute says. Without ../shared its recordings' cases are
// skipped by name; the rebuilt ones run everywhere.
import fc from "fast-check";
import { streamToolCalls, type ToolCallEvent } from "../../src/index.ts";
import {
  type ExternalFixture,
  externalBodies,
  externalFixtures,
  externalMismatches,
  externalProvider,
  externalResult,
} from "../support/external-fixtures.ts";
import { assert, assertEquals, group } from "../support/harness.ts";
import { assertEventInvariants } from "../support/invariants.ts";
import { collect, fromChunks, splitAt } from "../support/streams.ts";

const runBody = (fixture: ExternalFixture, chunks: Uint8Array[]): Promise<ToolCallEvent[]> =>
  collect(streamToolCalls(fromChunks(chunks), { provider: externalProvider(fixture) }));

/** Each body's events, in order. */
async function runAll(fixture: ExternalFixture): Promise<ToolCallEvent[][]> {
  const runs: ToolCallEvent[][] = [];
  for (const body of externalBodies(fixture)) runs.push(await runBody(fixture, [body]));
  return runs;
}

const label = (fixture: ExternalFixture): string =>
  `${fixture.inRepo ? "rebuilt/" : ""}${fixture.source}/${fixture.provider}/${fixture.name}`;

/** Where a fixture comes from: ../shared, or this repository (which every clone has). */
const needed = (fixture: ExternalFixture): "external-fixtures"[] => (fixture.inRepo ? [] : ["external-fixtures"]);

/** Streamed Vertex arguments and Responses `.done` may replace what streamed. */
const deltasMatch = (fixture: ExternalFixture): boolean =>
  fixture.provider !== "gemini" && fixture.provider !== "openai-responses";

group("other projects' recordings (../shared/external-fixtures) through streamToolCalls", (test) => {
  for (const fixture of externalFixtures) {
    const name = label(fixture);
    if (fixture.disputed === undefined)
      test(`${name} gives the calls, text and finish reason ${fixture.source}'s tests expect`, async () => {
        const runs = await runAll(fixture);
        for (const events of runs) assertEventInvariants(events, deltasMatch(fixture));
        assertEquals(externalMismatches(externalResult(runs), fixture), [], `${name} (${fixture.origin})`);
      }).needs(...needed(fixture));
    else
      test(`${name} (disputed: this project differs on purpose) runs and differs as the manifest says`, async () => {
        const runs = await runAll(fixture);
        for (const events of runs) assertEventInvariants(events, deltasMatch(fixture));
        assert(externalMismatches(externalResult(runs), fixture).length > 0, `${name} no longer differs`);
      }).needs(...needed(fixture));
    test(`${name}: any split of each body's bytes gives the same events`, async () => {
      for (const body of externalBodies(fixture)) {
        const whole = await runBody(fixture, [body]);
        await fc.assert(
          fc.asyncProperty(fc.array(fc.integer({ min: 1, max: body.length - 1 }), { maxLength: 30 }), async (cuts) => {
            assertEquals(await runBody(fixture, splitAt(body, cuts)), whole);
          }),
          { seed: 20261202, numRuns: 4 },
        );
      }
    }).needs(...needed(fixture));
  }

  for (const inRepo of [false, true])
    test(`the numbers: per source, the ${inRepo ? "rebuilt cases" : "recordings"} that agree with their project's expectation`, async () => {
      const tally = new Map<string, { agreed: number; counted: number; disputed: number; misses: string[] }>();
      for (const fixture of externalFixtures) {
        if (Boolean(fixture.inRepo) !== inRepo) continue;
        const row = tally.get(fixture.source) ?? { agreed: 0, counted: 0, disputed: 0, misses: [] };
        tally.set(fixture.source, row);
        if (fixture.disputed !== undefined) {
          row.disputed++;
          continue;
        }
        row.counted++;
        const mismatches = externalMismatches(externalResult(await runAll(fixture)), fixture);
        if (mismatches.length === 0) row.agreed++;
        else row.misses.push(`${label(fixture)}: ${mismatches.join("; ")}`);
      }
      const lines = [...tally].map(
        ([source, row]) =>
          `${source} ${row.agreed}/${row.counted}${row.disputed ? ` (+${row.disputed} disputed, not counted)` : ""}`,
      );
      const what = inRepo ? "Cases rebuilt from other projects' recordings and docs" : "Other projects' recordings";
      console.log(`${what} agreeing with their expectations: ${lines.join(", ")}`);
      const misses = [...tally.values()].flatMap((row) => row.misses);
      assert(misses.length === 0, `disagreements:\n${misses.join("\n")}`);
    }).needs(...(inRepo ? [] : (["external-fixtures"] as const)));
});
