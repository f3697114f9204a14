// A protocol the library does not ship, plugged in through its two contracts (issue 13): a
// `Framing` for a body that is not SSE, a `ProviderDecoder` for its payloads. The README's
// "Your own protocol" section shows this same code.
import fc from "fast-check";
import {
  createProviderDeltaStream,
  FramingStream,
  ProviderDecoderStream,
  SSEDecoderStream,
  streamToolCalls,
  ToolCallAccumulatorStream,
  ToolCallStreamError,
  type FramedMessage,
  type Framing,
  type FramingOptions,
  type ProviderProtocol,
  type ToolCallEvent,
} from "../../src/index.ts";
import { summarize } from "../support/fixtures.ts";
import { assert, assertEquals, group } from "../support/harness.ts";
import { assertEventInvariants } from "../support/invariants.ts";
import { bytes, collect, fromChunks, splitAt } from "../support/streams.ts";

/** JSON text sequences (RFC 7464, `application/json-seq`): each record starts with RS (0x1E). */
class JsonSeqFraming implements Framing {
  readonly #decoder = new TextDecoder();
  readonly #onMessage: (message: FramedMessage) => void;
  readonly #limit: number;
  #pieces: string[] = []; // the record so far, joined once when it ends
  #size = 0;

  constructor(onMessage: (message: FramedMessage) => void, options: FramingOptions = {}) {
    this.#onMessage = onMessage;
    this.#limit = options.maxEventLength ?? 1 << 20;
  }

  feed(chunk: Uint8Array): void {
    this.#take(this.#decoder.decode(chunk, { stream: true }));
  }

  end(): void {
    this.#take(this.#decoder.decode());
    this.#record();
  }

  #take(text: string): void {
    const [first, ...rest] = text.split("\x1e");
    this.#add(first!);
    for (const piece of rest) {
      this.#record();
      this.#add(piece);
    }
  }

  #add(piece: string): void {
    this.#size += piece.length;
    if (this.#size > this.#limit)
      throw new ToolCallStreamError({
        code: "event-too-large",
        message: `A record exceeded ${this.#limit} characters.`,
      });
    this.#pieces.push(piece);
  }

  #record(): void {
    const data = this.#pieces.join("").trim();
    this.#pieces = [];
    this.#size = 0;
    if (data !== "") this.#onMessage({ data });
  }
}

/** An in-house gateway's records. */
type GatewayEvent =
  | { kind: "text"; text: string }
  | { kind: "call"; slot: number; id: string; tool: string }
  | { kind: "args"; slot: number; json: string }
  | { kind: "end"; reason: string };

const gateway: ProviderProtocol = {
  name: "acme-gateway",
  framing: JsonSeqFraming,
  createDecoder: (emit) => ({
    decode(message) {
      const event = JSON.parse(message.data) as GatewayEvent;
      if (event.kind === "text") emit({ type: "text-delta", text: event.text });
      if (event.kind === "call") emit({ type: "tool-call-chunk", index: event.slot, id: event.id, name: event.tool });
      if (event.kind === "args") emit({ type: "tool-call-chunk", index: event.slot, argumentsDelta: event.json });
      if (event.kind === "end")
        emit({ type: "finish", rawReason: event.reason, reason: event.reason === "tools" ? "tool-calls" : "stop" });
    },
    end() {},
  }),
};

const records = [
  { kind: "text", text: "Checking both cities. 杭州 first." },
  { kind: "call", slot: 0, id: "c1", tool: "get_weather" },
  { kind: "call", slot: 1, id: "c2", tool: "get_weather" },
  { kind: "args", slot: 1, json: '{"city":"Pa' },
  { kind: "args", slot: 0, json: '{"city":"Hangz' },
  { kind: "args", slot: 0, json: 'hou"}' },
  { kind: "args", slot: 1, json: 'ris"}' },
  { kind: "end", reason: "tools" },
];
const body = records.map((record) => `\x1e${JSON.stringify(record)}\n`).join("");
const expected = {
  text: "Checking both cities. 杭州 first.",
  toolCalls: [
    { id: "c1", name: "get_weather", arguments: { city: "Hangzhou" } },
    { id: "c2", name: "get_weather", arguments: { city: "Paris" } },
  ],
  finishReason: "tools",
};

group("A protocol of your own: Framing and ProviderDecoder", (test) => {
  test("streamToolCalls reads a ProviderProtocol with its own framing like a built-in provider", async () => {
    const events = await collect(streamToolCalls(fromChunks([bytes(body)]), { provider: gateway }));
    assertEquals(summarize(events), expected);
    assertEventInvariants(events, true);
  });

  test("any split of the bytes, inside a UTF-8 character or a separator, gives the same events", async () => {
    const data = bytes(body);
    const whole = await collect(streamToolCalls(fromChunks([data]), { provider: gateway }));
    await fc.assert(
      fc.asyncProperty(fc.array(fc.integer({ min: 1, max: data.length - 1 }), { maxLength: 30 }), async (cuts) => {
        assertEquals(await collect(streamToolCalls(fromChunks(splitAt(data, cuts)), { provider: gateway })), whole);
      }),
      { seed: 13, numRuns: 50 },
    );
  });

  test("the same protocol as a pipeThrough chain: FramingStream, then ProviderDecoderStream or createProviderDeltaStream", async () => {
    for (const stage of [new ProviderDecoderStream(gateway.createDecoder), createProviderDeltaStream(gateway)]) {
      const events = await collect(
        fromChunks([bytes(body)])
          .pipeThrough(new FramingStream(JsonSeqFraming))
          .pipeThrough(stage)
          .pipeThrough(new ToolCallAccumulatorStream()),
      );
      assertEquals(summarize(events), expected);
    }
  });

  test("the framing's limit ends streamToolCalls with limit-exceeded, after everything before it", async () => {
    const long = `\x1e${JSON.stringify({ kind: "text", text: "x".repeat(500) })}\n`;
    const events: ToolCallEvent[] = await collect(
      streamToolCalls(fromChunks([bytes(body.slice(0, body.indexOf("\x1e", 1))), bytes(long)]), {
        provider: gateway,
        maxEventLength: 100,
      }),
    );
    assertEquals(
      events.map((e) => e.type),
      ["text-delta", "error", "abort"],
    );
    assert(events[2]?.type === "abort" && events[2].reason === "limit-exceeded", "limit-exceeded");
  });

  test("SSEDecoderStream is the FramingStream of SSEDecoder", () => {
    assert(new SSEDecoderStream() instanceof FramingStream, "SSEDecoderStream extends FramingStream");
  });

  test("an object that is not a protocol is refused at the call with unknown-provider", () => {
    let code: unknown = "no error";
    try {
      streamToolCalls(fromChunks([bytes(body)]), { provider: { name: "no decoder" } as unknown as ProviderProtocol });
    } catch (error) {
      code = error instanceof ToolCallStreamError ? error.code : error;
    }
    assertEquals(code, "unknown-provider");
  });
});
