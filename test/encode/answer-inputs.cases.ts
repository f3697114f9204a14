// The readers of a whole answer (readOpenAIChatCompletion, readAnthropicMessage, readOpenAIResponse)
// take the events of streamToolCalls as a ReadableStream (one event or a ready batch at a time), an
// async iterable or an iterable, all three alike, and give up the rest of either once the answer
// can only be an error. What is not the library's events (a Response, an SDK's stream of chunks,
// which streamToolCalls reads) is a TypeError saying what to do. Before, each read only a
// ReadableStream: an array or an async iterable was `getReader is not a function`, and nothing told
// an SDK's stream apart from the events.
import {
  type EncodableEvent,
  readAnthropicMessage,
  readOpenAIChatCompletion,
  readOpenAIResponse,
  type ToolCallEvent,
} from "../../src/index.ts";
import { AGENT_OPTIONS } from "../support/encoders.ts";
import { assert, assertEquals, group, rejection } from "../support/harness.ts";
import { collect, fromChunks } from "../support/streams.ts";

type Input = Parameters<typeof readOpenAIChatCompletion>[0];

/** Each reader, its result made comparable (ids and times are the options'). */
const READERS: readonly [string, (events: Input) => Promise<unknown>][] = [
  [
    "readOpenAIChatCompletion",
    (events) => readOpenAIChatCompletion(events, { model: "m", created: 1, generateId: () => "x" }),
  ],
  ["readAnthropicMessage", (events) => readAnthropicMessage(events, AGENT_OPTIONS.anthropic())],
  ["readOpenAIResponse", (events) => readOpenAIResponse(events, AGENT_OPTIONS.responses())],
];

const EVENTS: ToolCallEvent[] = [
  { type: "text-delta", text: "Checking. " },
  { type: "tool-call-start", index: 0, id: "call_1", name: "get_weather" },
  { type: "tool-call-delta", index: 0, id: "call_1", argumentsDelta: '{"city":"Paris"}', closed: true },
  {
    type: "tool-call",
    index: 0,
    id: "call_1",
    name: "get_weather",
    arguments: { city: "Paris" },
    rawArguments: '{"city":"Paris"}',
  },
  {
    type: "finish",
    reason: "tool-calls",
    rawReason: "tool_calls",
    toolCalls: [
      { index: 0, id: "call_1", name: "get_weather", arguments: { city: "Paris" }, rawArguments: '{"city":"Paris"}' },
    ],
    invalidToolCalls: [],
    text: "Checking. ",
    reasoning: "",
  },
];

async function* generate<T>(items: readonly T[], onReturn?: () => void): AsyncGenerator<T> {
  try {
    for (const item of items) yield item;
  } finally {
    onReturn?.();
  }
}

group("what the readers of a whole answer take", (test) => {
  test("a stream, an async iterable and an iterable of events, or of batches, give the same answer", async () => {
    for (const [name, read] of READERS) {
      const expected = await read(fromChunks(EVENTS));
      const batches: (readonly EncodableEvent[])[] = [EVENTS.slice(0, 2), EVENTS.slice(2)];
      for (const [how, input] of [
        ["an array", EVENTS],
        ["an async iterable", generate(EVENTS)],
        ["a stream of batches", fromChunks(batches)],
        ["an async iterable of batches", generate(batches)],
        ["an array of batches", batches],
      ] as const)
        assertEquals(await read(input as Input), expected, `${name} of ${how}`);
    }
  });

  test("an async iterable is given up once the answer can only be an error", async () => {
    for (const [name, read] of READERS) {
      let returned = false;
      let pulled = 0;
      const failing: ToolCallEvent[] = [
        {
          type: "error",
          error: { code: "provider-error", message: "The provider reported an error inside the stream." },
        },
        ...EVENTS,
      ];
      const counted = generate(failing, () => (returned = true));
      const input = {
        [Symbol.asyncIterator]: () => ({
          next: () => (pulled++, counted.next()),
          return: () => counted.return(undefined),
        }),
      };
      await read(input as Input);
      assert(returned && pulled < failing.length, `${name}: returned after ${pulled} of ${failing.length}`);
    }
  });

  test("a Response or an SDK's stream of chunks is a TypeError saying to pass it through streamToolCalls", async () => {
    const chunk = {
      id: "chatcmpl-1",
      object: "chat.completion.chunk",
      choices: [{ index: 0, delta: { content: "Hi" } }],
    };
    for (const [name, read] of READERS) {
      for (const [what, input] of [
        ["a Response", new Response("data: {}\n\n")],
        ["an SDK's stream", generate([chunk])],
        ["a stream of SDK chunks", fromChunks([chunk])],
      ] as const) {
        const error = await rejection(() => read(input as unknown as Input));
        assert(error instanceof TypeError, `${name} given ${what}: ${String(error)}`);
        assert(error.message.includes(name) && error.message.includes("streamToolCalls"), error.message);
      }
    }
  });

  test("the events of streamToolCalls read through any of them, collected first, give the same answer", async () => {
    const collected = await collect(fromChunks(EVENTS));
    for (const [name, read] of READERS) assertEquals(await read(collected), await read(fromChunks(EVENTS)), name);
  });
});
