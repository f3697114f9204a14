import fc from "fast-check";
import {
  detectFraming,
  DetectingFraming,
  FramingDetectStream,
  JsonArrayDecoder,
  NdjsonDecoder,
  SSEDecoder,
  AwsEventStreamDecoder,
  ToolCallStreamError,
  type FramedMessage,
  type FramingClass,
  type FramingOptions,
} from "../../src/index.ts";
import { eventMessage } from "../support/event-stream.ts";
import { assert, assertEquals, group } from "../support/harness.ts";
import { bytes, collect, fromChunks, splitAt } from "../support/streams.ts";

function frame(framing: FramingClass, chunks: readonly Uint8Array[], options?: FramingOptions): { messages: FramedMessage[]; error?: string } {
  const messages: FramedMessage[] = [];
  const core = new framing((message) => messages.push(message), options);
  try {
    for (const chunk of chunks) core.feed(chunk);
    core.end();
  } catch (error) {
    assert(error instanceof ToolCallStreamError, "a typed error");
    return { messages, error: error.code };
  }
  return { messages };
}

/** Any split of `text`'s bytes gives the messages of the whole (seeded; cuts fall inside UTF-8 characters too). */
function assertAnySplit(framing: FramingClass, text: string): void {
  const data = bytes(text);
  const whole = frame(framing, [data]);
  for (let at = 1; at < data.length; at++) assertEquals(frame(framing, splitAt(data, [at])), whole, `split at ${at}`);
  fc.assert(
    fc.property(fc.array(fc.integer({ min: 1, max: data.length - 1 }), { maxLength: 30 }), (cuts) => {
      assertEquals(frame(framing, splitAt(data, cuts)), whole);
    }),
    { seed: 14, numRuns: 40 },
  );
}

const GEMINI_ARRAY = '[{\r\n  "candidates": [{"content": {"parts": [{"text": "a ] } , \\" [ {"}]}}]\r\n}\r\n,\r\n{\r\n  "candidates": [{"content": {"parts": [{"text": "杭州"}]}, "finishReason": "STOP"}]\r\n}\r\n]';

group("NdjsonDecoderStream", (test) => {
  test("one message per line, LF or CRLF, blank lines skipped, a final line without newline delivered marked truncated", () => {
    assertEquals(frame(NdjsonDecoder, [bytes('{"a":1}\r\n\n  \n{"b":"杭"}\n{"c":3}')]).messages, [
      { data: '{"a":1}' },
      { data: '{"b":"杭"}' },
      { data: '{"c":3}', truncated: true },
    ]);
  });

  test("any split of the bytes, inside a UTF-8 character or between CR and LF, gives the same lines", () => {
    assertAnySplit(NdjsonDecoder, '{"message":{"content":"杭州"},"done":false}\r\n{"done":true}\n');
  });

  test("a line longer than maxEventBytes is event-too-large, after the lines before it", () => {
    const result = frame(NdjsonDecoder, [bytes('{"a":1}\n{"b":"'), bytes("x".repeat(50)), bytes('"}\n')], { maxEventBytes: 32 });
    assertEquals(result, { messages: [{ data: '{"a":1}' }], error: "event-too-large" });
  });
});

group("JsonArrayDecoderStream", (test) => {
  test("Gemini's pretty-printed elements with \\r\\n,\\r\\n between them; brackets and escaped quotes inside strings are text", () => {
    const { messages, error } = frame(JsonArrayDecoder, [bytes(GEMINI_ARRAY)]);
    assertEquals(error, undefined);
    assertEquals(messages.map((m) => JSON.parse(m.data).candidates[0].content.parts[0].text), ['a ] } , " [ {', "杭州"]);
  });

  test("any split of the bytes gives the same elements", () => {
    assertAnySplit(JsonArrayDecoder, GEMINI_ARRAY);
  });

  test("a bare object, objects one after another, scalars and nested arrays are elements", () => {
    assertEquals(frame(JsonArrayDecoder, [bytes('{"error":{"code":429}}')]).messages, [{ data: '{"error":{"code":429}}' }]);
    assertEquals(frame(JsonArrayDecoder, [bytes('{"a":1}\n{"b":2}')]).messages, [{ data: '{"a":1}' }, { data: '{"b":2}' }]);
    assertEquals(frame(JsonArrayDecoder, [bytes('[1, "x,]", [2, [3]], true ,null]')]).messages.map((m) => m.data), ["1", '"x,]"', "[2, [3]]", "true", "null"]);
  });

  test("the body ends inside an element: it is delivered marked truncated; between elements, nothing is invented", () => {
    assertEquals(frame(JsonArrayDecoder, [bytes('[{"a":1},\r\n{"b":"ab')]).messages, [{ data: '{"a":1}' }, { data: '{"b":"ab', truncated: true }]);
    assertEquals(frame(JsonArrayDecoder, [bytes('[{"a":1}\r\n,\r\n')]).messages, [{ data: '{"a":1}' }]);
  });

  test("something other than an element, a comma or white space between elements is malformed-frame", () => {
    assertEquals(frame(JsonArrayDecoder, [bytes('[{"a":1} x')]), { messages: [{ data: '{"a":1}' }], error: "malformed-frame" });
    assertEquals(frame(JsonArrayDecoder, [bytes("data: {}\n\n")]).error, "malformed-frame");
  });

  test("an element longer than maxEventBytes is event-too-large, split across chunks or not", () => {
    const long = `[{"a":1},{"b":"${"x".repeat(100)}"}]`;
    assertEquals(frame(JsonArrayDecoder, [bytes(long)], { maxEventBytes: 64 }), { messages: [{ data: '{"a":1}' }], error: "event-too-large" });
    assertEquals(frame(JsonArrayDecoder, splitAt(bytes(long), [20, 40, 60, 80]), { maxEventBytes: 64 }).error, "event-too-large");
  });

  test("a long array is scanned once: time grows linearly with the number of elements", () => {
    // Not a timing assertion: a re-scan from the start would make the work quadratic, which this
    // element count makes visible as a timeout long before it finishes.
    const body = "[" + Array.from({ length: 20_000 }, (_, i) => `{"i":${i},"s":"]}"}`).join(",\r\n") + "]";
    const chunks = splitAt(bytes(body), Array.from({ length: 2_000 }, (_, i) => i * 211));
    assertEquals(frame(JsonArrayDecoder, chunks).messages.length, 20_000);
  });
});

group("Framing detection", (test) => {
  test("detectFraming: the content type and the first byte that is not white space", () => {
    const cases: [string | undefined, string, FramingClass][] = [
      ["application/vnd.amazon.eventstream", "\0", AwsEventStreamDecoder],
      [undefined, "\0", AwsEventStreamDecoder],
      ["application/json; charset=UTF-8", "[", JsonArrayDecoder],
      [undefined, "[", JsonArrayDecoder],
      ["application/x-ndjson", "{", NdjsonDecoder],
      [undefined, "{", NdjsonDecoder],
      ["application/json", "{", JsonArrayDecoder],
      ["text/event-stream", "d", SSEDecoder],
      ["application/json", "d", SSEDecoder], // an SSE body a gateway labelled JSON
      [undefined, ":", SSEDecoder],
    ];
    for (const [type, first, expected] of cases) assertEquals(detectFraming(type, first.charCodeAt(0)) === expected, true, `${type} ${JSON.stringify(first)}`);
  });

  test("FramingDetectStream holds leading white space, then reads the whole body with the framing told", async () => {
    const body = bytes('\n  \r\n[{"a":1},{"b":2}]');
    for (const cuts of [[], [1], [3, 6], [5, 6, 7]]) {
      assertEquals(await collect(fromChunks(splitAt(body, cuts)).pipeThrough(new FramingDetectStream())), [{ data: '{"a":1}' }, { data: '{"b":2}' }]);
    }
    // The first byte decides over the content type; white space before a binary frame is not an event stream.
    const detecting = new DetectingFraming(() => {}, { contentType: "application/x-ndjson" });
    detecting.feed(bytes("  "));
    assertEquals(detecting.chosen, undefined);
    let code: unknown;
    try {
      detecting.feed(eventMessage("messageStart", {}));
    } catch (error) {
      code = (error as ToolCallStreamError).code;
    }
    assertEquals([detecting.chosen === AwsEventStreamDecoder, code], [true, "malformed-frame"]);
  });
});
