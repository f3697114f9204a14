// Cohere v2 takes an assistant message's citations back: cohere-ai 8.1.0's `AssistantMessage` has
// `citations?: Citation[]` beside `content`, `toolPlan` and `toolCalls` (serialized as `citations`, each
// `{ start, end, text, sources, content_index, type }`). Before, the citations of a streamed answer
// (`citation-start`) reached the finish as cited text parts but went back neither in
// `assistantMessage("cohere", ...)` nor in the request kit's body (the Worker's next turn): the next
// turn lost which sources grounded the text it repeats.
// Provenance: BUILT BY HAND in the SDK's types (cohere-ai 8.1.0 `api/types/AssistantMessage.d.ts`,
// `Citation.d.ts`, `serialization/types/Citation.js`), not a recording.
import { assistantMessage, providerKit, streamToolCalls, type ToolCallEvent } from "../../../src/index.ts";
import { assertEquals, group } from "../../support/harness.ts";
import { assertEventInvariants } from "../../support/invariants.ts";
import { bytes, collect, fromChunks } from "../../support/streams.ts";

const TEXT = "Emperor penguins live in Antarctica.";
const SOURCE = { type: "document", id: "doc:0", document: { id: "doc:0", title: "Penguins" } };

const block = (index: number, type: string, text: string) => [
  { type: "content-start", index, delta: { message: { content: { type, [type]: "" } } } },
  { type: "content-delta", index, delta: { message: { content: { [type]: text } } } },
  { type: "content-end", index },
];
const cite = (content_index: number, cited: string) => ({
  type: "citation-start",
  index: 0,
  delta: {
    message: {
      citations: {
        start: TEXT.indexOf(cited),
        end: TEXT.indexOf(cited) + cited.length,
        text: cited,
        sources: [SOURCE],
        content_index,
        type: "TEXT_CONTENT",
      },
    },
  },
});
const end = { type: "message-end", delta: { finish_reason: "COMPLETE" } };

const finishOf = async (events: readonly Record<string, unknown>[]) => {
  const sse = bytes(events.map((e) => `event: ${String(e["type"])}\ndata: ${JSON.stringify(e)}\n\n`).join(""));
  const out: ToolCallEvent[] = await collect(streamToolCalls(fromChunks([sse]), { provider: "cohere" }));
  assertEventInvariants(out);
  const finish = out.find((event) => event.type === "finish");
  if (finish?.type !== "finish") throw new Error("no finish");
  return finish;
};

/** The wire's citation of `cited` in TEXT, as Cohere sent it (`content_index` when the content is an array). */
const wire = (cited: string, contentIndex?: number) => ({
  start: TEXT.indexOf(cited),
  end: TEXT.indexOf(cited) + cited.length,
  text: cited,
  sources: [SOURCE],
  type: "TEXT_CONTENT",
  ...(contentIndex === undefined ? {} : { content_index: contentIndex }),
});

group("Cohere citations on the next turn", (test) => {
  test("assistantMessage sends a cited answer's citations back beside its text", async () => {
    const finish = await finishOf([...block(0, "text", TEXT), cite(0, "Emperor penguins"), cite(0, "Antarctica"), end]);
    assertEquals(assistantMessage("cohere", finish), {
      role: "assistant",
      content: TEXT,
      citations: [wire("Emperor penguins"), wire("Antarctica")],
    });
  });

  test("after thinking, the citations name the text item of the content", async () => {
    const finish = await finishOf([
      ...block(0, "thinking", "Penguins, then."),
      ...block(1, "text", TEXT),
      cite(1, "Antarctica"),
      end,
    ]);
    assertEquals(assistantMessage("cohere", finish), {
      role: "assistant",
      content: [
        { type: "thinking", thinking: "Penguins, then." },
        { type: "text", text: TEXT },
      ],
      citations: [wire("Antarctica", 1)],
    });
  });

  test("the request kit sends them as assistantMessage does (the Worker's next turn)", async () => {
    const finish = await finishOf([...block(0, "text", TEXT), cite(0, "Antarctica"), end]);
    const body = providerKit("cohere").requestBody({
      model: "command-a-03-2025",
      tools: [],
      messages: [
        { role: "user", content: "Where do emperor penguins live?" },
        {
          role: "assistant",
          content: finish.text,
          reasoning: finish.reasoning,
          toolCalls: finish.toolCalls,
          ...(finish.reasoningParts && { reasoningParts: finish.reasoningParts }),
        },
      ],
    });
    const sent = (body["messages"] as Record<string, unknown>[])[1];
    assertEquals(sent?.["citations"], [wire("Antarctica")]);
    assertEquals(sent, assistantMessage("cohere", finish));
  });

  test("an answer without citations goes back as before, with none", async () => {
    const finish = await finishOf([...block(0, "text", TEXT), end]);
    assertEquals(assistantMessage("cohere", finish), { role: "assistant", content: TEXT });
  });
});
