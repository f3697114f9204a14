import fc from "fast-check";
import {
  assistantMessage,
  GeminiDeltaStream,
  providerKit,
  SSEDecoderStream,
  streamToolCalls,
  ToolCallStreamError,
  type Provider,
  type ToolCallEvent,
} from "../../../src/index.ts";
import { summarize } from "../../support/fixtures.ts";
import { assert, assertEquals, group } from "../../support/harness.ts";
import { assertEventInvariants } from "../../support/invariants.ts";
import { combined, type Part, serverParts } from "./server-parts-recordings.ts";
import { bytes, collect, fromChunks, splitAt } from "../../support/streams.ts";

async function run(provider: Provider, sse: string, maxArgumentsLength?: number): Promise<ToolCallEvent[]> {
  const events = await collect(streamToolCalls(fromChunks([bytes(sse)]), { provider, maxArgumentsLength }));
  assertEventInvariants(events, provider === "anthropic");
  return events;
}

const types = (events: ToolCallEvent[]): string[] => events.map((e) => e.type);

/** Gemini SSE: one `data:` line per GenerateContentResponse, CRLF framed as the API sends it. */
const gemini = (...payloads: unknown[]): string => payloads.map((p) => `data: ${JSON.stringify(p)}\r\n\r\n`).join("");
const parts = (list: unknown[], extra: Record<string, unknown> = {}): unknown => ({
  candidates: [{ content: { role: "model", parts: list }, ...extra }],
});

/** The raw arguments of one Vertex streamed call (`name` + `willContinue`, these `partialArgs`, an empty closing part). */
async function streamedArguments(partialArgs: Record<string, unknown>[]): Promise<string> {
  const events = await run(
    "gemini",
    gemini(
      parts([{ functionCall: { name: "f", willContinue: true } }]),
      parts([{ functionCall: { partialArgs, willContinue: true } }]),
      parts([{ functionCall: {} }], { finishReason: "STOP" }),
    ),
  );
  const call = events.find((e) => e.type === "tool-call");
  assert(call?.type === "tool-call", "tool-call");
  return call.rawArguments;
}

group("GeminiDeltaStream rules", (test) => {
  test("calls across chunks get consecutive indexes and no id", async () => {
    const events = await run(
      "gemini",
      gemini(
        parts([{ functionCall: { name: "a", args: { x: 1 } } }, { functionCall: { name: "b", args: {} } }]),
        parts([{ functionCall: { name: "c" } }], { finishReason: "STOP" }),
      ),
    );
    assertEquals(
      events.filter((e) => e.type === "tool-call").map((e) => [(e as { index: number }).index, (e as { id: null }).id]),
      [
        [0, null],
        [1, null],
        [2, null],
      ],
    );
    const final = events.at(-1);
    assert(
      final?.type === "finish" && final.reason === "tool-calls" && final.rawReason === "STOP",
      "STOP with calls is tool-calls",
    );
  });

  test("the thoughtSignature is kept on the call", async () => {
    const events = await run(
      "gemini",
      gemini(parts([{ functionCall: { name: "a", args: {} }, thoughtSignature: "c2ln" }], { finishReason: "STOP" })),
    );
    const call = events.find((e) => e.type === "tool-call");
    assertEquals(call?.type === "tool-call" ? call.providerMetadata : undefined, { thoughtSignature: "c2ln" });
  });

  test("a thoughtSignature on a part that is no call (an empty text at the end) goes back on the text part", async () => {
    // Gemini 3 signs a turn without calls in its last part; streamed, that part is often an empty
    // text (vercel/ai issue 18073). Left out, the next turn loses the model's reasoning context.
    const events = await run(
      "gemini",
      gemini(parts([{ text: "4" }]), parts([{ text: "", thoughtSignature: "c2ln" }], { finishReason: "STOP" })),
    );
    const finish = events.at(-1);
    assert(finish?.type === "finish", "the turn finished");
    assertEquals(finish.reasoningParts, [{ type: "signed", text: "", signature: "c2ln" }]);
    assertEquals(assistantMessage("gemini", finish), {
      role: "model",
      parts: [{ text: "4", thoughtSignature: "c2ln" }],
    });
  });

  test("a turn with no part to send back (MALFORMED_FUNCTION_CALL) gives no model content", async () => {
    // Gemini refuses a content whose parts are empty (400 "contents.parts must not be empty"); a
    // call Gemini could not form streams no part at all, only its finish reason.
    const events = await run(
      "gemini",
      gemini({ candidates: [{ content: { role: "model" }, finishReason: "MALFORMED_FUNCTION_CALL" }] }),
    );
    const finish = events.at(-1);
    assert(finish?.type === "finish", "the turn finished");
    assertEquals(assistantMessage("gemini", finish), []);
  });

  test("thought parts are reasoning, other text is text", async () => {
    const events = await run(
      "gemini",
      gemini(parts([{ text: "plan", thought: true }, { text: "answer" }], { finishReason: "STOP" })),
    );
    assertEquals(types(events), ["reasoning-delta", "text-delta", "finish"]);
  });

  test("a blocked prompt is a refusal: a content-filter finish, no provider error", async () => {
    const events = await run(
      "gemini",
      gemini({ promptFeedback: { blockReason: "OTHER" }, usageMetadata: { promptTokenCount: 5, totalTokenCount: 5 } }),
    );
    assertEquals(types(events), ["usage", "finish"]);
    const final = events.at(-1);
    assert(
      final?.type === "finish" && final.reason === "content-filter" && final.rawReason === "OTHER",
      "content-filter",
    );
    assertEquals(final.refusal, undefined);
    // Vertex's `blockReasonMessage` (@google/genai's GenerateContentResponsePromptFeedback) is the
    // refusal's explanation, as a candidate's `finishMessage` is.
    const said = "The prompt was blocked due to prohibited content.";
    const explained = await run(
      "gemini",
      gemini({ promptFeedback: { blockReason: "SAFETY", blockReasonMessage: said } }),
    );
    assertEquals(types(explained), ["finish"]);
    const refused = explained.at(-1);
    assert(refused?.type === "finish" && refused.reason === "content-filter", "content-filter");
    assertEquals(refused.refusal, { explanation: said });
  });

  test("a failed finish's finishMessage: an error's is the provider error's data, a filter's the refusal's explanation", async () => {
    const said = "Malformed function call: print(default_api.get_weather(city='Paris'))";
    const failed = await run(
      "gemini",
      gemini({
        candidates: [{ content: { role: "model" }, finishReason: "MALFORMED_FUNCTION_CALL", finishMessage: said }],
      }),
    );
    assertEquals(types(failed), ["error", "finish"]);
    const [error, finish] = failed;
    // The message is the library's own (a finishMessage may quote the model's output); Gemini's words are on `data`.
    assertEquals(error?.type === "error" && error.error, {
      code: "provider-error",
      message: "The provider reported that the response failed.",
      data: { finishReason: "MALFORMED_FUNCTION_CALL", finishMessage: said },
    });
    assert(finish?.type === "finish" && finish.reason === "error" && finish.refusal === undefined, "error finish");
    const blocked = await run(
      "gemini",
      gemini(parts([{ text: "Sure" }], { finishReason: "SAFETY", finishMessage: "Blocked for dangerous content." })),
    );
    assertEquals(types(blocked), ["text-delta", "finish"]);
    const final = blocked.at(-1);
    assert(final?.type === "finish" && final.reason === "content-filter", "content-filter");
    assertEquals(final.refusal, { explanation: "Blocked for dangerous content." });
    // Without a finishMessage, nor on another candidate (its own turn), nothing is added.
    const bare = await run("gemini", gemini(parts([], { finishReason: "MALFORMED_FUNCTION_CALL" })));
    assertEquals(types(bare), ["finish"]);
    const second = await run(
      "gemini",
      gemini({
        candidates: [
          { index: 0, content: { role: "model", parts: [{ text: "ok" }] }, finishReason: "STOP" },
          { index: 1, content: { role: "model" }, finishReason: "MALFORMED_FUNCTION_CALL", finishMessage: said },
        ],
      }),
    );
    assert(!second.some((event) => event.type === "error"), "a second candidate's failure fails no other");
    // Nor is a second candidate's filter explanation the turn's refusal.
    const filtered = await run(
      "gemini",
      gemini({
        candidates: [
          { index: 0, content: { role: "model", parts: [{ text: "ok" }] }, finishReason: "STOP" },
          { index: 1, content: { role: "model" }, finishReason: "SAFETY", finishMessage: "Blocked." },
        ],
      }),
    );
    const end = filtered.at(-1);
    assert(end?.type === "finish", "finish");
    assertEquals(end.refusal, undefined);
  });

  test("Vertex streamed arguments build nested values, numbers and appended strings", async () => {
    const events = await run(
      "gemini",
      gemini(
        parts([{ functionCall: { name: "plan", willContinue: true } }]),
        parts([
          {
            functionCall: {
              partialArgs: [{ jsonPath: "$.trip.city", stringValue: "San ", willContinue: true }],
              willContinue: true,
            },
          },
        ]),
        parts([
          {
            functionCall: {
              partialArgs: [
                { jsonPath: "$.trip.city", stringValue: "José" },
                { jsonPath: "$.days", numberValue: 3 },
                { jsonPath: "$.stops[0]", stringValue: "a" },
              ],
              willContinue: true,
            },
          },
        ]),
        parts([
          { functionCall: { partialArgs: [{ jsonPath: "$['__proto__']", boolValue: true }], willContinue: true } },
        ]),
        parts([{ functionCall: {} }], { finishReason: "STOP" }),
      ),
    );
    const call = events.find((e) => e.type === "tool-call");
    assert(call?.type === "tool-call", "tool-call");
    assertEquals(
      JSON.parse(call.rawArguments),
      JSON.parse('{"trip":{"city":"San José"},"days":3,"stops":["a"],"__proto__":true}'),
    );
    assert(({} as Record<string, unknown>)["trip"] === undefined, "no prototype touched");
  });

  test("Vertex streamed arguments: __proto__ anywhere in a path is an own key, a path that mixes an index and a name is not applied", async () => {
    const raw = await streamedArguments([
      { jsonPath: "$.__proto__.polluted", stringValue: "x" },
      { jsonPath: "$.list[0]", nullValue: null },
      { jsonPath: "$.list.__proto__.polluted", stringValue: "y" },
      { jsonPath: "$.list.length", stringValue: "z" },
      { jsonPath: "$.obj.a", boolValue: false },
      { jsonPath: "$.obj[0]", numberValue: 1 },
    ]);
    assertEquals(JSON.parse(raw), JSON.parse('{"__proto__":{"polluted":"x"},"list":[null],"obj":{"a":false}}'));
    assert(
      ({} as Record<string, unknown>)["polluted"] === undefined &&
        ([] as unknown as Record<string, unknown>)["polluted"] === undefined,
      "no prototype touched",
    );
  });

  test("Vertex streamed arguments: an index past an array's end is not applied (no array of a million holes written out)", async () => {
    const raw = await streamedArguments([
      { jsonPath: "$.list[0]", stringValue: "a" },
      { jsonPath: "$.list[1]", stringValue: "b" },
      { jsonPath: "$.list[1000000]", numberValue: 1 },
      { jsonPath: "$.deep[5].x", numberValue: 2 },
    ]);
    assert(raw.length < 100, `arguments of ${raw.length} characters`);
    assertEquals(JSON.parse(raw), { list: ["a", "b"], deep: [] });
  });

  test("a normal finish ends a streamed call that never got its closing part", async () => {
    const events = await run(
      "gemini",
      gemini(
        parts([{ functionCall: { name: "f", willContinue: true } }]),
        parts([{ functionCall: { partialArgs: [{ jsonPath: "$.a", numberValue: 1 }], willContinue: true } }], {
          finishReason: "STOP",
        }),
      ),
    );
    assertEquals(summarize(events).toolCalls, [{ id: null, name: "f", arguments: { a: 1 } }]);
  });

  test("end of input with no finishReason aborts and discards the streamed call", async () => {
    const events = await run("gemini", gemini(parts([{ functionCall: { name: "f", willContinue: true } }])));
    const final = events.at(-1);
    assert(final?.type === "abort" && final.discarded.length === 1, "abort with the call discarded");
  });

  test("a streamed call past maxArgumentsLength ends the stream with arguments-too-large as it grows, not at its close", async () => {
    const chunk = parts([
      { functionCall: { partialArgs: [{ jsonPath: "$.s", stringValue: "0123456789" }], willContinue: true } },
    ]);
    // Twenty characters of string; the part after them (text, the close) is read only when within the limit.
    const stream = (close: unknown[]) =>
      gemini(
        parts([{ text: "before" }]),
        parts([{ functionCall: { name: "f", willContinue: true } }]),
        chunk,
        chunk,
        ...close,
      );
    const cut = await run("gemini", stream([parts([{ text: "after" }])]), 16);
    assertEquals(
      cut
        .filter((e) => e.type === "text-delta" || e.type === "error")
        .map((e) => (e.type === "error" ? e.error.code : e.text)),
      ["before", "arguments-too-large"],
    );
    const final = cut.at(-1);
    assert(final?.type === "abort" && final.reason === "limit-exceeded", "abort of reason limit-exceeded");
    assertEquals(
      final.discarded.map((call) => call.name),
      ["f"],
    );
    // The protocol told from the stream gets the limit too.
    const detected = await collect(streamToolCalls(fromChunks([bytes(stream([]))]), { maxArgumentsLength: 16 }));
    assertEquals(detected.find((e) => e.type === "error")?.error.code, "arguments-too-large");
    // The bare stage takes the limit too (it used the 4 MiB default whatever the chain's).
    const bare = fromChunks([bytes(stream([]))])
      .pipeThrough(new SSEDecoderStream())
      .pipeThrough(new GeminiDeltaStream({ maxArgumentsLength: 16 }));
    const failure = await collect(bare).then(
      () => undefined,
      (error: unknown) => error,
    );
    assert(failure instanceof ToolCallStreamError && failure.code === "arguments-too-large", "bare stage bounded");
    // Within the limit (its JSON text is 28 characters), the call is delivered as before.
    const whole = await run("gemini", stream([parts([{ functionCall: {} }], { finishReason: "STOP" })]), 28);
    assertEquals(summarize(whole).toolCalls, [{ id: null, name: "f", arguments: { s: "01234567890123456789" } }]);
  });

  test("a streamed call whose jsonPath nests past maxDepth is too-deep, as arguments sent as text, and the stream goes on", async () => {
    // The decoder builds the object the paths describe (200,000 levels: no stack overflow); its JSON
    // text is the accumulator's to judge, as every provider's object arguments are.
    const jsonPath = `$${".a".repeat(200_000)}`;
    const events = await run(
      "gemini",
      gemini(
        parts([{ functionCall: { name: "f", willContinue: true } }]),
        parts([{ functionCall: { partialArgs: [{ jsonPath, numberValue: 1 }] } }]),
        parts([{ functionCall: { name: "g", args: { a: 1 } } }], { finishReason: "STOP" }),
      ),
    );
    const invalid = events.find((e) => e.type === "invalid-tool-call");
    assertEquals(invalid?.type === "invalid-tool-call" ? [invalid.name, invalid.error.code] : [], ["f", "too-deep"]);
    assertEquals(
      events.flatMap((e) => (e.type === "tool-call" ? [[e.name, e.arguments]] : [])),
      [["g", { a: 1 }]],
    );
  });

  // Gemini 3's tool combination: server-parts-recordings.ts says where its shapes come from.
  test("server tool and code execution parts go back whole and in place, before the call, at any split", async () => {
    const data = bytes(combined);
    const expected: Part[] = [
      ...serverParts,
      { functionCall: { name: "getWeather", args: { city: "Utqiaġvik" }, id: "fc_1" }, thoughtSignature: "sig-fc" },
    ];
    await fc.assert(
      fc.asyncProperty(fc.uniqueArray(fc.integer({ min: 1, max: data.length - 1 }), { maxLength: 5 }), async (cuts) => {
        const events = await collect(streamToolCalls(fromChunks(splitAt(data, cuts)), { provider: "gemini" }));
        const finish = events.at(-1);
        assert(finish?.type === "finish", "finish");
        assertEquals([finish.reason, finish.toolCalls.map((call) => call.name)], ["tool-calls", ["getWeather"]]);
        assertEquals(assistantMessage("gemini", finish), { role: "model", parts: expected });
      }),
      { numRuns: 20 },
    );
  });

  test("the request kit sends them back from a turn's reasoning parts, and leaves another provider's blocks out", () => {
    const body = providerKit("gemini").requestBody({
      model: "gemini-3.5-flash",
      messages: [
        { role: "user", content: "Weather in the northernmost US city?" },
        {
          role: "assistant",
          content: "",
          reasoningParts: [
            ...serverParts.map((block) => ({ type: "block" as const, block: block as never })),
            { type: "block", block: { type: "web_search_tool_result", tool_use_id: "srvtoolu_1", content: [] } },
          ],
          toolCalls: [{ id: "fc_1", name: "getWeather", arguments: { city: "Utqiaġvik" } }],
        },
      ],
      tools: [],
    });
    const contents = body["contents"] as { role: string; parts: Part[] }[];
    assertEquals(contents[1]?.parts, [
      ...serverParts,
      { functionCall: { name: "getWeather", args: { city: "Utqiaġvik" }, id: "fc_1" } },
    ]);
  });
});
