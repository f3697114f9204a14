import { createParser, type EventSourceMessage } from "eventsource-parser";
import fc from "fast-check";
import {
  formatToolCallEvent,
  SSEDecoderStream,
  streamToolCalls,
  ToolCallEventDecoderStream,
  ToolCallEventEncoderStream,
  type ToolCallEvent,
} from "../../src/index.ts";
import { chatFixtures } from "../support/chat-fixtures.ts";
import { assert, assertEquals, group } from "../support/harness.ts";
import { assertEventInvariants } from "../support/invariants.ts";
import { bytes, collect, fromChunks, splitAt, textOf } from "../support/streams.ts";

/** Events of every kind, with text that SSE framing could break if it were not escaped. */
const tricky: ToolCallEvent[] = [
  { type: "text-delta", text: "line\nbreak\r\nand\rcr, data: fake\n\nevent: finish\n" },
  { type: "reasoning-delta", text: "\u2028\u2029 杭州 🚀 \uD800 lone surrogate" },
  { type: "tool-call-start", index: 0, id: "call_1", name: "get_weather" },
  { type: "tool-call-delta", index: 0, id: "call_1", argumentsDelta: '{"city":"Paris\\n', closed: false },
  { type: "tool-call-delta", index: 0, id: "call_1", argumentsDelta: '"}', closed: true },
  {
    type: "tool-call",
    index: 0,
    id: "call_1",
    name: "get_weather",
    arguments: { city: "Paris\n" },
    rawArguments: '{"city":"Paris\\n"}',
  },
  {
    type: "error",
    error: {
      code: "provider-error",
      message: "The provider reported an error inside the stream.",
      data: { type: "overloaded" },
    },
  },
  {
    type: "finish",
    reason: "tool-calls",
    rawReason: "tool_calls",
    toolCalls: [
      {
        index: 0,
        id: "call_1",
        name: "get_weather",
        arguments: { city: "Paris\n" },
        rawArguments: '{"city":"Paris\\n"}',
      },
    ],
    invalidToolCalls: [],
    text: "line\nbreak\r\nand\rcr, data: fake\n\nevent: finish\n",
    reasoning: "",
  },
];

/** Encodes events, then reads them back with the library's own client stages. */
async function roundTrip(events: readonly ToolCallEvent[], cuts: readonly number[] = []): Promise<ToolCallEvent[]> {
  const encoded = await encode(events);
  return collect(
    fromChunks(splitAt(encoded, cuts))
      .pipeThrough(new SSEDecoderStream())
      .pipeThrough(new ToolCallEventDecoderStream()),
  );
}

async function encode(events: readonly ToolCallEvent[], firstId?: number): Promise<Uint8Array> {
  const encoder = new ToolCallEventEncoderStream(firstId === undefined ? {} : { firstId });
  const parts = await collect(fromChunks(events).pipeThrough(encoder));
  return bytes(textOf(parts));
}

/** Parses SSE text with eventsource-parser, the spec-following parser browsers' EventSource matches. */
function parseWithEventSourceParser(text: string): EventSourceMessage[] {
  const messages: EventSourceMessage[] = [];
  const parser = createParser({ onEvent: (message) => messages.push(message) });
  parser.feed(text);
  return messages;
}

function decodeSSEText(text: string): Promise<ToolCallEvent[]> {
  return collect(
    fromChunks([bytes(text)])
      .pipeThrough(new SSEDecoderStream())
      .pipeThrough(new ToolCallEventDecoderStream()),
  );
}

group("ToolCallEventEncoderStream and ToolCallEventDecoderStream", (test) => {
  test("every event survives the round trip exactly, newlines and non-BMP text included", async () => {
    assertEquals(await roundTrip(tricky), JSON.parse(JSON.stringify(tricky)));
  });

  test("a tool-call-violation and a schema-violation abort survive the round trip; a violation without its error is malformed", async () => {
    const error = {
      code: "schema-mismatch" as const,
      message: 'Expected one of "celsius", "fahrenheit".',
      path: "/unit",
    };
    const events: ToolCallEvent[] = [
      { type: "tool-call-start", index: 0, id: "call_1", name: "get_weather" },
      { type: "tool-call-delta", index: 0, id: "call_1", argumentsDelta: '{"unit": "k', closed: false },
      { type: "tool-call-violation", index: 0, id: "call_1", name: "get_weather", error },
      {
        type: "abort",
        reason: "schema-violation",
        discarded: [{ index: 0, id: "call_1", name: "get_weather", rawArguments: '{"unit": "k' }],
        error,
      },
    ];
    assertEquals(await roundTrip(events), events);
    const decoded = await decodeSSEText(
      'event: tool-call-violation\ndata: {"type":"tool-call-violation","index":0,"id":null,"name":"f"}\n\n',
    );
    assertEquals(
      decoded.map((event) => (event.type === "error" ? event.error.code : event.type)),
      ["malformed-payload", "abort"],
    );
  });

  test("eventsource-parser reads one named event per frame, ids counting up from 0, data the event's JSON", async () => {
    const text = new TextDecoder().decode(await encode(tricky));
    const messages = parseWithEventSourceParser(text);
    assertEquals(
      messages.map((m) => m.event),
      tricky.map((e) => e.type),
    );
    assertEquals(
      messages.map((m) => m.id),
      tricky.map((_, i) => String(i)),
    );
    assertEquals(
      messages.map((m) => JSON.parse(m.data)),
      JSON.parse(JSON.stringify(tricky)),
    );
  });

  test("firstId starts the sequence where a resumed response continues", async () => {
    const text = new TextDecoder().decode(await encode(tricky.slice(0, 3), 41));
    assertEquals(
      parseWithEventSourceParser(text).map((m) => m.id),
      ["41", "42", "43"],
    );
    let threw = false;
    try {
      new ToolCallEventEncoderStream({ firstId: -1 });
    } catch (error) {
      threw = error instanceof RangeError;
    }
    assert(threw, "a negative firstId is refused");
  });

  test("formatToolCallEvent writes event, id and one data line, then the blank line", () => {
    assertEquals(
      formatToolCallEvent({ type: "text-delta", text: "a\nb" }, 7),
      'event: text-delta\nid: 7\ndata: {"type":"text-delta","text":"a\\nb"}\n\n',
    );
  });

  test("a tool-call-delta frame is exactly JSON.stringify's, whatever its keys, their order and its strings", async () => {
    const tricky = fc.oneof(
      fc.string({ unit: "binary" }),
      fc.constantFrom('"', "\\", "\n", "\u2028", "\uD800", "a\u0000b", "😀"),
    );
    const base = fc.record({
      type: fc.constant("tool-call-delta"),
      index: fc.oneof(fc.nat(), fc.double()),
      id: fc.option(tricky, { nil: null }),
      argumentsDelta: tricky,
      closed: fc.boolean(),
    });
    // Mostly the accumulator's own shape (the fast path), sometimes with more keys or reversed.
    const extra = fc.oneof(
      { weight: 3, arbitrary: fc.constant({}) },
      fc.record({ choice: fc.nat() }),
      fc.record({ partialArguments: fc.jsonValue({ maxDepth: 3 }) }),
      fc.record({ step: fc.nat() }),
    );
    const shuffled = fc
      .tuple(base, extra, fc.nat({ max: 3 }))
      .map(([event, more, order]) =>
        order === 0 ? Object.fromEntries(Object.entries({ ...event, ...more }).reverse()) : { ...event, ...more },
      );
    fc.assert(
      fc.property(shuffled, fc.nat(), (event, id) => {
        assertEquals(
          formatToolCallEvent(event as never, id),
          `event: tool-call-delta\nid: ${id}\ndata: ${JSON.stringify(event)}\n\n`,
        );
      }),
      { seed: 16, numRuns: 500 },
    );
    const withToJSON = {
      type: "tool-call-delta",
      index: 0,
      id: "a",
      argumentsDelta: "x",
      closed: false,
      toJSON: () => "replaced",
    };
    assertEquals(formatToolCallEvent(withToJSON, 1), `event: tool-call-delta\nid: 1\ndata: "replaced"\n\n`);
  });

  test("recorded Chat Completions streams round-trip through encoder and decoder unchanged", async () => {
    for (const fixture of chatFixtures) {
      const events = await collect(streamToolCalls(fromChunks([fixture.body])));
      assertEquals(await roundTrip(events), JSON.parse(JSON.stringify(events)), fixture.name);
    }
  });

  test("splitting the encoded bytes anywhere, inside a character or a field, never changes the events", async () => {
    const encoded = await encode(tricky);
    const expected = JSON.parse(JSON.stringify(tricky));
    await fc.assert(
      fc.asyncProperty(fc.array(fc.integer({ min: 1, max: encoded.length - 1 }), { maxLength: 30 }), async (cuts) => {
        assertEquals(await roundTrip(tricky, cuts), expected);
      }),
      { seed: 42, numRuns: 60 },
    );
  });

  test("the decoder keeps the last event id, as a client resuming with Last-Event-ID needs", async () => {
    const decoder = new ToolCallEventDecoderStream();
    assertEquals(decoder.lastEventId, undefined);
    await collect(
      fromChunks([await encode(tricky.slice(0, 4), 10)])
        .pipeThrough(new SSEDecoderStream())
        .pipeThrough(decoder),
    );
    assertEquals(decoder.lastEventId, "13");
  });

  test("frames with names that are not event types are ignored; comments and retry: too", async () => {
    const text = `: keep-alive\n\nretry: 1000\n\nevent: resume-token\ndata: xyz\n\ndata: {"type":"text-delta","text":"unnamed"}\n\n${formatToolCallEvent(tricky[0]!, 0)}`;
    const events = await decodeSSEText(
      text +
        formatToolCallEvent(
          {
            type: "finish",
            reason: "stop",
            rawReason: "stop",
            toolCalls: [],
            invalidToolCalls: [],
            text: "",
            reasoning: "",
          },
          1,
        ),
    );
    assertEquals(
      events.map((e) => e.type),
      ["text-delta", "finish"],
    );
  });

  test("a frame whose data is not its event becomes an error event without the payload, and the stream goes on", async () => {
    const text = [
      "event: tool-call\ndata: {not json SECRET\n\n",
      'event: tool-call\ndata: {"type":"text-delta","text":"SECRET"}\n\n',
      'event: tool-call-start\ndata: {"type":"tool-call-start","index":"0","name":"f"}\n\n',
      formatToolCallEvent({ type: "text-delta", text: "after" }, 3),
    ].join("");
    const events = await decodeSSEText(text);
    assertEquals(
      events.map((e) => e.type),
      ["error", "error", "error", "text-delta", "abort"],
    );
    for (const event of events.slice(0, 3)) {
      assert(event.type === "error" && event.error.code === "malformed-payload", "malformed-payload");
      assert(!event.error.message.includes("SECRET"), "the message never embeds the payload");
    }
  });

  test("a response cut before its finish ends with abort input-ended listing the calls still open", async () => {
    const events = await decodeSSEText(new TextDecoder().decode(await encode(tricky.slice(0, 4))));
    assertEventInvariants(events, false);
    const last = events.at(-1);
    assert(last?.type === "abort" && last.reason === "input-ended", "abort input-ended");
    assertEquals(last.discarded, [{ index: 0, id: "call_1", name: "get_weather", rawArguments: '{"city":"Paris\\n' }]);
  });

  test("a frame cut mid-data at the end is reported as truncated, then the abort follows", async () => {
    const text = `${formatToolCallEvent(tricky[0]!, 0)}event: text-delta\nid: 1\ndata: {"type":"text-de`;
    const events = await decodeSSEText(text);
    assertEquals(
      events.map((e) => e.type),
      ["text-delta", "error", "abort"],
    );
    assert(events[1]?.type === "error" && events[1].error.code === "truncated-event", "truncated-event");
  });

  test("frames after the finish are not delivered, so the finish stays the last event", async () => {
    const finish: ToolCallEvent = {
      type: "finish",
      reason: "stop",
      rawReason: "stop",
      toolCalls: [],
      invalidToolCalls: [],
      text: "",
      reasoning: "",
    };
    const events = await decodeSSEText(
      formatToolCallEvent(finish, 0) + formatToolCallEvent({ type: "text-delta", text: "late" }, 1),
    );
    assertEquals(events, [finish]);
  });
});
