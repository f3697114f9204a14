import {
  AnthropicDecoder,
  GeminiDecoder,
  normalizeFinishReason,
  OpenAIChatDecoder,
  OpenAIResponsesDecoder,
  PROVIDERS,
  providerKit,
  type Emit,
  type ProviderDecoder,
  type ProviderDelta,
  type SSEMessage,
} from "../../src/index.ts";
import { assert, assertEquals, group } from "../support/harness.ts";
import { accumulate, chatChunk } from "../support/streams.ts";

/** The finish deltas a new decoder emits for the given payloads (as messages of `event`, if given). */
function finishes(
  create: (emit: Emit) => ProviderDecoder,
  payloads: unknown[],
  event?: string,
): [string | null, string | undefined][] {
  const out: ProviderDelta[] = [];
  const decoder = create((delta) => out.push(delta));
  for (const payload of payloads) {
    const message: SSEMessage = { data: JSON.stringify(payload) };
    if (event !== undefined) message.event = event;
    decoder.decode(message);
  }
  decoder.end();
  return out.flatMap((delta) =>
    delta.type === "finish" ? [[delta.rawReason, delta.reason] as [string | null, string | undefined]] : [],
  );
}

group("Finish reasons: each stage normalizes its own provider's values", (test) => {
  test("OpenAI Chat: Chat and Anthropic-style values are mapped, another provider's are other", () => {
    const got = [
      "stop",
      "tool_calls",
      "length",
      "content_filter",
      "end_turn",
      "max_tokens",
      "STOP",
      "completed",
      "insufficient_system_resource",
      "a_new_reason",
    ].map((raw) => finishes((emit) => new OpenAIChatDecoder(emit), [chatChunk({}, raw)])[0]);
    assertEquals(got, [
      ["stop", "stop"],
      ["tool_calls", "tool-calls"],
      ["length", "length"],
      ["content_filter", "content-filter"],
      ["end_turn", "stop"],
      ["max_tokens", "length"],
      ["STOP", "other"],
      ["completed", "other"],
      ["insufficient_system_resource", "error"],
      ["a_new_reason", "other"],
    ]);
  });

  test("Anthropic, Gemini and Responses stages set the reason on their finish delta", () => {
    assertEquals(
      finishes(
        (emit) => new AnthropicDecoder(emit),
        [{ type: "message_delta", delta: { stop_reason: "tool_use" } }],
        "message_delta",
      ),
      [["tool_use", "tool-calls"]],
    );
    assertEquals(
      finishes(
        (emit) => new GeminiDecoder(emit),
        [{ candidates: [{ content: { parts: [{ text: "x" }] }, finishReason: "SAFETY" }] }],
      ),
      [["SAFETY", "content-filter"]],
    );
    const responses = (payload: unknown): [string | null, string | undefined][] =>
      finishes((emit) => new OpenAIResponsesDecoder(emit), [payload]);
    assertEquals(responses({ type: "response.completed", response: { status: "completed" } }), [["completed", "stop"]]);
    assertEquals(
      responses({
        type: "response.incomplete",
        response: { status: "incomplete", incomplete_details: { reason: "content_filter" } },
      }),
      [["content_filter", "content-filter"]],
    );
    assertEquals(responses({ type: "response.failed", response: { status: "failed" } }), [["failed", "error"]]);
  });

  test("GLM's and Gemini's documented reasons with a clear meaning are not other, the raw value kept", () => {
    // GLM (Zhipu, OpenAI-compatible), docs.bigmodel.cn API reference, choices[].finish_reason:
    // "sensitive" = blocked by the content-safety check, "network_error" = the model's inference failed.
    const glm = ["sensitive", "network_error"].map(
      (raw) => finishes((emit) => new OpenAIChatDecoder(emit), [chatChunk({}, raw)])[0],
    );
    assertEquals(glm, [
      ["sensitive", "content-filter"],
      ["network_error", "error"],
    ]);
    // @google/genai 3.3.0 dist/genai.d.ts `enum FinishReason` (googleapis/js-genai types), each
    // value's doc comment: filtered or blocked (IMAGE_PROHIBITED_CONTENT, IMAGE_RECITATION,
    // MODEL_ARMOR "blocked by Model Armor" on Vertex), failed (MALFORMED_RESPONSE "Finishes due to
    // malformed response", MISSING_THOUGHT_SIGNATURE "Request has at least one thought signature
    // missing", TOO_MANY_TOOL_CALLS "the server-side tool loop stopped before the model returned a
    // final answer", PUP_LIMITED_DISABLED "the user account is limited or disabled due to
    // Prohibited Use Policy (PUP) violations"), flagged or filtered (LANGUAGE "flagged for using an
    // unsupported language", ESCALATION "filtered by an escalation rule"), cut by the per-request
    // token limit, not complete (CONTINUATION); IMAGE_OTHER and NO_IMAGE say no more than other.
    const gemini: [string, string][] = [
      ["TOO_MANY_TOOL_CALLS", "error"],
      ["PUP_LIMITED_DISABLED", "error"],
      ["LANGUAGE", "content-filter"],
      ["ESCALATION", "content-filter"],
      ["CONTINUATION", "length"],
      ["IMAGE_PROHIBITED_CONTENT", "content-filter"],
      ["IMAGE_RECITATION", "content-filter"],
      ["MODEL_ARMOR", "content-filter"],
      ["MALFORMED_RESPONSE", "error"],
      ["MISSING_THOUGHT_SIGNATURE", "error"],
      ["IMAGE_OTHER", "other"],
      ["NO_IMAGE", "other"],
    ];
    for (const [raw, reason] of gemini) {
      const chunk = { candidates: [{ content: { parts: [{ text: "x" }] }, finishReason: raw }] };
      assertEquals(
        finishes((emit) => new GeminiDecoder(emit), [chunk]),
        [[raw, reason]],
        raw,
      );
      assertEquals(normalizeFinishReason(raw, false), reason, raw);
    }
  });

  test("normalizeFinishReason still knows every provider's values", () => {
    assertEquals(
      [
        normalizeFinishReason("STOP", false),
        normalizeFinishReason("completed", false),
        normalizeFinishReason("tool_use", false),
        normalizeFinishReason("eos", false),
        normalizeFinishReason("x", false),
      ],
      ["stop", "stop", "tool-calls", "stop", "other"],
    );
  });

  test("normalizeFinishReason knows every kit's table, a provider added to the registry included", () => {
    for (const provider of PROVIDERS)
      for (const [raw, reason] of Object.entries(providerKit(provider).finishReasons))
        assertEquals(normalizeFinishReason(raw, false), reason, `${provider}: ${raw}`);
    assertEquals(normalizeFinishReason("requires_action", true), "tool-calls");
    assertEquals(normalizeFinishReason("requires_continuation", false), "length");
  });
});

group("Finish reasons: the accumulator", (test) => {
  const call = (index: number): ProviderDelta => ({
    type: "tool-call-chunk",
    index,
    id: `c${index}`,
    name: "f",
    argumentsDelta: "{}",
  });

  test("a finish built by hand without reason is a normal stop, tool-calls when calls completed", async () => {
    const plain = (
      await accumulate([{ type: "text-delta", text: "x" }, { type: "finish", rawReason: "custom" }, { type: "done" }])
    ).at(-1);
    assert(plain?.type === "finish" && plain.reason === "stop" && plain.rawReason === "custom", "stop, raw kept");
    const withCall = (await accumulate([call(0), { type: "finish", rawReason: "custom" }, { type: "done" }])).at(-1);
    assert(withCall?.type === "finish" && withCall.reason === "tool-calls", "tool-calls");
  });

  test("the stage's reason wins: length stays length with a completed call, and no finish at all is other", async () => {
    const length = (
      await accumulate([call(0), { type: "finish", rawReason: "max_tokens", reason: "length" }, { type: "done" }])
    ).at(-1);
    assert(length?.type === "finish" && length.reason === "length" && length.toolCalls.length === 1, "length");
    const none = (await accumulate([{ type: "text-delta", text: "x" }, { type: "done" }])).at(-1);
    assert(none?.type === "finish" && none.reason === "other" && none.rawReason === null, "other");
    const noneWithCall = (await accumulate([call(0), { type: "done" }])).at(-1);
    assert(noneWithCall?.type === "finish" && noneWithCall.reason === "tool-calls", "tool-calls without a finish");
  });
});
