import fc from "fast-check";
import { z } from "zod";
import {
  eventStep,
  toolCallTimings,
  toolSchemaValidator,
  ToolCallAccumulator,
  ToolCallAccumulatorStream,
  validateToolCalls,
  type ProviderDelta,
  type ToolCallEvent,
  type ToolDefinition,
} from "../../src/index.ts";
import { assert, assertEquals, group } from "../support/harness.ts";
import { eventually } from "../support/sources.ts";
import { collect, fromChunks } from "../support/streams.ts";
import { live } from "../support/tool-fakes.ts";
import { asyncWeather, manualWeather, syncWeather } from "../support/validators.ts";

const chunk = (index: number, argumentsDelta: string, name?: string): ProviderDelta => ({
  type: "tool-call-chunk",
  index,
  ...(name !== undefined ? { id: `call_${index}`, name } : {}),
  argumentsDelta,
});
const end = (index: number): ProviderDelta => ({ type: "tool-call-end", index });
const finish: ProviderDelta = { type: "finish", rawReason: "tool_calls", reason: "tool-calls" };
const text = (value: string): ProviderDelta => ({ type: "text-delta", text: value });

/** Deltas one per pull, counting pulls: a stage that applies backpressure stops pulling. */
function countingSource(deltas: readonly ProviderDelta[]): {
  stream: ReadableStream<ProviderDelta>;
  readonly pulled: number;
} {
  let pulled = 0;
  const stream = new ReadableStream<ProviderDelta>(
    {
      pull(controller) {
        if (pulled < deltas.length) controller.enqueue(deltas[pulled++]!);
        else controller.close();
      },
    },
    { highWaterMark: 0 },
  );
  return {
    stream,
    get pulled() {
      return pulled;
    },
  };
}

const stage = (tools: readonly ToolDefinition[]): ToolCallAccumulatorStream =>
  new ToolCallAccumulatorStream({ validator: toolSchemaValidator(tools), output: [validateToolCalls(tools)] });

const types = (events: readonly ToolCallEvent[]): string[] => events.map((e) => e.type);

group("validateToolCalls", (test) => {
  test("zod: the tool-call carries the validator's output, rawArguments the text as sent, and the finish agrees", async () => {
    const tools = [
      {
        name: "get_weather",
        schema: z.object({
          city: z.string(),
          unit: z.enum(["c", "f"]).default("c"),
          days: z.coerce.number().optional(),
        }),
      },
    ];
    const events = await collect(
      fromChunks([
        chunk(0, '{"city": "Paris", ', "get_weather"),
        chunk(0, '"days": "3"}'),
        finish,
        { type: "done" } as ProviderDelta,
      ]).pipeThrough(stage(tools)),
    );
    const call = events.find((e) => e.type === "tool-call");
    assert(call?.type === "tool-call", types(events).join());
    assertEquals(call.arguments, { city: "Paris", unit: "c", days: 3 });
    assertEquals(call.rawArguments, '{"city": "Paris", "days": "3"}');
    const last = events.at(-1);
    assert(last?.type === "finish", "finish");
    assertEquals(
      last.toolCalls.map((c) => c.arguments),
      [{ city: "Paris", unit: "c", days: 3 }],
    );
  });

  test("a rejected call becomes an invalid-tool-call with each issue's path, listed with the invalid calls of the finish in index order", async () => {
    const tools = [
      { name: "get_weather", schema: syncWeather() },
      { type: "function", function: { name: "other", parameters: { type: "object", required: ["x"] } } },
    ] as const;
    const deltas = [
      chunk(0, '{"city": "", "stops": [{"name": "a"}, {}]}', "get_weather"),
      chunk(1, "{}", "other"),
      chunk(2, '{"city": "Rome"}', "get_weather"),
      finish,
    ];
    const events = await collect(fromChunks(deltas).pipeThrough(stage(tools)));
    const invalid = events.filter((e) => e.type === "invalid-tool-call");
    assertEquals(
      invalid.map((e) => e.index),
      [0, 1],
    );
    assertEquals(invalid[0], {
      type: "invalid-tool-call",
      index: 0,
      id: "call_0",
      name: "get_weather",
      rawArguments: '{"city": "", "stops": [{"name": "a"}, {}]}',
      error: {
        code: "schema-mismatch",
        message: "The tool arguments do not match the schema of get_weather.",
        issues: ["$.city: Expected a city name", "$.stops[1].name: Expected a name"],
      },
    });
    const last = events.at(-1);
    assert(last?.type === "finish", "finish");
    assertEquals(
      last.toolCalls.map((c) => [c.index, c.arguments]),
      [[2, { city: "Rome", unit: "c" }]],
    );
    assertEquals(
      last.invalidToolCalls.map((c) => [c.index, c.error.code]),
      [
        [0, "schema-mismatch"],
        [1, "schema-mismatch"],
      ],
    );
  });

  test("an async validator holds its call and every event after it, and the stage reads no more input meanwhile", async () => {
    const validator = manualWeather();
    const tools = [{ name: "get_weather", schema: validator }];
    const later = Array.from({ length: 10 }, (_, i) => text(`after ${i}`));
    const source = countingSource([chunk(0, '{"city": "Oslo"}', "get_weather"), end(0), ...later, finish]);
    const out = live(source.stream.pipeThrough(stage(tools)));
    await eventually(() => validator.pending.length === 1, "the validation started");
    for (let i = 0; i < 50; i++) await Promise.resolve();
    assertEquals(
      types(out.events),
      ["tool-call-start", "tool-call-delta"],
      "nothing after the call goes out before its verdict",
    );
    const pulledWhileHeld = source.pulled;
    assert(pulledWhileHeld <= 4, `the stage stopped reading (pulled ${pulledWhileHeld} of 13)`);
    validator.pending[0]!.settle();
    const events = await out.done;
    assertEquals(types(events), [
      "tool-call-start",
      "tool-call-delta",
      "tool-call",
      ...later.map(() => "text-delta"),
      "finish",
    ]);
    assertEquals((events[2] as { arguments: unknown }).arguments, { city: "Oslo", unit: "c" });
  });

  test("calls completing together are validated at the same time, and come out in order whatever order they settle in", async () => {
    const validator = manualWeather();
    const tools = [{ name: "get_weather", schema: validator }];
    const out = live(
      fromChunks([
        chunk(0, '{"city": "A"}', "get_weather"),
        chunk(1, '{"city": "B"}', "get_weather"),
        chunk(2, '{"city": ""}', "get_weather"),
        finish,
      ]).pipeThrough(stage(tools)),
    );
    await eventually(() => validator.pending.length === 3, "all three validations started before any settled");
    validator.pending[2]!.settle();
    validator.pending[1]!.settle();
    for (let i = 0; i < 20; i++) await Promise.resolve();
    assert(
      !out.events.some((e) => e.type === "tool-call" || e.type === "invalid-tool-call"),
      "call 0 still holds the others",
    );
    validator.pending[0]!.settle();
    const events = await out.done;
    assertEquals(
      events.filter((e) => e.type === "tool-call" || e.type === "invalid-tool-call").map((e) => `${e.type}:${e.index}`),
      ["tool-call:0", "tool-call:1", "invalid-tool-call:2"],
    );
  });

  test("any order of settling gives the same events as a synchronous validator (property)", async () => {
    const deltas = [
      text("a"),
      chunk(0, '{"city": "A"}', "get_weather"),
      end(0),
      text("b"),
      chunk(1, '{"city": "", "days": 1.5}', "get_weather"),
      end(1),
      chunk(2, '{"city": "C", "days": "4"}', "get_weather"),
      text("c"),
      finish,
    ];
    const expected = await collect(
      fromChunks(deltas).pipeThrough(stage([{ name: "get_weather", schema: syncWeather() }])),
    );
    await fc.assert(
      // Each validation settles a drawn number of microtask turns after it starts.
      fc.asyncProperty(fc.array(fc.nat(8), { minLength: 3, maxLength: 3 }), async (delays) => {
        const validator = manualWeather();
        const out = live(fromChunks(deltas).pipeThrough(stage([{ name: "get_weather", schema: validator }])));
        const startedAt = new Map<number, number>();
        for (let turn = 0; startedAt.size < 3 || [...startedAt.values()].some((at) => at >= 0); turn++) {
          assert(turn < 1000, "every validation started and settled");
          await Promise.resolve();
          validator.pending.forEach((pending, i) => {
            if (!startedAt.has(i)) startedAt.set(i, turn);
            if (startedAt.get(i)! >= 0 && turn - startedAt.get(i)! >= delays[i]!) {
              startedAt.set(i, -1);
              pending.settle();
            }
          });
        }
        assertEquals(await out.done, expected);
      }),
      { seed: 1717, numRuns: 40 },
    );
  });

  test("an abort goes out at once: what is ready first, the call still being validated listed as discarded", async () => {
    const validator = manualWeather();
    const events: ToolCallEvent[] = [];
    const push = validateToolCalls([{ name: "get_weather", schema: validator }])((event) => void events.push(event));
    const accumulator = new ToolCallAccumulator((event) => void push(event));
    accumulator.push(text("before"));
    accumulator.push(chunk(0, '{"city": "A"}', "get_weather"));
    accumulator.push(end(0));
    accumulator.push(text("held"));
    accumulator.push(chunk(1, '{"ci', "get_weather"));
    accumulator.abort("cancelled");
    assertEquals(types(events), [
      "text-delta",
      "tool-call-start",
      "tool-call-delta",
      "text-delta",
      "tool-call-start",
      "tool-call-delta",
      "abort",
    ]);
    const abort = events.at(-1);
    assert(abort?.type === "abort", "abort");
    assertEquals(
      abort.discarded.map((c) => [c.index, c.rawArguments]),
      [
        [1, '{"ci'],
        [0, '{"city": "A"}'],
      ],
    );
    validator.pending[0]!.settle();
    await Promise.resolve();
    await Promise.resolve();
    assertEquals(events.length, 7, "a verdict after the abort emits nothing");
  });

  test("around the accumulator class, the step's function returns a promise while it holds events", async () => {
    const events: ToolCallEvent[] = [];
    let held: PromiseLike<void> | undefined | void;
    const push = validateToolCalls([{ name: "get_weather", schema: asyncWeather() }])(
      (event) => void events.push(event),
    );
    const accumulator = new ToolCallAccumulator((event) => void (held = push(event)));
    accumulator.push(chunk(0, '{"city": "A"}', "get_weather"));
    accumulator.push(finish);
    accumulator.end();
    assert(held !== undefined, "held");
    assertEquals(types(events), ["tool-call-start", "tool-call-delta"]);
    await held;
    assertEquals(types(events), ["tool-call-start", "tool-call-delta", "tool-call", "finish"]);
  });

  test("calls the provider ran, free-text input and tools without a validator pass unchanged", async () => {
    const tools = [
      { name: "web_search", schema: syncWeather() },
      { name: "code", schema: syncWeather() },
      { name: "plain" },
    ];
    const deltas: ProviderDelta[] = [
      {
        type: "tool-call-chunk",
        index: 0,
        id: "s",
        name: "web_search",
        argumentsDelta: '{"q": 1}',
        providerExecuted: true,
      },
      { type: "tool-call-chunk", index: 1, id: "c", name: "code", argumentsDelta: "print(1)", inputFormat: "text" },
      chunk(2, '{"any": true}', "plain"),
      finish,
    ];
    const events = await collect(fromChunks(deltas).pipeThrough(stage(tools)));
    assertEquals(
      events.filter((e) => e.type === "tool-call").map((e) => (e as { arguments: unknown }).arguments),
      [{ q: 1 }, "print(1)", { any: true }],
    );
  });

  test("a step of one's own, and steps in the order listed", async () => {
    const seen: string[] = [];
    const first = eventStep((next) => (event) => (seen.push(`first:${event.type}`), next(event)));
    const dropText = eventStep(
      (next) => (event) => (seen.push(`second:${event.type}`), event.type === "text-delta" ? undefined : next(event)),
    );
    const events = await collect(
      fromChunks([text("x"), finish]).pipeThrough(new ToolCallAccumulatorStream({ output: [first, dropText] })),
    );
    assertEquals(types(events), ["finish"]);
    assertEquals(seen, ["first:text-delta", "second:text-delta", "first:finish", "second:finish"]);
  });
});

group("toolCallTimings", (test) => {
  test("each call carries when its first argument fragment came and when it completed, by the injected clock", async () => {
    let now = 100;
    const clock = (): number => now;
    const events: ToolCallEvent[] = [];
    const push = toolCallTimings(clock)(
      validateToolCalls([{ name: "get_weather", schema: syncWeather() }])((event) => void events.push(event)),
    );
    const accumulator = new ToolCallAccumulator((event) => void push(event));
    accumulator.push({ type: "tool-call-chunk", index: 0, id: "call_0", name: "get_weather", argumentsDelta: "" });
    now = 150;
    accumulator.push(chunk(0, '{"city":'));
    now = 400;
    accumulator.push(chunk(0, ' "Rome"}'));
    accumulator.push(chunk(1, '{"city": ""}', "get_weather"));
    now = 420;
    accumulator.push(finish);
    accumulator.end();
    const call = events.find((e) => e.type === "tool-call");
    const invalid = events.find((e) => e.type === "invalid-tool-call");
    assert(call?.type === "tool-call" && invalid?.type === "invalid-tool-call", types(events).join());
    assertEquals(
      [call.startedAt, call.completedAt],
      [150, 420],
      "started at the first argument fragment, not at the name",
    );
    assertEquals([invalid.startedAt, invalid.completedAt], [400, 420]);
    const last = events.at(-1);
    assert(last?.type === "finish", "finish");
    assertEquals(
      last.toolCalls.map((c) => [c.startedAt, c.completedAt]),
      [[150, 420]],
    );
    assertEquals(
      last.invalidToolCalls.map((c) => [c.startedAt, c.completedAt]),
      [[400, 420]],
    );
  });

  test("as the stage's plug-in; without a clock no call carries times", async () => {
    let now = 0;
    const deltas = [chunk(0, '{"a":', "f"), chunk(0, "1}"), finish];
    const timed = await collect(
      fromChunks(deltas).pipeThrough(new ToolCallAccumulatorStream({ output: [toolCallTimings(() => (now += 10))] })),
    );
    const call = timed.find((e) => e.type === "tool-call");
    assert(call?.type === "tool-call" && call.startedAt === 10 && call.completedAt === 20, JSON.stringify(call));
    const plain = await collect(fromChunks(deltas).pipeThrough(new ToolCallAccumulatorStream()));
    assert(!plain.some((e) => "startedAt" in e || "completedAt" in e), "no times without the step");
  });
});
