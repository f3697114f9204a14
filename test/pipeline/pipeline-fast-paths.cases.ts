// The fast paths taken for speed behave exactly like the general paths they shortcut.
import fc from "fast-check";
import {
  AnthropicDecoder,
  ArgumentsBuffer,
  OpenAIResponsesDecoder,
  SequenceReorderer,
  type ProviderDelta,
  type SSEMessage,
} from "../../src/index.ts";
import { AnthropicCitingDecoder } from "../../src/anthropic.ts";
import { jsonLiteralEnd, jsonLiteralText } from "../../src/shared/json-literal.ts";
import { utf8Length } from "../../src/tools/utf8-length.ts";
import { assertEquals, group } from "../support/harness.ts";
import { jsonLiterals } from "../support/json-literal-arbitraries.ts";

const { anyLiteral } = jsonLiterals('"}}', "\\/", "\\x", "\\u12", "\\u00e9");

/** A Responses text-delta event whose text names its sequence number (or `-` without one). */
function textEvent(sequence: number | undefined): { data: string; event: string } {
  const payload: Record<string, unknown> = { type: "response.output_text.delta", delta: `${sequence ?? "-"}` };
  if (sequence !== undefined) payload["sequence_number"] = sequence;
  return { event: "response.output_text.delta", data: JSON.stringify(payload) };
}

/** Objects and arrays with strings that hold quotes, escapes and brackets, plus malformed tails. */
const ARGUMENTS = [
  '{"a":1}',
  ' { "q" : "a \\"}\\" ]" , "n" : [ 1 , { "x" : "}" } ] } ',
  '[1,"\\\\",[2,[3]],{"k":"[{"}]',
  '{"杭州":"市 😀","e":"\\u00e9\\\\"}',
  '{"a":1} {"b":2}',
  '{"a":1}\n\t ',
  '{"a":[[[[[[1]]]]]]}',
  '{"a":"unterminated',
  '"scalar first" {"a":1}',
  '{"a":1}}',
];

/** The fields of the two deltas the fast path reads. */
const DELTA_FIELDS = ['"type":"input_json_delta","partial_json"', '"type":"text_delta","text"'];

/** What may follow a delta's literal: the two braces, with Anthropic's padding and other white space, or near misses. */
const deltaEnd = fc.constantFrom("}}", "}}", "}     }", " }}", "}} ", "}\t}\n", "} } ", "}", "}}}", "} x}", "}  ");

/** input_json_delta and text_delta data as Anthropic serializes it (padded as it pads it), and near misses of that shape. */
const anthropicDeltaData = fc.oneof(
  fc
    .record({
      index: fc.constantFrom("0", "1", "2", "3", "01", "-1", "1.0", "1e0", "9999999999", ""),
      fields: fc.constantFrom(...DELTA_FIELDS),
      text: fc.string({ unit: "grapheme" }),
      end: deltaEnd,
    })
    .map(
      ({ index, fields, text, end }) =>
        `{"type":"content_block_delta","index":${index},"delta":{${fields}:${JSON.stringify(text)}${end}`,
    ),
  // Any literal: escapes of every kind, raw or unclosed.
  fc
    .tuple(anyLiteral, fc.constantFrom(...DELTA_FIELDS), deltaEnd)
    .map(([literal, fields, end]) => `{"type":"content_block_delta","index":0,"delta":{${fields}:${literal}${end}`),

  fc.constantFrom(
    '{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"a"}}',
    '{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"a\\"}}',
    '{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"\\"}}"}}',
    '{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"a","x":"b"}}',
    '{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"a" }}',
    '{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"a"}}}',
    '{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"a"}}',
    '{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"}}',
    '{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":""}}',
    '{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":1}}',
    '{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"hi"}}',
    '{"type":"content_block_delta","index":1,"delta":{"type":"text_delta","text":""}   }',
    '{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"a","x":"b"}}',
    '{"type":"content_block_delta","index":0,"delta":{"text":"a","type":"text_delta"}}',
    '{"type":"content_block_delta","index":0,"delta":{"partial_json":"a","type":"input_json_delta"}}',
    '{"index":0,"type":"content_block_delta","delta":{"type":"input_json_delta","partial_json":"a"}}',
  ),
);

group("Pipeline fast paths", (test) => {
  test("Anthropic input_json_delta and text_delta read without the payload object give what the full parse gives", () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(anthropicDeltaData, fc.constantFrom(undefined, "content_block_delta", "ping")), {
          maxLength: 12,
        }),
        (messages) => {
          // The same data after one space is parsed the same way, but never by the fast path.
          const decodeAll = (prefix: string): ProviderDelta[] => {
            const out: ProviderDelta[] = [];
            const decoder = new AnthropicCitingDecoder((delta) => out.push(delta));
            // Three calls, and at index 3 a cited text block, which keeps its text deltas for its stop.
            for (const index of [0, 1, 2, 3]) {
              const block =
                index === 3
                  ? { type: "text", text: "", citations: [{ type: "char_location", cited_text: "c" }] }
                  : { type: "tool_use", id: `t${index}`, name: "f", input: {} };
              decoder.decode({
                event: "content_block_start",
                data: JSON.stringify({ type: "content_block_start", index, content_block: block }),
              });
            }
            for (const [data, event] of messages) {
              const message: SSEMessage = { data: prefix + data };
              if (event !== undefined) message.event = event;
              decoder.decode(message);
            }
            for (const index of [0, 1, 2, 3])
              decoder.decode({ data: JSON.stringify({ type: "content_block_stop", index }) });
            return out;
          };
          assertEquals(decodeAll(""), decodeAll(" "), JSON.stringify(messages));
        },
      ),
      { seed: 33, numRuns: 400 },
    );
  });

  test("Anthropic: data that is not JSON is malformed before any input_json_delta too, whatever it begins with", () => {
    // No head is known before the first input_json_delta: none may let other data through as one.
    for (const data of ['-"a"}}', '"a"}}', 'x"a"}}']) {
      const out: ProviderDelta[] = [];
      const decoder = new AnthropicDecoder((delta) => out.push(delta));
      const block = { type: "tool_use", id: "t0", name: "f", input: {} };
      decoder.decode({ data: JSON.stringify({ type: "content_block_start", index: 0, content_block: block }) });
      decoder.decode({ data });
      assertEquals(
        out.slice(1).map((delta) => (delta.type === "error" ? delta.error.code : delta.type)),
        ["malformed-payload"],
        data,
      );
    }
  });

  test("Anthropic: a partial_json that is no string is malformed after an input_json_delta too", () => {
    // The head kept from the last delta ends before the literal's quote: what follows it must be one.
    const head = '{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":';
    for (const value of ['1a"', '5"', 'x"']) {
      const out: ProviderDelta[] = [];
      const decoder = new AnthropicDecoder((delta) => out.push(delta));
      const block = { type: "tool_use", id: "t0", name: "f", input: {} };
      decoder.decode({ data: JSON.stringify({ type: "content_block_start", index: 0, content_block: block }) });
      decoder.decode({ data: `${head}"{"}}` });
      decoder.decode({ data: `${head}${value}}}` });
      assertEquals(
        out.slice(1).map((delta) => (delta.type === "error" ? delta.error.code : delta.type)),
        ["tool-call-chunk", "malformed-payload"],
        value,
      );
    }
  });

  test("OpenAI Responses: data that is not JSON is malformed before any delta event too", () => {
    // No middle is known before the first delta event: none may let other data through as one.
    for (const data of [
      '{"type":"response.output_text.delta","sequence_number":5-"}',
      '{"type":"response.output_text.delta","sequence_number":5"}',
    ]) {
      const out: ProviderDelta[] = [];
      new OpenAIResponsesDecoder((delta) => out.push(delta)).decode({ data });
      assertEquals(
        out.map((delta) => (delta.type === "error" ? delta.error.code : delta.type)),
        ["malformed-payload"],
        data,
      );
    }
  });

  test("jsonLiteralText reads a string literal as JSON.parse does, escapes of every kind included", () => {
    fc.assert(
      fc.property(anyLiteral, fc.constantFrom("", "}", ',"x":"\\"}'), (literal, after) => {
        const data = `{"a":${literal}${after}`;
        // The oracle knows nothing of jsonLiteralEnd: a string literal is the shortest prefix
        // from its quote that JSON.parse reads, and there is none when it is not JSON.
        let expected: unknown;
        for (let through = 6; through <= data.length && expected === undefined; through++) {
          try {
            expected = JSON.parse(data.slice(5, through));
          } catch {}
        }
        assertEquals(jsonLiteralText(data, 5, jsonLiteralEnd(data, 5)), expected, data);
      }),
      { seed: 37, numRuns: 2000 },
    );
  });

  test("SequenceReorderer releases events in order without buffering them, exactly as buffering every event would", () => {
    /** The reorderer's rules with every event buffered: what the fast path must not change. */
    function reference(sequence: readonly (number | undefined)[], window: number, flush = true): string[] {
      const out: string[] = [];
      const buffer = new Map<number, number>();
      let next: number | undefined;
      const drain = (): void => {
        for (; buffer.has(next!); next!++) out.push(`${buffer.get(next!)}`), buffer.delete(next!);
      };
      const skipGap = (): void => {
        const lowest = Math.min(...buffer.keys());
        out.push(`gap ${next}-${lowest - 1}`);
        next = lowest;
        drain();
      };
      for (const n of sequence) {
        if (n === undefined) {
          out.push("-");
          continue;
        }
        next ??= n;
        if (n < next || buffer.has(n)) continue;
        buffer.set(n, n);
        drain();
        if (buffer.size > window) skipGap();
      }
      while (flush && buffer.size > 0) skipGap();
      return out;
    }
    fc.assert(
      fc.property(
        fc.array(fc.option(fc.nat({ max: 30 }), { freq: 8, nil: undefined }), { maxLength: 40 }),
        fc.integer({ min: 1, max: 4 }),
        fc.constantFrom("random", "sorted", "swapped"),
        fc.array(fc.boolean(), { minLength: 40, maxLength: 40 }),
        (numbers, window, order, swaps) => {
          // Sorted (with duplicates and gaps) and locally swapped input (an event a step late, the
          // next one already held) exercise the fast path and the hand-over between it and the buffer.
          const sorted = [...numbers].sort((a, b) => (a ?? 0) - (b ?? 0));
          const swapped = sorted.map((_, i) => i);
          for (let i = 0; i + 1 < swapped.length; i++)
            if (swaps[i]) [swapped[i], swapped[i + 1]] = [swapped[i + 1]!, swapped[i]!];
          const sequence: (number | undefined)[] = order === "random" ? numbers : order === "sorted" ? sorted : swapped;
          const expected = reference(sequence, window);
          const released: string[] = [];
          const reorderer = new SequenceReorderer<number | undefined>(
            window,
            (n) => released.push(`${n ?? "-"}`),
            (from, to) => released.push(`gap ${from}-${to}`),
          );
          // Each event is released as soon as it is contiguous, not later.
          sequence.forEach((n, i) => {
            reorderer.push(n, n);
            assertEquals(
              released,
              reference(sequence.slice(0, i + 1), window, false),
              `${JSON.stringify(sequence)} after ${i + 1}`,
            );
          });
          reorderer.flush();
          assertEquals(released, expected, JSON.stringify(sequence));

          // The Responses decoder puts its events through it: text deltas in that order, gaps as errors.
          const deltas: ProviderDelta[] = [];
          const decoder = new OpenAIResponsesDecoder((delta) => deltas.push(delta), { reorderWindow: window });
          for (const n of sequence) decoder.decode(textEvent(n));
          decoder.end();
          const seen = deltas.map((delta) =>
            delta.type === "text-delta" ? delta.text : delta.type === "error" ? delta.error.message : delta.type,
          );
          const gapMessage = (entry: string): string => {
            const [from, to] = entry.slice("gap ".length).split("-");
            return `Events ${from} to ${to} never arrived; the stream went on without them.`;
          };
          assertEquals(
            seen,
            expected.map((entry) => (entry.startsWith("gap ") ? gapMessage(entry) : entry)),
            JSON.stringify(sequence),
          );
        },
      ),
      { seed: 31, numRuns: 400 },
    );
  });

  test("ArgumentsBuffer: any split gives the same closed flags and result as one character at a time", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...ARGUMENTS),
        fc.array(fc.nat(), { maxLength: 8 }),
        fc.integer({ min: 2, max: 64 }),
        (text, cuts, maxDepth) => {
          const offsets = [...new Set(cuts.map((c) => c % (text.length + 1)))].sort((a, b) => a - b);
          const split = new ArgumentsBuffer({ maxDepth });
          const single = new ArgumentsBuffer({ maxDepth });
          let fed = 0;
          for (const offset of [...offsets, text.length]) {
            split.append(text.slice(fed, offset));
            for (; fed < offset; fed++) single.append(text[fed]!);
            assertEquals(split.isClosedValue, single.isClosedValue, `${text} at ${offset}`);
          }
          const options = { repair: false as const, closeTruncated: false };
          assertEquals(split.parse(options), single.parse(options), text);
        },
      ),
      { seed: 32, numRuns: 300 },
    );
  });

  test("ArgumentsBuffer reports the offset of trailing data and of nesting past the limit", () => {
    const trailing = new ArgumentsBuffer();
    for (const piece of ['{"a":', '"}"}  ', " x", "y"]) trailing.append(piece);
    assertEquals(trailing.isClosedValue, false);
    assertEquals(trailing.parse({ repair: false, closeTruncated: false }), {
      ok: false,
      error: {
        code: "trailing-data",
        message: "The tool arguments continue after a complete JSON value (at offset 12).",
        position: 12,
      },
    });
    const deep = new ArgumentsBuffer({ maxDepth: 2 });
    for (const piece of ["[[", "[1]]]"]) deep.append(piece);
    assertEquals(deep.parse({ repair: false, closeTruncated: false }), {
      ok: false,
      error: { code: "too-deep", message: "The tool arguments nest deeper than 2 levels.", position: 2 },
    });
  });

  test("utf8Length counts what TextEncoder writes: pairs are 4 bytes, lone surrogates 3", () => {
    const unit = fc.constantFrom(
      "a",
      "\u007f",
      "\u0080",
      "é",
      "\u07ff",
      "\u0800",
      "杭",
      "\uffff",
      "😀",
      "\ud800",
      "\udbff",
      "\udc00",
      "\udfff",
    );
    const encoder = new TextEncoder();
    fc.assert(
      fc.property(fc.array(unit, { maxLength: 12 }), (units) => {
        const text = units.join("");
        assertEquals(utf8Length(text), encoder.encode(text).length, JSON.stringify(text));
      }),
      { numRuns: 2000 },
    );
  });
});
