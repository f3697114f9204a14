// createProviderDeltaStream(name, limits), the stage a pipeThrough chain reads a provider with, reads
// as the main entry's streamToolCalls does for that name: with the protocol's decoder, its
// plug-ins included (OpenAI Chat's ChatCitations, OpenAI Responses' ResponsesCitations, Bedrock's
// ConverseCitations). It built each kit's DeltaStream, whose defaults keep less: the annotations
// and citations were dropped on that path alone. The streams and their provenance are the
// providers' citations-recordings.ts.
import {
  AwsEventStreamDecoderStream,
  createProviderDeltaStream,
  SSEDecoderStream,
  streamToolCalls,
  ToolCallAccumulatorStream,
  type FramedMessage,
  type Provider,
  type ToolCallEvent,
} from "../../src/index.ts";
import { assertEquals, group } from "../support/harness.ts";
import { assertFinished } from "../support/invariants.ts";
import { bytes, collect, fromChunks } from "../support/streams.ts";
import { documentCitedTurn } from "./bedrock/citations-recordings.ts";
import { chatCited } from "./openai-chat/citations-recordings.ts";
import { responsesCited } from "./openai-responses/citations-recordings.ts";

const limits = { maxToolCalls: 16, maxArgumentsLength: 4096 };

/** The body through the framing, createProviderDeltaStream(provider, limits) and the accumulator. */
function staged(provider: Provider, body: Uint8Array): Promise<ToolCallEvent[]> {
  const framing: TransformStream<Uint8Array, FramedMessage> =
    provider === "bedrock" ? new AwsEventStreamDecoderStream() : new SSEDecoderStream();
  return collect(
    fromChunks([body])
      .pipeThrough(framing)
      .pipeThrough(createProviderDeltaStream(provider, limits))
      .pipeThrough(new ToolCallAccumulatorStream(limits)),
  );
}

/** The kept block parts (cited text) of a run's finish. */
const keptBlocks = (events: ToolCallEvent[]) =>
  (assertFinished(events).reasoningParts ?? []).filter((part) => part.type === "block");

group("createProviderDeltaStream reads as streamToolCalls' protocol", (test) => {
  const bodies: [Provider, Uint8Array][] = [
    ["openai", bytes(chatCited())],
    ["openai-responses", bytes(responsesCited())],
    ["bedrock", documentCitedTurn],
  ];
  for (const [provider, body] of bodies)
    test(`${provider}: the same events, the cited text kept`, async () => {
      const main = await collect(streamToolCalls(fromChunks([body]), { provider, ...limits }));
      const stage = await staged(provider, body);
      assertEquals(keptBlocks(stage).length > 0, true);
      // The finish's order is the accumulator's turnBlocks plug-in (ToolCallAccumulatorStream's by default), not the stage's.
      const withoutOrder = (events: ToolCallEvent[]) =>
        events.map((event) => (event.type === "finish" ? { ...event, order: undefined } : event));
      assertEquals(withoutOrder(stage), withoutOrder(main));
    });
});
