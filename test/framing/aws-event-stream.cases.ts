import fc from "fast-check";
import {
  AwsEventStreamDecoder,
  AwsEventStreamDecoderStream,
  streamToolCalls,
  ToolCallStreamError,
  type FramedMessage,
  type FramingOptions,
  type ToolCallEvent,
} from "../../src/index.ts";
import { concat, encodeMessage, eventMessage, messageSpans, referenceCrc32 } from "../support/event-stream.ts";
import { allFixtures } from "../support/fixtures.ts";
import { assert, assertEquals, group } from "../support/harness.ts";
import { collect, fromChunks, splitAt } from "../support/streams.ts";

/** Runs the framing core over chunks: the messages it delivered, and the error it threw, if any. */
function frame(
  chunks: readonly Uint8Array[],
  options?: FramingOptions,
): { messages: FramedMessage[]; error?: ToolCallStreamError } {
  const messages: FramedMessage[] = [];
  const decoder = new AwsEventStreamDecoder((message) => messages.push(message), options);
  try {
    for (const chunk of chunks) decoder.feed(chunk);
    decoder.end();
  } catch (error) {
    assert(error instanceof ToolCallStreamError, "a typed error");
    return { messages, error };
  }
  return { messages };
}

const two = concat([
  eventMessage("messageStart", { role: "assistant" }),
  eventMessage("contentBlockDelta", { contentBlockIndex: 0, delta: { text: "Hé" } }),
]);
const bedrockBodies = allFixtures.filter((f) => f.format === "event-stream");

group("AwsEventStreamDecoderStream", (test) => {
  test("the reference CRC-32 of the test encoder is zlib's (check value of 123456789)", () => {
    assertEquals(referenceCrc32(new TextEncoder().encode("123456789")), 0xcbf43926);
  });

  test("a message becomes its payload as text, its :event-type as event, and every header", () => {
    const { messages, error } = frame([two]);
    assertEquals(error, undefined);
    assertEquals(
      messages.map((m) => [m.event, m.data]),
      [
        ["messageStart", '{"role":"assistant"}'],
        ["contentBlockDelta", '{"contentBlockIndex":0,"delta":{"text":"Hé"}}'],
      ],
    );
    assertEquals(
      { ...messages[0]!.headers },
      { ":event-type": "messageStart", ":content-type": "application/json", ":message-type": "event" },
    );
  });

  test("every header type, 0 to 9, is read with its value", () => {
    const uuid = Uint8Array.from({ length: 16 }, (_, i) => i * 17);
    const body = encodeMessage(
      {
        yes: { type: 0 },
        no: { type: 1 },
        byte: { type: 2, value: -2 },
        short: { type: 3, value: -300 },
        int: { type: 4, value: -70000 },
        long: { type: 5, value: -(2n ** 40n) },
        bytes: { type: 6, value: Uint8Array.of(0, 255, 7) },
        string: { type: 7, value: "杭州 ✓" },
        time: { type: 8, value: 1_700_000_000_123n },
        id: { type: 9, value: uuid },
        ":event-type": "x",
      },
      "{}",
    );
    const headers = frame([body]).messages[0]!.headers!;
    assertEquals(
      [headers["yes"], headers["no"], headers["byte"], headers["short"], headers["int"], headers["long"]],
      [true, false, -2, -300, -70000, -(2n ** 40n)],
    );
    assertEquals([...(headers["bytes"] as Uint8Array)], [0, 255, 7]);
    assertEquals(headers["string"], "杭州 ✓");
    assertEquals((headers["time"] as Date).getTime(), 1_700_000_000_123);
    assertEquals(headers["id"], "00112233-4455-6677-8899-aabbccddeeff");
  });

  test("a split at every byte of two messages gives the same messages", () => {
    const whole = frame([two]).messages;
    for (let at = 1; at < two.length; at++) assertEquals(frame(splitAt(two, [at])).messages, whole, `split at ${at}`);
    assertEquals(frame(Array.from(two, (byte) => Uint8Array.of(byte))).messages, whole, "one byte per chunk");
  });

  for (const fixture of bedrockBodies) {
    test(`${fixture.provider}/${fixture.name}: splits inside each message's prelude, headers, payload and CRC give the same messages`, () => {
      const whole = frame([fixture.body]);
      assertEquals(whole.error, undefined);
      const spans = messageSpans(fixture.body);
      assertEquals(whole.messages.length, spans.length);
      for (const { start, total, headers } of spans) {
        const regions = [
          start + 1,
          start + 4,
          start + 9,
          start + 12 + 1,
          start + 12 + headers - 1,
          start + 12 + headers + 1,
          start + total - 5,
          start + total - 2,
        ];
        for (const at of regions)
          assertEquals(frame(splitAt(fixture.body, [at])).messages, whole.messages, `split at ${at}`);
        assertEquals(
          frame(splitAt(fixture.body, regions)).messages,
          whole.messages,
          `split at all of ${regions.join(", ")}`,
        );
      }
    });
  }

  test("a prelude checksum that does not match is malformed-frame, after the messages before it", () => {
    const bad = eventMessage("contentBlockStop", { contentBlockIndex: 0 });
    bad[9]! ^= 0x01;
    const { messages, error } = frame([concat([two, bad])]);
    assertEquals(messages.length, 2);
    assertEquals(error?.code, "malformed-frame");
  });

  test("a message checksum that does not match is malformed-frame, and the framing keeps failing", () => {
    const bad = eventMessage("contentBlockStop", { contentBlockIndex: 0 });
    bad[bad.length - 1]! ^= 0x80;
    const messages: FramedMessage[] = [];
    const decoder = new AwsEventStreamDecoder((message) => messages.push(message));
    let first: unknown;
    let second: unknown;
    try {
      decoder.feed(concat([two, bad]));
    } catch (error) {
      first = error;
    }
    try {
      decoder.feed(two);
    } catch (error) {
      second = error;
    }
    assertEquals([(first as ToolCallStreamError).code, messages.length], ["malformed-frame", 2]);
    assert(second === first, "the same error again: nothing after a bad frame is read");
  });

  test("impossible lengths are malformed-frame: a total under 16 bytes, headers longer than the message", () => {
    for (const [total, headers] of [
      [15, 0],
      [20, 5],
      [16, 1],
    ] as const) {
      const prelude = new Uint8Array(16);
      const view = new DataView(prelude.buffer);
      view.setUint32(0, total);
      view.setUint32(4, headers);
      view.setUint32(8, referenceCrc32(prelude.subarray(0, 8)));
      assertEquals(frame([prelude]).error?.code, "malformed-frame", `total ${total}, headers ${headers}`);
    }
  });

  test("a message longer than maxEventLength is event-too-large as soon as its prelude arrives", () => {
    const big = eventMessage("contentBlockDelta", { contentBlockIndex: 0, delta: { text: "x".repeat(2000) } });
    const { messages, error } = frame([two, big.subarray(0, 12)], { maxEventLength: 1024 });
    assertEquals([messages.length, error?.code], [2, "event-too-large"]);
  });

  test("bytes left over at the end are a last message marked truncated, with no data (as SSE's cut event); a body that ends between messages has none", () => {
    const cut = { data: "", truncated: true };
    assertEquals(frame([two.subarray(0, two.length - 3)]), { messages: [frame([two]).messages[0], cut] });
    assertEquals(frame([two.subarray(0, 5)]), { messages: [cut] });
    assertEquals(frame([two]).error, undefined);
    assertEquals(frame([]).messages, []);
  });

  test("a header that runs past its section, or of an unknown type, is malformed-frame", () => {
    const body = encodeMessage({ ":event-type": "messageStart" }, "{}");
    const unknown = body.slice();
    unknown[12 + 1 + ":event-type".length]! = 42; // the header's type byte
    const view = new DataView(unknown.buffer);
    view.setUint32(unknown.length - 4, referenceCrc32(unknown.subarray(0, unknown.length - 4)));
    assertEquals(frame([unknown]).error?.code, "malformed-frame");
    const long = body.slice();
    long[12 + 1 + ":event-type".length + 2]! = 0xff; // the string's length runs past the section
    new DataView(long.buffer).setUint32(long.length - 4, referenceCrc32(long.subarray(0, long.length - 4)));
    assertEquals(frame([long]).error?.code, "malformed-frame");
  });

  // The core delivers every message before the fault (tested above); the bare stage errors its
  // readable side, which, as WHATWG streams do, drops what the reader has not read yet (workerd
  // reads later than Node): streamToolCalls is what delivers everything before a fault.
  test("the stage errors its stream with the typed error; what it delivered before is the bytes' first messages", async () => {
    const bad = two.slice();
    bad[bad.length - 1]! ^= 1;
    const seen: FramedMessage[] = [];
    let error: unknown;
    try {
      const reader = fromChunks([concat([two, bad])])
        .pipeThrough(new AwsEventStreamDecoderStream())
        .getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        seen.push(value);
      }
    } catch (caught) {
      error = caught;
    }
    assertEquals([seen.length <= 2, (error as ToolCallStreamError).code], [true, "malformed-frame"]);
    assertEquals(seen, frame([two]).messages.slice(0, seen.length));
  });
});

group("AWS event stream: damaged bodies (every Bedrock recording)", (test) => {
  for (const fixture of bedrockBodies) {
    test(`${fixture.provider}/${fixture.name}: flipping any one byte never throws and never completes a call not complete before the damaged message`, async () => {
      const run = (body: Uint8Array): Promise<ToolCallEvent[]> =>
        collect(streamToolCalls(fromChunks(splitAt(body, [7, 300, 1000])), { provider: "bedrock" }));
      const spans = messageSpans(fixture.body);
      const completed = (events: ToolCallEvent[]): string[] =>
        events.flatMap((e) => (e.type === "tool-call" ? [String(e.id)] : []));
      const check = async (at: number, bit: number): Promise<void> => {
        const damaged = fixture.body.slice();
        damaged[at]! ^= bit;
        const events = await run(damaged);
        const last = events.at(-1);
        assert(
          last?.type === "abort" && last.error?.code === "malformed-frame",
          `byte ${at}: ends with an abort for the damaged frame`,
        );
        const before = spans.filter((span) => span.start + span.total <= at).at(-1);
        const allowed = completed(await run(fixture.body.subarray(0, before ? before.start + before.total : 0)));
        for (const id of completed(events))
          assert(allowed.includes(id), `byte ${at}: call ${id} completed only after the damage`);
      };
      // The prelude and CRC bytes of every message, then seeded bytes anywhere.
      for (const { start, total } of spans)
        for (const at of [start, start + 3, start + 7, start + 8, start + 11, start + total - 1]) await check(at, 0x01);
      await fc.assert(
        fc.asyncProperty(
          fc.integer({ min: 0, max: fixture.body.length - 1 }),
          fc.integer({ min: 1, max: 255 }),
          (at, bit) => check(at, bit),
        ),
        { seed: 14, numRuns: 60 },
      );
    });
  }
});
