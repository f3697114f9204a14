import { repairJson, type ToolCallAccumulatorOptions, type ToolCallEvent } from "../../../src/index.ts";
import { summarize } from "../../support/fixtures.ts";
import { assert, assertEquals, group } from "../../support/harness.ts";
import { assertEventInvariants } from "../../support/invariants.ts";
import { bytes, chatChunk, openAISSE, runOpenAIChain } from "../../support/streams.ts";

/** Runs Chat Completions payloads (then `[DONE]` unless `done` is false) through the chain. */
async function run(payloads: unknown[], done = true, options?: ToolCallAccumulatorOptions): Promise<ToolCallEvent[]> {
  const events = await runOpenAIChain([bytes(openAISSE(payloads, done))], options);
  assertEventInvariants(events);
  return events;
}

const call = (fields: Record<string, unknown>): unknown => chatChunk({ tool_calls: [fields] });
const finish = (reason = "tool_calls"): unknown => chatChunk({}, reason);
const types = (events: ToolCallEvent[]): string[] => events.map((e) => e.type);

group("OpenAI Chat accumulation rules and provider quirks", (test) => {
  test("GLM/Kimi behind some gateways: chunks separated by one newline are split back, none lost", async () => {
    const line = (payload: unknown): string => `data: ${JSON.stringify(payload)}\n`;
    const fn = (fields: Record<string, unknown>): Record<string, unknown> => ({
      tool_calls: [{ index: 0, ...fields }],
    });
    const body =
      line(chatChunk(fn({ id: "t1", type: "function", function: { name: "rm", arguments: '{"path":"/tmp/x"' } }))) +
      "\n" +
      line(chatChunk(fn({ function: { arguments: ',"recursive":false' } }))) +
      line(chatChunk(fn({ function: { arguments: ',"dry_run":true' } }))) +
      "\n" +
      line(chatChunk(fn({ function: { arguments: "}" } }))) +
      line(chatChunk({}, "tool_calls")) +
      "\n" +
      "data: [DONE]\n\n";
    const events = await runOpenAIChain([bytes(body)]);
    assertEventInvariants(events);
    assert(
      !events.some((e) => e.type === "error"),
      `no error: ${JSON.stringify(events.filter((e) => e.type === "error"))}`,
    );
    const done = events.find((e) => e.type === "tool-call");
    assert(done?.type === "tool-call", "tool-call");
    assertEquals(done.arguments, { path: "/tmp/x", recursive: false, dry_run: true });
  });

  test("a payload spread over several data lines that parses whole stays one payload", async () => {
    const text = JSON.stringify(chatChunk({ content: "hi" }, "stop"), null, 1)
      .split("\n")
      .map((l) => `data: ${l}`)
      .join("\n");
    const events = await runOpenAIChain([bytes(`${text}\n\ndata: [DONE]\n\n`)]);
    assertEquals(
      events.map((e) => e.type),
      ["text-delta", "finish"],
    );
  });

  test("Moonshot (Kimi): usage inside the choice is read when the chunk has none", async () => {
    const events = await run([
      chatChunk({ content: "hi" }),
      {
        choices: [
          {
            index: 0,
            delta: {},
            finish_reason: "stop",
            usage: { prompt_tokens: 10, completion_tokens: 3, total_tokens: 13 },
          },
        ],
      },
    ]);
    const final = events.at(-1);
    assert(
      final?.type === "finish" &&
        final.usage?.inputTokens === 10 &&
        final.usage.outputTokens === 3 &&
        final.usage.totalTokens === 13,
      JSON.stringify(final),
    );
  });

  test("vLLM abort and DeepSeek insufficient_system_resource are error finishes", async () => {
    for (const raw of ["abort", "insufficient_system_resource"]) {
      const final = (await run([chatChunk({ content: "hi" }, raw)])).at(-1);
      assert(final?.type === "finish" && final.reason === "error" && final.rawReason === raw, raw);
    }
  });

  test("Ollama: parallel calls sent whole at index 0, each with its own id and name, stay separate", async () => {
    const events = await run([
      call({
        index: 0,
        id: "call_a1",
        type: "function",
        function: { name: "get_weather", arguments: '{"city":"Paris"}' },
      }),
      call({
        index: 0,
        id: "call_b2",
        type: "function",
        function: { name: "get_weather", arguments: '{"city":"Rome"}' },
      }),
      finish(),
    ]);
    assertEquals(summarize(events).toolCalls, [
      { id: "call_a1", name: "get_weather", arguments: { city: "Paris" } },
      { id: "call_b2", name: "get_weather", arguments: { city: "Rome" } },
    ]);
    assertEquals(
      events.filter((e) => e.type === "tool-call").map((e) => (e as { index: number }).index),
      [0, 1],
    );
  });

  test("Ollama without ids: a name after a closed JSON value at the same index starts a new call", async () => {
    const events = await run([
      call({ index: 0, function: { name: "lookup", arguments: '{"q":"a"}' } }),
      call({ index: 0, function: { name: "lookup", arguments: '{"q":"b"}' } }),
      finish(),
    ]);
    assertEquals(summarize(events).toolCalls, [
      { id: null, name: "lookup", arguments: { q: "a" } },
      { id: null, name: "lookup", arguments: { q: "b" } },
    ]);
  });

  test("LM Studio: a fresh id on every fragment of one call is still one call", async () => {
    const events = await run([
      call({ index: 0, id: "call_1", type: "function", function: { name: "search", arguments: "" } }),
      call({ index: 0, id: "call_2", type: "function", function: { arguments: '{"query":' } }),
      call({ index: 0, id: "call_3", type: "function", function: { arguments: ' "tides"}' } }),
      finish(),
    ]);
    assertEquals(summarize(events).toolCalls, [{ id: "call_1", name: "search", arguments: { query: "tides" } }]);
  });

  test("Qwen/DashScope: an empty id on continuation fragments never overwrites the first id", async () => {
    const events = await run([
      call({
        index: 0,
        id: "call_0bd",
        type: "function",
        function: { name: "get_current_weather", arguments: '{"location":' },
      }),
      call({ index: 0, id: "", type: "function", function: { arguments: ' "杭州市"}' } }),
      finish(),
    ]);
    assertEquals(summarize(events).toolCalls, [
      { id: "call_0bd", name: "get_current_weather", arguments: { location: "杭州市" } },
    ]);
  });

  test('Mistral: a "name": "" fragment never overwrites the name', async () => {
    const events = await run([
      call({ index: 0, id: "t1", function: { name: "webSearch", arguments: "" } }),
      call({ index: 0, function: { name: "", arguments: '{"q":"berlin"}' } }),
      finish(),
    ]);
    assertEquals(summarize(events).toolCalls, [{ id: "t1", name: "webSearch", arguments: { q: "berlin" } }]);
  });

  test("Mistral: calls without an index are told apart by a new id with a name", async () => {
    const events = await run([
      chatChunk(
        {
          tool_calls: [
            { id: "aaaaaaaaa", function: { name: "weather", arguments: '{"location":"SF"}' } },
            { id: "bbbbbbbbb", function: { name: "time", arguments: '{"zone":"PST"}' } },
          ],
        },
        "tool_calls",
      ),
    ]);
    assertEquals(summarize(events).toolCalls, [
      { id: "aaaaaaaaa", name: "weather", arguments: { location: "SF" } },
      { id: "bbbbbbbbb", name: "time", arguments: { zone: "PST" } },
    ]);
  });

  test("Kimi: parallel calls without an index, their later fragments without ids, are told apart by their place in the chunk", async () => {
    // vercel/ai's moonshotai-stream-indexless-tool-calls recording: both calls start in one chunk,
    // both argument fragments come in the next, in the same order (test/recordings/external/).
    const events = await run([
      chatChunk({
        tool_calls: [
          { id: "weather_0", type: "function", function: { name: "weather", arguments: "" } },
          { id: "time_1", type: "function", function: { name: "time", arguments: "" } },
        ],
      }),
      chatChunk({
        tool_calls: [{ function: { arguments: '{"location":"SF"}' } }, { function: { arguments: '{"zone":"UTC"}' } }],
      }),
      finish(),
    ]);
    assertEquals(summarize(events).toolCalls, [
      { id: "weather_0", name: "weather", arguments: { location: "SF" } },
      { id: "time_1", name: "time", arguments: { zone: "UTC" } },
    ]);
  });

  test("OpenRouter/Kimi: a name repeated in full is not appended again", async () => {
    const events = await run([
      call({ index: 0, id: "0", type: "function", function: { name: "llm_version", arguments: "" } }),
      call({ index: 0, id: "0", type: "function", function: { name: "llm_version", arguments: "{}" } }),
    ]);
    assertEquals(summarize(events).toolCalls, [{ id: "0", name: "llm_version", arguments: {} }]);
  });

  test("a name repeated in full on every fragment, with arguments, is not doubled (read_fileread_file)", async () => {
    const events = await run([
      call({ index: 0, id: "c1", function: { name: "read_file", arguments: '{"pa' } }),
      call({ index: 0, function: { name: "read_file", arguments: 'th":"a.txt"}' } }),
      finish(),
    ]);
    assertEquals(summarize(events).toolCalls, [{ id: "c1", name: "read_file", arguments: { path: "a.txt" } }]);
  });

  test("a name split across fragments is joined", async () => {
    const events = await run([
      call({ index: 0, id: "call_abc" }),
      call({ index: 0, function: { name: "get" } }),
      call({ index: 0, function: { name: "_weather" } }),
      call({ index: 0, function: { arguments: '{"city":"北京"}' } }),
      finish(),
    ]);
    assertEquals(summarize(events).toolCalls, [{ id: "call_abc", name: "get_weather", arguments: { city: "北京" } }]);
    const starts = events.filter((e) => e.type === "tool-call-start");
    assertEquals(starts, [{ type: "tool-call-start", index: 0, id: "call_abc", name: "get_weather" }]);
  });

  test("argument fragments before the name are held and delivered after tool-call-start", async () => {
    const events = await run([
      call({ index: 0, function: { arguments: '{"a":' } }),
      call({ index: 0, id: "c9", function: { name: "add", arguments: "1}" } }),
      finish(),
    ]);
    assertEquals(types(events).slice(0, 4), ["tool-call-start", "tool-call-delta", "tool-call", "finish"]);
    assertEquals((events[1] as { argumentsDelta: string }).argumentsDelta, '{"a":1}');
  });

  test("Groq/xAI: a whole call in one fragment", async () => {
    const events = await run([
      call({ index: 0, id: "call_x", type: "function", function: { name: "ping", arguments: "{}" } }),
      finish(),
    ]);
    assertEquals(types(events), ["tool-call-start", "tool-call-delta", "tool-call", "finish"]);
  });

  test("a final summary fragment that resends the whole arguments is not appended", async () => {
    const events = await run([
      call({ index: 0, id: "c1", function: { name: "f", arguments: '{"x":' } }),
      call({ index: 0, function: { arguments: " 1}" } }),
      call({ index: 0, id: "c1", function: { name: "f", arguments: '{"x": 1}' } }),
      finish(),
    ]);
    assertEquals(summarize(events).toolCalls, [{ id: "c1", name: "f", arguments: { x: 1 } }]);
    assertEquals(events.filter((e) => e.type === "tool-call-delta").length, 2);
  });

  test("indexes may start at 1 and be sparse; the call keeps the provider's index", async () => {
    const events = await run([
      call({ index: 1, id: "a", function: { name: "f", arguments: "{}" } }),
      call({ index: 4, id: "b", function: { name: "g", arguments: "{}" } }),
      finish(),
    ]);
    assertEquals(
      events.filter((e) => e.type === "tool-call").map((e) => (e as { index: number }).index),
      [1, 4],
    );
  });

  // One choice's finish finishes its own calls only: another's call cut by the end (or an error) is
  // discarded, as a lone choice's is; before, choice 0's `tool_calls` closed it (`{"path":"/ho"}`).
  for (const [ending, tail, expected] of [
    ["the body ends", [], "abort:input-ended:b"],
    [
      "a provider error ends it",
      [{ error: { message: "Overloaded", type: "server_error" } }],
      "abort:provider-error:b",
    ],
    ["[DONE] ends it", [], "finish:invalid-json:b"],
  ] as const) {
    test(`n>1: a choice cut before its finish while another finished: ${ending}, its call never completes`, async () => {
      const choice = (index: number, id: string, args: string) => ({
        choices: [{ index, delta: { tool_calls: [{ index: 0, id, function: { name: "rm", arguments: args } }] } }],
      });
      const events = await run(
        [
          choice(0, "a", '{"path":"/tmp/x"}'),
          choice(1, "b", '{"path":"/ho'),
          { choices: [{ index: 0, delta: {}, finish_reason: "tool_calls" }] },
          ...tail,
        ],
        ending === "[DONE] ends it",
        { repairer: repairJson }, // the repair closes a value cut short after a normal finish: never this one
      );
      const calls = events.filter((e) => e.type === "tool-call").map((e) => [e.id, e.arguments]);
      assertEquals(calls, [["a", { path: "/tmp/x" }]]);
      const last = events.at(-1);
      const cut =
        last?.type === "abort"
          ? `abort:${last.reason}:${last.discarded.map((c) => c.id).join()}`
          : last?.type === "finish" && `finish:${last.invalidToolCalls.map((c) => `${c.error.code}:${c.id}`).join()}`;
      assertEquals(cut, expected);
    });
  }

  test("n>1: one choice's calls never mix with another's", async () => {
    const events = await run([
      {
        choices: [
          { index: 0, delta: { tool_calls: [{ index: 0, id: "a", function: { name: "f", arguments: '{"c":' } }] } },
          { index: 1, delta: { tool_calls: [{ index: 0, id: "b", function: { name: "f", arguments: '{"c":' } }] } },
        ],
      },
      {
        choices: [
          {
            index: 1,
            delta: { tool_calls: [{ index: 0, function: { arguments: "1}" } }] },
            finish_reason: "tool_calls",
          },
          {
            index: 0,
            delta: { tool_calls: [{ index: 0, function: { arguments: "0}" } }] },
            finish_reason: "tool_calls",
          },
        ],
      },
    ]);
    const done = events.filter((e) => e.type === "tool-call") as { id: string; arguments: unknown; choice?: number }[];
    assertEquals(
      done.map((c) => [c.id, c.arguments, c.choice ?? 0]),
      [
        ["b", { c: 1 }, 1],
        ["a", { c: 0 }, 0],
      ],
    );
  });

  test("empty or missing arguments parse as {}", async () => {
    const events = await run([
      call({ index: 0, id: "a", function: { name: "f" } }),
      call({ index: 1, id: "b", function: { name: "g", arguments: "" } }),
      call({ index: 2, id: "c", function: { name: "h", arguments: "  " } }),
      finish(),
    ]);
    assertEquals(
      summarize(events).toolCalls.map((c) => c.arguments),
      [{}, {}, {}],
    );
  });

  test("invalid JSON arguments give invalid-tool-call with the raw text and a position, never {}", async () => {
    // The lean chain reports it invalid; its position comes with the repair plug-in.
    const lean = (
      await run([call({ index: 0, id: "a", function: { name: "f", arguments: '{"x": @tru' } }), finish()])
    ).find((e) => e.type === "invalid-tool-call");
    assert(
      lean?.type === "invalid-tool-call" && lean.error.code === "invalid-json" && lean.rawArguments === '{"x": @tru',
      "invalid without repair",
    );
    const events = await run(
      [call({ index: 0, id: "a", function: { name: "f", arguments: '{"x": @tru' } }), finish()],
      true,
      { repairer: repairJson },
    );
    const invalid = events.find((e) => e.type === "invalid-tool-call");
    assert(invalid && invalid.type === "invalid-tool-call", "an invalid-tool-call event");
    assertEquals([invalid.rawArguments, invalid.error.code, invalid.error.position], ['{"x": @tru', "invalid-json", 6]);
    assert(typeof invalid.error.position === "number", "the error position is reported");
    assert(!invalid.error.message.includes("tru"), "the message never embeds the payload");
    const final = events.at(-1);
    assert(
      final?.type === "finish" && final.invalidToolCalls.length === 1 && final.toolCalls.length === 0,
      "finish lists it as invalid",
    );
  });

  test("a buffer that happens to parse is not a completed call: it completes at finish_reason", async () => {
    const events = await run([
      call({ index: 0, id: "a", function: { name: "f", arguments: '{"n": 1}' } }),
      chatChunk({ content: "" }),
      finish(),
    ]);
    assertEquals(types(events), ["tool-call-start", "tool-call-delta", "tool-call", "finish"]);
    const partial = await run([call({ index: 0, id: "a", function: { name: "f", arguments: '{"n": 1}' } })], false);
    assertEquals(types(partial), ["tool-call-start", "tool-call-delta", "abort"]);
  });

  test("OpenRouter/Kimi: [DONE] with no finish_reason completes the calls", async () => {
    const events = await run([call({ index: 0, id: "0", function: { name: "f", arguments: "{}" } })]);
    const final = events.at(-1);
    assert(final?.type === "finish", "finish");
    assertEquals([final.rawReason, final.reason, final.toolCalls.length], [null, "tool-calls", 1]);
  });

  test("end of input after a finish_reason finishes without [DONE]", async () => {
    const events = await run([call({ index: 0, id: "a", function: { name: "f", arguments: "{}" } }), finish()], false);
    assertEquals(types(events), ["tool-call-start", "tool-call-delta", "tool-call", "finish"]);
  });

  test("end of input with no finish aborts: complete text delivered, the open call discarded unparsed", async () => {
    const events = await run(
      [chatChunk({ content: "Hi" }), call({ index: 0, id: "a", function: { name: "f", arguments: '{"x":' } })],
      false,
    );
    const final = events.at(-1);
    assert(final?.type === "abort", "abort");
    assertEquals(
      [final.reason, final.discarded],
      ["input-ended", [{ index: 0, id: "a", name: "f", rawArguments: '{"x":' }]],
    );
    assertEquals(summarize(events).text, "Hi");
  });

  test("OpenAI forced tool_choice: finish_reason stop with calls is normalized to tool-calls", async () => {
    const events = await run([call({ index: 0, id: "a", function: { name: "f", arguments: "{}" } }), finish("stop")]);
    const final = events.at(-1);
    assert(
      final?.type === "finish" && final.reason === "tool-calls" && final.rawReason === "stop",
      "tool-calls, raw stop",
    );
  });

  test("finish reasons are normalized with the raw value kept", async () => {
    for (const [raw, reason] of [
      ["stop", "stop"],
      ["length", "length"],
      ["content_filter", "content-filter"],
      ["insufficient_system_resource", "error"],
      ["a_new_reason", "other"],
    ]) {
      const final = (await run([chatChunk({ content: "x" }), finish(raw)])).at(-1);
      assert(final?.type === "finish" && final.reason === reason && final.rawReason === raw, `${raw} -> ${reason}`);
    }
  });

  test("usage is read from a usage-only chunk with empty choices and from x_groq.usage", async () => {
    const a = (
      await run([
        chatChunk({ content: "x" }),
        finish("stop"),
        { choices: [], usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 } },
      ])
    ).at(-1);
    assert(a?.type === "finish", "finish");
    assertEquals([a.usage?.inputTokens, a.usage?.outputTokens, a.usage?.totalTokens], [3, 2, 5]);
    const b = (
      await run([chatChunk({}, "stop", { x_groq: { usage: { prompt_tokens: 7, completion_tokens: 1 } } })])
    ).at(-1);
    assert(b?.type === "finish", "finish");
    assertEquals([b.usage?.inputTokens, b.usage?.totalTokens], [7, 8]);
  });

  test("reasoning_content, reasoning and reasoning_details become reasoning-delta, never text", async () => {
    const events = await run([
      chatChunk({ reasoning_content: "A" }),
      chatChunk({ reasoning: "B", reasoning_details: [{ type: "reasoning.text", text: "B" }] }),
      chatChunk({ reasoning_details: [{ type: "reasoning.text", text: "C" }] }),
      chatChunk({ content: "answer" }),
      finish("stop"),
    ]);
    assertEquals(
      events.filter((e) => e.type === "reasoning-delta").map((e) => (e as { text: string }).text),
      ["A", "B", "C"],
    );
    const final = events.at(-1);
    assert(
      final?.type === "finish" && final.text === "answer" && final.reasoning === "ABC",
      "text and reasoning kept apart",
    );
  });

  test("Gemini OpenAI endpoint: extra_content.google.thought_signature is kept on the call", async () => {
    const extra = { google: { thought_signature: "c2lnbmF0dXJl" } };
    const events = await run([
      call({ index: 0, id: "", function: { name: "f", arguments: "{}" }, extra_content: extra }),
      finish(),
    ]);
    const done = events.find((e) => e.type === "tool-call");
    assertEquals(done && "providerMetadata" in done ? done.providerMetadata : undefined, { extra_content: extra });
    assertEquals(done && "id" in done ? done.id : undefined, null);
  });

  test('an OpenAI-style {"error": ...} payload becomes an error event that ends the stream: nothing after it is read', async () => {
    const events = await run([
      chatChunk({ content: "a" }),
      { error: { message: "overloaded", code: 503 } },
      chatChunk({ content: "b" }),
      finish("stop"),
    ]);
    assertEquals(types(events), ["text-delta", "error", "abort"]);
    const error = events[1];
    assert(error?.type === "error" && error.error.code === "provider-error", "provider-error");
    assertEquals(error.error.data, { message: "overloaded", code: 503 });
  });

  test("a data line that is not JSON becomes an error event and the stream goes on", async () => {
    const sse = `data: ${JSON.stringify(chatChunk({ content: "a" }))}\n\ndata: {not json\n\ndata: ${JSON.stringify(chatChunk({ content: "b" }, "stop"))}\n\ndata: [DONE]\n\n`;
    const events = await runOpenAIChain([bytes(sse)]);
    assertEquals(types(events), ["text-delta", "error", "text-delta", "finish"]);
    assert(events[1]?.type === "error" && events[1].error.code === "malformed-payload", "malformed-payload");
  });

  test("a repeated [DONE] and anything after it are ignored", async () => {
    const sse = `${openAISSE([chatChunk({ content: "a" }, "stop")])}data: [DONE]\n\ndata: ${JSON.stringify(chatChunk({ content: "late" }))}\n\n`;
    const events = await runOpenAIChain([bytes(sse)]);
    assertEquals(types(events), ["text-delta", "finish"]);
  });

  test("the legacy function_call delta is one call", async () => {
    const events = await run([
      chatChunk({ function_call: { name: "f", arguments: '{"a":' } }),
      chatChunk({ function_call: { arguments: "2}" } }),
      finish("function_call"),
    ]);
    assertEquals(summarize(events).toolCalls, [{ id: null, name: "f", arguments: { a: 2 } }]);
  });

  test("Mistral Magistral: content arrays split into text and thinking", async () => {
    const events = await run([
      chatChunk({ content: [{ type: "thinking", thinking: [{ type: "text", text: "hmm" }] }] }),
      chatChunk({ content: [{ type: "text", text: "4" }] }),
      finish("stop"),
    ]);
    assertEquals(types(events), ["reasoning-delta", "text-delta", "finish"]);
  });

  test("hostile keys in the arguments are ordinary own properties", async () => {
    const events = await run([
      call({
        index: 0,
        id: "a",
        function: { name: "f", arguments: '{"__proto__": {"polluted": true}, "constructor": 1}' },
      }),
      finish(),
    ]);
    const done = events.find((e) => e.type === "tool-call");
    assert(done?.type === "tool-call", "tool-call");
    const args = done.arguments as Record<string, unknown>;
    assert(Object.hasOwn(args, "__proto__"), "__proto__ is an own property");
    assert(({} as Record<string, unknown>)["polluted"] === undefined, "no prototype was touched");
  });
});
