// OpenAI Responses' message `phase` (`commentary` before calls, `final_answer`), which gpt-5.3-codex
// and later models send on their message items and need back ("dropping it can degrade
// performance", openai-node 6's ResponseOutputMessage.phase). A recorded gpt-5.x turn (reasoning,
// a commentary message, a call: ../shared/fixtures/openai-responses/text-then-function-call.sse)
// through the main entry keeps it; the next turn (assistantMessage, the request kit) sends the
// message back with it, and OpenAIResponsesEncoderStream writes it on the message item, as
// openai-node reads it. Two messages back to back (the recording with a final_answer message for its
// call, test/support/message-phases.ts) stay two message items, each with its phase, however the
// bytes came, and two messages of the next turn; the other encoders do not see the phases.
import fc from "fast-check";
import OpenAI from "openai";
import type { ResponseInputItem } from "openai/resources/responses/responses";
import { describe, expect, it } from "vitest";
import {
  assistantMessage,
  OpenAIResponsesEncoderStream,
  providerKit,
  streamToolCalls,
  type ToolCallEvent,
} from "../../src/index.ts";
import { streamToolCalls as subpathStreamToolCalls } from "../../src/openai-responses.ts";
import { AGENT_OPTIONS, ENCODERS, encodeAll } from "../support/encoders.ts";
import { backToBackMessages, FINAL_TEXT, messagePhases } from "../support/message-phases.ts";
import { recording, recordingsAvailable } from "../support/fixtures.ts";
import { asRequestMessage, assertFinished } from "../support/invariants.ts";
import { phaseOf } from "../../src/shared/values.ts";
import { bytes, collect, fromChunks, splitAt } from "../support/streams.ts";

const TEXT = "I’ll check the capital lookup tool for “PotatoLand.”";
const PHASE = { type: "block", block: { type: "phase", phase: "commentary" } };

const turn = async (): Promise<ToolCallEvent[]> =>
  collect(
    streamToolCalls(fromChunks([recording("openai-responses", "text-then-function-call").body]), {
      provider: "openai-responses",
    }),
  );

describe.skipIf(!recordingsAvailable)("OpenAI Responses message phase", () => {
  it("the main entry keeps a message's phase as a block part before its text; the subpath's streamToolCalls does not", async () => {
    const finish = assertFinished(await turn());
    expect(finish.text).toBe(TEXT);
    expect(finish.reasoningParts?.filter((part) => part.type === "block")).toEqual([PHASE]);
    // Reasoning, text, calls: the turn has no `order` (its parts came before its text).
    expect(finish.order).toBeUndefined();
    const lean = assertFinished(
      await collect(
        subpathStreamToolCalls(fromChunks([recording("openai-responses", "text-then-function-call").body])),
      ),
    );
    expect(lean.reasoningParts?.some((part) => part.type === "block")).toBe(false);
  });

  it("assistantMessage and the request kit send the message back with its phase", async () => {
    const finish = assertFinished(await turn());
    // openai-node's type of the item it takes back (EasyInputMessage, with `phase`).
    const expected: ResponseInputItem = { type: "message", role: "assistant", content: TEXT, phase: "commentary" };
    const items = assistantMessage("openai-responses", finish) as Record<string, unknown>[];
    expect(items.filter((item) => item["type"] === "message")).toEqual([expected]);
    const body = providerKit("openai-responses").requestBody({
      model: "gpt-5.5",
      messages: [{ role: "user", content: "Capital of PotatoLand?" }, asRequestMessage(finish)],
      tools: [],
    });
    const { type: _, ...easy } = expected;
    expect((body["input"] as Record<string, unknown>[]).filter((item) => item["role"] === "assistant")).toEqual([easy]);
  });

  it("in a turn of several messages, each goes back with the phase of the block before it", async () => {
    const finish = assertFinished(await turn());
    const call = finish.toolCalls[0]!;
    const final = { type: "block" as const, block: { type: "phase", phase: "final_answer" } };
    const items = assistantMessage("openai-responses", {
      ...finish,
      text: `${TEXT}Spudville.`,
      reasoningParts: [PHASE as typeof final, final],
      order: [
        { type: "reasoning-parts", count: 1 },
        { type: "text", length: TEXT.length },
        { type: "tool-call", index: call.index ?? 0 },
        { type: "reasoning-parts", count: 1 },
        { type: "text", length: "Spudville.".length },
      ],
    }) as Record<string, unknown>[];
    expect(items.map((item) => [item["type"], item["phase"]])).toEqual([
      ["message", "commentary"],
      ["function_call", undefined],
      ["message", "final_answer"],
    ]);
  });

  it("OpenAIResponsesEncoderStream writes it on the message item (added, done, completed), as openai-node reads it", async () => {
    const events = await turn();
    const body = () =>
      new Response(fromChunks(events).pipeThrough(new OpenAIResponsesEncoderStream(AGENT_OPTIONS.responses())), {
        headers: { "content-type": "text/event-stream" },
      });
    const client = new OpenAI({
      apiKey: "t",
      baseURL: "http://127.0.0.1:9/v1",
      maxRetries: 0,
      fetch: async () => body(),
    });
    const seen = await messagePhases(await client.responses.create({ model: "m", input: "hi", stream: true }));
    expect(seen).toEqual([
      ["response.output_item.added", "commentary"],
      ["response.output_item.done", "commentary"],
      ["commentary"],
    ]);
    // Text of no phase (another provider's) opens a message without one.
    const plain = events.filter((event) => !(event.type === "reasoning-part" && event.part.type === "block"));
    const final = await new OpenAI({
      apiKey: "t",
      baseURL: "http://127.0.0.1:9/v1",
      maxRetries: 0,
      fetch: async () =>
        new Response(fromChunks(plain).pipeThrough(new OpenAIResponsesEncoderStream(AGENT_OPTIONS.responses()))),
    }).responses
      .stream({ model: "m", input: "hi" })
      .finalResponse();
    expect(final.output.some((item) => item.type === "message" && "phase" in item)).toBe(false);
  });
});

describe.skipIf(!recordingsAvailable)(
  "two OpenAI Responses messages back to back (commentary, then final_answer)",
  () => {
    const body = () => bytes(backToBackMessages(recording("openai-responses", "text-then-function-call").text));
    const events = (chunks: Uint8Array[]) =>
      collect(streamToolCalls(fromChunks(chunks), { provider: "openai-responses" }));
    /** What openai-node reads of the encoder's stream: each message's phase and text. */
    const read = async (turn: ToolCallEvent[]) => {
      const stream = new Response(
        fromChunks(turn).pipeThrough(new OpenAIResponsesEncoderStream(AGENT_OPTIONS.responses())),
      );
      const client = new OpenAI({
        apiKey: "t",
        baseURL: "http://127.0.0.1:9/v1",
        maxRetries: 0,
        fetch: async () => stream,
      });
      const seen: unknown[] = [];
      const phases = await messagePhases(
        (async function* () {
          for await (const event of await client.responses.create({ model: "m", input: "hi", stream: true })) {
            if (event.type === "response.output_text.done") seen.push(event.text);
            yield event;
          }
        })(),
      );
      return { phases, texts: seen };
    };

    it("OpenAIResponsesEncoderStream writes them as two message items, each with its phase and its text, however the bytes came", async () => {
      const expected = {
        phases: [
          ["response.output_item.added", "commentary"],
          ["response.output_item.done", "commentary"],
          ["response.output_item.added", "final_answer"],
          ["response.output_item.done", "final_answer"],
          ["commentary", "final_answer"],
        ],
        texts: [TEXT, FINAL_TEXT],
      };
      expect(await read(await events([body()]))).toEqual(expected);
      await fc.assert(
        fc.asyncProperty(fc.array(fc.integer({ min: 1, max: body().length - 1 }), { maxLength: 40 }), async (cuts) => {
          expect(await read(await events(splitAt(body(), cuts)))).toEqual(expected);
        }),
        { seed: 51, numRuns: 12 },
      );
    });

    it("the next turn sends them back as two messages, each with its phase", async () => {
      const finish = assertFinished(await events([body()]));
      expect(finish.text).toBe(TEXT + FINAL_TEXT);
      expect((assistantMessage("openai-responses", finish) as Record<string, unknown>[]).slice(1)).toEqual([
        { type: "message", role: "assistant", content: TEXT, phase: "commentary" },
        { type: "message", role: "assistant", content: FINAL_TEXT, phase: "final_answer" },
      ]);
    });

    it("the other protocols' encoders write what they write of the same text without the phases", async () => {
      const turn = await events([body()]);
      const unphased = turn.filter((event) => !(event.type === "reasoning-part" && phaseOf(event.part) !== undefined));
      expect(unphased.length).toBe(turn.length - 2);
      for (const protocol of ["openai", "ui", "ag-ui", "anthropic"] as const)
        expect(encodeAll(ENCODERS[protocol](), turn), protocol).toBe(encodeAll(ENCODERS[protocol](), unphased));
    });
  },
);
