// Anthropic's `compaction` block and OpenAI Responses' `compaction` item share their `type`: a
// conversation that changes provider (the Worker's upstream switched, an application's own) holds
// one provider's compaction among the turn's kept blocks, which the other provider refuses (a
// Responses item has no `content`, an Anthropic block no `id`). Each provider's next turn and
// request kit send back its own compaction alone.
//
// Provenance: the two shapes are the SDKs' (@anthropic-ai/sdk's BetaCompactionBlock, with its
// `content`; openai-node's ResponseCompactionItem, with its `id`); the values are made up.
import { assistantMessage, type FinishEvent, providerKit, type RequestMessage } from "../../src/index.ts";
import { assertEquals, group } from "../support/harness.ts";

const ANTHROPIC = { type: "compaction", content: "Earlier: planning a trip.", encrypted_content: "ENC-A" };
const OPENAI = { id: "cmp_1", type: "compaction", encrypted_content: "ENC-O" };

const turn: FinishEvent = {
  type: "finish",
  reason: "stop",
  rawReason: "end_turn",
  text: "Done.",
  reasoning: "",
  toolCalls: [],
  invalidToolCalls: [],
  reasoningParts: [
    { type: "block", block: ANTHROPIC },
    { type: "block", block: OPENAI },
  ],
};
const messages: RequestMessage[] = [
  { role: "user", content: "Plan it." },
  { role: "assistant", content: "Done.", toolCalls: [], reasoningParts: turn.reasoningParts },
  { role: "user", content: "And the hotel?" },
];

/** Every compaction the entries hold, at any depth of their first level of content. */
const compactions = (entries: unknown): unknown[] =>
  (Array.isArray(entries) ? entries : [entries]).flatMap((entry) => {
    const record = entry as Record<string, unknown>;
    if (record["type"] === "compaction") return [record];
    return Array.isArray(record["content"]) ? compactions(record["content"]) : [];
  });

group("A compaction block of another provider", (test) => {
  test("OpenAI Responses sends back its own compaction item, never Anthropic's block", () => {
    assertEquals(compactions(assistantMessage("openai-responses", turn)), [OPENAI]);
    const body = providerKit("openai-responses").requestBody({ model: "gpt-5", messages, tools: [] });
    assertEquals(compactions(body["input"]), [OPENAI]);
  });

  test("Anthropic sends back its own compaction block, never OpenAI's item", () => {
    assertEquals(compactions(assistantMessage("anthropic", turn)), [ANTHROPIC]);
    const body = providerKit("anthropic").requestBody({ model: "claude-x", messages, tools: [] });
    assertEquals(compactions(body["messages"]), [ANTHROPIC]);
  });
});
