// OpenAI Chat streams parallel calls one index after another: once index n+1 has begun, call n's
// arguments were all sent. A stream stopped before its finish (the body ends, the read fails, a
// provider error with or without `[DONE]`, a limit, a schema stop, the signal) delivers such a
// call, parsed as any complete call; only the call still streaming is discarded. A server that goes
// back to an earlier index (interleaved fragments) proves nothing by a later index: its open calls
// are all discarded, as before.
import fc from "fast-check";
import { streamToolCalls, ToolCallAccumulator, type ToolCallEvent } from "../../../src/index.ts";
import { assert, assertEquals, group } from "../../support/harness.ts";
import { eventually, recordingSource } from "../../support/sources.ts";
import { bytes, chatChunk, collect, fromChunks, openAISSE, runOpenAIChain } from "../../support/streams.ts";

const fragment = (index: number, args: string, id?: string, name?: string): unknown =>
  chatChunk({
    tool_calls: [{ index, ...(id && { id, type: "function" }), function: { ...(name && { name }), arguments: args } }],
  });
/** Call 0 whole (`args0`), then call 1 begun and cut in its arguments. */
const twoCalls = (args0 = '{"q":"tides"}'): unknown[] => [
  fragment(0, "", "call_a", "lookup"),
  fragment(0, args0),
  fragment(1, '{"city":"Pa', "call_b", "get_weather"),
];
const error = { error: { message: "boom", type: "InternalServerError", code: 500 } };

const run = (sse: string): Promise<ToolCallEvent[]> =>
  collect(streamToolCalls(fromChunks([bytes(sse)]), { provider: "openai" }));
type Limits = { maxArgumentsLength?: number; maxEventLength?: number };
const run2 = (sse: string, limits: Limits): Promise<ToolCallEvent[]> =>
  collect(streamToolCalls(fromChunks([bytes(sse)]), { provider: "openai", ...limits }));
/** The calls completed (`name args`), the invalid ones (`name code`), the discarded ones' names, and the end. */
function outcome(events: ToolCallEvent[]): [string[], string[], string[], string] {
  const last = events.at(-1);
  return [
    events.flatMap((e) => (e.type === "tool-call" ? [`${e.name} ${JSON.stringify(e.arguments)}`] : [])),
    events.flatMap((e) => (e.type === "invalid-tool-call" ? [`${e.name} ${e.error.code}`] : [])),
    last?.type === "abort" ? last.discarded.map((c) => c.name) : [],
    last?.type === "abort" ? `abort:${last.reason}` : `${last?.type}:${last?.type === "finish" && last.reason}`,
  ];
}

group("OpenAI Chat: a call a later index followed is complete at a cut", (test) => {
  test("the body ends with no finish: call 0 is delivered, call 1 discarded", async () => {
    assertEquals(outcome(await run(openAISSE(twoCalls(), false))), [
      ['lookup {"q":"tides"}'],
      [],
      ["get_weather"],
      "abort:input-ended",
    ]);
  });

  test("the read fails: call 0 is delivered before the error, call 1 discarded", async () => {
    const source = recordingSource([bytes(openAISSE(twoCalls(), false))], new TypeError("network connection lost"));
    const events = await collect(streamToolCalls(source.stream, { provider: "openai" }));
    assertEquals(outcome(events), [['lookup {"q":"tides"}'], [], ["get_weather"], "abort:stream-failed"]);
    assertEquals(
      events.slice(-3).map((e) => e.type),
      ["tool-call", "error", "abort"],
    );
  });

  test("a provider error, then [DONE] (vLLM): call 0 is delivered before the error, call 1 discarded", async () => {
    const events = await run(openAISSE([...twoCalls(), error]));
    assertEquals(outcome(events), [['lookup {"q":"tides"}'], [], ["get_weather"], "abort:provider-error"]);
    // Before the error: the Chat, UI and AG-UI encoders stop at an error.
    assertEquals(
      events.slice(-3).map((e) => e.type),
      ["tool-call", "error", "abort"],
    );
  });

  test("a provider error, then the body ends: call 0 is delivered, call 1 discarded", async () => {
    assertEquals(outcome(await run(openAISSE([...twoCalls(), error], false))), [
      ['lookup {"q":"tides"}'],
      [],
      ["get_weather"],
      "abort:provider-error",
    ]);
  });

  test("call 0's arguments are no closed value (an interleaving server may come back to it): both discarded, at a cut or a limit", async () => {
    for (const args of ['{"q":', '{"q":"tides",', '{"a":[1,2']) {
      const cut = await run(openAISSE(twoCalls(args), false));
      assertEquals(outcome(cut), [[], [], ["lookup", "get_weather"], "abort:input-ended"], args);
      const limit = await run2(openAISSE([...twoCalls(args), fragment(1, "x".repeat(20))]), { maxArgumentsLength: 20 });
      assertEquals(outcome(limit), [[], [], ["lookup", "get_weather"], "abort:limit-exceeded"], args);
      const abort = cut.at(-1);
      assertEquals(abort?.type === "abort" && abort.discarded[0]?.rawArguments, args);
    }
  });

  test("three calls cut in the third: the first two delivered in order", async () => {
    const body = [...twoCalls().slice(0, 2), fragment(1, "{}", "call_b", "now"), fragment(2, '{"x', "call_c", "c")];
    assertEquals(outcome(await run(openAISSE(body, false))), [
      ['lookup {"q":"tides"}', "now {}"],
      [],
      ["c"],
      "abort:input-ended",
    ]);
  });

  test("an interleaving server (index 0 again after index 1 began): every open call is discarded, none parsed", async () => {
    const body = [
      fragment(0, '{"q":', "call_a", "lookup"),
      fragment(1, '{"city":"Pa', "call_b", "get_weather"),
      fragment(0, '"tides"}'),
      fragment(1, "ris"),
    ];
    assertEquals(outcome(await run(openAISSE(body, false))), [[], [], ["lookup", "get_weather"], "abort:input-ended"]);
  });

  test("headers first (Kimi: every call's id and name, then their arguments): a cut before the arguments delivers none", async () => {
    // Kimi K2.5 sends its parallel calls' headers in one chunk, with no index and empty arguments,
    // then their arguments: call 1 beginning proves nothing of call 0, which has no argument yet.
    const header = (id: string, name: string) => ({ id, type: "function", function: { name, arguments: "" } });
    const headers = chatChunk({ tool_calls: [header("call_a", "lookup"), header("call_b", "get_weather")] });
    const indexed = [fragment(0, "", "call_a", "lookup"), fragment(1, "", "call_b", "get_weather")];
    for (const body of [[headers], indexed])
      assertEquals(outcome(await run(openAISSE(body, false))), [
        [],
        [],
        ["lookup", "get_weather"],
        "abort:input-ended",
      ]);
  });

  test("with n > 1, a cut choice's followed call is delivered; a finished choice is unchanged", async () => {
    const choice = (index: number, delta: Record<string, unknown>, finish: string | null = null): unknown => ({
      id: "c",
      object: "chat.completion.chunk",
      choices: [{ index, delta, finish_reason: finish }],
    });
    const call = (index: number, id: string, name: string, args: string): Record<string, unknown> => ({
      tool_calls: [{ index, id, type: "function", function: { name, arguments: args } }],
    });
    const body = [
      choice(0, call(0, "a0", "first", "{}"), "tool_calls"),
      choice(1, call(0, "b0", "second", "{}")),
      choice(1, call(1, "b1", "third", '{"x')),
    ];
    assertEquals(outcome(await run(openAISSE(body, false))), [
      ["first {}", "second {}"],
      [],
      ["third"],
      "abort:input-ended",
    ]);
  });

  test("a normal stream still completes its calls at the finish, not when the next index begins", async () => {
    const events = await run(openAISSE([...twoCalls(), fragment(1, 'ris"}'), chatChunk({}, "tool_calls")]));
    const types = events.map((e) => (e.type === "tool-call" ? `tool-call ${e.name}` : e.type));
    assertEquals(types.slice(-3), ["tool-call lookup", "tool-call get_weather", "finish"]);
    assert(types.indexOf("tool-call lookup") > types.lastIndexOf("tool-call-delta"), "after the last fragment");
  });

  test("cut at any byte, in any chunks: a call is delivered iff a later index began, the rest discarded", async () => {
    const body = bytes(openAISSE([...twoCalls(), fragment(1, 'ris"}'), fragment(2, "{}", "call_c", "now")], false));
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: body.length }),
        fc.array(fc.integer({ min: 1, max: 40 }), { minLength: 1, maxLength: 8 }),
        async (at, sizes) => {
          const head = body.slice(0, at);
          const chunks: Uint8Array[] = [];
          for (let from = 0, i = 0; from < head.length; i++) {
            const size = sizes[i % sizes.length]!;
            chunks.push(head.slice(from, from + size));
            from += size;
          }
          const events = await collect(streamToolCalls(fromChunks(chunks), { provider: "openai" }));
          const [calls, invalid, discarded] = outcome(events);
          // The calls the decoded part began, in order (a call with no arguments yet shows only in the abort).
          const last = events.at(-1);
          const names = [...events.flatMap((e) => (e.type === "tool-call-start" ? [e.name] : []))];
          if (last?.type === "abort") for (const c of last.discarded) if (!names.includes(c.name)) names.push(c.name);
          const whole = ['lookup {"q":"tides"}', 'get_weather {"city":"Paris"}', "now {}"];
          // Every call but the last begun is complete; the last one is discarded (no finish ends it).
          assertEquals(calls, whole.slice(0, Math.max(0, names.length - 1)), `byte ${at}: completed`);
          assertEquals(invalid, [], `byte ${at}: none invalid`);
          assertEquals(discarded, names.slice(-1), `byte ${at}: discarded`);
        },
      ),
      { seed: 61, numRuns: 60 },
    );
  });
});

group("OpenAI Chat: a limit, a schema stop or the signal delivers what a cut would", (test) => {
  // Call 0 whole, call 1 begun: a stop before the finish for any reason delivers call 0, as a cut does.
  const long = [...twoCalls(), fragment(1, `ris", "note": "${"x".repeat(200)}"}`), chatChunk({}, "tool_calls")];

  test("maxArgumentsLength or maxEventLength exceeded by call 1: call 0 is delivered before the error, call 1 discarded", async () => {
    const limits: Limits[] = [{ maxArgumentsLength: 30 }, { maxEventLength: 300 }];
    for (const limit of limits) {
      const events = await run2(openAISSE(long), limit);
      assertEquals(outcome(events), [['lookup {"q":"tides"}'], [], ["get_weather"], "abort:limit-exceeded"]);
      assertEquals(
        events.slice(-3).map((e) => e.type),
        ["tool-call", "error", "abort"],
      );
    }
  });

  test("the same through a bare pipeThrough chain (ToolCallAccumulatorStream)", async () => {
    const events = await runOpenAIChain([bytes(openAISSE(long))], { maxArgumentsLength: 30 });
    assertEquals(outcome(events), [['lookup {"q":"tides"}'], [], ["get_weather"], "abort:limit-exceeded"]);
  });

  test("an interleaving server gets nothing delivered at a limit either", async () => {
    const body = [
      fragment(0, '{"q":', "call_a", "lookup"),
      fragment(1, '{"city":"Pa', "call_b", "get_weather"),
      fragment(0, '"tides"}'),
      fragment(1, `ris", "note": "${"x".repeat(200)}"}`),
    ];
    const events = await run2(openAISSE(body), { maxArgumentsLength: 30 });
    assertEquals(outcome(events), [[], [], ["lookup", "get_weather"], "abort:limit-exceeded"]);
  });

  test("the signal: call 0 is delivered, call 1 discarded, and the body cancelled", async () => {
    const source = recordingSource([...twoCalls(), ...twoCalls()].map((chunk) => bytes(openAISSE([chunk], false))));
    const controller = new AbortController();
    const events: ToolCallEvent[] = [];
    for await (const event of streamToolCalls(source.stream, {
      provider: "openai",
      signal: controller.signal,
    }) as unknown as AsyncIterable<ToolCallEvent>) {
      events.push(event);
      if (event.type === "tool-call-start" && event.index === 1) controller.abort(new Error("user left"));
    }
    assertEquals(outcome(events), [['lookup {"q":"tides"}'], [], ["get_weather"], "abort:cancelled"]);
    await eventually(() => source.cancelled !== undefined, "the body saw the cancel");
  });

  test("the consumer cancels the events: nothing more is read or made, and the body is cancelled", async () => {
    const source = recordingSource([...twoCalls(), ...twoCalls()].map((chunk) => bytes(openAISSE([chunk], false))));
    const reader = streamToolCalls(source.stream, { provider: "openai" }).getReader();
    for (let read = await reader.read(); !read.done; read = await reader.read())
      if (read.value.type === "tool-call-start" && read.value.index === 1) break;
    const pulled = source.pulled;
    await reader.cancel("client went away");
    await eventually(() => source.cancelled !== undefined, "the body saw the cancel");
    assertEquals(source.cancelled?.reason, "client went away");
    assertEquals([source.pulled, (await reader.read()).done], [pulled, true]);
  });

  test("the accumulator alone: a call marked whole is completed at abort, its mark taken back is discarded", () => {
    const events: ToolCallEvent[] = [];
    const accumulator = new ToolCallAccumulator((event) => events.push(event));
    accumulator.push({ type: "tool-call-chunk", index: 0, id: "a", name: "f", argumentsDelta: "{}" });
    accumulator.push({ type: "tool-call-whole", index: 0, whole: true });
    accumulator.push({ type: "tool-call-chunk", index: 1, id: "b", name: "g", argumentsDelta: "{}" });
    accumulator.push({ type: "tool-call-whole", index: 1, whole: true });
    accumulator.push({ type: "tool-call-whole", index: 1, whole: false });
    accumulator.push({ type: "tool-call-chunk", index: 2, id: "c", name: "h", argumentsDelta: "{" });
    accumulator.abort("cancelled");
    assertEquals(outcome(events), [["f {}"], [], ["g", "h"], "abort:cancelled"]);
  });
});

group("OpenAI-compatible: a call whose id changes at the same index is complete at a cut", (test) => {
  // Ollama's /v1/chat/completions sends each parallel call whole in its own chunk, every one at index 0
  // (so do some vLLM and llama.cpp builds): a new id at the index starts a new call, and the one before it ended.
  const whole = (id: string, name: string, args: string): unknown => fragment(0, args, id, name);
  const calls = [whole("call_1", "lookup", '{"q":"tides"}'), whole("call_2", "get_weather", '{"city":"Paris"}')];

  test("the body ends with no finish: every call before the last is delivered, the last discarded", async () => {
    const body = [...calls, whole("call_3", "now", "{}")];
    assertEquals(outcome(await run(openAISSE(body, false))), [
      ['lookup {"q":"tides"}', 'get_weather {"city":"Paris"}'],
      [],
      ["now"],
      "abort:input-ended",
    ]);
  });

  test("a provider error, then [DONE]: the call before the new id is delivered, before the error", async () => {
    const events = await run(openAISSE([...calls, error]));
    assertEquals(outcome(events), [['lookup {"q":"tides"}'], [], ["get_weather"], "abort:provider-error"]);
    assertEquals(
      events.slice(-3).map((e) => e.type),
      ["tool-call", "error", "abort"],
    );
  });

  test("a call whose arguments were not a closed value when the new id came is never delivered at a cut", async () => {
    const body = [whole("call_1", "lookup", '{"q":"ti'), whole("call_2", "get_weather", '{"city":"Paris"}')];
    assertEquals(outcome(await run(openAISSE(body, false))), [[], [], ["lookup", "get_weather"], "abort:input-ended"]);
  });

  test("with a finish, every call completes at the finish, as before", async () => {
    const events = await run(openAISSE([...calls, chatChunk({}, "tool_calls")]));
    assertEquals(outcome(events), [
      ['lookup {"q":"tides"}', 'get_weather {"city":"Paris"}'],
      [],
      [],
      "finish:tool-calls",
    ]);
  });
});
