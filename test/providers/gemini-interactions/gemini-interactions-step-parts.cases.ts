// Gemini Interactions' built-in tool steps carried back as `block` reasoning parts (how the
// Worker's Messages and Responses clients carry them): the Interactions request puts each in its
// place among the turn's thoughts, Anthropic's request and next turn leave another provider's
// block out, and the Messages encoder writes one as a thinking block whose signature its
// `signature` option gives (never as a block a Messages client cannot read). On the documented
// stream of test/recordings/gemini-interactions/docs-function-call-with-google-search.
import { readAnthropicMessage } from "../../../src/encode.ts";
import {
  assistantMessage,
  providerKit,
  streamToolCalls,
  type FinishEvent,
  type ReasoningPart,
  type RequestMessage,
  type ToolCallEvent,
} from "../../../src/index.ts";
import { allFixtures } from "../../support/fixtures.ts";
import { assertEquals, group } from "../../support/harness.ts";
import { collect, fromChunks } from "../../support/streams.ts";

const fixture = allFixtures.find(
  (f) => f.provider === "gemini-interactions" && f.name === "docs-function-call-with-google-search",
);

async function finishOf(): Promise<FinishEvent> {
  if (!fixture) throw new Error("No documented stream docs-function-call-with-google-search");
  const events = await collect(streamToolCalls(fromChunks([fixture.body]), { provider: "gemini-interactions" }));
  const last = events.at(-1);
  if (last?.type !== "finish")
    throw new Error(`The documented stream ended with ${last?.type ?? "nothing"}, not a finish`);
  return last as FinishEvent;
}

/** The turn as a client carries it back: the built-in call's steps as `block` parts before the thought, the call to run. */
async function carriedTurn(): Promise<Extract<RequestMessage, { role: "assistant" }>> {
  const finish = await finishOf();
  const search = finish.toolCalls.find((call) => call.providerExecuted)!;
  const meta = search.providerMetadata as { step: ReasoningPart & object; result: object };
  const blocks = [meta.step, meta.result].map((block) => ({ type: "block", block }) as ReasoningPart);
  const [call] = finish.toolCalls.filter((c) => !c.providerExecuted);
  return {
    role: "assistant",
    content: "",
    reasoningParts: [...blocks, ...(finish.reasoningParts ?? [])],
    toolCalls: [{ id: call!.id, name: call!.name, arguments: call!.arguments }],
  };
}

group("Gemini Interactions built-in steps carried as block parts", (test) => {
  test("the Interactions request sends each step in its place, as assistantMessage sends the turn it streamed", async () => {
    const turn = await carriedTurn();
    const body = providerKit("gemini-interactions").requestBody({
      model: "gemini-3-flash-preview",
      messages: [{ role: "user", content: "Weather on Elbrus?" }, turn],
      tools: [],
    });
    const expected = assistantMessage("gemini-interactions", await finishOf()) as Record<string, unknown>[];
    assertEquals((body["input"] as unknown[]).slice(1), expected);
    assertEquals(
      expected.map((step) => step["type"]),
      ["google_search_call", "google_search_result", "thought", "function_call"],
    );
  });

  test("Anthropic's request and next turn take only Anthropic's blocks (compaction, fallback): another provider's step is left out", async () => {
    const turn = await carriedTurn();
    const fallback: ReasoningPart = { type: "block", block: { type: "fallback" } };
    const body = providerKit("anthropic").requestBody({
      model: "claude-sonnet-4-5",
      messages: [
        { role: "user", content: "Weather on Elbrus?" },
        { ...turn, reasoningParts: [...(turn.reasoningParts ?? []), fallback] },
      ],
      tools: [],
    });
    const assistant = (body["messages"] as { content: { type: string }[] }[])[1]!;
    assertEquals(
      assistant.content.map((block) => block.type),
      ["thinking", "fallback", "tool_use"],
    );
    const finish = await finishOf();
    const parts = turn.reasoningParts ?? [];
    const message = assistantMessage("anthropic", { ...finish, reasoningParts: parts }) as {
      content: { type: string }[];
    };
    assertEquals(
      message.content.map((block) => block.type),
      ["thinking", "tool_use"],
    );
  });

  test("the Messages encoder writes another provider's block as a thinking block, its signature the option's", async () => {
    const block = { type: "google_search_call", id: "s1", arguments: { queries: ["tides"] } };
    const events: ToolCallEvent[] = [
      { type: "reasoning-part", part: { type: "block", block } },
      { type: "reasoning-part", part: { type: "block", block: { type: "fallback" } } },
      { type: "text-delta", text: "High at 6." },
      {
        type: "finish",
        reason: "stop",
        rawReason: "completed",
        toolCalls: [],
        invalidToolCalls: [],
        text: "High at 6.",
        reasoning: "",
      },
    ];
    const read = (signature?: (part: ReasoningPart) => string | undefined) =>
      readAnthropicMessage(fromChunks(events), { model: "m", ...(signature ? { signature } : {}) });
    const sealed = await read((part) => (part.type === "block" ? `sealed:${String(part.block["type"])}` : undefined));
    assertEquals(sealed.type === "message" ? sealed.message.content : undefined, [
      { type: "thinking", thinking: "", signature: "sealed:google_search_call" },
      { type: "fallback" },
      { type: "text", text: "High at 6." },
    ] as unknown);
    const plain = await read();
    assertEquals(plain.type === "message" ? plain.message.content[0] : undefined, {
      type: "thinking",
      thinking: "",
      signature: "",
    } as unknown);
  });

  test("the Interactions request leaves out the items of tools OpenAI ran, whose types look like steps", async () => {
    const openAI: ReasoningPart[] = [
      {
        type: "block",
        block: { type: "web_search_call", id: "ws_1", status: "completed", action: { type: "search" } },
      },
      { type: "block", block: { type: "file_search_call", id: "fs_1", status: "completed", queries: ["bolts"] } },
      { type: "block", block: { type: "tool_search_call", id: "tsc_1", status: "completed", arguments: {} } },
    ];
    const turn = await carriedTurn();
    const ownSteps = (turn.reasoningParts ?? []).filter((part) => part.type === "block").length;
    const body = providerKit("gemini-interactions").requestBody({
      model: "gemini-3-flash-preview",
      messages: [
        { role: "user", content: "Weather on Elbrus?" },
        { ...turn, reasoningParts: [...openAI, ...(turn.reasoningParts ?? [])] },
      ],
      tools: [],
    });
    const types = (body["input"] as { type: string }[]).map((step) => step.type);
    assertEquals(
      types.filter((type) => /^(web_search|file_search|tool_search)_call$/.test(type)),
      [],
    );
    assertEquals(types.filter((type) => type.startsWith("google_search_")).length, ownSteps);
  });
});
