// Runs of recorded bodies through a provider stage and the accumulator, shared by the cases that
// check what a finished turn carries and that snapshot/restore continues exactly.
import {
  createProviderDeltaStream,
  SSEDecoderStream,
  streamToolCalls,
  restoreAccumulator,
  ToolCallAccumulator,
  type FinishEvent,
  type Provider,
  type ProviderDelta,
  type ToolCallAccumulatorOptions,
  type ToolCallEvent,
} from "../../src/index.ts";
import { assert } from "./harness.ts";
import { bytes, collect, fromChunks } from "./streams.ts";

/** A recorded SSE body decoded into the provider's normalized deltas. */
export function providerDeltas(sse: string, provider: Provider): Promise<ProviderDelta[]> {
  return collect(
    fromChunks([bytes(sse)])
      .pipeThrough(new SSEDecoderStream())
      .pipeThrough(createProviderDeltaStream(provider)),
  );
}

/** The `finish` event `streamToolCalls` ends a recorded body with. */
export async function finishOf(sse: string, provider: Provider): Promise<FinishEvent> {
  const final = (await collect(streamToolCalls(fromChunks([bytes(sse)]), { provider }))).at(-1);
  assert(final?.type === "finish", `the stream finishes: ${JSON.stringify(final)}`);
  return final;
}

/** Feeds deltas to an accumulator, or to one restored from `snapshot` (through JSON), and ends it when asked. */
export function feed(
  deltas: readonly ProviderDelta[],
  end: boolean,
  snapshot?: unknown,
  options: ToolCallAccumulatorOptions = {},
): { events: ToolCallEvent[]; accumulator: ToolCallAccumulator } {
  const events: ToolCallEvent[] = [];
  // Partial argument values are live until the call's next event: keep a copy, as the contract says.
  const enqueue = (event: ToolCallEvent): void => void events.push(structuredClone(event));
  const accumulator = snapshot
    ? restoreAccumulator(new ToolCallAccumulator(enqueue, options), JSON.parse(JSON.stringify(snapshot)))
    : new ToolCallAccumulator(enqueue, options);
  for (const delta of deltas) accumulator.push(delta);
  if (end) accumulator.end();
  return { events, accumulator };
}
