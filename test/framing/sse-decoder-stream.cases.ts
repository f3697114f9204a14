import { createParser } from "eventsource-parser";
import fc from "fast-check";
import {
  SSEDecoder,
  streamToolCalls,
  ToolCallStreamError,
  type SSEMessage,
  type ToolCallEvent,
} from "../../src/index.ts";
import { assert, assertEquals, group } from "../support/harness.ts";
import { bytes, chatChunk, collect, decodeSSE, fromChunks, openAISSE } from "../support/streams.ts";

const types = (events: ToolCallEvent[]): string[] => events.map((e) => e.type);

group("SSEDecoderStream", (test) => {
  test("reads LF, CRLF and CR line endings alike", async () => {
    for (const eol of ["\n", "\r\n", "\r"]) {
      const text = `event: a${eol}data: 1${eol}${eol}data:2${eol}${eol}`;
      assertEquals(await decodeSSE([bytes(text)]), [{ event: "a", data: "1" }, { data: "2" }], JSON.stringify(eol));
    }
  });

  test("strips a BOM, skips comments (OpenRouter's `: OPENROUTER PROCESSING`) and retry: fields", async () => {
    const text = '\uFEFF: OPENROUTER PROCESSING\n\nretry: 3000\n\nid: 7\ndata: {"a":1}\n\n';
    assertEquals(await decodeSSE([bytes(text)]), [{ id: "7", data: '{"a":1}' }]);
  });

  test("joins multi-line data with \\n and keeps the spec's one optional space", async () => {
    assertEquals(await decodeSSE([bytes("data:  two spaces\ndata:none\n\n")]), [{ data: " two spaces\nnone" }]);
  });

  test("keeps a character split across network chunks whole", async () => {
    const data = bytes('data: {"t":"杭州市"}\n\n');
    for (let cut = 1; cut < data.length; cut++) {
      assertEquals(
        await decodeSSE([data.slice(0, cut), data.slice(cut)]),
        [{ data: '{"t":"杭州市"}' }],
        `cut at ${cut}`,
      );
    }
  });

  test("a final event without its blank line is delivered, marked truncated", async () => {
    assertEquals(await decodeSSE([bytes('data: {"a":1}\n\ndata: {"b":2}')]), [
      { data: '{"a":1}' },
      { data: '{"b":2}', truncated: true },
    ]);
    assertEquals(await decodeSSE([bytes("data: [DONE]\n")]), [{ data: "[DONE]", truncated: true }]);
  });

  test("a body whose last character is a CR: the CR ends its line, in one chunk or split", async () => {
    for (const chunks of [["data: 1\r\r"], ["data: 1\r", "\r"], ["data: 1\r\n\r"]]) {
      assertEquals(await decodeSSE(chunks.map(bytes)), [{ data: "1" }], JSON.stringify(chunks));
    }
    assertEquals(await decodeSSE([bytes("data: 1\r")]), [{ data: "1", truncated: true }]);
    assertEquals(await decodeSSE([bytes("data: 1\r\n")]), [{ data: "1", truncated: true }]);
  });

  test("gateways that end without the final blank line: a complete last payload is used", async () => {
    const sse = openAISSE([chatChunk({ content: "hi" }), chatChunk({}, "stop")], false).trimEnd();
    const events = await collect(streamToolCalls(fromChunks([bytes(sse)])));
    assertEquals(types(events), ["text-delta", "finish"]);
    const withDone = await collect(
      streamToolCalls(fromChunks([bytes(`${openAISSE([chatChunk({ content: "hi" }, "stop")], false)}data: [DONE]`)])),
    );
    assertEquals(types(withDone), ["text-delta", "finish"]);
  });

  test("a body that ends mid-event reports the truncated payload and aborts", async () => {
    const sse = `${openAISSE([chatChunk({ content: "hi" })], false)}data: {"choices":[{"index":0,"delta":{"con`;
    const events = await collect(streamToolCalls(fromChunks([bytes(sse)])));
    assertEquals(types(events), ["text-delta", "error", "abort"]);
    assert(events[1]?.type === "error" && events[1].error.code === "truncated-event", "truncated-event");
    assert(events[2]?.type === "abort" && events[2].reason === "input-ended", "input-ended");
  });

  test("a final event cut short whose payload is complete JSON but not an object is malformed, not truncated", async () => {
    const events = await collect(
      streamToolCalls(fromChunks([bytes(`${openAISSE([chatChunk({ content: "hi" })], false)}data: [1,2]`)]), {
        provider: "openai",
      }),
    );
    assertEquals(types(events), ["text-delta", "error", "abort"]);
    assert(events[1]?.type === "error" && events[1].error.code === "malformed-payload", "malformed-payload");
  });

  test("a body that ends mid-character is never decoded as a complete payload", async () => {
    const full = bytes(openAISSE([chatChunk({ content: "杭州" }, "stop")], false));
    const cut = full.slice(0, full.indexOf(0xe5) + 2); // inside the first character of 杭
    const events = await collect(streamToolCalls(fromChunks([cut])));
    assertEquals(types(events), ["error", "abort"]);
  });

  test("SSEDecoder: past the limit it throws event-too-large, and throws it again on the next feed", () => {
    const messages: SSEMessage[] = [];
    const decoder = new SSEDecoder((message) => messages.push(message), { maxEventLength: 8 });
    decoder.feed(bytes("data: ok\n\n"));
    const codeOf = (run: () => void): unknown => {
      try {
        run();
      } catch (error) {
        return error instanceof ToolCallStreamError ? error.code : error;
      }
      return "no error";
    };
    // Whole in one chunk (the decoder's own check), then buffered across chunks (the parser's).
    assertEquals(
      codeOf(() => decoder.feed(bytes("data: 0123456789\n\n"))),
      "event-too-large",
    );
    assertEquals(
      codeOf(() => decoder.feed(bytes("data: x\n\n"))),
      "event-too-large",
    );
    assertEquals(
      codeOf(() => decoder.end()),
      "event-too-large",
    );
    assertEquals(messages, [{ data: "ok" }]);
    const split = new SSEDecoder(() => {}, { maxEventLength: 12 });
    split.feed(bytes("data: 0123"));
    assertEquals(
      codeOf(() => split.feed(bytes("456789"))),
      "event-too-large",
    );
    assertEquals(
      codeOf(() => split.feed(bytes("\n\n"))),
      "event-too-large",
    );
  });

  test("SSEDecoder: a body whose first character other than white space is { or [ is JSON: unknown-provider naming the framing, thrown again on the next feed", () => {
    const thrown = (chunks: string[]): unknown => {
      const decoder = new SSEDecoder(() => {});
      const errors: unknown[] = [];
      for (const chunk of chunks)
        try {
          decoder.feed(bytes(chunk));
        } catch (error) {
          errors.push(error);
        }
      try {
        decoder.end();
      } catch (error) {
        errors.push(error);
      }
      return errors.map((error) =>
        error instanceof ToolCallStreamError ? [error.code, /`framing: (\w+)`/.exec(error.message)?.[1]] : error,
      );
    };
    assertEquals(thrown(['{"choices":[]}\n']), [
      ["unknown-provider", "NdjsonDecoder"],
      ["unknown-provider", "NdjsonDecoder"],
    ]);
    assertEquals(thrown(["\ufeff", " \r\n\t", "[{}]"]), [
      ["unknown-provider", "JsonArrayDecoder"],
      ["unknown-provider", "JsonArrayDecoder"],
    ]);
    // Only the first character tells: a { later in the body, or in a field, is SSE as ever.
    assertEquals(thrown(["\n", ': {"a":1}\n', 'data: {"a":1}\n\n{x\n']), []);
    assertEquals(thrown(["", "   "]), []);
  });

  test("SSEDecoder: a JSON body's error first names what a bare chain most often reads there, a provider's error response", () => {
    // A wrong key's 401 from OpenAI, read by a chain that did not check the status first.
    const decoder = new SSEDecoder(() => {});
    let message = "";
    try {
      decoder.feed(
        bytes('{\n  "error": {\n    "message": "Incorrect API key provided",\n    "code": "invalid_api_key"\n  }\n}\n'),
      );
    } catch (error) {
      message = error instanceof ToolCallStreamError ? error.message : String(error);
    }
    assert(message.startsWith("An error response"), message);
    assert(!/Incorrect API key/.test(message), "the message quotes no payload");
  });

  test("SSEDecoder: a JSON body's error names the usual fix of a response asked for without `stream: true`", () => {
    // A Chat `chat.completion`, asked for without `stream: true`, read by a bare SSE chain.
    const decoder = new SSEDecoder(() => {});
    let message = "";
    try {
      decoder.feed(bytes('{"id":"chatcmpl-1","object":"chat.completion","choices":[]}\n'));
    } catch (error) {
      message = error instanceof ToolCallStreamError ? error.message : String(error);
    }
    assert(message.includes("`stream: true`"), message);
    assert(message.includes("NdjsonDecoder"), message);
  });

  test("llama.cpp's `error:` field is an error event: the half call is discarded, though `[DONE]` follows", async () => {
    const failure = '{"code":500,"message":"slot crashed","type":"server_error"}';
    assertEquals(await decodeSSE([bytes(`error: ${failure}\n\ndata: [DONE]\n\n`)]), [
      { event: "error", data: failure },
      { data: "[DONE]" },
    ]);
    const sse = openAISSE(
      [
        chatChunk({ content: "Checking " }),
        chatChunk({
          tool_calls: [{ index: 0, id: "call_1", function: { name: "get_weather", arguments: '{"city":"Pa' } }],
        }),
      ],
      false,
    );
    const events = await collect(
      streamToolCalls(fromChunks([bytes(`${sse}error: ${failure}\n\ndata: [DONE]\n\n`)]), { provider: "openai" }),
    );
    assertEquals(types(events), ["text-delta", "tool-call-start", "tool-call-delta", "error", "abort"]);
    const [error, abort] = events.slice(-2);
    assert(error?.type === "error" && error.error.code === "provider-error", "provider-error");
    assert(abort?.type === "abort" && abort.reason === "provider-error", "abort: provider-error");
    assertEquals(
      abort.discarded.map((call) => call.rawArguments),
      ['{"city":"Pa'],
    );
  });

  test("a CRLF split across chunks is one line end; a CR that ends a chunk ends its line at once", () => {
    const messages: SSEMessage[] = [];
    const decoder = new SSEDecoder((message) => messages.push(message));
    decoder.feed(bytes("data: 1\r"));
    decoder.feed(bytes("\ndata: 2\r\n\r"));
    // The CR that ended the chunk was the blank line: the event is out before the body goes on.
    assertEquals(messages, [{ data: "1\n2" }]);
    decoder.feed(bytes("\nid: a\0b\nid\nevent:\ndata\n\n"));
    decoder.end();
    assertEquals(messages, [{ data: "1\n2" }, { id: "", data: "" }]);
  });

  test("property: any SSE text under any chunking gives what eventsource-parser gives for the whole text", () => {
    const line = fc.constantFrom(
      "data: a",
      "data:b",
      "data:  c",
      "data",
      "data:",
      "event: x",
      "event:",
      "id: 1",
      "id:\0",
      "id",
      "retry: 5",
      "retry: x",
      ": comment",
      ":",
      "foo: bar",
      " data: z",
      "data: é😀",
      "",
    );
    const text = fc
      .array(fc.tuple(line, fc.constantFrom("\n", "\r\n", "\r", "")), { maxLength: 10 })
      .map((lines) => lines.map(([l, eol]) => l + eol).join(""));
    fc.assert(
      fc.property(text, fc.array(fc.nat(), { maxLength: 4 }), (sse, cuts) => {
        const all = bytes(sse);
        const at = [...new Set(cuts.map((cut) => cut % (all.length + 1)))].sort((a, b) => a - b);
        const messages: SSEMessage[] = [];
        const decoder = new SSEDecoder((message) => messages.push(message));
        let from = 0;
        for (const cut of [...at, all.length]) {
          decoder.feed(all.slice(from, cut));
          from = cut;
        }
        decoder.end();
        const expected: SSEMessage[] = [];
        let atEnd = false;
        const parser = createParser({
          onEvent: ({ data, event, id }) =>
            expected.push({
              data,
              ...(event !== undefined && { event }),
              ...(id !== undefined && { id }),
              ...(atEnd && { truncated: true as const }),
            }),
        });
        parser.feed(sse.endsWith("\r") ? `${sse}\n` : sse);
        atEnd = true;
        parser.feed("\n\n");
        assertEquals(messages, expected, JSON.stringify(sse));
      }),
      { numRuns: 2000 },
    );
  });
});
