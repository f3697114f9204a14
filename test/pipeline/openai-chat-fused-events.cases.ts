// OpenAI Chat events read in place (`OpenAIChatDecoder.readEvent`, which the chain gives the SSE
// framing): the framing's decoded text read event by event with no line, message or slice of
// its own. Whatever the bytes and however they are cut into reads, the deltas and the chain's
// events are those of the framing and the decoder message by message.
import fc from "fast-check";
import {
  OpenAIChatDecoder,
  providerProtocol,
  SSEDecoder,
  ToolCallChain,
  type ProviderDelta,
  type ToolCallChainOptions,
  type ToolCallEvent,
} from "../../src/index.ts";
import { assertEquals, group } from "../support/harness.ts";
import { jsonLiterals } from "../support/json-literal-arbitraries.ts";

const { literal, anyLiteral } = jsonLiterals("}}]}", "\\u00e9", "é", "😀");
const envelope = (model: string) =>
  `{"id":"chatcmpl-1","object":"chat.completion.chunk","created":1,"model":"${model}","service_tier":"default","choices":[{"index":0,"delta":`;
const first = (index: number) =>
  `{"role":"assistant","content":null,"tool_calls":[{"index":${index},"id":"call_${index}","type":"function","function":{"name":"f","arguments":""}}]}`;
const TAILS = [
  ',"logprobs":null,"finish_reason":null}],"usage":null,"obfuscation":',
  ',"logprobs":null,"finish_reason":null}]}',
  ',"finish_reason":null}],"usage":null}',
];

/** One run of chunks of one shape: a literal repeated `count` times (the reader keeps the shape from the first). */
const run = fc.record({
  model: fc.constantFrom("m", "m", "m", "gpt-5"),
  kind: fc.constantFrom("call 0", "call 0", "call 1", "text", "first 0", "first 1", "finish"),
  tail: fc.constantFrom(0, 0, 1, 2),
  obfuscation: fc.oneof(literal, fc.constantFrom('"a\\"b"', '"ab', '"é"')),
  values: fc.array(fc.oneof({ weight: 4, arbitrary: literal }, { weight: 1, arbitrary: anyLiteral }), {
    minLength: 1,
    maxLength: 4,
  }),
  count: fc.integer({ min: 1, max: 40 }),
  // How each event's lines end, and a field or a comment before its data now and then.
  end: fc.constantFrom("\n", "\n", "\n", "\r\n", "\r"),
  before: fc.constantFrom("", "", "", "", "id: 7\n", ": keep-alive\n", "event: x\n"),
});

/** The body of `runs`, `[DONE]` last. */
function body(runs: (typeof run extends fc.Arbitrary<infer R> ? R : never)[]): string {
  let text = "";
  for (const r of runs)
    for (let i = 0; i < r.count; i++) {
      const value = r.values[i % r.values.length]!;
      const delta =
        r.kind === "text"
          ? `{"content":${value}}`
          : r.kind === "finish"
            ? "{}"
            : r.kind.startsWith("first")
              ? first(Number(r.kind.at(-1)))
              : `{"tool_calls":[{"index":${r.kind.at(-1)},"function":{"arguments":${value}}}]}`;
      let tail = TAILS[r.tail]!;
      if (r.kind === "finish") tail = tail.replace('"finish_reason":null', '"finish_reason":"tool_calls"');
      if (r.tail === 0) tail += r.obfuscation;
      text += `${r.before}data: ${envelope(r.model)}${delta}${tail}}${r.end}${r.end}`;
    }
  return `${text}data: [DONE]\n\n`;
}

/** `bytes` cut at `cuts` (positions, any order; inside a UTF-8 character too). */
function reads(bytes: Uint8Array, cuts: number[]): Uint8Array[] {
  const at = [...new Set(cuts.map((cut) => cut % (bytes.length + 1)))].sort((a, b) => a - b);
  return [...at, bytes.length].map((end, i) => bytes.subarray(i === 0 ? 0 : at[i - 1]!, end));
}

/** The deltas of `chunks` through the SSE framing and the decoder, with the decoder's reader (`fused`) or message by message. */
function deltas(chunks: Uint8Array[], fused: boolean, limit?: number): { deltas: unknown[]; inPlace: number } {
  const out: unknown[] = [];
  let inPlace = 0;
  const decoder = new OpenAIChatDecoder((delta: ProviderDelta) =>
    out.push(delta.type === "error" ? { type: "error", code: delta.error.code } : delta),
  );
  const read = (text: string, at: number, max: number): number => {
    const next = decoder.readEvent(text, at, max);
    if (next > 0) inPlace++;
    return next;
  };
  const framing = new SSEDecoder(
    (message) => decoder.decode(message),
    limit === undefined ? {} : { maxEventLength: limit },
    fused ? read : undefined,
  );
  try {
    for (const chunk of chunks) framing.feed(chunk);
    framing.end();
  } catch (error) {
    out.push({ thrown: (error as { code?: string }).code });
  }
  decoder.end();
  return { deltas: out, inPlace };
}

/** The chain's events for `chunks`, each chunk decoded whole (events read in place) or not (`feed(chunk, 0)`, then `decode()`). */
function chainEvents(chunks: Uint8Array[], whole: boolean, options: ToolCallChainOptions): unknown[] {
  const events: ToolCallEvent[] = [];
  const chain = new ToolCallChain(providerProtocol("openai"), (event) => events.push(event), options);
  for (const chunk of chunks) {
    if (whole) chain.feed(chunk);
    else {
      chain.feed(chunk, 0);
      chain.decode();
    }
  }
  chain.end();
  return events;
}

const encode = (text: string): Uint8Array => new TextEncoder().encode(text);

group("OpenAI Chat events read in place by the SSE framing's decoder", (test) => {
  test("any body of runs of one shape, cut anywhere, gives the deltas of the framing and the decoder message by message", () => {
    fc.assert(
      fc.property(
        fc.array(run, { minLength: 1, maxLength: 6 }),
        fc.array(fc.nat(), { maxLength: 12 }),
        fc.constantFrom(undefined, undefined, 300, 600),
        (runs, cuts, limit) => {
          const chunks = reads(encode(body(runs)), cuts);
          assertEquals(deltas(chunks, true, limit).deltas, deltas(chunks, false, limit).deltas, body(runs));
        },
      ),
      { seed: 37, numRuns: 300 },
    );
  });

  test("through the chain: the same events as message by message, its limits and the queue's order included", () => {
    fc.assert(
      fc.property(
        fc.array(run, { minLength: 1, maxLength: 5 }),
        fc.array(fc.nat(), { maxLength: 8 }),
        fc.constantFrom<ToolCallChainOptions>({}, {}, { maxArgumentsLength: 40 }, { maxEventLength: 400 }),
        (runs, cuts, options) => {
          const chunks = reads(encode(body(runs)), cuts);
          assertEquals(chainEvents(chunks, true, options), chainEvents(chunks, false, options), body(runs));
        },
      ),
      { seed: 37, numRuns: 200 },
    );
  });

  test("a stream of one shape is read in place after its first event, escapes, CRLF, a new head and cut reads included", () => {
    const call = (value: string, model = "m", end = "\n") =>
      `data: ${envelope(model)}{"tool_calls":[{"index":0,"function":{"arguments":${value}}}]}${TAILS[0]}"x1"}${end}${end}`;
    const text =
      `data: ${envelope("m")}${first(0)}${TAILS[1]}}\n\n` +
      call('"{\\"a\\":"') +
      call('"\\"é😀\\\\n"').repeat(40) +
      call('"b"', "m", "\r\n") +
      call('"c"', "m2") +
      call('"d"', "m2").repeat(3) +
      "data: [DONE]\n\n";
    const bytes = encode(text);
    // Cut inside the 😀 of one event, and inside another event's head.
    const emoji = bytes.indexOf(0xf0, 600);
    const chunks = reads(bytes, [emoji + 2, 3000, 3100]);
    const fused = deltas(chunks, true);
    assertEquals(fused.deltas, deltas(chunks, false).deltas);
    const args = fused.deltas.map((d) => (d as { argumentsDelta?: string }).argumentsDelta ?? "").join("");
    assertEquals(args, `{"a":${'"é😀\\n'.repeat(40)}bcddd`);
    // Not in place: the first event, a cut one in each later read, the CRLF one, the first of the new head.
    assertEquals(fused.inPlace >= 40, true, `${fused.inPlace} events read in place`);
  });
});
