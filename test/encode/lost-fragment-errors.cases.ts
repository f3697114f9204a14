// A call open when a provider payload was skipped may miss a fragment of its arguments: it ends as
// an `invalid-tool-call` of code `malformed-payload` and fails the turn (test/accumulate/
// skipped-payloads.cases.ts). Its error says which call and what may be lost, and each client
// protocol's error says that too, with the call's code: before, the call's message named neither,
// and every encoder told the client the provider had ended the response with an error (AG-UI's
// RUN_ERROR and OpenAI's error a `provider-error`), which no provider had said.
import {
  readAnthropicMessage,
  readOpenAIChatCompletion,
  readOpenAIResponse,
  streamToolCalls,
  type ToolCallEvent,
} from "../../src/index.ts";
import { AGENT_OPTIONS, ENCODERS, encodeAll } from "../support/encoders.ts";
import { assert, assertEquals, group } from "../support/harness.ts";
import { bytes, chatChunk, collect, fromChunks } from "../support/streams.ts";

const data = (payload: unknown): string => `data: ${JSON.stringify(payload)}\n\n`;
const fragment = (args: string, id?: string, name?: string): string =>
  data(
    chatChunk({
      tool_calls: [
        { index: 0, ...(id && { id, type: "function" }), function: { ...(name && { name }), arguments: args } },
      ],
    }),
  );

/** OpenAI Chat: `shell`'s call, whose second fragment came in a payload that is not JSON. */
const lostCall = (): Promise<ToolCallEvent[]> =>
  collect(
    streamToolCalls(
      fromChunks([
        bytes(
          [
            data(chatChunk({ content: "Running it. " })),
            fragment('{"cmd":"rm -rf /tmp/x', "call_1", "shell"),
            'data: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"/y"}}]}}]\n\n',
            fragment('"}'),
            data(chatChunk({}, "tool_calls")),
            "data: [DONE]\n\n",
          ].join(""),
        ),
      ]),
      { provider: "openai" },
    ),
  );

const MESSAGE = "A payload was skipped while tool call call_1 (shell) streamed: its arguments may miss a fragment.";
const GENERIC = ["The provider ended the response with an error.", "The provider reported that the response failed."];

group("a call that lost a fragment, as each client protocol's error", (test) => {
  test("the call's error names it and what may be lost, with the code malformed-payload", async () => {
    const events = await lostCall();
    const invalid = events.find((event) => event.type === "invalid-tool-call");
    assertEquals(invalid?.type === "invalid-tool-call" && invalid.error, {
      code: "malformed-payload",
      message: MESSAGE,
    });
    const finish = events.at(-1);
    assertEquals(finish?.type === "finish" && finish.reason, "error");
  });

  test("every encoder ends with that error, never a provider's; the protocols with a code carry malformed-payload", async () => {
    const events = await lostCall();
    for (const [name, make] of Object.entries(ENCODERS)) {
      const text = encodeAll(make(), events);
      assert(text.includes(MESSAGE), `${name} says which call lost what: ${text}`);
      for (const generic of GENERIC) assert(!text.includes(generic), `${name} says no provider error: ${text}`);
      assert(!text.includes('"provider-error"'), `${name}: no provider-error code: ${text}`);
      if (name === "openai" || name === "ag-ui" || name === "responses")
        assert(text.includes('"malformed-payload"'), `${name} carries the call's code: ${text}`);
    }
  });

  test("the readers of a whole answer give the same error", async () => {
    const chat = await readOpenAIChatCompletion(fromChunks(await lostCall()), { model: "m" });
    assertEquals(chat.type === "error" && [chat.error.code, chat.error.message], ["malformed-payload", MESSAGE]);
    const message = await readAnthropicMessage(fromChunks(await lostCall()), AGENT_OPTIONS.anthropic());
    assertEquals(message.type === "error" && message.error.message, MESSAGE);
    const { response } = await readOpenAIResponse(fromChunks(await lostCall()), AGENT_OPTIONS.responses());
    assertEquals(
      [response.status, response.error?.code, response.error?.message],
      ["failed", "malformed-payload", MESSAGE],
    );
  });
});
