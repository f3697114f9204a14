import { z } from "zod";
import {
  defineTool,
  runToolLoop,
  streamToolCalls,
  toolDefinitions,
  ToolRunnerStream,
  type JsonValue,
  type ToolCallEvent,
  type ToolErrorEvent,
  type ToolResultEvent,
  type ToolRunnerEvent,
} from "../../src/index.ts";
import { openaiWeatherTwoCities } from "../support/conversations/index.ts";
import { assert, assertEquals, group } from "../support/harness.ts";
import { eventually, recordingSource } from "../support/sources.ts";
import { bytes, chatChunk, collect, openAISSE } from "../support/streams.ts";
import {
  controlledTool,
  deferred,
  live,
  manualTimers,
  openSource,
  replayModel,
  toolCall,
} from "../support/tool-fakes.ts";
import { manualWeather, syncWeather } from "../support/validators.ts";

const outcomes = (events: readonly ToolRunnerEvent[]): (ToolResultEvent | ToolErrorEvent)[] =>
  events.filter((e): e is ToolResultEvent | ToolErrorEvent => e.type === "tool-result" || e.type === "tool-error");

/** A clock the test moves by hand. */
function manualClock(): { now: () => number; set: (ms: number) => void } {
  let ms = 0;
  return { now: () => ms, set: (value) => void (ms = value) };
}

group("ToolRunnerStream cancelCall", (test) => {
  test("aborts one running handler's signal; that call gives a retryable cancelled error with the reason, the other goes on", async () => {
    const slow = controlledTool();
    const other = controlledTool();
    const source = openSource<ToolCallEvent>();
    const runner = new ToolRunnerStream({ tools: { slow, other } });
    const out = live(source.stream.pipeThrough(runner));
    source.push(toolCall(0, "slow", {}));
    source.push(toolCall(1, "other", {}));
    await eventually(() => slow.runs.length === 1 && other.runs.length === 1, "both started");
    assertEquals(runner.cancelCall("call_0", "the user closed the panel"), true);
    const signal = slow.runs[0]!.context.signal;
    assert(
      signal.aborted && (signal.reason as DOMException).name === "AbortError",
      "its signal is aborted with an AbortError",
    );
    assert(!other.runs[0]!.context.signal.aborted, "the other call's signal is not");
    await eventually(() => outcomes(out.events).length === 1, "the cancelled error came at once");
    assertEquals(outcomes(out.events)[0], {
      type: "tool-error",
      index: 0,
      id: "call_0",
      name: "slow",
      error: {
        code: "cancelled",
        message: "This call was cancelled before it finished. Reason given: the user closed the panel",
        retryable: true,
      },
    });
    slow.runs[0]!.result.resolve("too late");
    other.runs[0]!.result.resolve("done");
    source.close();
    const events = await out.done;
    assertEquals(
      outcomes(events).map((e) => `${e.index}:${e.type}`),
      ["0:tool-error", "1:tool-result"],
      "a late result is dropped",
    );
    assertEquals(runner.cancelCall("call_0"), false, "a settled call cannot be cancelled");
    assertEquals(runner.cancelCall("no_such_call"), false);
  });

  test("a call waiting for its turn, or for approval, is cancelled without ever running; by index when there is no id", async () => {
    const tool = controlledTool();
    const guarded = controlledTool({ needsApproval: true });
    const source = openSource<ToolCallEvent>();
    const runner = new ToolRunnerStream({ tools: { t: tool, guarded }, concurrency: 1 });
    const out = live(source.stream.pipeThrough(runner));
    source.push(toolCall(0, "t", {}));
    source.push(toolCall(1, "t", {}, { id: null }));
    source.push(toolCall(2, "guarded", {}));
    await eventually(() => out.events.some((e) => e.type === "tool-approval-request"), "approval requested");
    assertEquals(runner.cancelCall(1), true, "the queued call, by index");
    assertEquals(runner.cancelCall("call_2"), true, "the call awaiting approval");
    assertEquals(runner.approve("call_2"), false, "no longer awaiting approval");
    tool.runs[0]!.result.resolve(1);
    source.close();
    const events = await out.done;
    assertEquals(tool.runs.length, 1, "the queued call never ran");
    assertEquals(guarded.runs.length, 0);
    assertEquals(
      outcomes(events).map((e) => `${e.index}:${e.type === "tool-error" ? e.error.code : "result"}`),
      ["1:cancelled", "2:cancelled", "0:result"],
    );
  });
});

group("ToolRunnerStream streaming handlers", (test) => {
  test("each value an async generator yields is a preliminary tool-result; the returned value is the final one", async () => {
    const events = await collect(
      new ReadableStream<ToolCallEvent>({
        start: (c) => (c.enqueue(toolCall(0, "table", { rows: 3 })), c.close()),
      }).pipeThrough(
        new ToolRunnerStream({
          tools: {
            table: {
              async *run(args) {
                const rows: JsonValue[] = [];
                for (let i = 0; i < (args as { rows: number }).rows; i++) {
                  rows.push(i);
                  yield { rows: [...rows] };
                }
                return { rows, complete: true };
              },
            },
          },
        }),
      ),
    );
    assertEquals(outcomes(events), [
      { type: "tool-result", index: 0, id: "call_0", name: "table", result: { rows: [0] }, preliminary: true },
      { type: "tool-result", index: 0, id: "call_0", name: "table", result: { rows: [0, 1] }, preliminary: true },
      { type: "tool-result", index: 0, id: "call_0", name: "table", result: { rows: [0, 1, 2] }, preliminary: true },
      { type: "tool-result", index: 0, id: "call_0", name: "table", result: { rows: [0, 1, 2], complete: true } },
    ]);
  });

  test("a generator that returns nothing ends with its last value; one that throws after yielding gives its error", async () => {
    const { ToolHandlerError } = await import("../../src/index.ts");
    const events = await collect(
      new ReadableStream<ToolCallEvent>({
        start: (c) => (c.enqueue(toolCall(0, "a", {})), c.enqueue(toolCall(1, "b", {})), c.close()),
      }).pipeThrough(
        new ToolRunnerStream({
          tools: {
            a: {
              async *run() {
                yield "half";
                yield "all";
              },
            },
            b: {
              async *run() {
                yield "half";
                throw new ToolHandlerError("The source went away; try again.", { retryable: true });
              },
            },
          },
        }),
      ),
    );
    const final = outcomes(events).filter((e) => !(e.type === "tool-result" && e.preliminary));
    assertEquals(
      final.find((e) => e.index === 0),
      { type: "tool-result", index: 0, id: "call_0", name: "a", result: "all" },
    );
    assertEquals(
      final.find((e) => e.index === 1),
      {
        type: "tool-error",
        index: 1,
        id: "call_1",
        name: "b",
        error: { code: "handler-failed", message: "The source went away; try again.", retryable: true },
      },
    );
  });

  test("limits apply to the whole: the timeout covers every value, and each value is held to maxResultBytes; the generator is stopped", async () => {
    const timers = manualTimers();
    const step = deferred<void>();
    let cleaned = false;
    const source = openSource<ToolCallEvent>();
    const out = live(
      source.stream.pipeThrough(
        new ToolRunnerStream({
          timers,
          timeoutMs: 1_000,
          maxResultBytes: 80,
          tools: {
            grow: {
              async *run() {
                try {
                  yield "x".repeat(10);
                  yield "y".repeat(200);
                  await step.promise;
                  yield "never";
                } finally {
                  cleaned = true;
                }
              },
            },
          },
        }),
      ),
    );
    source.push(toolCall(0, "grow", {}));
    await eventually(() => outcomes(out.events).length === 2, "two values so far");
    const [first, second] = outcomes(out.events) as ToolResultEvent[];
    assertEquals([first!.result, first!.preliminary, first!.truncated], ["x".repeat(10), true, undefined]);
    assert(
      second!.preliminary && second!.truncated && new TextEncoder().encode(second!.result as string).length <= 80,
      "the big value is cut to the cap",
    );
    timers.advance(1_000);
    await eventually(() => outcomes(out.events).length === 3, "the timeout");
    assertEquals((outcomes(out.events)[2] as ToolErrorEvent).error.code, "timeout");
    step.resolve();
    await eventually(() => cleaned, "the generator was stopped: its finally block ran");
    source.close();
    assertEquals(outcomes(await out.done).length, 3, "nothing after the timeout");
  });

  test("a streaming handler is pulled only as the consumer reads: a slow reader keeps it a bounded number of values ahead", async () => {
    let produced = 0;
    const source = openSource<ToolCallEvent>();
    const runner = new ToolRunnerStream({
      tools: {
        count: {
          async *run() {
            while (produced < 500) yield ++produced;
            return "done";
          },
        },
      },
    });
    const reader = source.stream.pipeThrough(runner).getReader();
    source.push(toolCall(0, "count", {}));
    source.close();
    let consumed = 0;
    let ahead = 0;
    for (;;) {
      // A slow consumer: many turns pass between two reads, in which an unbounded producer runs on.
      for (let i = 0; i < 50; i++) await Promise.resolve();
      ahead = Math.max(ahead, produced - consumed);
      const { done, value } = await reader.read();
      if (done) break;
      if (value.type === "tool-result" && value.preliminary) consumed++;
    }
    assertEquals([produced, consumed], [500, 500]);
    assert(ahead <= 2, `the handler ran ${ahead} values ahead of the reader`);
  });

  test("cancelCall stops a streaming handler between values", async () => {
    const gate = deferred<void>();
    let cleaned = false;
    const source = openSource<ToolCallEvent>();
    const runner = new ToolRunnerStream({
      tools: {
        feed: {
          async *run(_args, { signal }) {
            try {
              yield 1;
              await gate.promise;
              if (!signal.aborted) yield 2;
            } finally {
              cleaned = true;
            }
          },
        },
      },
    });
    const out = live(source.stream.pipeThrough(runner));
    source.push(toolCall(0, "feed", {}));
    await eventually(() => outcomes(out.events).length === 1, "first value");
    assert(runner.cancelCall("call_0"), "cancelled");
    gate.resolve();
    source.close();
    const events = await out.done;
    assertEquals(
      outcomes(events).map((e) => (e.type === "tool-error" ? e.error.code : e.result)),
      [1, "cancelled"],
    );
    await eventually(() => cleaned, "finally ran");
  });
});

group("ToolRunnerStream timings and validators", (test) => {
  test("with a clock, each result and each error of a handler that ran carries durationMs; without, none does", async () => {
    const clock = manualClock();
    const tool = controlledTool();
    const source = openSource<ToolCallEvent>();
    const out = live(
      source.stream.pipeThrough(
        new ToolRunnerStream({
          tools: { t: tool, nope: { run: () => Promise.reject(new Error("x")) } },
          clock: clock.now,
        }),
      ),
    );
    clock.set(1_000);
    source.push(toolCall(0, "t", {}));
    source.push(toolCall(1, "unknown", {}));
    await eventually(
      () => tool.runs.length === 1 && outcomes(out.events).length === 1,
      "started, and the unknown tool answered",
    );
    clock.set(1_250);
    tool.runs[0]!.result.resolve("ok");
    await eventually(() => outcomes(out.events).length === 2, "settled");
    source.push(toolCall(2, "nope", {}));
    source.close();
    const events = outcomes(await out.done);
    assertEquals(
      events.map((e) => [e.index, e.durationMs]),
      [
        [1, undefined],
        [0, 250],
        [2, 0],
      ],
    );
    const plain = outcomes(
      await collect(
        new ReadableStream<ToolCallEvent>({ start: (c) => (c.enqueue(toolCall(0, "t", {})), c.close()) }).pipeThrough(
          new ToolRunnerStream({ tools: { t: { run: () => 1 } } }),
        ),
      ),
    );
    assert(!("durationMs" in plain[0]!), "no clock, no duration");
  });

  test("a zod schema: the handler gets the output; a rejected call gives invalid-arguments with the paths and the required fields", async () => {
    const seen: unknown[] = [];
    const tools = {
      get_weather: defineTool({
        schema: z.object({ city: z.string().min(1), unit: z.enum(["c", "f"]).default("c") }),
        run: ({ city, unit }) => (seen.push({ city, unit }), `${city}:${unit}`),
      }),
    };
    const events = await collect(
      new ReadableStream<ToolCallEvent>({
        start: (c) => (
          c.enqueue(toolCall(0, "get_weather", { city: "Rome" })),
          c.enqueue(toolCall(1, "get_weather", { city: "" })),
          c.close()
        ),
      }).pipeThrough(new ToolRunnerStream({ tools })),
    );
    assertEquals(seen, [{ city: "Rome", unit: "c" }]);
    const error = outcomes(events).find((e) => e.type === "tool-error");
    assert(error?.type === "tool-error" && error.error.code === "invalid-arguments", JSON.stringify(outcomes(events)));
    assert(
      error.error.message.includes("$.city: ") && error.error.message.includes("required fields city"),
      error.error.message,
    );
  });

  test("an async validator: the call waits for it, and cancelCall while it runs means the handler never runs", async () => {
    const validator = manualWeather();
    const tool = controlledTool({ schema: validator });
    const source = openSource<ToolCallEvent>();
    const runner = new ToolRunnerStream({ tools: { w: tool } });
    const out = live(source.stream.pipeThrough(runner));
    source.push(toolCall(0, "w", { city: "Oslo", days: "3" }));
    source.push(toolCall(1, "w", { city: "Lima" }));
    await eventually(() => validator.pending.length === 2, "both validating");
    assert(tool.runs.length === 0, "not before the verdict");
    assert(runner.cancelCall("call_1"), "cancelled while validating");
    validator.pending[0]!.settle();
    validator.pending[1]!.settle();
    await eventually(() => tool.runs.length === 1, "the first runs with the output");
    assertEquals(tool.runs[0]!.args, { city: "Oslo", unit: "c", days: 3 });
    tool.runs[0]!.result.resolve("ok");
    source.close();
    assertEquals(
      outcomes(await out.done).map((e) => `${e.index}:${e.type}`),
      ["1:tool-error", "0:tool-result"],
    );
    assertEquals(tool.runs.length, 1);
  });

  test("a validator that never settles: after validationTimeoutMs the call gives a retryable timeout error and the handler never runs", async () => {
    const validator = manualWeather();
    const timers = manualTimers();
    let ran = 0;
    const source = openSource<ToolCallEvent>();
    const runner = new ToolRunnerStream({
      tools: { get_weather: { schema: validator, run: () => ++ran } },
      validationTimeoutMs: 200,
      timers,
    });
    const out = live(source.stream.pipeThrough(runner));
    source.push(toolCall(0, "get_weather", { city: "Oslo" }));
    source.close();
    await eventually(() => validator.pending.length === 1, "validating");
    assertEquals(timers.pending, [200]);
    timers.advance(200);
    const events = outcomes(await out.done);
    assertEquals(
      events.map((e) => (e.type === "tool-error" ? [e.error.code, e.error.retryable, e.error.message] : e.type)),
      [["timeout", true, "The validator of get_weather did not settle within 200 ms."]],
    );
    validator.pending[0]!.settle();
    for (let i = 0; i < 20; i++) await Promise.resolve();
    assertEquals(ran, 0, "the handler never ran");
  });

  test("a call streamToolCalls already validated with the same validator is not validated again (a transform applies once)", async () => {
    const schema = z.object({ n: z.number().transform((n) => n * 10) });
    const seen: unknown[] = [];
    const args = '{"n": 2}';
    const chunks = [
      bytes(
        openAISSE([
          chatChunk(
            { tool_calls: [{ index: 0, id: "c", type: "function", function: { name: "x", arguments: args } }] },
            "tool_calls",
          ),
        ]),
      ),
    ];
    const events = await collect(
      streamToolCalls(recordingSource(chunks).stream, {
        provider: "openai",
        tools: [{ name: "x", schema }],
      }).pipeThrough(new ToolRunnerStream({ tools: { x: { schema, run: (a) => (seen.push(a), "ok") } } })),
    );
    assertEquals(seen, [{ n: 20 }]);
    assert(
      outcomes(events).some((e) => e.type === "tool-result"),
      "ran",
    );
  });
});

group("runToolLoop per-call control", (test) => {
  test("cancelCall: that call's cancelled error is what the next request sends for it, the other call's result goes too", async () => {
    const recorded = openaiWeatherTwoCities;
    // Bodies as JS streams: a runtime's native body (workerd's) is read in I/O turns, which the
    // microtask turns of `eventually` never give.
    const model = { requests: [] as { messages: readonly unknown[] }[] };
    const streamed = (request: { step: number; messages: readonly unknown[] }): Promise<Response> => {
      model.requests.push(request);
      const text = recorded.steps[request.step - 1]!.response;
      return Promise.resolve(new Response(new ReadableStream({ start: (c) => (c.enqueue(bytes(text)), c.close()) })));
    };
    const slow = controlledTool();
    const clock = manualClock();
    const loop = runToolLoop({
      provider: "openai",
      messages: [],
      tools: { get_weather: slow },
      call: streamed,
      clock: clock.now,
    });
    const out = live(loop);
    await eventually(() => slow.runs.length === 2, "both calls run", 5000);
    const [first, second] = slow.runs;
    clock.set(30);
    assertEquals(loop.cancelCall(first!.context.call.id!, "taking too long"), true);
    assert(first!.context.signal.aborted, "its handler is aborted");
    second!.result.resolve("15 degrees");
    const events = await out.done;
    const final = events.at(-1);
    assert(final?.type === "loop-finish" && final.reason === "no-tool-calls", JSON.stringify(final));
    const tools = model.requests[1]!.messages.filter((m) => (m as { role: string }).role === "tool") as {
      tool_call_id: string;
      content: string;
    }[];
    assertEquals(
      tools.map((m) => m.content),
      ["This call was cancelled before it finished. Reason given: taking too long", "15 degrees"],
    );
    const call = events.find((e) => e.type === "tool-call");
    assert(
      call?.type === "tool-call" && typeof call.startedAt === "number" && typeof call.completedAt === "number",
      "the loop's clock times the arguments",
    );
    const result = events.find((e) => e.type === "tool-result");
    assert(result?.type === "tool-result" && result.durationMs === 30, JSON.stringify(result));
    assertEquals(loop.cancelCall(first!.context.call.id!), false, "nothing left to cancel");
  });

  test("preliminary results pass through tagged with their step, and only the final one goes back to the model", async () => {
    const recorded = openaiWeatherTwoCities;
    const model = replayModel(recorded.steps.map((s) => s.response));
    const events = await collect(
      runToolLoop({
        provider: "openai",
        messages: [],
        tools: {
          get_weather: {
            async *run() {
              yield "looking";
              return "sunny";
            },
          },
        },
        call: model.call,
      }),
    );
    const preliminary = events.filter((e) => e.type === "tool-result" && e.preliminary);
    assertEquals(
      preliminary.map((e) => (e.type === "tool-result" ? [e.step, e.result] : [])),
      [
        [1, "looking"],
        [1, "looking"],
      ],
    );
    const tools = model.requests[1]!.messages.filter((m) => (m as { role: string }).role === "tool") as {
      content: string;
    }[];
    assertEquals(
      tools.map((m) => m.content),
      ["sunny", "sunny"],
    );
  });
});

group("toolDefinitions with validators", (test) => {
  const schema = z.object({ city: z.string() });
  const json = { type: "object", properties: { city: { type: "string" } }, required: ["city"] };

  test("a handler's validator gives its JSON Schema, in each provider's shape (Gemini's parametersJsonSchema); parameters given win", () => {
    const tools = {
      w: defineTool({ description: "Weather.", schema, run: () => "" }),
      p: { parameters: { type: "object" }, schema, run: () => "" },
      h: { schema: syncWeather(), run: () => "" },
    };
    assertEquals(toolDefinitions("openai", tools), [
      { type: "function", function: { name: "w", description: "Weather.", parameters: json } },
      { type: "function", function: { name: "p", parameters: { type: "object" } } },
      { type: "function", function: { name: "h", parameters: { type: "object", properties: {} } } },
    ]);
    assertEquals(toolDefinitions("anthropic", { w: tools.w }), [
      { name: "w", description: "Weather.", input_schema: json },
    ]);
    assertEquals(toolDefinitions("openai-responses", { w: tools.w }), [
      { type: "function", name: "w", description: "Weather.", parameters: json },
    ]);
    assertEquals(toolDefinitions("gemini", tools), [
      {
        functionDeclarations: [
          { name: "w", description: "Weather.", parametersJsonSchema: json },
          { name: "p", parameters: { type: "object" } },
          { name: "h", parameters: { type: "object", properties: {} } },
        ],
      },
    ]);
  });

  test("a list of definitions, as streamToolCalls takes them: validators and any provider's shape", () => {
    const list = [
      { name: "get_weather", description: "Weather.", schema },
      { type: "function", function: { name: "f", description: "F.", parameters: { type: "object" } } },
      { name: "a", input_schema: { type: "object", required: ["x"] } },
    ] as const;
    assertEquals(toolDefinitions("openai", list), [
      { type: "function", function: { name: "get_weather", description: "Weather.", parameters: json } },
      { type: "function", function: { name: "f", description: "F.", parameters: { type: "object" } } },
      { type: "function", function: { name: "a", parameters: { type: "object", required: ["x"] } } },
    ]);
    assertEquals(toolDefinitions("gemini", list.slice(0, 1)), [
      { functionDeclarations: [{ name: "get_weather", description: "Weather.", parametersJsonSchema: json }] },
    ]);
  });
});
