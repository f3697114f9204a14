// The OpenAI Chat decoder's fast path (a chunk of OpenAI's own serialization read without its
// payload object) gives exactly what the full parse gives, near misses included.
import fc from "fast-check";
import { OpenAIChatDecoder, type ProviderDelta, type SSEMessage } from "../../src/index.ts";
import { FastChunkReader } from "../../src/providers/openai-chat/openai-chat-fast-chunk.ts";
import { assertEquals, group } from "../support/harness.ts";
import { jsonLiterals, usually } from "../support/json-literal-arbitraries.ts";

const { literal, anyLiteral } = jsonLiterals("}}]}");
const integer = usually(fc.constantFrom("0", "1", "12", "1795737600"), "01", "-1", "1.0", "1e0", "9999999999", "");
/** One chunk as OpenAI serializes it (its optional fields present or not), or a near miss. */
const chunkData = fc
  .record({
    id: literal,
    object: usually('"chat.completion.chunk"', '"chat.completion"', '"chat.completion.chunk" '),
    created: fc.option(integer, { nil: undefined }),
    model: fc.option(literal, { nil: undefined }),
    // Fields of other servers' envelopes: ignored ones, and the ones the decoder reads (never fast).
    extra: fc.option(
      fc.tuple(
        fc.constantFrom("provider", "model", "error", "usage", "x_groq", "choices", "Model", "a-b"),
        fc.oneof(literal, integer, fc.constantFrom("null", "{}", "[]", "true")),
      ),
      { nil: undefined },
    ),
    logprobs: usually(true, false),
    tier: fc.option(literal, { nil: undefined }),
    fingerprint: fc.option(fc.oneof(literal, fc.constant("null")), { nil: undefined }),
    choice: usually("0", "1", "00", "-0"),
    delta: fc.oneof(
      { weight: 3, arbitrary: fc.oneof(literal, anyLiteral).map((value) => `{"content":${value}}`) },
      {
        weight: 3,
        arbitrary: fc
          .tuple(integer, fc.oneof(literal, anyLiteral))
          .map(([index, value]) => `{"tool_calls":[{"index":${index},"function":{"arguments":${value}}}]}`),
      },
      fc.constantFrom(
        '{"content":"a","role":"assistant"}',
        '{"content":null}',
        '{"content":1}',
        '{"tool_calls":[{"index":0,"function":{"arguments":"a"}},{"index":1,"function":{"arguments":"b"}}]}',
        '{"tool_calls":[{"index":0,"function":{"arguments":"a","name":"f"}}]}',
        '{"reasoning_content":"r"}',
      ),
    ),
    finish: usually("null", '"stop"', '"tool_calls"'),
    usage: fc.oneof(
      fc.constantFrom(undefined, "null"),
      usually(undefined, '{"prompt_tokens":1,"completion_tokens":2,"total_tokens":3}', "1"),
    ),
    obfuscation: fc.option(literal, { nil: undefined }),
    trailer: usually("", " ", "}", ',"x":1', "\n"),
  })
  .map((c) => {
    let data = `{"id":${c.id},"object":${c.object}`;
    if (c.created !== undefined) data += `,"created":${c.created}`;
    if (c.model !== undefined) data += `,"model":${c.model}`;
    if (c.extra !== undefined) data += `,"${c.extra[0]}":${c.extra[1]}`;
    if (c.tier !== undefined) data += `,"service_tier":${c.tier}`;
    if (c.fingerprint !== undefined) data += `,"system_fingerprint":${c.fingerprint}`;
    const logprobs = c.logprobs ? '"logprobs":null,' : "";
    data += `,"choices":[{"index":${c.choice},"delta":${c.delta},${logprobs}"finish_reason":${c.finish}}]`;
    if (c.usage !== undefined) data += `,"usage":${c.usage}`;
    if (c.obfuscation !== undefined) data += `,"obfuscation":${c.obfuscation}`;
    return `${data}}${c.trailer}`;
  });

/** A reasoning chunk, so that the fast path's text and calls end held reasoning as the full parse does. */
const REASONING =
  '{"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"reasoning_content":"think"},"logprobs":null,"finish_reason":null}]}';

group("OpenAI Chat fast path", (test) => {
  test("a chunk read without its payload object gives what the full parse gives", () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.oneof(chunkData, fc.constant(REASONING)), fc.constantFrom(undefined, "error")), {
          maxLength: 10,
        }),
        (messages) => {
          // The same data after one space is parsed the same way, but never by the fast path.
          const decodeAll = (prefix: string): unknown[] => {
            const out: ProviderDelta[] = [];
            const decoder = new OpenAIChatDecoder((delta) => out.push(delta));
            for (const [data, event] of messages) {
              const message: SSEMessage = { data: prefix + data };
              if (event !== undefined) message.event = event;
              decoder.decode(message);
            }
            decoder.decode({ data: "[DONE]" });
            return out.map((delta) => (delta.type === "error" ? { type: "error", code: delta.error.code } : delta));
          };
          assertEquals(decodeAll(""), decodeAll(" "), JSON.stringify(messages));
        },
      ),
      { seed: 37, numRuns: 600 },
    );
  });

  test("chunks of one stream (one envelope, the same text around each literal) read as the full parse reads them", () => {
    // One envelope, chunk after chunk: what the reader keeps of the last chunk is tried on the next.
    const ENVELOPE =
      '{"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":';
    const tail = fc.oneof(
      fc.constantFrom(
        ',"logprobs":null,"finish_reason":null}]}',
        ',"finish_reason":null}]}',
        ',"logprobs":null,"finish_reason":null}],"usage":null}',
        ',"logprobs":null,"finish_reason":"stop"}]}',
        ',"logprobs":null,"finish_reason":null}]} ',
        ',"logprobs":null,"finish_reason":null}]}}',
      ),
      fc
        .tuple(
          fc.oneof(literal, anyLiteral, fc.constantFrom('"', '"a', '"\\"', '"a"}x"', '"a"  ')),
          fc.constantFrom("}", "", "} ", "}}"),
        )
        .map(([value, end]) => `,"logprobs":null,"finish_reason":null}],"usage":null,"obfuscation":${value}${end}`),
    );
    const delta = fc.oneof(
      fc.oneof(literal, anyLiteral).map((value) => `{"content":${value}}`),
      fc
        .tuple(fc.constantFrom("0", "1", "01"), fc.oneof(literal, anyLiteral))
        .map(([index, value]) => `{"tool_calls":[{"index":${index},"function":{"arguments":${value}}}]}`),
      fc.constantFrom(
        '{"content":"a","role":"assistant"}',
        '{"reasoning_content":"r"}',
        '{"content":null}',
        // A fragment followed by what follows a text delta: never read as one.
        '{"tool_calls":[{"index":0,"function":{"arguments":"a"}',
      ),
    );
    fc.assert(
      fc.property(fc.array(fc.tuple(delta, tail), { maxLength: 12 }), (chunks) => {
        const decodeAll = (prefix: string): unknown[] => {
          const out: ProviderDelta[] = [];
          const decoder = new OpenAIChatDecoder((d) => out.push(d));
          for (const [d, t] of chunks) decoder.decode({ data: prefix + ENVELOPE + d + t });
          decoder.decode({ data: "[DONE]" });
          return out.map((d) => (d.type === "error" ? { type: "error", code: d.error.code } : d));
        };
        assertEquals(decodeAll(""), decodeAll(" "), JSON.stringify(chunks));
      }),
      { seed: 37, numRuns: 600 },
    );
  });

  test("runs of chunks of one shape (the head and tail kept, made flat once repeated) read as the full parse reads them", () => {
    // Past `FLAT_AFTER` repeats the reader keeps a flat copy of the head and tail: a run then a
    // change (another call, a text delta, another tail) must read as before.
    const ENVELOPE =
      '{"id":"chatcmpl-1","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":';
    const delta = fc.oneof(
      fc
        .constantFrom("0", "1")
        .map((index) => (value: string) => `{"tool_calls":[{"index":${index},"function":{"arguments":${value}}}]}`),
      fc.constant((value: string) => `{"content":${value}}`),
    );
    const tail = fc.constantFrom(
      ',"logprobs":null,"finish_reason":null}],"usage":null,"obfuscation":"abc"}',
      ',"logprobs":null,"finish_reason":null}],"usage":null,"obfuscation":"a\\"}',
      ',"logprobs":null,"finish_reason":null}]}',
      ',"finish_reason":null}]} ',
    );
    fc.assert(
      fc.property(
        fc.array(fc.tuple(delta, tail, fc.integer({ min: 1, max: 80 }), fc.oneof(literal, anyLiteral)), {
          maxLength: 5,
        }),
        (runs) => {
          const decodeAll = (prefix: string): unknown[] => {
            const out: ProviderDelta[] = [];
            const decoder = new OpenAIChatDecoder((d) => out.push(d));
            for (const [make, t, count, value] of runs)
              for (let i = 0; i < count; i++) decoder.decode({ data: prefix + ENVELOPE + make(value) + t });
            decoder.decode({ data: "[DONE]" });
            return out.map((d) => (d.type === "error" ? { type: "error", code: d.error.code } : d));
          };
          assertEquals(decodeAll(""), decodeAll(" "), JSON.stringify(runs.map(([, t, n, v]) => [t, n, v])));
        },
      ),
      { seed: 37, numRuns: 300 },
    );
  });

  test("a chunk that repeats what was kept of an earlier envelope reads that envelope's model, not the one matched since", () => {
    // The text kept before a literal begins with its envelope: once another envelope matched (here
    // in a chunk the fast path then leaves to the full parse), it must never be compared again.
    const envelope = (model: string) =>
      `{"id":"c","object":"chat.completion.chunk","created":1,"model":"${model}","choices":[{"index":0,"delta":`;
    const end = ',"logprobs":null,"finish_reason":null}]}';
    const messages = [
      `${envelope("deepseek-reasoner")}{"content":"a"}${end}`,
      `${envelope("gpt-5")}{"role":"assistant","content":""}${end}`,
      `${envelope("deepseek-reasoner")}{"reasoning_content":"think"}${end}`,
      `${envelope("deepseek-reasoner")}{"content":"b"}${end}`,
    ];
    const decodeAll = (prefix: string): unknown[] => {
      const out: ProviderDelta[] = [];
      const decoder = new OpenAIChatDecoder((d) => out.push(d));
      for (const data of messages) decoder.decode({ data: prefix + data });
      decoder.decode({ data: "[DONE]" });
      return out;
    };
    assertEquals(decodeAll(""), decodeAll(" "));
    const reader = new FastChunkReader();
    const read = (data: string) => {
      const text = reader.read(data);
      return text === undefined ? undefined : { model: reader.model, text };
    };
    assertEquals(read(messages[0]!), { model: "deepseek-reasoner", text: "a" });
    assertEquals(read(messages[1]!), undefined);
    assertEquals(read(messages[3]!), { model: "deepseek-reasoner", text: "b" });
  });

  test("OpenAI's own chunks, and many of the generated ones, take the fast path", () => {
    const data =
      '{"id":"chatcmpl-1","object":"chat.completion.chunk","created":1795737600,"model":"gpt","service_tier":"default","system_fingerprint":"fp_1","choices":[{"index":0,"delta":{"tool_calls":[{"index":1,"function":{"arguments":"{\\"a"}}]},"logprobs":null,"finish_reason":null}],"usage":null,"obfuscation":"x"}';
    const reader = new FastChunkReader();
    const read = (chunk: string) => {
      const text = reader.read(chunk);
      return text === undefined ? undefined : { model: reader.model, call: reader.call, text };
    };
    assertEquals(read(data), { model: "gpt", call: 1, text: '{"a' });
    // Again with the envelope it keeps, and another envelope after it.
    assertEquals(read(data), { model: "gpt", call: 1, text: '{"a' });
    assertEquals(read(data.replace('"gpt"', '"gpt-2"')), { model: "gpt-2", call: 1, text: '{"a' });
    assertEquals(read(` ${data}`), undefined);
    // What it keeps of the last chunk (the text before and after its literal) never admits a near miss.
    assertEquals(read(data.replace('"obfuscation":"x"}', '"obfuscation":"x"} ')), undefined);
    assertEquals(read(data.replace('"obfuscation":"x"}', '"obfuscation":"x\\"}')), undefined);
    assertEquals(read(data.replace('"usage":null,"obfuscation":"x"}', '"usage":null}')), {
      model: "gpt",
      call: 1,
      text: '{"a',
    });
    assertEquals(read(data.replace('"usage":null,"obfuscation":"x"}', '"usage":null}x"}')), undefined);
    assertEquals(read(data.replace('{\\"a', "b")), { model: "gpt", call: 1, text: "b" });
    // The property above compares both paths only where the fast one is taken.
    const taken = fc
      .sample(chunkData, { seed: 37, numRuns: 1000 })
      .filter((d) => new FastChunkReader().read(d) !== undefined);
    assertEquals(taken.length > 50, true, `${taken.length} of 1000 generated chunks read fast`);
  });
});
