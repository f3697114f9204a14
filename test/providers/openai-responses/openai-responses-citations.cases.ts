import fc from "fast-check";
import type { ResponseInputItem } from "openai/resources/responses/responses";
import { assistantMessage, providerKit, streamToolCalls, type ToolCallEvent } from "../../../src/index.ts";
import {
  OpenAIResponsesDeltaStream,
  ResponsesCitations,
  SSEDecoderStream,
  ToolCallAccumulatorStream,
} from "../../../src/openai-responses.ts";
import { assert, assertEquals, group } from "../../support/harness.ts";
import { asRequestMessage, assertEventInvariants, assertFinished } from "../../support/invariants.ts";
import { bytes, collect, fromChunks, openAISSE, splitAt } from "../../support/streams.ts";
import {
  ANNOTATIONS,
  CITED_TEXT,
  MIXED_REFUSAL,
  responsesCited,
  responsesCitedThenRefused,
} from "./citations-recordings.ts";

// OpenAI Responses annotations kept on the turn's text and sent back (the stream and its
// provenance: citations-recordings.ts).
const run = async (sse: string, cuts: number[] = []): Promise<ToolCallEvent[]> => {
  const data = bytes(sse);
  const events = await collect(streamToolCalls(fromChunks(splitAt(data, cuts)), { provider: "openai-responses" }));
  assertEventInvariants(events, true);
  return events;
};
const PART = { type: "block", block: { type: "text", text: CITED_TEXT, annotations: ANNOTATIONS, id: "msg_cite_1" } };
type Item = Record<string, unknown>;
/** The stream's events through `map` (each to none, one or more), numbered again. */
const reframed = (sse: string, map: (event: Item) => Item[]): string =>
  openAISSE(
    sse
      .split("\n\n")
      .flatMap((frame) => (frame.startsWith("data: ") ? map(JSON.parse(frame.slice(6)) as Item) : []))
      .map((event, sequence_number) => ({ ...event, sequence_number })),
    false,
  );
const cited = (finish: Extract<ToolCallEvent, { type: "finish" }>) =>
  (finish.reasoningParts ?? []).filter((part) => part.type === "block" && part.block["type"] === "text");

group("OpenAI Responses annotations (output_text annotations, response.output_text.annotation.added)", (test) => {
  test("an annotated output_text is kept as a text block part with its annotations and message id, at any split", async () => {
    for (const announcedOnly of [false, true]) {
      const sse = responsesCited(announcedOnly);
      await fc.assert(
        fc.asyncProperty(
          fc.uniqueArray(fc.integer({ min: 1, max: bytes(sse).length - 1 }), { maxLength: 6 }),
          async (cuts) => {
            const finish = assertFinished(await run(sse, cuts));
            assertEquals([finish.text, finish.reason], [CITED_TEXT, "stop"]);
            assertEquals(cited(finish), [PART], announcedOnly ? "from the .added events" : "from the done part");
          },
        ),
        { numRuns: 15 },
      );
    }
  });

  test("the done part's annotations win over those announced; without content_part.done, the item's done part keeps them", async () => {
    // Announced: the first alone; done: both.
    const fewer = reframed(responsesCited(), (event) =>
      event["type"] === "response.output_text.annotation.added" && event["annotation_index"] === 1 ? [] : [event],
    );
    assertEquals(cited(assertFinished(await run(fewer))), [PART], "the done part's two");
    const itemOnly = reframed(responsesCited(), (event) =>
      event["type"] === "response.content_part.done" ? [] : [event],
    );
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(fc.integer({ min: 1, max: bytes(itemOnly).length - 1 }), { maxLength: 6 }),
        async (cuts) => assertEquals(cited(assertFinished(await run(itemOnly, cuts))), [PART], "from output_item.done"),
      ),
      { numRuns: 10 },
    );
  });

  test("assistantMessage and the request kit send it back as its message item with the output_text's annotations", async () => {
    const finish = assertFinished(await run(responsesCited()));
    // The SDK's type of the item it takes back (ResponseOutputMessage): the next turn holds that literal.
    const expected: ResponseInputItem = {
      type: "message",
      id: "msg_cite_1",
      role: "assistant",
      status: "completed",
      content: [{ type: "output_text", text: CITED_TEXT, annotations: ANNOTATIONS }],
    };
    const items = assistantMessage("openai-responses", finish) as Record<string, unknown>[];
    assertEquals(items.at(-1), expected);
    assertEquals(items.filter((item) => item["type"] === "message").length, 1, "the text once, with its annotations");
    const body = providerKit("openai-responses").requestBody({
      model: "gpt-5",
      messages: [
        { role: "user", content: "When did Ruby 3.4 come out?" },
        asRequestMessage(finish),
        { role: "user", content: "Thanks." },
      ],
      tools: [],
    });
    assertEquals((body["input"] as unknown[]).slice(1, -1).at(-1), expected);
    // Without the turn's order, the text is found in place all the same.
    const unordered = assistantMessage("openai-responses", { ...finish, order: undefined }) as unknown[];
    assertEquals(unordered.at(-1), expected);
  });

  test("text around the annotated part goes back as plain messages, not inside it", async () => {
    const finish = assertFinished(await run(responsesCited()));
    const items = assistantMessage("openai-responses", {
      ...finish,
      text: `Before. ${CITED_TEXT} After.`,
      order: undefined,
    }) as Record<string, unknown>[];
    assertEquals(
      items.filter((item) => item["type"] === "message").map((item) => item["content"]),
      ["Before. ", [{ type: "output_text", text: CITED_TEXT, annotations: ANNOTATIONS }], " After."],
    );
  });

  test("the annotations count against maxToolCalls: past it the stream ends too-many-tool-calls", async () => {
    const events = await collect(
      streamToolCalls(fromChunks([bytes(responsesCited(true))]), { provider: "openai-responses", maxToolCalls: 1 }),
    );
    const error = events.find((event) => event.type === "error");
    // The annotations are what is past the limit (not the turn's two reasoning parts: the search, the cited text).
    assertEquals(error?.type === "error" ? [error.error.code, error.error.message.includes("annotations")] : [], [
      "too-many-tool-calls",
      true,
    ]);
    const last = events.at(-1);
    assert(last?.type === "abort" && last.reason === "limit-exceeded", "the stream aborts limit-exceeded");
    // Those of a done part that came without .added events count the same.
    const doneOnly = reframed(responsesCited(), (event) =>
      event["type"] === "response.output_text.annotation.added" ? [] : [event],
    );
    const fromDone = await collect(
      streamToolCalls(fromChunks([bytes(doneOnly)]), { provider: "openai-responses", maxToolCalls: 1 }),
    );
    const doneError = fromDone.find((event) => event.type === "error");
    assertEquals(
      doneError?.type === "error" ? [doneError.error.code, doneError.error.message.includes("annotations")] : [],
      ["too-many-tool-calls", true],
    );
    // Two fit a limit of 2 (counted apart from the calls).
    const fits = await collect(
      streamToolCalls(fromChunks([bytes(responsesCited(true))]), { provider: "openai-responses", maxToolCalls: 2 }),
    );
    assertEquals(fits.at(-1)?.type, "finish");
  });

  test("the stage keeps them with builtInCalls: ResponsesCitations, and not without it", async () => {
    const stage = async (options: ConstructorParameters<typeof OpenAIResponsesDeltaStream>[0]) =>
      assertFinished(
        await collect(
          fromChunks([bytes(responsesCited())])
            .pipeThrough(new SSEDecoderStream())
            .pipeThrough(new OpenAIResponsesDeltaStream(options))
            .pipeThrough(new ToolCallAccumulatorStream()),
        ),
      );
    assertEquals(cited(await stage({ builtInCalls: ResponsesCitations })), [PART]);
    assertEquals(cited(await stage({})), []);
  });
  test("a message item with an annotated part and a refusal, or two annotated parts, goes back as one item with its parts in order", async () => {
    // OpenAI refuses two input items of one id: the item goes back once, with each part where it came.
    const output_text = { type: "output_text", text: CITED_TEXT, annotations: ANNOTATIONS } as const;
    for (const [twice, second] of [
      [false, { type: "refusal", refusal: MIXED_REFUSAL }],
      [true, output_text],
    ] as const) {
      const sse = responsesCitedThenRefused(twice);
      const expected = {
        type: "message",
        id: "msg_cite_1",
        role: "assistant",
        status: "completed",
        content: [output_text, second],
      } satisfies ResponseInputItem;
      await fc.assert(
        fc.asyncProperty(
          fc.uniqueArray(fc.integer({ min: 1, max: bytes(sse).length - 1 }), { maxLength: 6 }),
          async (cuts) => {
            const finish = assertFinished(await run(sse, cuts));
            const items = assistantMessage("openai-responses", finish) as Record<string, unknown>[];
            assertEquals(items, [expected], `twice: ${twice}`);
            // Without the turn's order (reasoning parts first, then the text): one item all the same.
            const unordered = assistantMessage("openai-responses", { ...finish, order: undefined }) as Item[];
            assertEquals(
              unordered.map((item) => [item["id"], (item["content"] as Item[]).length]),
              [["msg_cite_1", 2]],
            );
          },
        ),
        { numRuns: 10 },
      );
    }
  });
  test("a part of a message already sent, with other items between, goes back without the id", () => {
    const refusal = { type: "field", field: "refusal", value: MIXED_REFUSAL, id: "msg_cite_1" } as const;
    const items = assistantMessage("openai-responses", {
      text: `${CITED_TEXT} Plain.`,
      toolCalls: [],
      reasoningParts: [PART as never, refusal],
      order: [
        { type: "text", length: CITED_TEXT.length },
        { type: "reasoning-parts", count: 1 },
        { type: "text", length: 7 },
        { type: "reasoning-parts", count: 1 },
      ],
    }) as Item[];
    assertEquals(
      items.map((item) => item["id"]),
      ["msg_cite_1", undefined, undefined],
    );
    assertEquals(items[2], {
      type: "message",
      role: "assistant",
      content: [{ type: "refusal", refusal: MIXED_REFUSAL }],
    });
  });
});

group("OpenAI Responses custom calls of undeclared tools (xAI's x_search sub-tools) and client tool search", (test) => {
  // A client-run tool search loads tools the request did not declare (a tool_search_output's
  // `tools`, which may hold a top-level custom tool, so its call has no `namespace`): the model then
  // calls one, and the call is the application's, never one the server ran.
  const custom = (tools: unknown[]) =>
    openAISSE([
      { type: "response.created", response: { id: "resp_1", status: "in_progress", output: [], tools } },
      {
        type: "response.output_item.added",
        output_index: 0,
        item: { id: "ctc_1", type: "custom_tool_call", call_id: "call_1", name: "apply_patch", input: "" },
      },
      { type: "response.custom_tool_call_input.delta", output_index: 0, item_id: "ctc_1", delta: "*** Begin" },
      {
        type: "response.output_item.done",
        output_index: 0,
        item: { id: "ctc_1", type: "custom_tool_call", call_id: "call_1", name: "apply_patch", input: "*** Begin" },
      },
      { type: "response.completed", response: { id: "resp_1", status: "completed", output: [] } },
    ]);
  test("a custom call of a tool a client tool search loaded is the application's; without tool search, the server's", async () => {
    const loaded = assertFinished(await run(custom([{ type: "tool_search", execution: "client" }])));
    assertEquals(
      [loaded.reason, loaded.toolCalls.map((call) => [call.id, call.name, call.rawArguments])],
      ["tool-calls", [["call_1", "apply_patch", "*** Begin"]]],
    );
    const ran = assertFinished(await run(custom([{ type: "x_search" }])));
    assertEquals(
      [ran.reason, ran.toolCalls.map((call) => [call.id, call.providerExecuted])],
      ["stop", [["ctc_1", true]]],
    );
  });

  test("the same answered whole (no `stream`): its `tools` tell the server's custom call from the application's", async () => {
    const item = { id: "ctc_1", type: "custom_tool_call", call_id: "call_1", name: "apply_patch", input: "*** Begin" };
    const whole = async (tools: unknown[]) => {
      const body = JSON.stringify({ id: "resp_1", object: "response", status: "completed", tools, output: [item] });
      const response = new Response(body, { headers: { "content-type": "application/json" } });
      return assertFinished(await collect(streamToolCalls(response, { provider: "openai-responses" })));
    };
    const ran = await whole([{ type: "x_search" }]);
    assertEquals(
      [ran.reason, ran.toolCalls.map((call) => [call.id, call.providerExecuted])],
      ["stop", [["ctc_1", true]]],
    );
    const loaded = await whole([{ type: "tool_search", execution: "client" }]);
    assertEquals(
      [loaded.reason, loaded.toolCalls.map((call) => [call.id, call.providerExecuted])],
      ["tool-calls", [["call_1", undefined]]],
    );
  });
});
