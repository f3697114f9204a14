import fc from "fast-check";
import { streamToolCalls, type Provider, type ToolCallEvent } from "../../src/index.ts";
import { protocolOf, supportedProvider } from "../support/fixture-provider.ts";
import { allFixtures, summarize } from "../support/fixtures.ts";
import { assertEquals, group } from "../support/harness.ts";
import { assertEventInvariants } from "../support/invariants.ts";
import { collect, fromChunks, splitAt } from "../support/streams.ts";

const run = (chunks: Uint8Array[], provider: Provider): Promise<ToolCallEvent[]> =>
  collect(streamToolCalls(fromChunks(chunks), { provider }));

// The Chat Completions recordings have their own file (openai-chat-conformance.cases.ts).
for (const protocol of [
  "anthropic",
  "gemini",
  "openai-responses",
  "bedrock",
  "cohere",
  "ollama",
  "gemini-interactions",
]) {
  group(`${protocol} conformance (recorded streams)`, (test) => {
    for (const fixture of allFixtures.filter((f) => protocolOf(f) === protocol)) {
      const provider = supportedProvider(fixture);
      if (!provider) continue;
      test(`${fixture.provider}/${fixture.name} gives the recorded result`, async () => {
        const events = await run([fixture.body], provider);
        assertEquals(summarize(events), fixture.expected);
        // Streamed Vertex arguments and Responses `.done` may replace what streamed.
        assertEventInvariants(
          events,
          protocol === "anthropic" || protocol === "bedrock" || protocol === "cohere" || protocol === "ollama",
        );
      });
      test(`${fixture.provider}/${fixture.name} (${fixture.format}): any split of the bytes gives the same events`, async () => {
        const data = fixture.body;
        const whole = await run([data], provider);
        await fc.assert(
          fc.asyncProperty(fc.array(fc.integer({ min: 1, max: data.length - 1 }), { maxLength: 40 }), async (cuts) => {
            assertEquals(await run(splitAt(data, cuts), provider), whole);
          }),
          { seed: 4, numRuns: 10 },
        );
      });
    }
  });
}
