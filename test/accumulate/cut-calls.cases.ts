// A call the response cut short is never handed over as complete: after a provider error and
// `[DONE]` (vLLM, llama.cpp), a value cut short at a `[DONE]` with no finish, or a call with no
// arguments yet that an abnormal finish (`length`, `max_tokens`, `max_output_tokens`, `MAX_TOKENS`) ends.
import { streamToolCalls, type Provider, type ToolCallEvent } from "../../src/index.ts";
import { recording } from "../support/fixtures.ts";
import { assert, assertEquals, group } from "../support/harness.ts";
import { recordingSource } from "../support/sources.ts";
import { bytes, chatChunk, collect, fromChunks, openAISSE } from "../support/streams.ts";

const run = (provider: Provider, sse: string): Promise<ToolCallEvent[]> =>
  collect(streamToolCalls(fromChunks([bytes(sse)]), { provider }));
const types = (events: ToolCallEvent[]): string[] => events.map((e) => e.type);
const sse = (events: [string, unknown][]): string =>
  events.map(([event, data]) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`).join("");
const call = (fn: Record<string, unknown>, id?: string): Record<string, unknown> => ({
  tool_calls: [{ index: 0, ...(id ? { id, type: "function" } : {}), function: fn }],
});

group("Calls cut short by the end of the response", (test) => {
  test("vLLM: an error chunk then [DONE] discards the open call instead of repairing it", async () => {
    const body = openAISSE([
      chatChunk(call({ name: "write_file", arguments: '{"path":"a.txt","content":"hello wor' }, "t1")),
      { error: { message: "boom", type: "InternalServerError", code: 500 } },
    ]);
    const events = await run("openai", body);
    assertEquals(types(events), ["tool-call-start", "tool-call-delta", "error", "abort"]);
    const final = events.at(-1);
    assert(final?.type === "abort" && final.reason === "provider-error", "abort provider-error");
    assertEquals(
      final.discarded.map((c) => [c.id, c.name, c.rawArguments]),
      [["t1", "write_file", '{"path":"a.txt","content":"hello wor']],
    );
  });

  test("[DONE] with no finish completes the calls but never closes a value cut short", async () => {
    const events = await run(
      "openai",
      openAISSE([chatChunk(call({ name: "get_weather", arguments: '{"city":' }, "t1"))]),
    );
    const invalid = events.find((e) => e.type === "invalid-tool-call");
    assert(
      invalid?.type === "invalid-tool-call" && invalid.error.code === "invalid-json",
      "invalid-json, not repaired",
    );
    assert(!events.some((e) => e.type === "tool-call"), "no tool-call");
  });

  test("[DONE] with no finish after a whole call and one cut in its arguments: other, never tool-calls", async () => {
    const whole = { tool_calls: [{ index: 0, id: "t1", type: "function", function: { name: "a", arguments: "{}" } }] };
    const cut = { tool_calls: [{ index: 1, id: "t2", type: "function", function: { name: "b", arguments: '{"x":' } }] };
    const final = (await run("openai", openAISSE([chatChunk(whole), chatChunk(cut)]))).at(-1);
    assert(final?.type === "finish", "finish");
    assertEquals(
      [final.reason, final.toolCalls.map((c) => c.name), final.invalidToolCalls.map((c) => c.name)],
      ["other", ["a"], ["b"]],
    );
  });

  test("[DONE] with no finish after a whole call and a whole one of no declared tool: tool-calls, the model wrote both", async () => {
    // Only a value cut short is a cut; a call the request's tools refuse (its JSON whole) is the model's, to be answered.
    const whole = { tool_calls: [{ index: 0, id: "t1", type: "function", function: { name: "a", arguments: "{}" } }] };
    const other = {
      tool_calls: [{ index: 1, id: "t2", type: "function", function: { name: "b", arguments: '{"x":1}' } }],
    };
    const body = fromChunks([bytes(openAISSE([chatChunk(whole), chatChunk(other)]))]);
    const final = (await collect(streamToolCalls(body, { provider: "openai", tools: [{ name: "a" }] }))).at(-1);
    assert(final?.type === "finish", "finish");
    assertEquals(
      [final.reason, final.toolCalls.map((c) => c.name), final.invalidToolCalls.map((c) => c.error.code)],
      ["tool-calls", ["a"], ["schema-mismatch"]],
    );
  });

  test("[DONE] with no finish (servers that never send finish_reason): a call with no arguments is {}", async () => {
    const events = await run("openai", openAISSE([chatChunk(call({ name: "get_time", arguments: "" }, "t1"))]));
    const done = events.find((e) => e.type === "tool-call");
    assert(done?.type === "tool-call", `tool-call: ${JSON.stringify(events)}`);
    assertEquals(done.arguments, {});
  });

  test("provider detection reads chunks joined by single newlines from their first line", async () => {
    const body = `data: ${JSON.stringify(chatChunk({ content: "a" }))}\ndata: ${JSON.stringify(chatChunk({ content: "b" }, "stop"))}\ndata: [DONE]\n\n`;
    const events = await collect(streamToolCalls(fromChunks([bytes(body)])));
    assertEquals(types(events), ["text-delta", "text-delta", "finish"]);
  });

  test("OpenAI Chat: a call with a name and no arguments when finish_reason is length is invalid, not {}", async () => {
    const events = await run(
      "openai",
      openAISSE([chatChunk(call({ name: "delete_files", arguments: "" }, "t1")), chatChunk({}, "length")]),
    );
    const invalid = events.find((e) => e.type === "invalid-tool-call");
    assert(
      invalid?.type === "invalid-tool-call" && invalid.error.code === "invalid-json" && invalid.rawArguments === "",
      "invalid, empty",
    );
    const final = events.at(-1);
    assert(
      final?.type === "finish" && final.reason === "length" && final.toolCalls.length === 0,
      "finish length, no calls",
    );
  });

  test("OpenAI Chat: the same call with finish_reason tool_calls is {} (no arguments is a valid call)", async () => {
    const events = await run(
      "openai",
      openAISSE([chatChunk(call({ name: "list_files", arguments: "" }, "t1")), chatChunk({}, "tool_calls")]),
    );
    const done = events.find((e) => e.type === "tool-call");
    assert(done?.type === "tool-call", "tool-call");
    assertEquals(done.arguments, {});
  });

  test("Anthropic: a tool_use block that max_tokens ends before its content_block_stop is invalid, not {}", async () => {
    const body = sse([
      [
        "message_start",
        {
          type: "message_start",
          message: { id: "m", role: "assistant", content: [], usage: { input_tokens: 5, output_tokens: 1 } },
        },
      ],
      [
        "content_block_start",
        {
          type: "content_block_start",
          index: 0,
          content_block: { type: "tool_use", id: "toolu_1", name: "delete_files", input: {} },
        },
      ],
      ["message_delta", { type: "message_delta", delta: { stop_reason: "max_tokens" }, usage: { output_tokens: 9 } }],
      ["message_stop", { type: "message_stop" }],
    ]);
    const events = await run("anthropic", body);
    assert(!events.some((e) => e.type === "tool-call"), `no tool-call: ${JSON.stringify(types(events))}`);
    const invalid = events.find((e) => e.type === "invalid-tool-call");
    assert(
      invalid?.type === "invalid-tool-call" && invalid.name === "delete_files" && invalid.error.code === "invalid-json",
      "invalid",
    );
    const final = events.at(-1);
    assert(
      final?.type === "finish" && final.reason === "length" && final.toolCalls.length === 0,
      "finish length, no calls",
    );
  });

  test("OpenAI Responses: a function_call that max_output_tokens ends before any argument is invalid, not {}", async () => {
    const item = { type: "function_call", id: "fc_1", call_id: "call_1", name: "delete_files", arguments: "" };
    const body = sse([
      [
        "response.created",
        { type: "response.created", sequence_number: 0, response: { id: "resp_1", status: "in_progress", output: [] } },
      ],
      ["response.output_item.added", { type: "response.output_item.added", sequence_number: 1, output_index: 0, item }],
      [
        "response.incomplete",
        {
          type: "response.incomplete",
          sequence_number: 2,
          response: {
            id: "resp_1",
            status: "incomplete",
            incomplete_details: { reason: "max_output_tokens" },
            output: [item],
          },
        },
      ],
    ]);
    const events = await run("openai-responses", body);
    const invalid = events.find((e) => e.type === "invalid-tool-call");
    assert(
      invalid?.type === "invalid-tool-call" && invalid.name === "delete_files",
      `invalid: ${JSON.stringify(events)}`,
    );
    assert(!events.some((e) => e.type === "tool-call"), "no tool-call");
    const final = events.at(-1);
    assert(final?.type === "finish" && final.reason === "length", "finish length");
  });

  test("Gemini (Vertex): a streamed call that MAX_TOKENS ends while it continues is invalid; STOP completes it", async () => {
    const chunk = (parts: unknown[], finishReason?: string): string =>
      `data: ${JSON.stringify({ candidates: [{ content: { role: "model", parts }, ...(finishReason ? { finishReason } : {}) }] })}\n\n`;
    const opened =
      chunk([{ functionCall: { name: "write_file", willContinue: true } }]) +
      chunk([
        {
          functionCall: {
            partialArgs: [{ jsonPath: "$.content", stringValue: "hello wor", willContinue: true }],
            willContinue: true,
          },
        },
      ]);
    const cut = await run("gemini", opened + chunk([], "MAX_TOKENS"));
    assert(!cut.some((e) => e.type === "tool-call"), `no tool-call: ${JSON.stringify(cut)}`);
    assert(
      cut.some((e) => e.type === "invalid-tool-call"),
      "invalid-tool-call",
    );
    const stopped = await run("gemini", opened + chunk([], "STOP"));
    const done = stopped.find((e) => e.type === "tool-call");
    assert(done?.type === "tool-call", "tool-call at STOP");
    assertEquals(done.arguments, { content: "hello wor" });
  });

  test("Gemini (Vertex): a streamed call a fault or stop cuts reports the arguments it received, as other providers' do", async () => {
    // The recording's first two events (CRLF-framed): getWeather opened, then `$.location` "Boston" with more to come.
    const recorded = recording("gemini", "vertex-streamed-function-call-arguments").text.split("\r\n\r\n");
    const head = `${recorded.slice(0, 2).join("\r\n\r\n")}\r\n\r\n`;
    const data = (payload: unknown): string => `data: ${JSON.stringify(payload)}\n\n`;
    const finish = (finishReason: string): string => data({ candidates: [{ content: { parts: [] }, finishReason }] });
    const error = data({ error: { code: 503, message: "The model is overloaded.", status: "UNAVAILABLE" } });
    const failed = recordingSource([bytes(head)], new TypeError("network connection lost")).stream;
    const ends = {
      "input-ended": await run("gemini", head),
      "provider-error": await run("gemini", head + error),
      "stream-failed": await collect(streamToolCalls(failed, { provider: "gemini" })),
      length: await run("gemini", head + finish("MAX_TOKENS")),
      "content-filter": await run("gemini", head + finish("SAFETY")),
    };
    const reported = Object.fromEntries(
      Object.entries(ends).map(([end, events]) => {
        const last = events.at(-1);
        const calls =
          last?.type === "abort"
            ? last.discarded
            : last?.type === "finish" && !last.toolCalls.length
              ? last.invalidToolCalls
              : [];
        return [
          end,
          [
            last?.type === "abort" ? last.reason : last?.type === "finish" && last.reason,
            calls.map((c) => [c.name, c.rawArguments]),
          ],
        ];
      }),
    );
    // Its arguments' text up to the last quote: the start of the whole call's, `"Boston"` still growing.
    const received = [["getWeather", '{"location":"Boston']];
    assertEquals(reported, {
      "input-ended": ["input-ended", received],
      "provider-error": ["provider-error", received],
      "stream-failed": ["stream-failed", received],
      length: ["length", received],
      "content-filter": ["content-filter", received],
    });
  }).needs("recordings");

  test("OpenAI Responses: a free-text call (custom_tool_call) open at max_output_tokens is invalid, truncated-input", async () => {
    const item = { id: "ctc_1", type: "custom_tool_call", call_id: "call_9", name: "run_sql", input: "" };
    const opened: [string, unknown][] = [
      ["response.output_item.added", { type: "response.output_item.added", output_index: 0, item }],
      [
        "response.custom_tool_call_input.delta",
        {
          type: "response.custom_tool_call_input.delta",
          output_index: 0,
          item_id: "ctc_1",
          delta: "DELETE FROM t WHERE",
        },
      ],
    ];
    const cutBy: [string, unknown] = [
      "response.incomplete",
      {
        type: "response.incomplete",
        response: { status: "incomplete", incomplete_details: { reason: "max_output_tokens" } },
      },
    ];
    const events = await run("openai-responses", sse([...opened, cutBy]));
    assert(!events.some((e) => e.type === "tool-call"), `no tool-call: ${JSON.stringify(events)}`);
    const invalid = events.find((e) => e.type === "invalid-tool-call");
    assert(invalid?.type === "invalid-tool-call", "invalid-tool-call");
    assertEquals(
      [invalid.error.code, invalid.rawArguments, invalid.name],
      ["truncated-input", "DELETE FROM t WHERE", "run_sql"],
    );
    // Closed by a normal finish instead, free text is the call's input as it is.
    const completed = await run(
      "openai-responses",
      sse([...opened, ["response.completed", { type: "response.completed", response: { status: "completed" } }]]),
    );
    const done = completed.find((e) => e.type === "tool-call");
    assert(done?.type === "tool-call" && done.arguments === "DELETE FROM t WHERE", "tool-call at a normal finish");
  });
});
