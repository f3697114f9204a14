// Gemini's Interactions API: the rules of its decoder and its next turn, on streams built from the
// docs' and the SDK's shapes (test/recordings/gemini-interactions/README.md says which).
import fc from "fast-check";
import {
  assistantMessage,
  providerKit,
  streamToolCalls,
  toolResultMessages,
  type FinishEvent,
  type RequestMessage,
  type ToolCallEvent,
} from "../../../src/index.ts";
import { allFixtures, summarize, type Fixture } from "../../support/fixtures.ts";
import { assert, assertEquals, group } from "../../support/harness.ts";
import { assertEventInvariants } from "../../support/invariants.ts";
import { bytes, collect, fromChunks } from "../../support/streams.ts";

/** A documented stream of test/recordings/gemini-interactions, always bundled. */
function documented(name: string): Fixture {
  const found = allFixtures.find((f) => f.provider === "gemini-interactions" && f.name === name);
  if (!found) throw new Error(`No documented stream gemini-interactions/${name}`);
  return found;
}

/** Interactions SSE: `event:` is each payload's `event_type`, as the API names them. */
const sse = (payloads: Record<string, unknown>[], done = true): string =>
  payloads.map((p) => `event: ${String(p["event_type"])}\ndata: ${JSON.stringify(p)}\n\n`).join("") +
  (done ? "event: done\ndata: [DONE]\n\n" : "");

async function run(body: string | Uint8Array, provider?: "gemini-interactions"): Promise<ToolCallEvent[]> {
  const data = typeof body === "string" ? bytes(body) : body;
  const events = await collect(streamToolCalls(fromChunks([data]), provider ? { provider } : {}));
  assertEventInvariants(events);
  return events;
}

const created = { event_type: "interaction.created", interaction: { id: "v1_t", status: "in_progress" } };
const completed = (status: string): Record<string, unknown> => ({
  event_type: "interaction.completed",
  interaction: { id: "v1_t", status, usage: { total_input_tokens: 3, total_output_tokens: 4 } },
});
const callStart = (index: number, id: string, extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  event_type: "step.start",
  index,
  step: { type: "function_call", id, name: "lookup", arguments: {}, ...extra },
});
const args = (index: number, fragment: string): Record<string, unknown> => ({
  event_type: "step.delta",
  index,
  delta: { type: "arguments_delta", arguments: fragment },
});
const stop = (index: number): Record<string, unknown> => ({ event_type: "step.stop", index });
const finishOf = (events: ToolCallEvent[]): FinishEvent => {
  const last = events.at(-1);
  assert(last?.type === "finish", `a finish, not ${last?.type}`);
  return last;
};

group("GeminiInteractionsDeltaStream rules", (test) => {
  test("a function_call step is a call by its id and index; requires_action is tool-calls, with usage", async () => {
    const events = await run(
      sse([created, callStart(3, "ktr5aysg"), args(3, '{"q":"tides"}'), stop(3), completed("requires_action")]),
      "gemini-interactions",
    );
    const finish = finishOf(events);
    assertEquals(finish.reason, "tool-calls");
    assertEquals(finish.rawReason, "requires_action");
    assertEquals(
      finish.toolCalls.map((c) => [c.index, c.id, c.name, c.arguments]),
      [[3, "ktr5aysg", "lookup", { q: "tides" }]],
    );
    assertEquals([finish.usage?.inputTokens, finish.usage?.outputTokens, finish.usage?.totalTokens], [3, 4, 7]);
    assert(!events.some((e) => e.type === "error"), "the final [DONE] is no error");
  });

  test("any cut of the arguments into arguments_delta fragments gives the same call (property)", async () => {
    const text = '{"location":"Oslo, Norway","days":[1,2],"unit":"c","note":"é \\"q\\""}';
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(fc.integer({ min: 1, max: text.length - 1 }), { maxLength: 12 }),
        async (cuts) => {
          const at = [0, ...cuts.sort((a, b) => a - b), text.length];
          const fragments = at.slice(1).map((end, i) => text.slice(at[i], end));
          const events = await run(
            sse([
              created,
              callStart(0, "c1"),
              ...fragments.map((f) => args(0, f)),
              stop(0),
              completed("requires_action"),
            ]),
            "gemini-interactions",
          );
          const [call] = finishOf(events).toolCalls;
          assertEquals([call?.rawArguments, call?.arguments], [text, JSON.parse(text)]);
        },
      ),
      { seed: 34, numRuns: 40 },
    );
  });

  test("the stream tells its protocol: without the provider option, the same events", async () => {
    for (const name of ["docs-function-call-with-google-search", "legacy-content-function-call"]) {
      const fixture = documented(name);
      assertEquals(await run(fixture.body), await run(fixture.body, "gemini-interactions"), name);
    }
  });

  test("a call whose arguments come whole (on the start, or in a function_call delta) is that object", async () => {
    const onStart = await run(
      sse([created, callStart(0, "c1", { arguments: { q: "x" } }), stop(0), completed("requires_action")]),
    );
    assertEquals(finishOf(onStart).toolCalls[0]?.arguments, { q: "x" });
    const inDelta = await run(
      sse([
        created,
        callStart(1, "c2", { arguments: { q: "x" } }),
        {
          event_type: "step.delta",
          index: 1,
          delta: { type: "function_call", id: "c2", name: "lookup", arguments: { q: "x" } },
        },
        stop(1),
        completed("requires_action"),
      ]),
    );
    assertEquals(
      finishOf(inDelta).toolCalls.map((c) => [c.id, c.rawArguments]),
      [["c2", '{"q":"x"}']],
    );
  });

  test("requires_action without a call the client can answer is not tool-calls", async () => {
    assertEquals(finishOf(await run(sse([created, completed("requires_action")]))).reason, "other");
  });

  test("statuses that ended at a limit are length; failed is error", async () => {
    for (const [status, reason] of [
      ["incomplete", "length"],
      ["requires_continuation", "length"],
      ["budget_exceeded", "length"],
      ["failed", "error"],
      ["cancelled", "other"],
    ]) {
      assertEquals(finishOf(await run(sse([created, completed(status!)]))).reason, reason, status);
    }
  });

  test("an error event mid-call: the half-received call is discarded, never a call to run", async () => {
    const events = await run(
      sse(
        [
          created,
          callStart(0, "c1"),
          args(0, '{"q":"ti'),
          { event_type: "error", error: { code: "gateway_timeout", message: "Deadline expired." } },
        ],
        false,
      ),
    );
    assert(!events.some((e) => e.type === "tool-call"), "no call");
    const last = events.at(-1);
    assert(last?.type === "abort", "abort");
    assertEquals(
      last.discarded.map((c) => c.id),
      ["c1"],
    );
    const error = events.find((e) => e.type === "error");
    assertEquals(error?.type === "error" ? error.error.code : undefined, "provider-error");
  });

  test("a body cut before interaction.completed ends with abort, the open call discarded", async () => {
    const events = await run(sse([created, callStart(0, "c1"), args(0, '{"q":"x"}')], false));
    const last = events.at(-1);
    assert(last?.type === "abort" && last.discarded.length === 1, "abort with the call discarded");
  });

  test("a call that started but got no arguments before the interaction failed or stopped at a limit is no call to run", async () => {
    for (const status of ["failed", "incomplete", "cancelled"]) {
      const events = await run(sse([created, callStart(0, "c1"), completed(status)]));
      assert(!events.some((e) => e.type === "tool-call"), `${status}: no call to run`);
      assertEquals(
        finishOf(events).invalidToolCalls.map((c) => [c.id, c.rawArguments]),
        [["c1", ""]],
        status,
      );
    }
    // Completed as it should be, the same call is one without arguments.
    assertEquals(
      finishOf(await run(sse([created, callStart(0, "c1"), completed("requires_action")]))).toolCalls.map((c) => [
        c.id,
        c.arguments,
      ]),
      [["c1", {}]],
    );
  });
});

group("Gemini Interactions next turn", (test) => {
  test("the turn's thought signature and each call's signature go back in the steps; results by call_id", async () => {
    const finish = finishOf(await run(documented("sdk-parallel-calls-chunked-arguments").body));
    assertEquals(finish.reasoning, "Two cities: one call each.");
    const steps = assistantMessage("gemini-interactions", finish);
    assertEquals(steps, [
      { type: "thought", signature: "EuYBCuMBARFNMg", summary: [{ type: "text", text: "Two cities: one call each." }] },
      { type: "model_output", content: [{ type: "text", text: "Checking both cities." }] },
      {
        type: "function_call",
        id: "call_oslo",
        name: "get_weather",
        arguments: { location: "Oslo, Norway", unit: "c" },
        signature: "c2lnLW9zbG8=",
      },
      {
        type: "function_call",
        id: "call_lima",
        name: "get_weather",
        arguments: { location: "Lima, Perú", unit: "c" },
        signature: "c2lnLWxpbWE=",
      },
    ]);
    const [oslo, lima] = finish.toolCalls;
    assertEquals(
      toolResultMessages("gemini-interactions", [
        { call: oslo!, output: { temperature: 4 } },
        { call: lima!, output: "timeout", isError: true },
      ]),
      [
        { type: "function_result", call_id: "call_oslo", name: "get_weather", result: { temperature: 4 } },
        { type: "function_result", call_id: "call_lima", name: "get_weather", result: "timeout", is_error: true },
      ],
    );
  });

  test("the request body replays the conversation as steps, the signatures included, with no previous_interaction_id", async () => {
    const finish = finishOf(await run(documented("sdk-parallel-calls-chunked-arguments").body));
    const messages: RequestMessage[] = [
      { role: "system", content: "Be brief." },
      { role: "user", content: "Weather in Oslo and Lima?" },
      {
        role: "assistant",
        content: finish.text,
        toolCalls: finish.toolCalls,
        reasoningParts: finish.reasoningParts,
      },
      { role: "tool", toolCallId: "call_oslo", content: '{"temperature":4}' },
      { role: "tool", toolCallId: "call_lima", content: "timeout", isError: true },
    ];
    const body = providerKit("gemini-interactions").requestBody({
      model: "models/gemini-3-flash-preview",
      messages,
      tools: [{ name: "get_weather", parameters: { type: "object" } }],
      toolChoice: { type: "tool", name: "get_weather" },
      maxTokens: 200,
      reasoning: { type: "on", effort: "low" },
      store: false,
    });
    assertEquals(body, {
      model: "gemini-3-flash-preview",
      input: [
        { type: "user_input", content: [{ type: "text", text: "Weather in Oslo and Lima?" }] },
        ...(assistantMessage("gemini-interactions", finish) as Record<string, unknown>[]),
        { type: "function_result", call_id: "call_oslo", name: "get_weather", result: '{"temperature":4}' },
        { type: "function_result", call_id: "call_lima", name: "get_weather", result: "timeout", is_error: true },
      ],
      stream: true,
      system_instruction: "Be brief.",
      tools: [{ type: "function", name: "get_weather", parameters: { type: "object" } }],
      store: false,
      generation_config: {
        tool_choice: { allowed_tools: { mode: "any", tools: ["get_weather"] } },
        max_output_tokens: 200,
        thinking_level: "low",
        thinking_summaries: "auto",
      },
    });
  });

  test("a result without a tool_call_id is invalid-request naming it (results correlate by call_id)", () => {
    let error: unknown;
    try {
      providerKit("gemini-interactions").requestBody({
        model: "m",
        messages: [{ role: "tool", name: "lookup", content: "x" }],
        tools: [],
      });
    } catch (caught) {
      error = caught;
    }
    assert(error instanceof Error && (error as { code?: string }).code === "invalid-request", String(error));
  });

  test("every documented stream's summary is its expected result", async () => {
    const fixtures = allFixtures.filter((f) => f.provider === "gemini-interactions");
    assert(fixtures.length >= 6, "the documented streams are bundled");
    for (const fixture of fixtures) assertEquals(summarize(await run(fixture.body)), fixture.expected, fixture.name);
  });
});
