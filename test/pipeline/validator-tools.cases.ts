import fc from "fast-check";
import { z } from "zod";
import { DEFAULT_VALIDATION_TIMEOUT_MS, streamToolCalls } from "../../src/index.ts";
import { assert, assertEquals, group } from "../support/harness.ts";
import { eventually, recordingSource } from "../support/sources.ts";
import { bytes, chatChunk, collect, fromChunks, openAISSE, splitAt } from "../support/streams.ts";
import { live, manualTimers } from "../support/tool-fakes.ts";
import { asyncWeather, manualWeather, syncWeather } from "../support/validators.ts";

/** One Chat Completions call to `name` with `args` split in two, then `text`, then the finish. */
function body(name: string, args: string, text = "done"): Uint8Array[] {
  const half = Math.floor(args.length / 2);
  return [
    bytes(
      openAISSE(
        [
          chatChunk({
            tool_calls: [
              { index: 0, id: "call_1", type: "function", function: { name, arguments: args.slice(0, half) } },
            ],
          }),
        ],
        false,
      ),
    ),
    bytes(openAISSE([chatChunk({ tool_calls: [{ index: 0, function: { arguments: args.slice(half) } }] })], false)),
    bytes(openAISSE([chatChunk({}, "tool_calls"), chatChunk({ content: text })])),
  ];
}

const types = (events: readonly { type: string }[]): string[] => events.map((e) => e.type);

group("streamToolCalls with validator tools", (test) => {
  test("zod: tool-call arguments are the validator's output; a call it rejects is an invalid-tool-call with paths", async () => {
    const tools = [
      { name: "get_weather", schema: z.object({ city: z.string().min(1), unit: z.enum(["c", "f"]).default("c") }) },
    ] as const;
    const good = await collect(
      streamToolCalls(recordingSource(body("get_weather", '{"city": "Lima"}')).stream, { provider: "openai", tools }),
    );
    const call = good.find((e) => e.type === "tool-call");
    assert(call?.type === "tool-call" && call.name === "get_weather", types(good).join());
    assertEquals(call.arguments, { city: "Lima", unit: "c" });
    assertEquals(call.arguments.unit, "c");
    const bad = await collect(
      streamToolCalls(recordingSource(body("get_weather", '{"city": ""}')).stream, { provider: "openai", tools }),
    );
    const invalid = bad.find((e) => e.type === "invalid-tool-call");
    assert(invalid?.type === "invalid-tool-call" && invalid.error.code === "schema-mismatch", types(bad).join());
    assert(invalid.error.issues?.[0]?.startsWith("$.city: ") === true, JSON.stringify(invalid.error.issues));
  });

  test("an async validator: the events keep their order, the finish lists the output, and a clock times the arguments", async () => {
    let now = 0;
    const events = await collect(
      streamToolCalls(recordingSource(body("get_weather", '{"city": "Oslo", "days": "2"}')).stream, {
        provider: "openai",
        tools: [{ name: "get_weather", schema: asyncWeather() }],
        clock: () => (now += 5),
      }),
    );
    assertEquals(types(events), [
      "tool-call-start",
      "tool-call-delta",
      "tool-call-delta",
      "tool-call",
      "text-delta",
      "finish",
    ]);
    const call = events[3];
    assert(call?.type === "tool-call", "tool-call");
    assertEquals(call.arguments, { city: "Oslo", unit: "c", days: 2 });
    assertEquals([call.startedAt, call.completedAt], [5, 10]);
    const last = events.at(-1);
    assert(last?.type === "finish", "finish");
    assertEquals(last.toolCalls, [
      {
        index: 0,
        id: "call_1",
        name: "get_weather",
        rawArguments: '{"city": "Oslo", "days": "2"}',
        arguments: { city: "Oslo", unit: "c", days: 2 },
        startedAt: 5,
        completedAt: 10,
      },
    ]);
  });

  test("while a validation is pending, no more of the body is read", async () => {
    const validator = manualWeather();
    const chunks = [
      ...body("get_weather", '{"city": "Oslo"}'),
      ...Array.from({ length: 8 }, () => bytes(": keep-alive\n\n")),
    ];
    const source = recordingSource(chunks);
    const out = live(
      streamToolCalls(source.stream, { provider: "openai", tools: [{ name: "get_weather", schema: validator }] }),
    );
    await eventually(() => validator.pending.length === 1, "validating");
    for (let i = 0; i < 50; i++) await Promise.resolve();
    const pulled = source.pulled;
    assertEquals(types(out.events), ["tool-call-start", "tool-call-delta", "tool-call-delta"]);
    validator.pending[0]!.settle();
    const events = await out.done;
    assertEquals(types(events), [
      "tool-call-start",
      "tool-call-delta",
      "tool-call-delta",
      "tool-call",
      "text-delta",
      "finish",
    ]);
    assert(pulled === 3, `read up to the finish only, then waited (pulled ${pulled})`);
  });

  test("the signal during a pending validation ends the stream at once: the call is listed as discarded, nothing hangs", async () => {
    const validator = manualWeather();
    const controller = new AbortController();
    const source = recordingSource(body("get_weather", '{"city": "Oslo"}'));
    const out = live(
      streamToolCalls(source.stream, {
        provider: "openai",
        tools: [{ name: "get_weather", schema: validator }],
        signal: controller.signal,
      }),
    );
    await eventually(() => validator.pending.length === 1, "validating");
    controller.abort();
    const events = await out.done;
    const last = events.at(-1);
    assert(last?.type === "abort" && last.reason === "cancelled", types(events).join());
    assertEquals(
      last.discarded.map((c) => [c.index, c.rawArguments]),
      [[0, '{"city": "Oslo"}']],
    );
    assert(source.cancelled !== undefined, "the body was cancelled");
    validator.pending[0]!.settle();
  });
});

group("streamToolCalls with a validator that never settles", (test) => {
  test("validationTimeoutMs bounds the wait: the call ends invalid-tool-call validation-timeout, the stream goes on to its finish", async () => {
    const validator = manualWeather();
    const timers = manualTimers();
    const source = recordingSource(body("get_weather", '{"city": "Oslo"}'));
    const tools = [{ name: "get_weather", schema: validator }];
    const out = live(
      streamToolCalls(source.stream, {
        provider: "openai",
        tools,
        validationTimeoutMs: 500,
        timers,
      }),
    );
    await eventually(() => validator.pending.length === 1, "validating");
    for (let i = 0; i < 50; i++) await Promise.resolve();
    assertEquals(types(out.events), ["tool-call-start", "tool-call-delta", "tool-call-delta"]);
    assertEquals(timers.pending, [500]);
    timers.advance(499);
    for (let i = 0; i < 50; i++) await Promise.resolve();
    assertEquals(out.events.length, 3, "still waiting before the limit");
    timers.advance(1);
    const events = await out.done;
    assertEquals(types(events), [
      "tool-call-start",
      "tool-call-delta",
      "tool-call-delta",
      "invalid-tool-call",
      "text-delta",
      "finish",
    ]);
    const invalid = events[3];
    assert(invalid?.type === "invalid-tool-call", "invalid-tool-call");
    assertEquals(
      [invalid.error.code, invalid.error.message, invalid.rawArguments],
      ["validation-timeout", "The validator of get_weather did not settle within 500 ms.", '{"city": "Oslo"}'],
    );
    const finish = events.at(-1);
    assert(finish?.type === "finish", "finish");
    assertEquals(
      [finish.toolCalls.length, finish.invalidToolCalls.map((c) => c.error.code)],
      [0, ["validation-timeout"]],
    );
    validator.pending[0]!.settle(); // a verdict after the limit changes nothing
    assertEquals(timers.pending, [], "no timer left behind");
  });

  test("a validator that settles in time clears its timer; by default the wait is bounded too", async () => {
    const validator = manualWeather();
    const timers = manualTimers();
    const out = live(
      streamToolCalls(recordingSource(body("get_weather", '{"city": "Oslo"}')).stream, {
        provider: "openai",
        tools: [{ name: "get_weather", schema: validator }],
        timers,
      }),
    );
    await eventually(() => validator.pending.length === 1, "validating");
    assertEquals(timers.pending, [DEFAULT_VALIDATION_TIMEOUT_MS]);
    validator.pending[0]!.settle();
    assertEquals(types(await out.done), [
      "tool-call-start",
      "tool-call-delta",
      "tool-call-delta",
      "tool-call",
      "text-delta",
      "finish",
    ]);
    assertEquals(timers.pending, []);
  });
});

group("streamToolCalls with validator tools (property)", (test) => {
  test("any split of the bytes, with an async validator, gives the events of a sync one on the whole body", async () => {
    // Three parallel calls (one the validator rejects, one with a value it coerces, one it does
    // not know), text between them, and a multi-byte character inside the arguments.
    const call = (index: number, name: string, args: string) =>
      chatChunk({
        tool_calls: [{ index, id: `call_${index}`, type: "function", function: { name, arguments: args } }],
      });
    const more = (index: number, args: string) => chatChunk({ tool_calls: [{ index, function: { arguments: args } }] });
    const data = bytes(
      openAISSE([
        chatChunk({ content: "Checking " }),
        call(0, "get_weather", '{"city": "杭'),
        call(1, "get_weather", '{"city": "", "days": 2}'),
        more(0, '州", "days": "3"}'),
        call(2, "other", '{"x": 1}'),
        chatChunk({ content: "the weather." }),
        chatChunk({}, "tool_calls"),
      ]),
    );
    const tools = (schema: ReturnType<typeof syncWeather>) =>
      [{ name: "get_weather", schema }, { name: "other" }] as const;
    const expected = await collect(
      streamToolCalls(fromChunks([data]), { provider: "openai", tools: tools(syncWeather()) }),
    );
    assertEquals(
      expected
        .filter((e) => e.type === "tool-call" || e.type === "invalid-tool-call")
        .map((e) => `${e.type}:${e.index}`),
      ["tool-call:0", "invalid-tool-call:1", "tool-call:2"],
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: 1, max: data.length - 1 }), { maxLength: 30 }),
        fc.boolean(),
        async (cuts, partial) => {
          const events = await collect(
            streamToolCalls(fromChunks(splitAt(data, cuts)), {
              provider: "openai",
              tools: tools(asyncWeather()),
              partialArguments: partial,
            }),
          );
          const strip = (list: readonly unknown[]) =>
            JSON.parse(
              JSON.stringify(list, (key, value) => (key === "partialArguments" ? undefined : value)),
            ) as unknown;
          assertEquals(strip(events), strip(expected));
        },
      ),
      { seed: 20261123, numRuns: 30 },
    );
  });
});
