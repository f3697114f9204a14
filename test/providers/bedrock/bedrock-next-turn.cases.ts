// Bedrock Converse's next turn (issue 34). Converse refuses an assistant message whose `content` is
// empty ("The content field in the Message object at messages.N is empty. Add a ContentBlock object
// to the content field and try again.") and a text block of white space alone ("The text field in
// the ContentBlock object ... is blank"), as Anthropic refuses an empty assistant message: neither
// the library's next turn nor the request kit (which the Worker's Bedrock upstream builds its body
// with) sends one. The streams are built from the ConverseStream API reference's event shapes.
import {
  assistantMessage,
  providerKit,
  runToolLoop,
  streamToolCalls,
  type RequestMessage,
} from "../../../src/index.ts";
import { converse } from "../../support/event-stream.ts";
import { assert, assertEquals, group } from "../../support/harness.ts";
import { assertFinished } from "../../support/invariants.ts";
import { collect, fromChunks } from "../../support/streams.ts";

type Event = [string, Record<string, unknown>];
const text = (index: number, value: string): Event => [
  "contentBlockDelta",
  { contentBlockIndex: index, delta: { text: value } },
];
const stop = (index: number): Event => ["contentBlockStop", { contentBlockIndex: index }];
const end = (stopReason: string): Event[] => [
  ["messageStop", { stopReason }],
  ["metadata", { usage: { inputTokens: 9, outputTokens: 4, totalTokens: 13 }, metrics: { latencyMs: 120 } }],
];
const toolUse = (index: number, toolUseId: string, name: string, input: string, type?: string): Event[] => [
  [
    "contentBlockStart",
    { contentBlockIndex: index, start: { toolUse: { toolUseId, name, ...(type ? { type } : {}) } } },
  ],
  ["contentBlockDelta", { contentBlockIndex: index, delta: { toolUse: { input } } }],
  stop(index),
];

/** A turn whose only call the provider ran (a server tool), then an answer of white space. */
const serverOnly = converse([
  ["messageStart", { role: "assistant" }],
  ...toolUse(0, "srvtool_1", "web_search", '{"query":"tides"}', "server_tool_use"),
  text(1, "\n\n"),
  stop(1),
  ...end("end_turn"),
]);
/** White space before a call the application runs. */
const blankThenCall = converse([
  ["messageStart", { role: "assistant" }],
  text(0, " \n"),
  stop(0),
  ...toolUse(1, "tooluse_1", "get_weather", '{"city":"Brest"}'),
  ...end("tool_use"),
]);

const finishOf = async (body: Uint8Array) =>
  assertFinished(await collect(streamToolCalls(fromChunks([body]), { provider: "bedrock" })));

group("Bedrock Converse: the next turn never has an empty assistant message", (test) => {
  test("a turn of a server call and white space gives no assistant message", async () => {
    const finish = await finishOf(serverOnly);
    assertEquals([finish.reason, finish.text, finish.toolCalls.length], ["stop", "\n\n", 1]);
    assertEquals(assistantMessage("bedrock", finish), []);
  });

  test("white space before a call is no text block: the call goes back alone", async () => {
    const finish = await finishOf(blankThenCall);
    assertEquals(assistantMessage("bedrock", finish), {
      role: "assistant",
      content: [{ toolUse: { toolUseId: "tooluse_1", name: "get_weather", input: { city: "Brest" } } }],
    });
  });

  test("the tool loop adds no empty assistant message after a turn with nothing to send back", async () => {
    const events = await collect(
      runToolLoop({
        provider: "bedrock",
        messages: [{ role: "user", content: [{ text: "Tides in Brest?" }] }],
        tools: { get_weather: { run: () => "sunny" } },
        call: () => Promise.resolve(new Response(serverOnly)),
      }),
    );
    const last = events.at(-1);
    assert(last?.type === "loop-finish", "the loop finished");
    assertEquals(last.messages, [{ role: "user", content: [{ text: "Tides in Brest?" }] }]);
  });

  test("the tool loop sends the turn back in the order it streamed: text, the call, more text", async () => {
    const interleaved = converse([
      ["messageStart", { role: "assistant" }],
      text(0, "Checking."),
      stop(0),
      ...toolUse(1, "tooluse_1", "get_weather", '{"city":"Brest"}'),
      text(2, "One moment."),
      stop(2),
      ...end("tool_use"),
    ]);
    const answer = converse([["messageStart", { role: "assistant" }], text(0, "Sunny."), stop(0), ...end("end_turn")]);
    const requests: unknown[][] = [];
    await collect(
      runToolLoop({
        provider: "bedrock",
        messages: [{ role: "user", content: [{ text: "Weather in Brest?" }] }],
        tools: { get_weather: { run: () => "sunny" } },
        call: ({ messages }) => {
          requests.push([...messages]);
          return Promise.resolve(new Response(requests.length === 1 ? interleaved : answer));
        },
      }),
    );
    assertEquals(requests[1]![1], {
      role: "assistant",
      content: [
        { text: "Checking." },
        { toolUse: { toolUseId: "tooluse_1", name: "get_weather", input: { city: "Brest" } } },
        { text: "One moment." },
      ],
    });
  });

  test("the request kit drops an assistant turn left empty: no text, white space, or reasoning a model other than Claude takes none of", () => {
    const empty: RequestMessage[] = [
      { role: "assistant", content: "", toolCalls: [] },
      { role: "assistant", content: " \n ", toolCalls: [] },
      {
        role: "assistant",
        content: "",
        toolCalls: [],
        reasoningParts: [{ type: "signed", text: "Thinking.", signature: "sig" }],
      },
    ];
    for (const assistant of empty) {
      const body = providerKit("bedrock").requestBody({
        model: "us.amazon.nova-pro-v1:0",
        messages: [
          { role: "user", content: "Tides in Brest?" },
          assistant,
          { role: "user", content: "And in Roscoff?" },
        ],
        tools: [],
      });
      assertEquals(body["messages"], [
        { role: "user", content: [{ text: "Tides in Brest?" }, { text: "And in Roscoff?" }] },
      ]);
    }
  });

  test("the request kit sends a call after white space without a blank text block", () => {
    const body = providerKit("bedrock").requestBody({
      model: "us.amazon.nova-pro-v1:0",
      messages: [
        { role: "user", content: "Weather in Brest?" },
        {
          role: "assistant",
          content: "  ",
          toolCalls: [{ id: "t1", name: "get_weather", arguments: { city: "Brest" } }],
        },
        { role: "tool", toolCallId: "t1", content: "sunny" },
      ],
      tools: [{ name: "get_weather", parameters: { type: "object" } }],
    });
    const messages = body["messages"] as { role: string; content: Record<string, unknown>[] }[];
    assertEquals(messages[1], {
      role: "assistant",
      content: [{ toolUse: { toolUseId: "t1", name: "get_weather", input: { city: "Brest" } } }],
    });
    for (const message of messages) assert(message.content.length > 0, `${message.role}: content`);
  });
});
