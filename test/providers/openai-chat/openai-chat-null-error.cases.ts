// Microsoft Foundry Local puts `"error": null` on every healthy Chat Completions chunk
// (microsoft/foundry-local issue 273, its chunks as reported there: `"error": null` beside
// `choices`, `usage: null`). A null `error` is no error: since a provider's error fails the turn
// whenever it comes, reading it as one failed every answer of such a server (finish `error`,
// runToolLoop `aborted` before running the call).
import { runToolLoop } from "../../../src/index.ts";
import { assertEquals, group } from "../../support/harness.ts";
import { bytes, chatChunk, collect, openAISSE, runOpenAIChain } from "../../support/streams.ts";

const healthy = (chunk: unknown): unknown => ({ ...(chunk as object), error: null });
const BODY = openAISSE([
  healthy(chatChunk({ role: "assistant", content: "On it." })),
  healthy(chatChunk({ tool_calls: [{ index: 0, id: "call_1", function: { name: "get_time", arguments: "{}" } }] })),
  healthy(chatChunk({}, "tool_calls")),
]);

group("OpenAI Chat: a null error beside the choices", (test) => {
  test("is no error: the text, the call, a finish of reason tool-calls", async () => {
    const events = await runOpenAIChain([bytes(BODY)]);
    const finish = events.at(-1);
    assertEquals(
      [events.map((event) => event.type), finish?.type === "finish" && finish.reason],
      [["text-delta", "tool-call-start", "tool-call-delta", "tool-call", "finish"], "tool-calls"],
    );
  });

  test("runToolLoop runs the call and asks the model again", async () => {
    const bodies = [BODY, openAISSE([healthy(chatChunk({ content: "Noon." }, "stop"))])];
    const events = await collect(
      runToolLoop({
        provider: "openai",
        messages: [{ role: "user", content: "Time?" }],
        tools: { get_time: { run: () => "noon" } },
        call: () => Promise.resolve(new Response(bodies.shift())),
      }),
    );
    const last = events.at(-1);
    assertEquals(last?.type === "loop-finish" && [last.reason, last.steps], ["no-tool-calls", 2]);
  });
});
