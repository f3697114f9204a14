// Each provider subpath's streamToolCalls and streamToolCallBatches: the main entry's, bound to that provider.
import * as anthropic from "../../src/anthropic.ts";
import * as bedrock from "../../src/bedrock.ts";
import * as cohere from "../../src/cohere.ts";
import * as gemini from "../../src/gemini.ts";
import * as geminiInteractions from "../../src/gemini-interactions.ts";
import { type Provider, streamToolCalls } from "../../src/index.ts";
import * as ollama from "../../src/ollama.ts";
import * as openai from "../../src/openai.ts";
import * as openaiResponses from "../../src/openai-responses.ts";
import { supportedProvider } from "../support/fixture-provider.ts";
import { allFixtures } from "../support/fixtures.ts";
import { assert, assertEquals, group } from "../support/harness.ts";
import { collect, fromChunks, splitAt } from "../support/streams.ts";

const SUBPATHS: Record<Provider, Pick<typeof openai, "streamToolCalls" | "streamToolCallBatches">> = {
  openai,
  "openai-responses": openaiResponses,
  anthropic,
  gemini,
  bedrock,
  cohere,
  ollama,
  "gemini-interactions": geminiInteractions,
};

group("streamToolCalls per provider", (test) => {
  test("every recording: the subpath's streamToolCalls and streamToolCallBatches give the main entry's events", async () => {
    const seen = new Set<Provider>();
    for (const fixture of allFixtures) {
      const provider = supportedProvider(fixture);
      if (provider === undefined) continue;
      seen.add(provider);
      const chunks = () => fromChunks(splitAt(fixture.body, [7, 100, 1000]));
      const expected = await collect(streamToolCalls(chunks(), { provider, maxToolCalls: 64 }));
      const subpath = SUBPATHS[provider];
      assertEquals(await collect(subpath.streamToolCalls(chunks(), { maxToolCalls: 64 })), expected, fixture.name);
      assertEquals((await collect(subpath.streamToolCallBatches(chunks()))).flat(), expected, fixture.name);
    }
    assert(seen.size > 0, "recordings were read");
  }).needs("recordings");

  test("a subpath's streamToolCalls reads its own protocol whatever the body looks like: no detection", async () => {
    // A body the detection would take for Chat Completions, read as Anthropic: nothing of it is Anthropic's.
    const body = new TextEncoder().encode('data: {"choices":[{"delta":{"content":"hi"}}]}\n\n');
    const events = await collect(anthropic.streamToolCalls(fromChunks([body])));
    assertEquals(
      events.map((event) => event.type),
      ["abort"],
    );
  });
});
