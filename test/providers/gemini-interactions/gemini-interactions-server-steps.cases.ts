// Gemini's Interactions API: the steps of its built-in tools (google_search, code_execution,
// url_context, MCP servers, ...) as providerExecuted calls with their results, sent back in the
// next turn; and a call whose signature comes after its start. On streams built from the docs' and
// @google/genai's shapes (test/recordings/gemini-interactions/README.md says which).
import {
  assistantMessage,
  providerKit,
  streamToolCalls,
  type FinishEvent,
  type ToolCallEvent,
} from "../../../src/index.ts";
import { allFixtures, type Fixture } from "../../support/fixtures.ts";
import { assert, assertEquals, group } from "../../support/harness.ts";
import { assertEventInvariants } from "../../support/invariants.ts";
import { bytes, collect, fromChunks } from "../../support/streams.ts";

function documented(name: string): Fixture {
  const found = allFixtures.find((f) => f.provider === "gemini-interactions" && f.name === name);
  if (!found) throw new Error(`No documented stream gemini-interactions/${name}`);
  return found;
}

const sse = (payloads: Record<string, unknown>[], done = true): string =>
  payloads.map((p) => `event: ${String(p["event_type"])}\ndata: ${JSON.stringify(p)}\n\n`).join("") +
  (done ? "event: done\ndata: [DONE]\n\n" : "");

async function run(body: string | Uint8Array): Promise<ToolCallEvent[]> {
  const data = typeof body === "string" ? bytes(body) : body;
  const events = await collect(streamToolCalls(fromChunks([data]), { provider: "gemini-interactions" }));
  assertEventInvariants(events);
  return events;
}

const created = { event_type: "interaction.created", interaction: { id: "v1_t", status: "in_progress" } };
const completed = (status: string): Record<string, unknown> => ({
  event_type: "interaction.completed",
  interaction: { id: "v1_t", status },
});
const stop = (index: number): Record<string, unknown> => ({ event_type: "step.stop", index });
const finishOf = (events: ToolCallEvent[]): FinishEvent => {
  const last = events.at(-1);
  assert(last?.type === "finish", `a finish, not ${last?.type}`);
  return last;
};

group("Gemini Interactions built-in tool steps", (test) => {
  test("server-side tool steps are the provider's to run: a providerExecuted call, and completed is stop", async () => {
    const events = await run(
      sse([
        created,
        { event_type: "step.start", index: 0, step: { id: "s1", type: "google_search_call" } },
        {
          event_type: "step.delta",
          index: 0,
          delta: { type: "google_search_call", arguments: { queries: ["tides"] } },
        },
        stop(0),
        { event_type: "step.start", index: 1, step: { type: "model_output" } },
        { event_type: "step.delta", index: 1, delta: { type: "text", text: "High at 6." } },
        stop(1),
        completed("completed"),
      ]),
    );
    const finish = finishOf(events);
    assertEquals([finish.reason, finish.text], ["stop", "High at 6."]);
    assertEquals(
      finish.toolCalls.map((c) => [c.id, c.name, c.arguments, c.providerExecuted]),
      [["s1", "google_search", { queries: ["tides"] }, true]],
    );
  });

  test("a result step streamed in deltas: its array appended and its object merged, delta by delta", async () => {
    const page = (n: number) => ({ url: `https://example.test/${n}`, status: "success" });
    const deltas = Array.from({ length: 40 }, (_, n) => ({
      event_type: "step.delta",
      index: 1,
      delta: { type: "url_context_result", result: [page(n)], meta: { [`k${n % 3}`]: n } },
    }));
    const events = await run(
      sse([
        created,
        { event_type: "step.start", index: 0, step: { id: "u1", type: "url_context_call", arguments: { urls: [] } } },
        stop(0),
        { event_type: "step.start", index: 1, step: { type: "url_context_result", call_id: "u1", result: [] } },
        ...deltas,
        stop(1),
        completed("completed"),
      ]),
    );
    const result = finishOf(events).toolCalls[0]?.providerMetadata?.["result"];
    assertEquals(result, {
      type: "url_context_result",
      call_id: "u1",
      result: Array.from({ length: 40 }, (_, n) => page(n)),
      meta: { k0: 39, k1: 37, k2: 38 },
    });
  });

  test("each built-in tool's call step is a providerExecuted call completed with its result step, never one to run", async () => {
    const events = await run(documented("sdk-server-tool-steps").body);
    const finish = finishOf(events);
    assertEquals([finish.reason, finish.rawReason], ["stop", "completed"]);
    assert(
      finish.toolCalls.every((c) => c.providerExecuted),
      "every call is the provider's",
    );
    const [code, url, mcp] = finish.toolCalls;
    assertEquals(code?.providerMetadata, {
      signature: "Y29kZS1jYWxs",
      step: {
        type: "code_execution_call",
        id: "ce_7q2",
        arguments: { code: "print(2 ** 10)", language: "python" },
        signature: "Y29kZS1jYWxs",
      },
      result: {
        type: "code_execution_result",
        call_id: "ce_7q2",
        result: "1024\n",
        is_error: false,
        signature: "Y29kZS1yZXN1bHQ=",
      },
    });
    assertEquals(url?.providerMetadata?.["result"], {
      type: "url_context_result",
      call_id: "uc_3kd",
      result: [{ url: "https://ai.google.dev/gemini-api/docs/interactions", status: "success" }],
    });
    assertEquals(
      [mcp?.name, (mcp?.providerMetadata?.["result"] as { result?: unknown } | undefined)?.result],
      ["get_ticket", "T-7 is open"],
    );
    // Each call completes at its result, before the text that follows.
    const order = events.filter((e) => e.type === "tool-call" || e.type === "text-delta").map((e) => e.type);
    assertEquals(order, ["tool-call", "tool-call", "tool-call", "text-delta"]);
  });

  test("a server call beside a function call: tool-calls, and only the function call is the client's", async () => {
    const finish = finishOf(await run(documented("docs-function-call-with-google-search").body));
    assertEquals(finish.reason, "tool-calls");
    assertEquals(
      finish.toolCalls.map((c) => [c.id, c.name, c.providerExecuted === true]),
      [
        ["mkutnkgn", "google_search", true],
        ["ktr5aysg", "get_weather", false],
      ],
    );
  });

  test("a server call whose result never came completes at the interaction's end; cut off before it, it is discarded", async () => {
    const call = { event_type: "step.start", index: 0, step: { id: "s1", type: "google_search_call", arguments: {} } };
    const ended = finishOf(await run(sse([created, call, stop(0), completed("completed")])));
    assertEquals(
      ended.toolCalls.map((c) => [c.id, c.providerExecuted, c.providerMetadata?.["result"]]),
      [["s1", true, undefined]],
    );
    const cut = await run(sse([created, call, stop(0)], false));
    const last = cut.at(-1);
    assert(last?.type === "abort" && last.discarded.length === 1, "abort with the server call discarded");
  });

  test("a call signed after its start (a thought_signature delta of its step) carries that signature", async () => {
    const finish = finishOf(await run(documented("sdk-calls-signed-after-start").body));
    assertEquals(
      finish.toolCalls.map((c) => [c.id, c.arguments, c.providerMetadata?.["signature"]]),
      [
        ["fc_a1", { location: "Paris" }, "c2lnLWZjX2Ex"],
        ["fc_b2", { location: "Oslo" }, "c2lnLWZjX2Iy"],
      ],
    );
    assertEquals(finish.reasoningParts ?? [], []);
  });

  test("the built-in tools' steps go back as they streamed (a result step that streamed without its result with an empty one), before the rest of the turn; the client answers only its own calls", async () => {
    const finish = finishOf(await run(documented("docs-function-call-with-google-search").body));
    const steps = assistantMessage("gemini-interactions", finish) as Record<string, unknown>[];
    assertEquals(
      steps.map((s) => (s as { type: string }).type),
      ["google_search_call", "google_search_result", "thought", "function_call"],
    );
    assertEquals(steps[0], {
      type: "google_search_call",
      id: "mkutnkgn",
      signature: "...",
      arguments: { queries: ["largest mountain in Europe"] },
    });
    // The docs' result step has no `result`, which @google/genai's GoogleSearchResultStep requires.
    assertEquals(steps[1], {
      type: "google_search_result",
      call_id: "mkutnkgn",
      signature: "...",
      is_error: false,
      result: [],
    });
    const body = providerKit("gemini-interactions").requestBody({
      model: "gemini-3-flash-preview",
      messages: [
        { role: "user", content: "Weather at the top of Europe's largest mountain?" },
        { role: "assistant", content: "", toolCalls: finish.toolCalls, reasoningParts: finish.reasoningParts },
        { role: "tool", toolCallId: "ktr5aysg", content: "-12 C" },
      ],
      tools: [{ name: "get_weather", parameters: { type: "object" } }],
    });
    assertEquals(
      (body["input"] as { type: string }[]).map((s) => s.type),
      ["user_input", "google_search_call", "google_search_result", "thought", "function_call", "function_result"],
    );
  });
});
