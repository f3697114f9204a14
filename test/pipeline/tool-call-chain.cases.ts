// The chain's synchronous core, driven directly with plain chunks: no stream anywhere.
import fc from "fast-check";
import {
  eventStep,
  providerProtocol,
  repairJson,
  streamToolCalls,
  ToolCallChain,
  type FramedMessage,
  type ToolCallEvent,
} from "../../src/index.ts";
import { supportedProvider } from "../support/fixture-provider.ts";
import { allFixtures } from "../support/fixtures.ts";
import { assert, assertEquals, group } from "../support/harness.ts";
import { bytes, chatChunk, collect, fromChunks, openAISSE, splitAt } from "../support/streams.ts";

const recordings = allFixtures.filter((f) => supportedProvider(f) !== undefined);
const openai = providerProtocol("openai");

/** A call split over two messages, then the finish: three messages, one event each or more. */
const CALL = openAISSE([
  chatChunk({
    tool_calls: [
      { index: 0, id: "call_1", type: "function", function: { name: "get_weather", arguments: '{"city":' } },
    ],
  }),
  chatChunk({ tool_calls: [{ index: 0, function: { arguments: '"Oslo"}' } }] }),
  chatChunk({}, "tool_calls"),
]);

/** A chain of OpenAI Chat and the events it emitted. */
function chainOf(options: ConstructorParameters<typeof ToolCallChain>[2] = {}): {
  chain: ToolCallChain;
  events: ToolCallEvent[];
} {
  const events: ToolCallEvent[] = [];
  return {
    chain: new ToolCallChain(openai, (event) => events.push(event), { repairer: repairJson, ...options }),
    events,
  };
}

const types = (events: readonly ToolCallEvent[]): string[] => events.map((event) => event.type);

group("ToolCallChain", (test) => {
  test("every recording, fed in chunks split anywhere: the events of streamToolCalls", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.nat({ max: recordings.length - 1 }),
        fc.array(fc.nat(), { maxLength: 30 }),
        async (which, offsets) => {
          const fixture = recordings[which]!;
          const provider = supportedProvider(fixture)!;
          const chunks = splitAt(
            fixture.body,
            offsets.map((offset) => offset % fixture.body.length),
          );
          const events: ToolCallEvent[] = [];
          const chain = new ToolCallChain(providerProtocol(provider), (event) => events.push(event), {
            repairer: repairJson,
          });
          for (const chunk of chunks) chain.feed(chunk);
          chain.end();
          assertEquals(events, await collect(streamToolCalls(fromChunks(chunks), { provider })), fixture.name);
        },
      ),
      { seed: 23, numRuns: 60 },
    );
  }).needs("recordings");

  test("feed decodes as many messages as it is told; decode takes the rest, one at a time if asked", () => {
    const { chain, events } = chainOf();
    chain.feed(bytes(CALL), 1);
    assertEquals(chain.queued, 3, "the second call fragment, the finish and [DONE] wait");
    assertEquals(types(events), ["tool-call-start", "tool-call-delta"]);
    assertEquals(chain.decode(1), 2);
    assertEquals(types(events), ["tool-call-start", "tool-call-delta", "tool-call-delta"]);
    assertEquals(chain.decode(), 0);
    assertEquals(types(events).slice(-2), ["tool-call", "finish"]);
    assert(chain.closed, "closed by [DONE]");
  });

  test("messages framed elsewhere skip the framing and give the same events", () => {
    const framed = chainOf();
    framed.chain.feed(bytes(CALL));
    framed.chain.end();
    const pushed = chainOf();
    for (const data of CALL.split("\n\n").filter(Boolean)) pushed.chain.push({ data: data.slice("data: ".length) });
    pushed.chain.end();
    assertEquals(pushed.events, framed.events);
  });

  test("bytes the framing cannot hold: everything before, then error and abort, onStop once, later input ignored", () => {
    const stops: unknown[] = [];
    const { chain, events } = chainOf({ maxEventLength: 280, onStop: (reason) => stops.push(reason) });
    chain.feed(bytes(CALL.slice(0, CALL.indexOf("\n\n") + 2)));
    chain.feed(bytes(`data: ${"x".repeat(400)}`));
    chain.feed(bytes(CALL));
    chain.end();
    assertEquals(types(events), ["tool-call-start", "tool-call-delta", "error", "abort"]);
    const abort = events.at(-1) as Extract<ToolCallEvent, { type: "abort" }>;
    assertEquals(abort.reason, "limit-exceeded");
    assertEquals(abort.discarded.length, 1, "the open call is listed");
    assertEquals(stops.length, 1);
    assertEquals((stops[0] as { code?: string }).code, "event-too-large");
  });

  test("bytes the framing cannot hold after a queued message that ends the chain itself: one error and abort, onStop once", () => {
    // The framing's fault releases what was queued before it; a step throwing on it has ended the chain already.
    const stops: unknown[] = [];
    const throwing = eventStep((next) => (event) => {
      if (event.type === "tool-call-start") throw new Error("step failed");
      return next(event);
    });
    const { chain, events } = chainOf({
      maxEventLength: 280,
      steps: [throwing],
      onStop: (reason) => stops.push(reason),
    });
    chain.feed(bytes(CALL.slice(0, CALL.indexOf("\n\n") + 2)), 0);
    chain.feed(bytes(`data: ${"x".repeat(400)}`));
    assertEquals(types(events), ["error", "abort"]);
    assertEquals(stops.length, 1, "onStop once");
    assertEquals((stops[0] as Error).message, "step failed");
  });

  test("a step that throws on a complete call (an application's clock): the call is listed on the abort, never lost", () => {
    const stops: unknown[] = [];
    const throwing = eventStep((next) => (event) => {
      if (event.type === "tool-call") throw new Error("clock broke");
      return next(event);
    });
    const { chain, events } = chainOf({ steps: [throwing], onStop: (reason) => stops.push(reason) });
    chain.feed(bytes(CALL));
    chain.end();
    assertEquals(types(events), ["tool-call-start", "tool-call-delta", "tool-call-delta", "error", "abort"]);
    const abort = events.at(-1) as Extract<ToolCallEvent, { type: "abort" }>;
    assertEquals(abort.reason, "stream-failed");
    assertEquals(abort.discarded, [{ index: 0, id: "call_1", name: "get_weather", rawArguments: '{"city":"Oslo"}' }]);
    assertEquals(stops.length, 1);
  });

  test("a limit of the accumulator stops the chain and calls onStop", () => {
    const stops: unknown[] = [];
    const { chain, events } = chainOf({ maxArgumentsLength: 4, onStop: (reason) => stops.push(reason) });
    chain.feed(bytes(CALL));
    assertEquals(types(events), ["error", "abort"]);
    assertEquals(stops.length, 1);
    assert(chain.closed, "closed");
  });

  test("fail: the input's fault as an error, then an abort of the reason it calls for", () => {
    const network = chainOf();
    network.chain.feed(bytes(CALL.slice(0, CALL.indexOf("\n\n") + 2)));
    network.chain.fail({ code: "stream-failed", message: "The connection was lost." });
    assertEquals(types(network.events), ["tool-call-start", "tool-call-delta", "error", "abort"]);
    assertEquals((network.events.at(-1) as { reason: string }).reason, "stream-failed");
    const http = chainOf();
    http.chain.fail({ code: "http-error", status: 429, message: "The provider answered with HTTP 429." });
    assertEquals((http.events.at(-1) as { reason: string }).reason, "provider-error");
  });

  test("abort: open calls discarded, later input ignored", () => {
    const { chain, events } = chainOf();
    chain.feed(bytes(CALL.slice(0, CALL.indexOf("\n\n") + 2)));
    chain.abort();
    chain.feed(bytes(CALL));
    chain.end();
    assertEquals(types(events), ["tool-call-start", "tool-call-delta", "abort"]);
    assertEquals((events.at(-1) as { reason: string }).reason, "cancelled");
  });

  test("steps: the first listed sees each event first; a step holding events makes the chain held until released", async () => {
    const seen: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const tag = (name: string) =>
      eventStep((next) => (event) => {
        seen.push(`${name}:${event.type}`);
        return next(event);
      });
    // Holds the finish until the gate opens.
    const holdFinish = eventStep(
      (next) => (event) => (event.type === "finish" ? gate.then(() => next(event)) : next(event)),
    );
    const { chain, events } = chainOf({ steps: [tag("a"), tag("b"), holdFinish] });
    chain.feed(bytes(CALL));
    assertEquals(seen.slice(0, 2), ["a:tool-call-start", "b:tool-call-start"]);
    assert(chain.held !== undefined, "held while the finish waits");
    assertEquals(types(events).at(-1), "tool-call");
    release();
    await chain.released();
    assertEquals(chain.held, undefined);
    assertEquals(types(events).at(-1), "finish");
  });

  test("abort while a step holds the finish: the abort replaces it", async () => {
    const holdFinish = eventStep(
      (next) => (event) => (event.type === "finish" ? new Promise<void>(() => {}) : next(event)),
    );
    const { chain, events } = chainOf({ steps: [holdFinish] });
    chain.feed(bytes(CALL));
    assert(chain.held !== undefined, "held");
    chain.abort();
    assertEquals(types(events).slice(-2), ["tool-call", "abort"]);
  });

  test("a protocol of the application's own, framed as SSE by default", () => {
    const events: ToolCallEvent[] = [];
    const messages: FramedMessage[] = [];
    const chain = new ToolCallChain(
      {
        name: "echo",
        createDecoder: (emit) => ({
          decode(message) {
            messages.push(message);
            emit({ type: "text-delta", text: message.data });
          },
          end: () => emit({ type: "finish", rawReason: "stop", reason: "stop" }),
        }),
      },
      (event) => events.push(event),
    );
    chain.feed(bytes("data: hi\n\ndata: there\n\n"));
    chain.end();
    assertEquals(types(events), ["text-delta", "text-delta", "finish"]);
    assertEquals(
      messages.map((m) => m.data),
      ["hi", "there"],
    );
  });
});
