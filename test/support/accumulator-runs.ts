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

/** One call's arguments `text` pushed to `accumulator` in fragments of `fragment` characters (the first with its id and name), then the finish and the end. */
export function pushCall(
  accumulator: { push(delta: ProviderDelta): void; end(): void },
  text: string,
  { id = "c0", name = "t", fragment = 4096 }: { id?: string; name?: string; fragment?: number } = {},
): void {
  for (let at = 0; at < text.length; at += fragment)
    accumulator.push({
      type: "tool-call-chunk",
      index: 0,
      argumentsDelta: text.slice(at, at + fragment),
      ...(at === 0 ? { id, name } : {}),
    });
  accumulator.push({ type: "finish", rawReason: "tool_calls" });
  accumulator.end();
}
