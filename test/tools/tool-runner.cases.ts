import {
  streamToolCalls,
  ToolHandlerError,
  ToolRunner,
  ToolRunnerStream,
  type ToolCallEvent,
  type ToolErrorEvent,
  type ToolResultEvent,
  type ToolRunnerEvent,
  type ToolRunnerOptions,
} from "../../src/index.ts";
import { fitResult } from "../../src/tools/tool-outcome.ts";
import { allFixtures } from "../support/fixtures.ts";
import { assert, assertEquals, group } from "../support/harness.ts";
import { eventually } from "../support/sources.ts";
import { bytes, chatChunk, collect, fromChunks, openAISSE } from "../support/streams.ts";
import { controlledTool, live, manualTimers, openSource, toolCall } from "../support/tool-fakes.ts";

const finish: ToolCallEvent = {
  type: "finish",
  reason: "tool-calls",
  rawReason: "tool_calls",
  toolCalls: [],
  invalidToolCalls: [],
  text: "",
  reasoning: "",
};

/** Runs `events` through a runner and collects everything it emits. */
function run(events: readonly ToolCallEvent[], options: ToolRunnerOptions): Promise<ToolRunnerEvent[]> {
  return collect(fromChunks(events).pipeThrough(new ToolRunnerStream(options)));
}

const outcomes = (events: readonly ToolRunnerEvent[]): (ToolResultEvent | ToolErrorEvent)[] =>
  events.filter((e): e is ToolResultEvent | ToolErrorEvent => e.type === "tool-result" || e.type === "tool-error");

function onlyError(events: readonly ToolRunnerEvent[]): ToolErrorEvent {
  const found = outcomes(events);
  assertEquals(found.length, 1, "one outcome");
  const [first] = found;
  assert(first?.type === "tool-error", `a tool-error: ${JSON.stringify(found)}`);
  return first;
}

group("ToolRunnerStream handlers", (test) => {
  test("passes every input event through in order and adds one tool-result per call", async () => {
    const input: ToolCallEvent[] = [
      { type: "text-delta", text: "Adding." },
      toolCall(0, "add", { a: 2, b: 3 }),
      finish,
    ];
    const events = await run(input, {
      tools: { add: { run: (args) => (args as { a: number; b: number }).a + (args as { a: number; b: number }).b } },
    });
    assertEquals(
      events.filter((e) => e.type !== "tool-result"),
      input,
    );
    assertEquals(outcomes(events), [{ type: "tool-result", index: 0, id: "call_0", name: "add", result: 5 }]);
  });

  test("the handler gets the parsed arguments, the call and a live signal", async () => {
    const tool = controlledTool();
    const source = openSource<ToolCallEvent>();
    const out = live(source.stream.pipeThrough(new ToolRunnerStream({ tools: { t: tool } })));
    source.push(toolCall(3, "t", { city: "杭州" }, { choice: 1 }));
    await eventually(() => tool.runs.length === 1, "the handler started");
    const [runOf] = tool.runs;
    assertEquals(runOf!.args, { city: "杭州" });
    assertEquals([runOf!.context.call.id, runOf!.context.call.index, runOf!.context.call.name], ["call_3", 3, "t"]);
    assert(!("type" in runOf!.context.call), "the call is a plain ToolCall");
    assert(!runOf!.context.signal.aborted, "not aborted while running");
    runOf!.result.resolve({ ok: true });
    await eventually(() => out.events.length === 2, "the result came while the input is open");
    assertEquals(out.events[1], {
      type: "tool-result",
      index: 3,
      id: "call_3",
      name: "t",
      result: { ok: true },
      choice: 1,
    });
    source.close();
    assertEquals((await out.done).length, 2, "the output closes when the input has and every call settled");
  });

  test("a handler that throws gives handler-failed without its internal message", async () => {
    const events = await run([toolCall(0, "db", {}), finish], {
      tools: {
        db: {
          run: () => {
            throw new Error("connect ECONNREFUSED 10.0.0.7:5432 password=hunter2");
          },
        },
      },
    });
    const error = onlyError(events).error;
    assertEquals([error.code, error.retryable], ["handler-failed", false]);
    assert(
      !error.message.includes("hunter2") && !error.message.includes("10.0.0.7"),
      "internal error text never reaches the model",
    );
  });

  test("a handler that rejects with a ToolHandlerError tells the model why, and whether to retry", async () => {
    const events = await run([toolCall(0, "weather", { city: "Atlantis" }), finish], {
      tools: {
        weather: {
          run: () =>
            Promise.reject(
              new ToolHandlerError('Unknown city; pass a real city name such as "Paris".', { retryable: false }),
            ),
        },
      },
    });
    assertEquals(onlyError(events).error, {
      code: "handler-failed",
      message: 'Unknown city; pass a real city name such as "Paris".',
      retryable: false,
    });
  });

  test("a handler that hangs past its timeout is aborted and gives a retryable timeout error", async () => {
    const timers = manualTimers();
    const tool = controlledTool({ timeoutMs: 250 });
    const source = openSource<ToolCallEvent>();
    const out = live(
      source.stream.pipeThrough(new ToolRunnerStream({ tools: { slow: tool }, timeoutMs: 10_000, timers })),
    );
    source.push(toolCall(0, "slow", {}));
    await eventually(() => tool.runs.length === 1, "started");
    assertEquals(timers.pending, [250], "the tool's own timeout overrides the runner's");
    timers.advance(249);
    assert(!tool.runs[0]!.context.signal.aborted, "not before its time");
    timers.advance(1);
    const signal = tool.runs[0]!.context.signal;
    assert(
      signal.aborted && (signal.reason as { name?: string }).name === "TimeoutError",
      "the signal is aborted with a TimeoutError",
    );
    await eventually(() => out.events.length === 2, "the timeout error came while the input is open");
    const error = onlyError(out.events).error;
    assertEquals([error.code, error.retryable], ["timeout", true]);
    assert(error.message.includes("250 ms"), "the message says the limit");
    tool.runs[0]!.result.resolve("too late");
    source.close();
    assertEquals(outcomes(await out.done).length, 1, "a late result is dropped");
    assertEquals(timers.pending, [], "no timer left behind");
  });

  test("a result that settles before the timeout clears its timer", async () => {
    const timers = manualTimers();
    const events = await run([toolCall(0, "now", {}), finish], { tools: { now: { run: () => "12:00" } }, timers });
    assertEquals(
      outcomes(events).map((e) => e.type),
      ["tool-result"],
    );
    assertEquals(timers.pending, []);
  });
});

group("ToolRunnerStream results", (test) => {
  test("an oversize string is cut to maxResultBytes with a marker and truncated: true", async () => {
    const events = await run([toolCall(0, "read", {}), finish], {
      tools: { read: { run: () => "x".repeat(500) } },
      maxResultBytes: 100,
    });
    const [result] = outcomes(events);
    assert(
      result?.type === "tool-result" && result.truncated === true && typeof result.result === "string",
      "truncated string",
    );
    const text = result.result as string;
    assertEquals(new TextEncoder().encode(text).length, 100, "exactly at the cap, marker included");
    assert(text.startsWith("xxxx") && text.endsWith("[truncated: the result was 500 bytes; the limit is 100]"), text);
  });

  test("an oversize object becomes its JSON text cut short, never split inside a character", async () => {
    const big = { city: "杭州".repeat(100) };
    const events = await run([toolCall(0, "read", {}), finish], {
      tools: { read: { run: () => big } },
      maxResultBytes: 120,
    });
    const [result] = outcomes(events);
    assert(result?.type === "tool-result" && result.truncated === true, "truncated");
    const text = result.result as string;
    assert(new TextEncoder().encode(text).length <= 120, "within the cap");
    const kept = text.slice(0, text.indexOf("\n[truncated"));
    assert(
      JSON.stringify(big).startsWith(kept) && !kept.includes("\uFFFD"),
      "a prefix of the JSON text, whole characters only",
    );
    assert(
      text.includes(`the result was ${new TextEncoder().encode(JSON.stringify(big)).length} bytes`),
      "the original size is given",
    );
  });

  test("a result at the cap is untouched; undefined is null; a value JSON cannot carry is a handler-failed error", async () => {
    const exact = "y".repeat(62); // a string counts its own bytes, not its JSON quotes
    const events = await run([toolCall(0, "a", {}), toolCall(1, "b", {}), toolCall(2, "c", {}), finish], {
      tools: {
        a: { run: () => exact },
        b: { run: () => undefined as unknown as null },
        c: { run: () => ({ n: 10n }) as never },
      },
      maxResultBytes: 62,
    });
    const byIndex = new Map(outcomes(events).map((e) => [e.index, e]));
    assertEquals(byIndex.get(0), { type: "tool-result", index: 0, id: "call_0", name: "a", result: exact });
    assertEquals(byIndex.get(1), { type: "tool-result", index: 1, id: "call_1", name: "b", result: null });
    assert(byIndex.get(2)?.type === "tool-error" && byIndex.get(2)!.type === "tool-error", "not JSON");
    assertEquals((byIndex.get(2) as ToolErrorEvent).error.code, "handler-failed");
  });
});

group("ToolRunnerStream scheduling", (test) => {
  test("parallel calls all start at once and their results come in the order they finish", async () => {
    const tool = controlledTool();
    const source = openSource<ToolCallEvent>();
    const out = live(source.stream.pipeThrough(new ToolRunnerStream({ tools: { t: tool } })));
    for (const i of [0, 1, 2]) source.push(toolCall(i, "t", { i }));
    source.push(finish);
    source.close();
    await eventually(() => tool.runs.length === 3, "all three started before any finished");
    for (const i of [2, 0, 1]) tool.runs[i]!.result.resolve(`done ${i}`);
    const results = outcomes(await out.done);
    assertEquals(
      results.map((e) => [e.index, e.type === "tool-result" && e.result]),
      [
        [2, "done 2"],
        [0, "done 0"],
        [1, "done 1"],
      ],
    );
  });

  test("the concurrency limit is honoured and waiting calls start in arrival order as others finish", async () => {
    const tool = controlledTool();
    const source = openSource<ToolCallEvent>();
    const out = live(source.stream.pipeThrough(new ToolRunnerStream({ tools: { t: tool }, concurrency: 2 })));
    for (const i of [0, 1, 2, 3, 4]) source.push(toolCall(i, "t", i));
    source.close();
    await eventually(() => tool.runs.length === 2, "two started");
    for (let i = 0; i < 50; i++) await Promise.resolve();
    assertEquals(tool.runs.length, 2, "no third before one finishes");
    tool.runs[1]!.result.resolve(1);
    await eventually(() => tool.runs.length === 3, "a place freed, the next starts");
    assertEquals(
      tool.runs.map((r) => r.args),
      [0, 1, 2],
    );
    tool.runs[0]!.result.resolve(0);
    tool.runs[2]!.result.resolve(2);
    await eventually(() => tool.runs.length === 5, "the rest start");
    tool.runs[3]!.result.resolve(3);
    tool.runs[4]!.result.resolve(4);
    const events = await out.done;
    assertEquals(tool.peak, 2, "never more than two at once");
    assertEquals(outcomes(events).length, 5);
  });

  test("a call starts the moment its tool-call arrives, while the input is still open", async () => {
    const tool = controlledTool();
    const source = openSource<ToolCallEvent>();
    const out = live(source.stream.pipeThrough(new ToolRunnerStream({ tools: { t: tool } })));
    source.push({ type: "tool-call-start", index: 0, id: "call_0", name: "t" });
    source.push(toolCall(0, "t", {}));
    await eventually(() => tool.runs.length === 1, "the handler runs before the response ends");
    tool.runs[0]!.result.resolve("early");
    await eventually(() => out.events.length === 3, "its result arrives before the response ends");
    assertEquals(
      out.events.map((e) => e.type),
      ["tool-call-start", "tool-call", "tool-result"],
    );
    source.push(finish);
    source.close();
    assertEquals(
      (await out.done).map((e) => e.type),
      ["tool-call-start", "tool-call", "tool-result", "finish"],
    );
  });

  test("calls run as they complete in a real recording: every parallel call of OpenAI gets its result", async () => {
    const fixture = allFixtures.find((f) => f.provider === "openai" && f.name === "chat-parallel-tool-calls-usage")!;
    const seenArgs: unknown[] = [];
    const tools = Object.fromEntries(
      fixture.expected.toolCalls.map((c) => [
        c.name,
        { run: (args: unknown) => (seenArgs.push(args), `ran ${c.name}`) },
      ]),
    );
    const events = await collect(
      streamToolCalls(fromChunks([fixture.body]), { provider: "openai" }).pipeThrough(new ToolRunnerStream({ tools })),
    );
    assertEquals(
      seenArgs,
      fixture.expected.toolCalls.map((c) => c.arguments),
    );
    assertEquals(
      outcomes(events)
        .map((e) => [e.id, e.name, e.type === "tool-result" && e.result])
        .sort(),
      fixture.expected.toolCalls.map((c) => [c.id, c.name, `ran ${c.name}`]).sort(),
    );
  }).needs("recordings");
});

group("ToolRunnerStream cancellation", (test) => {
  test("cancelling the output aborts every running handler's signal and cancels the input", async () => {
    const tool = controlledTool();
    const source = openSource<ToolCallEvent>();
    const out = live(source.stream.pipeThrough(new ToolRunnerStream({ tools: { t: tool } })));
    for (const i of [0, 1, 2]) source.push(toolCall(i, "t", {}));
    await eventually(() => tool.runs.length === 3, "three running");
    await out.cancel("user left");
    assert(
      tool.runs.every((r) => r.context.signal.aborted && r.context.signal.reason === "user left"),
      "every handler saw its signal aborted",
    );
    await eventually(() => source.cancelled !== undefined, "the input was cancelled");
    assertEquals(source.cancelled?.reason, "user left");
  });

  test("the signal option aborts running handlers; they and later calls give cancelled errors, and the stream still ends", async () => {
    const tool = controlledTool();
    const abort = new AbortController();
    const source = openSource<ToolCallEvent>();
    const out = live(source.stream.pipeThrough(new ToolRunnerStream({ tools: { t: tool }, signal: abort.signal })));
    source.push(toolCall(0, "t", {}));
    source.push(toolCall(1, "t", {}));
    await eventually(() => tool.runs.length === 2, "running");
    abort.abort("stop");
    assert(
      tool.runs.every((r) => r.context.signal.aborted),
      "handlers aborted",
    );
    source.push(toolCall(2, "t", {}));
    source.close();
    const events = await out.done;
    assertEquals(tool.runs.length, 2, "no call starts after the signal");
    assertEquals(
      outcomes(events).map((e) => [e.index, e.type === "tool-error" && e.error.code]),
      [
        [0, "cancelled"],
        [1, "cancelled"],
        [2, "cancelled"],
      ],
    );
  });

  test("an aborted input aborts the running handlers too", async () => {
    const tool = controlledTool();
    const runner = new ToolRunnerStream({ tools: { t: tool } });
    const out = live(runner.readable);
    const writer = runner.writable.getWriter();
    await writer.write(toolCall(0, "t", {}));
    await eventually(() => tool.runs.length === 1, "running");
    await writer.abort("upstream failed");
    await eventually(() => tool.runs[0]!.context.signal.aborted, "the handler's signal is aborted");
    assertEquals(tool.runs[0]!.context.signal.reason, "upstream failed");
    let failed = false;
    await out.done.catch(() => (failed = true));
    assert(failed, "the output errors, as WHATWG streams do when their input errors");
  });
});

group("ToolRunnerStream approval", (test) => {
  const write = () => controlledTool({ needsApproval: true });

  test("approve(id): the request carries the arguments and the handler runs only after approval", async () => {
    const tool = write();
    const source = openSource<ToolCallEvent>();
    const runner = new ToolRunnerStream({ tools: { delete_file: tool } });
    const out = live(source.stream.pipeThrough(runner));
    source.push(toolCall(0, "delete_file", { path: "/tmp/a" }));
    source.close();
    await eventually(() => out.events.length === 2, "the request is emitted");
    assertEquals(out.events[1], {
      type: "tool-approval-request",
      index: 0,
      id: "call_0",
      name: "delete_file",
      arguments: { path: "/tmp/a" },
    });
    for (let i = 0; i < 50; i++) await Promise.resolve();
    assertEquals(tool.runs.length, 0, "nothing runs before approval");
    assertEquals(runner.approve("no_such_call"), false);
    assertEquals(runner.approve("call_0"), true);
    await eventually(() => tool.runs.length === 1, "runs once approved");
    assertEquals(runner.approve("call_0"), false, "a call is approved once");
    tool.runs[0]!.result.resolve("deleted");
    assertEquals(outcomes(await out.done), [
      { type: "tool-result", index: 0, id: "call_0", name: "delete_file", result: "deleted" },
    ]);
  });

  test("deny(id, reason): a denied error the model can read, and the handler never runs", async () => {
    const tool = write();
    const source = openSource<ToolCallEvent>();
    const runner = new ToolRunnerStream({ tools: { delete_file: tool } });
    const out = live(source.stream.pipeThrough(runner));
    source.push(toolCall(0, "delete_file", { path: "/" }));
    source.close();
    await eventually(() => out.events.some((e) => e.type === "tool-approval-request"), "the request is emitted");
    assert(runner.deny("call_0", "deleting the root is not allowed"), "denied");
    const error = onlyError(await out.done).error;
    assertEquals([error.code, error.retryable], ["denied", false]);
    assert(
      error.message.includes("not approve") && error.message.includes("deleting the root is not allowed"),
      error.message,
    );
    assertEquals(tool.runs.length, 0);
  });

  test("a call without an id is approved by its index", async () => {
    const tool = write();
    const runner = new ToolRunnerStream({ tools: { w: tool } });
    const out = collect(fromChunks<ToolCallEvent>([toolCall(4, "w", {}, { id: null })]).pipeThrough(runner));
    await eventually(() => runner.approve(4), "approved by index");
    await eventually(() => tool.runs.length === 1, "runs");
    tool.runs[0]!.result.resolve(1);
    assertEquals(
      outcomes(await out).map((e) => e.type),
      ["tool-result"],
    );
  });

  test("the approve callback grants one call and denies another; a failing callback denies", async () => {
    const tool = write();
    const asked: unknown[] = [];
    const events = await run(
      [
        toolCall(0, "w", { path: "/tmp/x" }),
        toolCall(1, "w", { path: "/etc/passwd" }),
        toolCall(2, "w", { path: "boom" }),
        finish,
      ],
      {
        tools: { w: { ...tool, run: (args) => `wrote ${(args as { path: string }).path}` } },
        approve: async (request) => {
          asked.push(request.arguments);
          const path = (request.arguments as { path: string }).path;
          if (path === "boom") throw new Error("policy service down");
          return path.startsWith("/tmp/");
        },
      },
    );
    assertEquals(asked, [{ path: "/tmp/x" }, { path: "/etc/passwd" }, { path: "boom" }]);
    assertEquals(
      events.filter((e) => e.type === "tool-approval-request").length,
      3,
      "the requests are emitted with a callback too",
    );
    const byIndex = new Map(outcomes(events).map((e) => [e.index, e]));
    assertEquals(byIndex.get(0), { type: "tool-result", index: 0, id: "call_0", name: "w", result: "wrote /tmp/x" });
    assertEquals((byIndex.get(1) as ToolErrorEvent).error.code, "denied");
    assertEquals((byIndex.get(2) as ToolErrorEvent).error.code, "denied");
    assert(
      !(byIndex.get(2) as ToolErrorEvent).error.message.includes("policy service"),
      "the callback's error is not passed on",
    );
  });
});

group("ToolRunnerStream calls it cannot run", (test) => {
  test("an unknown tool gives a tool-error that lists the tools that exist, never a crash", async () => {
    const events = await run([toolCall(0, "get_wether", { city: "Paris" }), finish], {
      tools: { get_weather: { run: () => 1 }, get_time: { run: () => 2 } },
    });
    const error = onlyError(events).error;
    assertEquals(error, {
      code: "unknown-tool",
      message: "No tool of that name exists. Call one of: get_weather, get_time.",
      retryable: false,
    });
    assertEquals(
      events.map((e) => e.type),
      ["tool-call", "tool-error", "finish"],
      "the stream goes on to its end",
    );
  });

  test("a name that is only an inherited property is unknown", async () => {
    const events = await run([toolCall(0, "constructor", {}), toolCall(1, "__proto__", {}), finish], {
      tools: { a: { run: () => 1 } },
    });
    assertEquals(
      outcomes(events).map((e) => e.type === "tool-error" && e.error.code),
      ["unknown-tool", "unknown-tool"],
    );
  });

  test("an invalid-tool-call says where the JSON broke and which fields are expected", async () => {
    const sse = openAISSE([
      chatChunk(
        { tool_calls: [{ index: 0, id: "call_x", function: { name: "get_weather", arguments: '{"city": Paris}' } }] },
        "tool_calls",
      ),
    ]);
    const tool = controlledTool({
      parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
    });
    const events = await collect(
      streamToolCalls(fromChunks([bytes(sse)]), { provider: "openai", repair: false }).pipeThrough(
        new ToolRunnerStream({ tools: { get_weather: tool } }),
      ),
    );
    const error = onlyError(events);
    assertEquals([error.id, error.error.code, error.error.retryable], ["call_x", "invalid-arguments", false]);
    assert(/not valid JSON \(parsing failed at character \d+\)/.test(error.error.message), error.error.message);
    assert(error.error.message.includes("required fields city"), error.error.message);
    assert(!error.error.message.includes("Paris"), "the model's arguments are not repeated");
    assertEquals(tool.runs.length, 0);
  });

  test("arguments that do not match the tool's parameters give invalid-arguments with the issues, and the handler never runs", async () => {
    const tool = controlledTool({
      parameters: {
        type: "object",
        properties: { city: { type: "string" }, days: { type: "integer" } },
        required: ["city"],
      },
    });
    const events = await run([toolCall(0, "forecast", { days: 2.5 }), finish], { tools: { forecast: tool } });
    const error = onlyError(events).error;
    assertEquals(error.code, "invalid-arguments");
    assert(
      error.message.includes("$.city is required") && error.message.includes("$.days must be integer, not number"),
      error.message,
    );
    assertEquals(tool.runs.length, 0);
  });

  test("an invalid call to an unknown tool is reported as unknown-tool", async () => {
    const events = await run(
      [
        {
          type: "invalid-tool-call",
          index: 0,
          id: "c",
          name: "nope",
          rawArguments: "{",
          error: { code: "invalid-json", message: "x", position: 1 },
        },
        finish,
      ],
      { tools: { yes: { run: () => 1 } } },
    );
    assertEquals(onlyError(events).error.code, "unknown-tool");
  });

  test("a call the provider executed is passed through and never run or answered", async () => {
    const tool = controlledTool();
    const events = await run([toolCall(0, "web_search", { query: "x" }, { providerExecuted: true }), finish], {
      tools: { web_search: tool },
    });
    assertEquals(tool.runs.length, 0);
    assertEquals(outcomes(events), []);
    assertEquals(
      events.map((e) => e.type),
      ["tool-call", "finish"],
    );
  });
});

group("ToolRunner core and fitResult", (test) => {
  test("the core runs without streams: push emits through, idle waits for every outcome", async () => {
    const emitted: ToolRunnerEvent[] = [];
    const tool = controlledTool();
    const runner = new ToolRunner((event) => emitted.push(event), { tools: { t: tool } });
    runner.push(toolCall(0, "t", { x: 1 }));
    assertEquals(tool.runs.length, 1, "started synchronously inside push");
    let idle = false;
    const waiting = runner.idle().then(() => (idle = true));
    for (let i = 0; i < 20; i++) await Promise.resolve();
    assert(!idle, "not idle while a call runs");
    tool.runs[0]!.result.resolve("ok");
    await waiting;
    assertEquals(
      emitted.map((e) => e.type),
      ["tool-call", "tool-result"],
    );
  });

  test("fitResult never splits a surrogate pair and never exceeds the cap", () => {
    const text = "😀".repeat(40); // 160 UTF-8 bytes
    for (const cap of [70, 71, 72, 73, 100]) {
      const fitted = fitResult(text, cap);
      assert(
        "result" in fitted && fitted.truncated === true && typeof fitted.result === "string",
        `truncated at ${cap}`,
      );
      const kept = fitted.result.slice(0, fitted.result.indexOf("\n[truncated"));
      assert(new TextEncoder().encode(fitted.result as string).length <= cap, `within ${cap}`);
      assertEquals(kept, "😀".repeat(kept.length / 2), `whole characters at ${cap}`);
    }
    assertEquals(fitResult({ a: [1, 2] }, 100), { result: { a: [1, 2] } });
  });

  test("a concurrency of 0 or NaN still runs calls, one at a time", async () => {
    for (const concurrency of [0, Number.NaN]) {
      const events = await run([toolCall(0, "t", {}), toolCall(1, "t", {}), finish], {
        tools: { t: { run: () => 1 } },
        concurrency,
      });
      assertEquals(outcomes(events).length, 2, `concurrency ${concurrency}`);
    }
  });
});
