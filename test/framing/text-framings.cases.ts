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
  providerProtocol,
  type TextFraming,
} from "../../src/index.ts";
import { eventMessage } from "../support/event-stream.ts";
import { assert, assertEquals, group } from "../support/harness.ts";
import { bytes, collect, fromChunks, splitAt } from "../support/streams.ts";

function frame(
  framing: FramingClass,
  chunks: readonly Uint8Array[],
  options?: FramingOptions,
): { messages: FramedMessage[]; error?: string } {
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

const GEMINI_ARRAY =
  '[{\r\n  "candidates": [{"content": {"parts": [{"text": "a ] } , \\" [ {"}]}}]\r\n}\r\n,\r\n{\r\n  "candidates": [{"content": {"parts": [{"text": "杭州"}]}, "finishReason": "STOP"}]\r\n}\r\n]';

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

  test("a line longer than maxEventLength is event-too-large, after the lines before it", () => {
    const result = frame(NdjsonDecoder, [bytes('{"a":1}\n{"b":"'), bytes("x".repeat(50)), bytes('"}\n')], {
      maxEventLength: 32,
    });
    assertEquals(result, { messages: [{ data: '{"a":1}' }], error: "event-too-large" });
  });
});

group("JsonArrayDecoderStream", (test) => {
  test("Gemini's pretty-printed elements with \\r\\n,\\r\\n between them; brackets and escaped quotes inside strings are text", () => {
    const { messages, error } = frame(JsonArrayDecoder, [bytes(GEMINI_ARRAY)]);
    assertEquals(error, undefined);
    assertEquals(
      messages.map((m) => JSON.parse(m.data).candidates[0].content.parts[0].text),
      ['a ] } , " [ {', "杭州"],
    );
  });

  test("any split of the bytes gives the same elements", () => {
    assertAnySplit(JsonArrayDecoder, GEMINI_ARRAY);
  });

  test("a bare object, objects one after another, scalars and nested arrays are elements", () => {
    assertEquals(frame(JsonArrayDecoder, [bytes('{"error":{"code":429}}')]).messages, [
      { data: '{"error":{"code":429}}' },
    ]);
    assertEquals(frame(JsonArrayDecoder, [bytes('{"a":1}\n{"b":2}')]).messages, [
      { data: '{"a":1}' },
      { data: '{"b":2}' },
    ]);
    assertEquals(
      frame(JsonArrayDecoder, [bytes('[1, "x,]", [2, [3]], true ,null]')]).messages.map((m) => m.data),
      ["1", '"x,]"', "[2, [3]]", "true", "null"],
    );
  });

  test("the body ends inside an element: it is delivered marked truncated; between elements, nothing is invented", () => {
    assertEquals(frame(JsonArrayDecoder, [bytes('[{"a":1},\r\n{"b":"ab')]).messages, [
      { data: '{"a":1}' },
      { data: '{"b":"ab', truncated: true },
    ]);
    assertEquals(frame(JsonArrayDecoder, [bytes('[{"a":1}\r\n,\r\n')]).messages, [{ data: '{"a":1}' }]);
  });

  test("something other than an element, a comma or white space between elements is malformed-frame", () => {
    assertEquals(frame(JsonArrayDecoder, [bytes('[{"a":1} x')]), {
      messages: [{ data: '{"a":1}' }],
      error: "malformed-frame",
    });
    assertEquals(frame(JsonArrayDecoder, [bytes("data: {}\n\n")]).error, "malformed-frame");
  });

  test("exactly one comma between elements, none before the first or after the last: else malformed-frame after every element before the fault", () => {
    const cases: [string, string[]][] = [
      ['[{"a":1},,{"b":2}]', ['{"a":1}']],
      ['[,{"a":1}]', []],
      ['[{"a":1},]', ['{"a":1}']],
      ['[{"a":1}{"b":2}]', ['{"a":1}']],
      ['[{"a":1}\r\n\r\n{"b":2}]', ['{"a":1}']],
      ["[1 2]", ["1"]],
      ['[{"a":1},\r\n,\r\n{"b":2}]', ['{"a":1}']],
    ];
    for (const [body, elements] of cases) {
      assertEquals(
        frame(JsonArrayDecoder, [bytes(body)]),
        { messages: elements.map((data) => ({ data })), error: "malformed-frame" },
        body,
      );
      assertAnySplit(JsonArrayDecoder, body);
    }
    assertEquals(frame(JsonArrayDecoder, [bytes("[]")]), { messages: [] }, "an empty array is no fault");
  });

  test("property: any gap with no comma or two, or a comma before the first or after the last element, under any chunking", () => {
    const space = fc.constantFrom("", " ", "\r\n", "\n  ");
    const element = fc
      .record({
        text: fc.string({ maxLength: 6, unit: fc.constantFrom("a", ",", "]", "}", "[", "{", '"', "\\", "杭") }),
        n: fc.integer(),
      })
      .map((v) => JSON.stringify(v));
    const body = fc.array(element, { minLength: 1, maxLength: 5 }).chain((elements) =>
      fc.record({
        elements: fc.constant(elements),
        gap: fc.integer({ min: 0, max: elements.length }),
        commas: fc.integer({ min: 0, max: 2 }),
        spaces: fc.array(space, { minLength: 3, maxLength: 3 }),
        cuts: fc.array(fc.integer({ min: 1, max: 400 }), { maxLength: 8 }),
      }),
    );
    fc.assert(
      fc.property(body, ({ elements, gap, commas, spaces, cuts }) => {
        // Gaps 0 and elements.length are before the first and after the last element: one comma is a fault there, as is none or two inside.
        const inner = gap > 0 && gap < elements.length;
        const sep = (at: number) =>
          at === gap
            ? `${spaces[0]}${",".repeat(commas)}${spaces[1]}`
            : at > 0 && at < elements.length
              ? `${spaces[2]},${spaces[2]}`
              : spaces[2]!;
        const text = `[${elements.map((e, i) => sep(i) + e).join("")}${sep(elements.length)}]`;
        const faulty = inner ? commas !== 1 : commas !== 0;
        const data = bytes(text);
        const result = frame(
          JsonArrayDecoder,
          splitAt(
            data,
            cuts.filter((cut) => cut < data.length),
          ),
        );
        if (!faulty) return assertEquals(result, { messages: elements.map((e) => ({ data: e })) });
        assertEquals(
          result,
          { messages: elements.slice(0, gap).map((e) => ({ data: e })), error: "malformed-frame" },
          text,
        );
      }),
      { seed: 21, numRuns: 300 },
    );
  });

  test("an element longer than maxEventLength is event-too-large, split across chunks or not", () => {
    const long = `[{"a":1},{"b":"${"x".repeat(100)}"}]`;
    assertEquals(frame(JsonArrayDecoder, [bytes(long)], { maxEventLength: 64 }), {
      messages: [{ data: '{"a":1}' }],
      error: "event-too-large",
    });
    assertEquals(
      frame(JsonArrayDecoder, splitAt(bytes(long), [20, 40, 60, 80]), { maxEventLength: 64 }).error,
      "event-too-large",
    );
  });

  test("a long array is scanned once: time grows linearly with the number of elements", () => {
    // Not a timing assertion: a re-scan from the start would make the work quadratic, which this
    // element count makes visible as a timeout long before it finishes.
    const body = `[${Array.from({ length: 20_000 }, (_, i) => `{"i":${i},"s":"]}"}`).join(",\r\n")}]`;
    const chunks = splitAt(
      bytes(body),
      Array.from({ length: 2_000 }, (_, i) => i * 211),
    );
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
    for (const [type, first, expected] of cases)
      assertEquals(detectFraming(type, first.charCodeAt(0)) === expected, true, `${type} ${JSON.stringify(first)}`);
  });

  test("FramingDetectStream holds leading white space, then reads the whole body with the framing told", async () => {
    const body = bytes('\n  \r\n[{"a":1},{"b":2}]');
    for (const cuts of [[], [1], [3, 6], [5, 6, 7]]) {
      assertEquals(await collect(fromChunks(splitAt(body, cuts)).pipeThrough(new FramingDetectStream())), [
        { data: '{"a":1}' },
        { data: '{"b":2}' },
      ]);
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

  test("each built-in text protocol reads its provider's framings only: no detection of the others", () => {
    // Gemini without alt=sse writes a JSON array (a bare object, its error body, is read by the same framing).
    const chosen = Object.values({ sse: "data: {}\n\n", ndjson: '{"a":1}\n', array: '[{"a":1}]' }).map((body) => {
      const framing = new (providerProtocol("gemini").framing as typeof TextFraming)(() => {});
      framing.feed(bytes(`\n ${body}`));
      return framing.chosen;
    });
    assertEquals(chosen, [SSEDecoder, JsonArrayDecoder, JsonArrayDecoder], "gemini");
    // The others send SSE (an SDK's toReadableStream() NDJSON is read with the `framing` option).
    for (const name of ["openai", "openai-responses", "anthropic", "cohere", "gemini-interactions"] as const)
      assertEquals(providerProtocol(name).framing === SSEDecoder, true, name);
  });
});
