// Helpers of the client-protocol encoder cases: the three encoders made reproducible (a fixed
// clock and counted ids), the events of each recording, and events generated from deltas.
import fc from "fast-check";
import {
  AGUIEncoder,
  AnthropicMessagesEncoder,
  OpenAIResponsesEncoder,
  encodeEvents,
  OpenAIChatEncoder,
  streamToolCalls,
  ToolCallAccumulatorStream,
  UIMessageEncoder,
  type EncodableEvent,
  type ProviderDelta,
  type ProtocolEncoder,
  type ProviderErrorKind,
  type ToolCallEvent,
} from "../../src/index.ts";
import { supportedProvider } from "./fixture-provider.ts";
import type { Fixture } from "./fixtures.ts";
import { collect, fromChunks } from "./streams.ts";

/** An id generator that counts: `id1`, `id2`, ... */
export function countingIds(): () => string {
  let n = 0;
  return () => `id${++n}`;
}

/** The options of the two agent-protocol encoders (and their non-streaming readers) in the cases. */
export const AGENT_OPTIONS = {
  anthropic: () => ({ model: "test-model", id: "msg_test", generateId: countingIds() }),
  responses: () => ({
    model: "test-model",
    id: "resp_test",
    createdAt: 1_700_000_000,
    now: () => 1_700_000_002_000,
    generateId: countingIds(),
  }),
};

/** The encoders, each with fixed ids and clock, by protocol name. */
export const ENCODERS: Record<
  "openai" | "ui" | "ag-ui" | "anthropic" | "responses",
  () => ProtocolEncoder<EncodableEvent>
> = {
  openai: () =>
    new OpenAIChatEncoder({
      model: "test-model",
      created: 1_700_000_000,
      includeUsage: true,
      generateId: countingIds(),
    }),
  ui: () => new UIMessageEncoder({ messageId: "msg_test", generateId: countingIds() }),
  "ag-ui": () => new AGUIEncoder({ threadId: "thread_1", runId: "run_1", generateId: countingIds() }),
  anthropic: () => new AnthropicMessagesEncoder(AGENT_OPTIONS.anthropic()),
  responses: () => new OpenAIResponsesEncoder(AGENT_OPTIONS.responses()),
};

/** Encodes events with a fresh encoder into the whole body. */
export function encodeAll(encoder: ProtocolEncoder<EncodableEvent>, events: readonly EncodableEvent[]): string {
  return encodeEvents(encoder, events, true);
}

const cache = new Map<Fixture, Promise<ToolCallEvent[]>>();
/** The events `streamToolCalls` gives for a recording (the protocol from its folder). */
export function fixtureEvents(fixture: Fixture): Promise<ToolCallEvent[]> {
  let events = cache.get(fixture);
  if (!events)
    cache.set(
      fixture,
      (events = collect(streamToolCalls(fromChunks([fixture.body]), { provider: supportedProvider(fixture)! }))),
    );
  return events;
}

/**
 * `events` with a `tool-call-violation` of their second call (index 1, named `weather`: OpenAI's
 * `chat-parallel-tool-calls-two-functions`) right after its first fragment, at `/city`, as the
 * early schema check reports one.
 */
export function withViolation(events: readonly ToolCallEvent[]): EncodableEvent[] {
  let marked = false;
  return events.flatMap((event): EncodableEvent[] => {
    if (event.type !== "tool-call-delta" || event.index !== 1 || marked) return [event];
    marked = true;
    return [
      event,
      {
        type: "tool-call-violation",
        index: 1,
        id: event.id,
        name: "weather",
        error: { code: "schema-mismatch", message: 'Expected one of "Paris".', path: "/city" },
      },
    ];
  });
}

/**
 * The recorded failures whose payload gives itself one of Anthropic's or OpenAI's own names of a
 * failure a client acts on, and that kind: OpenAI Responses' recorded 429 (`error.code`
 * `rate_limit_exceeded`, tokens per minute). A client of any protocol gets it as that protocol's
 * rate limit (Messages `rate_limit_error`, OpenAI's code `rate_limit_exceeded`, AG-UI
 * `rate-limited`), as OpenAI's own clients get it; every other recorded failure is the generic one.
 */
const RECORDED_KINDS: Readonly<Record<string, ProviderErrorKind>> = {
  "openai-responses/error-event-then-response-failed": "rate-limited",
};

/** The kind of a recorded failure ({@link RECORDED_KINDS}), if its payload names one. */
export const recordedKind = (fixture: Fixture): ProviderErrorKind | undefined =>
  RECORDED_KINDS[`${fixture.provider}/${fixture.name}`];

/** The response failed: a provider error, a finish of reason `error`, or an abort. */
export function failed(events: readonly EncodableEvent[]): boolean {
  return events.some(
    (e) =>
      (e.type === "error" && e.error.code === "provider-error") ||
      e.type === "abort" ||
      (e.type === "finish" && e.reason === "error"),
  );
}

/**
 * The calls a `length` or `content-filter` finish cut (the `invalid-tool-call`s right before it,
 * the calls it found open): a protocol that fails such a run (AG-UI) never ends them.
 */
export function cutByFinish(events: readonly EncodableEvent[]): readonly EncodableEvent[] {
  const last = events.at(-1);
  if (last?.type !== "finish" || (last.reason !== "length" && last.reason !== "content-filter")) return [];
  let at = events.length - 1;
  while (at > 0 && events[at - 1]!.type === "invalid-tool-call") at--;
  return events.slice(at, -1);
}

/** The events before the first failure. */
export function beforeFailure<E extends EncodableEvent>(events: readonly E[]): E[] {
  const at = events.findIndex((e) => failed([e]));
  return at < 0 ? [...events] : events.slice(0, at);
}

/** The accumulator's events for deltas. */
export function accumulate(deltas: readonly ProviderDelta[]): Promise<ToolCallEvent[]> {
  return collect(fromChunks(deltas).pipeThrough(new ToolCallAccumulatorStream()));
}

const name = fc.constantFrom("get_weather", "search", "calc", "天気");
const value = fc.oneof(fc.string(), fc.integer(), fc.boolean(), fc.constant(null), fc.string({ unit: "grapheme" }));
const call = fc.record({
  name,
  id: fc.option(fc.constantFrom("call_a", "call_b", "call_c", "toolu_x"), { nil: undefined }),
  args: fc.dictionary(fc.string({ maxLength: 6 }), value, { maxKeys: 4 }),
});

/**
 * A provider's deltas for text, reasoning and parallel calls interleaved at random, each call's
 * arguments split at random points; ids may be missing or repeated (as Gemini's and buggy
 * servers' are); the response finishes, or is cut short (`finish: false`).
 */
export const generatedDeltas: fc.Arbitrary<ProviderDelta[]> = fc
  .record({
    calls: fc.array(call, { maxLength: 4 }),
    texts: fc.array(
      fc.record({ reasoning: fc.boolean(), text: fc.string({ unit: "grapheme", minLength: 1, maxLength: 8 }) }),
      { maxLength: 6 },
    ),
    cuts: fc.array(fc.nat(), { maxLength: 12 }),
    order: fc.array(fc.nat(), { maxLength: 40 }),
    finish: fc.boolean(),
  })
  .map(({ calls, texts, cuts, order, finish }) => {
    const queues: ProviderDelta[][] = calls.map((c, index) => {
      const json = JSON.stringify(c.args);
      const points = [...new Set(cuts.map((cut) => cut % (json.length + 1)))].sort((a, b) => a - b);
      const pieces = [0, ...points, json.length]
        .slice(1)
        .map((end, i, all) => json.slice(i === 0 ? 0 : all[i - 1], end));
      const first: ProviderDelta = {
        type: "tool-call-chunk",
        index,
        name: c.name,
        ...(c.id ? { id: c.id } : {}),
        argumentsDelta: pieces[0] ?? "",
      };
      return [
        first,
        ...pieces.slice(1).map((piece): ProviderDelta => ({ type: "tool-call-chunk", index, argumentsDelta: piece })),
      ];
    });
    queues.push(
      texts.map(({ reasoning, text }): ProviderDelta => ({ type: reasoning ? "reasoning-delta" : "text-delta", text })),
    );
    const deltas: ProviderDelta[] = [];
    for (const pick of order) {
      const live = queues.filter((queue) => queue.length > 0);
      if (live.length === 0) break;
      deltas.push(live[pick % live.length]!.shift()!);
    }
    for (const queue of queues) deltas.push(...queue);
    if (finish) deltas.push({ type: "finish", rawReason: calls.length > 0 ? "tool_calls" : "stop" });
    return deltas;
  });
