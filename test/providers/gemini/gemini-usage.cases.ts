// Gemini's thinking tokens in the usage. A thinking model (Gemini 2.5 and 3.x, Gemma 4) reports the
// tokens it spent thinking as `usageMetadata.thoughtsTokenCount`, apart from the answer's
// `candidatesTokenCount`; both are output (billed at the output rate) and both are in
// `totalTokenCount` (prompt 7 + candidates 2 + thoughts 94 = 103 in gemini-3.7-flash's recording).
// The usage's `reasoningTokens` is the thoughts, and its `outputTokens` every output token, thoughts
// included, as OpenAI's `completion_tokens` holds its `reasoning_tokens` and Anthropic's
// `output_tokens` its thinking: input + output is the total again. Before, the thoughts were left
// in `raw`, and the output said 2 of the 96 tokens the turn was billed for.
//
// Provenance: BUILT BY HAND in the shapes of vercel/ai's recordings of gemini-3.7-flash
// (packages/google/src/__fixtures__/google-stream-gemini-3.7-flash-2026-09-16.chunks.txt at
// 1eea90a: a text chunk, then an empty text part with its `thoughtSignature` and the finish) and of
// gemma-4 (gemma-4-output-usage.chunks.txt at 69f1ee4: thought parts whose chunks carry
// `thoughtsTokenCount` and no `candidatesTokenCount` yet), with this project's own text and counts.
// The Interactions API counts the same way (`total_thought_tokens` apart from `total_output_tokens`:
// 53 + 15 + 65 = 133 in vercel/ai's interactions tool-call-step1 recording, whose usage the
// Interactions case below repeats). A server tool's prompt (Google Search, code execution, URL
// context) is counted apart from the prompt too (`toolUsePromptTokenCount`, the Interactions API's
// `total_tool_use_tokens`) and is in the total: it is input (as LiteLLM, any-llm and rust-genai read it).
import fc from "fast-check";
import { streamToolCalls, type ToolCallEvent } from "../../../src/index.ts";
import { assertEquals, group } from "../../support/harness.ts";
import { assertEventInvariants, assertFinished } from "../../support/invariants.ts";
import { bytes, collect, fromChunks, splitAt } from "../../support/streams.ts";

const sse = (chunks: object[]): string => chunks.map((chunk) => `data: ${JSON.stringify(chunk)}\r\n\r\n`).join("");
const meta = (candidates: number | undefined, thoughts: number, prompt = 7) => ({
  promptTokenCount: prompt,
  ...(candidates === undefined ? {} : { candidatesTokenCount: candidates }),
  totalTokenCount: prompt + (candidates ?? 0) + thoughts,
  promptTokensDetails: [{ modality: "TEXT", tokenCount: prompt }],
  thoughtsTokenCount: thoughts,
  serviceTier: "standard",
});

/** Thought parts first (Gemma 4 streams them with the thoughts' count alone), then the answer. */
const BODY = sse([
  {
    candidates: [
      { content: { parts: [{ text: "The user wants the harbour.", thought: true }], role: "model" }, index: 0 },
    ],
    usageMetadata: meta(undefined, 40),
    modelVersion: "gemini-3.7-flash",
  },
  {
    candidates: [{ content: { parts: [{ text: "Roscoff." }], role: "model" }, index: 0 }],
    usageMetadata: meta(2, 94),
    modelVersion: "gemini-3.7-flash",
  },
  {
    candidates: [
      {
        content: { parts: [{ text: "", thoughtSignature: "c2lnbmF0dXJl" }], role: "model" },
        finishReason: "STOP",
        index: 0,
      },
    ],
    usageMetadata: meta(2, 94),
    modelVersion: "gemini-3.7-flash",
  },
]);

async function run(chunks: Uint8Array[]): Promise<ToolCallEvent[]> {
  const events = await collect(streamToolCalls(fromChunks(chunks), { provider: "gemini" }));
  assertEventInvariants(events);
  return events;
}

group("Gemini: the thinking tokens in the usage (thoughtsTokenCount)", (test) => {
  test("the thoughts are the usage's reasoningTokens and part of its outputTokens: input + output is the total", async () => {
    const events = await run([bytes(BODY)]);
    const finish = assertFinished(events);
    const { raw, ...usage } = finish.usage!;
    assertEquals(usage, { inputTokens: 7, outputTokens: 96, totalTokens: 103, reasoningTokens: 94 });
    assertEquals([finish.text, finish.reasoning], ["Roscoff.", "The user wants the harbour."]);
    // The first report, before any candidate token: the thoughts so far are its output.
    const first = events.find((event) => event.type === "usage");
    assertEquals(first?.type === "usage" && [first.usage.outputTokens, first.usage.reasoningTokens], [40, 40]);
  });

  test("a response without thoughts keeps the candidates' count as its output", async () => {
    const body = sse([
      {
        candidates: [{ content: { parts: [{ text: "Roscoff." }], role: "model" }, finishReason: "STOP", index: 0 }],
        usageMetadata: { promptTokenCount: 7, candidatesTokenCount: 2, totalTokenCount: 9 },
      },
    ]);
    const { raw, ...usage } = assertFinished(await run([bytes(body)])).usage!;
    assertEquals(usage, { inputTokens: 7, outputTokens: 2, totalTokens: 9 });
  });

  test("without totalTokenCount, the total is input + output with the thoughts in it", async () => {
    const { totalTokenCount, ...noTotal } = meta(2, 94);
    const { totalTokenCount: _, ...thinking } = meta(undefined, 40);
    const body = sse([
      { candidates: [{ content: { parts: [{ text: "…", thought: true }] }, index: 0 }], usageMetadata: thinking },
      {
        candidates: [{ content: { parts: [{ text: "Roscoff." }] }, finishReason: "STOP", index: 0 }],
        usageMetadata: noTotal,
      },
    ]);
    const events = await run([bytes(body)]);
    const first = events.find((event) => event.type === "usage");
    const reports = [first?.type === "usage" ? first.usage : undefined, assertFinished(events).usage];
    const counts = reports.map((usage) => [usage?.inputTokens, usage?.outputTokens, usage?.totalTokens]);
    assertEquals(counts, [
      [7, 40, 47],
      [7, 96, 103],
    ]);
  });

  test("the Interactions API: total_thought_tokens is reasoning and output, total_cached_tokens the cache read", async () => {
    const body = [
      { interaction: { id: "v1_a", status: "in_progress", object: "interaction" }, event_type: "interaction.created" },
      { index: 0, step: { type: "text" }, event_type: "step.start" },
      { index: 0, delta: { type: "text", text: "Roscoff." }, event_type: "step.delta" },
      { index: 0, event_type: "step.stop" },
      {
        interaction: {
          id: "v1_a",
          status: "completed",
          object: "interaction",
          usage: {
            total_tokens: 133,
            total_input_tokens: 53,
            total_cached_tokens: 20,
            total_output_tokens: 15,
            total_tool_use_tokens: 0,
            total_thought_tokens: 65,
          },
        },
        event_type: "interaction.completed",
      },
    ]
      .map((event) => `event: ${event.event_type}\ndata: ${JSON.stringify(event)}\n\n`)
      .join("");
    const events = await collect(streamToolCalls(fromChunks([bytes(body)]), { provider: "gemini-interactions" }));
    const { raw, ...usage } = assertFinished(events).usage!;
    assertEquals(usage, {
      inputTokens: 53,
      outputTokens: 80,
      totalTokens: 133,
      cacheReadTokens: 20,
      reasoningTokens: 65,
    });
  });

  test("the Interactions API without total_tokens: the total is input + output, thoughts included", async () => {
    const usage = { total_input_tokens: 53, total_output_tokens: 15, total_thought_tokens: 65 };
    const body = [
      { interaction: { id: "v1_a", status: "in_progress" }, event_type: "interaction.created" },
      { interaction: { id: "v1_a", status: "completed", usage }, event_type: "interaction.completed" },
    ]
      .map((event) => `event: ${event.event_type}\ndata: ${JSON.stringify(event)}\n\n`)
      .join("");
    const events = await collect(streamToolCalls(fromChunks([bytes(body)]), { provider: "gemini-interactions" }));
    const { raw, ...counts } = assertFinished(events).usage!;
    assertEquals(counts, { inputTokens: 53, outputTokens: 80, totalTokens: 133, reasoningTokens: 65 });
  });

  test("a server tool's prompt (toolUsePromptTokenCount, apart from the prompt's count, in the total) is input", async () => {
    // mozilla-ai/any-llm#1367's live gemini-3-flash-preview code-execution request: 80 prompt, 237
    // tool-use prompt, 173 candidates and 60 thought tokens of a total of 550.
    const usageMetadata = {
      promptTokenCount: 80,
      candidatesTokenCount: 173,
      toolUsePromptTokenCount: 237,
      thoughtsTokenCount: 60,
      totalTokenCount: 550,
    };
    const body = sse([
      { candidates: [{ content: { parts: [{ text: "120" }] }, finishReason: "STOP", index: 0 }], usageMetadata },
    ]);
    const { raw, ...usage } = assertFinished(await run([bytes(body)])).usage!;
    assertEquals(usage, { inputTokens: 317, outputTokens: 233, totalTokens: 550, reasoningTokens: 60 });
    const { totalTokenCount, ...noTotal } = usageMetadata;
    const cut = sse([
      { candidates: [{ content: { parts: [{ text: "120" }] }, finishReason: "STOP" }], usageMetadata: noTotal },
    ]);
    assertEquals(assertFinished(await run([bytes(cut)])).usage?.totalTokens, 550);
    // The Interactions API's total_tool_use_tokens, apart from total_input_tokens as vercel/ai's
    // recording of a Google Search interaction counts them (20 + 500 + 300 + 80 = 900).
    const interaction = {
      id: "v1_s",
      status: "completed",
      usage: {
        total_tokens: 900,
        total_input_tokens: 20,
        total_output_tokens: 500,
        total_tool_use_tokens: 300,
        total_thought_tokens: 80,
      },
    };
    const steps = `event: interaction.completed\ndata: ${JSON.stringify({ interaction, event_type: "interaction.completed" })}\n\n`;
    const events = await collect(streamToolCalls(fromChunks([bytes(steps)]), { provider: "gemini-interactions" }));
    const { raw: _, ...counts } = assertFinished(events).usage!;
    assertEquals(counts, { inputTokens: 320, outputTokens: 580, totalTokens: 900, reasoningTokens: 80 });
  });

  test("a server tool's prompt count that is no finite number is left out, and a total that is none is the sum", async () => {
    // As readUsage reads every other count: only a finite number counts (JSON's 1e400 parses as
    // Infinity, "237" is text), and a total the provider did not give as one is input + output.
    const usageOf = async (usageMetadata: object, apart = "") => {
      const chunk = { candidates: [{ content: { parts: [{ text: "120" }] }, finishReason: "STOP" }], usageMetadata };
      const body = sse([chunk]).replace('"APART"', apart);
      const { raw, ...usage } = assertFinished(await run([bytes(body)])).usage!;
      return usage;
    };
    const counts = { promptTokenCount: 80, candidatesTokenCount: 173, thoughtsTokenCount: 60 };
    for (const apart of ["1e400", '"237"', "true"])
      assertEquals(await usageOf({ ...counts, toolUsePromptTokenCount: "APART", totalTokenCount: 313 }, apart), {
        inputTokens: 80,
        outputTokens: 233,
        totalTokens: 313,
        reasoningTokens: 60,
      });
    assertEquals(await usageOf({ ...counts, toolUsePromptTokenCount: 237, totalTokenCount: null }), {
      inputTokens: 317,
      outputTokens: 233,
      totalTokens: 550,
      reasoningTokens: 60,
    });
    const interaction = {
      id: "v1_s",
      status: "completed",
      usage: { total_tokens: null, total_input_tokens: 20, total_output_tokens: 500, total_tool_use_tokens: 300 },
    };
    const steps = `event: interaction.completed\ndata: ${JSON.stringify({ interaction, event_type: "interaction.completed" })}\n\n`;
    const events = await collect(streamToolCalls(fromChunks([bytes(steps)]), { provider: "gemini-interactions" }));
    const { raw: _, ...usage } = assertFinished(events).usage!;
    assertEquals(usage, { inputTokens: 320, outputTokens: 500, totalTokens: 820 });
  });

  test("any split of the bytes gives the same events", async () => {
    const data = bytes(BODY);
    const whole = await run([data]);
    await fc.assert(
      fc.asyncProperty(fc.array(fc.integer({ min: 1, max: data.length - 1 }), { maxLength: 30 }), async (cuts) => {
        assertEquals(await run(splitAt(data, cuts)), whole);
      }),
      { seed: 2026, numRuns: 12 },
    );
  });
});
