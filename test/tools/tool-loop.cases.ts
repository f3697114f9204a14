import {
  providerProtocol,
  runToolLoop,
  toolDefinitions,
  toolResultMessages,
  type JsonValue,
  type LoopFinishEvent,
  type ProviderProtocol,
  type RunnableTool,
  type ToolCallEvent,
  type ToolLoopEvent,
} from "../../src/index.ts";
import {
  anthropicShellTwoPlusTwo,
  geminiCapitalTemperature,
  openaiWeatherTwoCities,
} from "../support/conversations/index.ts";
import { allFixtures } from "../support/fixtures.ts";
import { assert, assertEquals, group, thrown } from "../support/harness.ts";
import { eventually } from "../support/sources.ts";
import { chatChunk, collect, openAISSE } from "../support/streams.ts";
import { controlledTool, deferred, endsOrHangs, live, replayModel } from "../support/tool-fakes.ts";

// The recorded conversations (test/support/conversations) hold each request the recorded client
// sent and the provider's streamed answer to it. A fake `call` answers step N with answer N, and
// the loop's request for step 2 is compared with what the recorded client sent.

const requestOf = (step: { request: unknown }): Record<string, unknown> => step.request as Record<string, unknown>;
const last = (events: readonly ToolLoopEvent[]): LoopFinishEvent => {
  const final = events.at(-1);
  assert(final?.type === "loop-finish", `ends with loop-finish: ${JSON.stringify(final)}`);
  return final;
};
const answer = (result: JsonValue): RunnableTool => ({ run: () => result });
const chatFragment = (index: number, args: string, id: string, name: string): unknown =>
  chatChunk({ tool_calls: [{ index, id, type: "function", function: { name, arguments: args } }] });

group("runToolLoop against recorded conversations", (test) => {
  test("OpenAI Chat: two parallel calls run, and step 2 sends the assistant turn and both tool messages the recorded client sent", async () => {
    const recorded = openaiWeatherTwoCities;
    const model = replayModel(recorded.steps.map((s) => s.response));
    const weather: Record<string, string> = {
      "New York City": "25 degrees and sunny",
      London: "15 degrees and raining",
    };
    const events = await collect(
      runToolLoop({
        provider: "openai",
        messages: requestOf(recorded.steps[0]!)["messages"] as unknown[],
        tools: { get_weather: { run: (args) => weather[(args as { location: string }).location]! } },
        call: model.call,
      }),
    );
    assertEquals(
      model.requests.map((r) => r.step),
      [1, 2],
    );
    const sent = model.requests[1]!.messages;
    const expected = requestOf(recorded.steps[1]!)["messages"] as Record<string, unknown>[];
    // The recorded client (openai-node) also sent each call's stream `index` and no `content`; the
    // loop sends `content: null`, as the API documents for a turn of tool calls only.
    const normalized = expected.map((message) =>
      message["role"] === "assistant"
        ? {
            ...message,
            content: null,
            tool_calls: (message["tool_calls"] as Record<string, unknown>[]).map(({ index: _index, ...call }) => call),
          }
        : message,
    );
    assertEquals(sent, normalized);
    assertEquals(
      model.requests[0]!.messages,
      requestOf(recorded.steps[0]!)["messages"],
      "step 1 sends the conversation as given",
    );
    const final = last(events);
    assertEquals([final.reason, final.steps], ["no-tool-calls", 2]);
    assertEquals(final.messages.slice(0, sent.length), sent);
    assertEquals((final.messages.at(-1) as { role: string }).role, "assistant");
  });

  test("`protocol`: the responses are read with the protocol object given, whose finish has the turn's order", async () => {
    const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
      `data: ${JSON.stringify({ id: "c1", choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
    // Text after the call: an order that is not "text, then calls", which OpenAI Chat's own parts do not keep.
    const turn = [
      chunk({ tool_calls: [{ index: 0, id: "call_1", function: { name: "get_weather", arguments: "{}" } }] }),
      chunk({ content: "Asked." }),
      chunk({}, "tool_calls"),
      "data: [DONE]\n\n",
    ].join("");
    const done = `${chunk({ content: "Sunny." })}${chunk({}, "stop")}data: [DONE]\n\n`;
    const finishes = async (protocol?: ProviderProtocol) => {
      const events = await collect(
        runToolLoop({
          provider: "openai",
          ...(protocol ? { protocol } : {}),
          messages: [{ role: "user", content: "Weather?" }],
          tools: { get_weather: answer("sunny") },
          call: replayModel([turn, done]).call,
        }),
      );
      return events.flatMap((event) => (event.type === "finish" ? [event.order] : []));
    };
    assertEquals(await finishes(), [undefined, undefined]);
    assertEquals(await finishes(providerProtocol("openai")), [
      [
        { type: "tool-call", index: 0 },
        { type: "text", length: 6 },
      ],
      undefined,
    ]);
  });

  test("Anthropic: step 2 sends exactly the messages the recorded client sent", async () => {
    const recorded = anthropicShellTwoPlusTwo;
    const model = replayModel(recorded.steps.map((s) => s.response));
    const ran: JsonValue[] = [];
    const events = await collect(
      runToolLoop({
        provider: "anthropic",
        messages: requestOf(recorded.steps[0]!)["messages"] as unknown[],
        tools: { bash: { run: (args) => (ran.push(args), "4") } },
        call: model.call,
      }),
    );
    assertEquals(ran, [{ command: 'python3 -c "print(2 + 2)"' }]);
    assertEquals(model.requests[1]!.messages, requestOf(recorded.steps[1]!)["messages"]);
    const final = last(events);
    assertEquals([final.reason, final.steps], ["no-tool-calls", 2]);
    assertEquals(final.messages.at(-1), {
      role: "assistant",
      content: [{ type: "text", text: "The result of **2 + 2 = 4**! 🎉" }],
    });
  });

  test("Gemini: three steps; each request carries the model's functionCall and the functionResponse", async () => {
    const recorded = geminiCapitalTemperature;
    const model = replayModel(recorded.steps.map((s) => s.response));
    const events = await collect(
      runToolLoop({
        provider: "gemini",
        messages: requestOf(recorded.steps[0]!)["contents"] as unknown[],
        tools: { get_capital: answer({ return_value: "Paris" }), get_temperature: answer({ return_value: "30°C" }) },
        call: model.call,
      }),
    );
    const prompt = requestOf(recorded.steps[0]!)["contents"] as unknown[];
    const capitalTurn = [
      { role: "model", parts: [{ functionCall: { name: "get_capital", args: { country: "France" } } }] },
      { role: "user", parts: [{ functionResponse: { name: "get_capital", response: { return_value: "Paris" } } }] },
    ];
    const temperatureTurn = [
      { role: "model", parts: [{ functionCall: { name: "get_temperature", args: { city: "Paris" } } }] },
      { role: "user", parts: [{ functionResponse: { name: "get_temperature", response: { return_value: "30°C" } } }] },
    ];
    // The recorded client (pydantic-ai) also sent ids of its own making and a placeholder thought
    // signature on calls that came without either; the loop sends back what the model sent.
    assertEquals(model.requests[1]!.messages, [...prompt, ...capitalTurn]);
    assertEquals(model.requests[2]!.messages, [...prompt, ...capitalTurn, ...temperatureTurn]);
    const strip = (contents: unknown): unknown =>
      JSON.parse(JSON.stringify(contents), (key, value: unknown) =>
        key === "id" || key === "thoughtSignature" ? undefined : value,
      );
    assertEquals(
      strip(model.requests[2]!.messages),
      strip(requestOf(recorded.steps[2]!)["contents"]),
      "the same turns as the recorded client, but for its own ids",
    );
    const final = last(events);
    assertEquals([final.reason, final.steps], ["no-tool-calls", 3]);
  });

  test("OpenAI Responses: step 2 sends the function_call items and their outputs (recorded single-step stream)", async () => {
    const fixture = allFixtures.find((f) => f.provider === "openai-responses" && f.name === "parallel-function-calls")!;
    const model = replayModel([fixture.text, fixture.text]);
    const prompt = [{ role: "user", content: "When do the Tigers play, and what weather?" }];
    const events = await collect(
      runToolLoop({
        provider: "openai-responses",
        messages: prompt,
        tools: { search: answer("7:10 PM"), weather: answer({ temp: 18 }) },
        call: model.call,
        maxSteps: 2,
      }),
    );
    const [search, weather] = fixture.expected.toolCalls;
    const calls = events.filter((e) => e.type === "tool-call" && e.step === 1) as unknown as {
      id: string;
      name: string;
      rawArguments: string;
    }[];
    assertEquals(model.requests[1]!.messages, [
      ...prompt,
      ...calls.map((c) => ({ type: "function_call", call_id: c.id, name: c.name, arguments: c.rawArguments })),
      { type: "function_call_output", call_id: search!.id, output: "7:10 PM" },
      { type: "function_call_output", call_id: weather!.id, output: '{"temp":18}' },
    ]);
    assertEquals(
      calls.map((c) => c.id),
      [search!.id, weather!.id],
    );
    assertEquals(last(events).reason, "max-steps");
  }).needs("recordings");

  test("Cohere: step 2 sends the turn with its tool plan (the reasoning the model streamed) and one tool message per call", async () => {
    const calls = allFixtures.find((f) => f.provider === "cohere" && f.name === "tool-plan-then-parallel-tool-calls")!;
    const text = allFixtures.find((f) => f.provider === "cohere" && f.name === "text")!;
    const model = replayModel([calls.text, text.text]);
    const prompt = [{ role: "user", content: "Weather and attractions in San Francisco?" }];
    const events = await collect(
      runToolLoop({
        provider: "cohere",
        messages: prompt,
        tools: { weather: answer({ temp: 18 }), cityAttractions: answer("Golden Gate Bridge") },
        call: model.call,
      }),
    );
    const [weather, attractions] = calls.expected.toolCalls;
    assertEquals(model.requests[1]!.messages, [
      ...prompt,
      {
        role: "assistant",
        tool_plan:
          "I will use the weather tool to find the weather in San Francisco and the cityAttractions tool to find attractions in San Francisco.",
        tool_calls: [weather!, attractions!].map((call) => ({
          id: call.id,
          type: "function",
          function: { name: call.name, arguments: JSON.stringify(call.arguments) },
        })),
      },
      { role: "tool", tool_call_id: weather!.id, content: '{"temp":18}' },
      { role: "tool", tool_call_id: attractions!.id, content: "Golden Gate Bridge" },
    ]);
    assertEquals([last(events).reason, last(events).steps], ["no-tool-calls", 2]);
  }).needs("recordings");
});

group("runToolLoop events and limits", (test) => {
  test("a misspelt option (maxStep) is a TypeError at the call naming it and the options there are, not the default 8 steps", () => {
    let calls = 0;
    const options = {
      provider: "openai",
      messages: [],
      tools: { get_weather: answer("sunny") },
      call: () => (calls++, Promise.resolve(new Response(openAISSE([])))),
    } as const;
    const error = thrown(() => runToolLoop({ ...options, maxStep: 2 } as never));
    assert(error instanceof TypeError, String(error));
    for (const named of ["`maxStep`", "maxSteps", "approve", "concurrency", "maxArgumentsLength", "beforeTools"])
      assert(error.message.includes(named), `${error.message} names ${named}`);
    assertEquals(calls, 0, "no request sent");
    // Every option of its type is taken (undefined where a value would need more set-up).
    const every: Required<Parameters<typeof runToolLoop>[0]> = {
      ...options,
      protocol: undefined as never,
      maxSteps: 1,
      signal: undefined as never,
      beforeTools: undefined as never,
      concurrency: 1,
      timeoutMs: 1000,
      maxResultBytes: 1000,
      maxScreenshotBytes: 1000,
      approve: undefined as never,
      clock: undefined as never,
      validationTimeoutMs: 1000,
      timers: undefined as never,
      maxEventLength: 1000,
      maxArgumentsLength: 1000,
      maxToolCalls: 4,
      partialArguments: false,
      repair: true,
      maxDepth: 8,
      earlyValidation: false,
      abortOnViolation: false,
    };
    assertEquals(
      thrown(() => runToolLoop(every)),
      undefined,
    );
  });

  test("every event is tagged with its step; each step ends with step-finish and the loop with one loop-finish", async () => {
    const recorded = anthropicShellTwoPlusTwo;
    const events = await collect(
      runToolLoop({
        provider: "anthropic",
        messages: requestOf(recorded.steps[0]!)["messages"] as unknown[],
        tools: { bash: answer("4") },
        call: replayModel(recorded.steps.map((s) => s.response)).call,
      }),
    );
    const steps = events.map((e) => (e.type === "loop-finish" ? "end" : e.step));
    assertEquals([...new Set(steps)], [1, 2, "end"], "steps in order, never interleaved");
    const types = events.map((e) => e.type);
    assertEquals(types.filter((t) => t === "step-finish").length, 2);
    assertEquals(types.filter((t) => t === "loop-finish").length, 1);
    const stepOne = events.filter((e) => e.type !== "loop-finish" && e.step === 1).map((e) => e.type);
    // Anthropic completes a call at its content_block_stop: it ran, and answered, before the response ended.
    assertEquals(
      stepOne.slice(-3),
      ["tool-result", "finish", "step-finish"],
      "step 1's result comes before its finish and step-finish",
    );
    const finishOne = events.find((e) => e.type === "step-finish" && e.step === 1);
    assertEquals(
      finishOne?.type === "step-finish" && finishOne.messages,
      (requestOf(recorded.steps[1]!)["messages"] as unknown[]).slice(1),
    );
  });

  test("maxSteps stops after that many calls, with the unsent results in the conversation", async () => {
    const recorded = openaiWeatherTwoCities;
    const model = replayModel(recorded.steps.map((s) => s.response));
    const events = await collect(
      runToolLoop({
        provider: "openai",
        messages: [],
        tools: { get_weather: answer("sunny") },
        call: model.call,
        maxSteps: 1,
      }),
    );
    assertEquals(model.requests.length, 1);
    const final = last(events);
    assertEquals([final.reason, final.steps], ["max-steps", 1]);
    assertEquals(
      final.messages.map((m) => (m as { role: string }).role),
      ["assistant", "tool", "tool"],
    );
  });

  test("beforeTools: a call its stage leaves out never runs and is not sent back; each step gets a stage of its own", async () => {
    const recorded = openaiWeatherTwoCities;
    const model = replayModel(recorded.steps.map((s) => s.response));
    const ran: string[] = [];
    const staged: number[] = [];
    // Leaves out the second call (index 1) with all its events, as a server holding to tool_choice would.
    const second = (event: ToolCallEvent): boolean => "index" in event && event.index === 1;
    const dropSecond = (step: number) => {
      staged.push(step);
      return new TransformStream<ToolCallEvent, ToolCallEvent>({
        transform(event, out) {
          if (second(event)) return;
          out.enqueue(
            event.type === "finish" ? { ...event, toolCalls: event.toolCalls.filter((c) => c.index !== 1) } : event,
          );
        },
      });
    };
    const events = await collect(
      runToolLoop({
        provider: "openai",
        messages: [],
        tools: {
          get_weather: {
            run: (args) => {
              ran.push((args as { location: string }).location);
              return "sunny";
            },
          },
        },
        call: model.call,
        beforeTools: dropSecond,
      }),
    );
    assertEquals(ran, ["New York City"]);
    assertEquals(staged, [1, 2]);
    const sent = model.requests[1]!.messages as { role: string; tool_calls?: unknown[] }[];
    assertEquals(
      sent.map((m) => [m.role, m.tool_calls?.length]),
      [
        ["assistant", 1],
        ["tool", undefined],
      ],
    );
    assert(!events.some((e) => "index" in e && e.index === 1 && e.step === 1), "no event of the call left out");
  });

  test("beforeTools: a stage that drops a call's events but passes the finish unchanged sends no unanswered call back", async () => {
    const body = openAISSE([
      chatFragment(0, '{"city":"Paris"}', "call_a", "get_weather"),
      chatFragment(1, '{"zone":"UTC"}', "call_b", "get_time"),
      chatChunk({}, "tool_calls"),
    ]);
    const model = replayModel([body, openAISSE([chatChunk({ content: "done" }), chatChunk({}, "stop")])]);
    const ran: string[] = [];
    const tool = (name: string): RunnableTool => ({ run: () => (ran.push(name), "ok") });
    await collect(
      runToolLoop({
        provider: "openai",
        messages: [],
        tools: { get_weather: tool("get_weather"), get_time: tool("get_time") },
        call: model.call,
        beforeTools: () =>
          new TransformStream<ToolCallEvent, ToolCallEvent>({
            transform(event, out) {
              if (!("name" in event && event.name === "get_time")) out.enqueue(event);
            },
          }),
      }),
    );
    assertEquals(ran, ["get_weather"]);
    const sent = model.requests[1]!.messages as { role: string; tool_calls?: { id: string }[] }[];
    assertEquals(
      sent.map((m) => [m.role, m.tool_calls?.map((c) => c.id)]),
      [
        ["assistant", ["call_a"]],
        ["tool", undefined],
      ],
    );
  });

  test("beforeTools: a step whose calls it all left out ends the loop calls-left-out, not no-tool-calls", async () => {
    const body = openAISSE([chatFragment(0, '{"zone":"UTC"}', "call_b", "get_time"), chatChunk({}, "tool_calls")]);
    const ran: string[] = [];
    const tool = (name: string): RunnableTool => ({ run: () => (ran.push(name), "ok") });
    const run = (stage?: (step: number) => TransformStream<ToolCallEvent, ToolCallEvent>) => {
      const model = replayModel([body, openAISSE([chatChunk({ content: "done" }), chatChunk({}, "stop")])]);
      const tools = { get_weather: tool("get_weather"), get_time: tool("get_time") };
      return collect(runToolLoop({ provider: "openai", messages: [], tools, call: model.call, beforeTools: stage }));
    };
    // Leaves out every get_time call, from its events and the finish, as a server holding a forced tool_choice.
    const noTime = () =>
      new TransformStream<ToolCallEvent, ToolCallEvent>({
        transform(event, out) {
          if ("name" in event && event.name === "get_time") return;
          out.enqueue(event.type === "finish" ? { ...event, toolCalls: [], reason: "stop" } : event);
        },
      });
    const left = last(await run(noTime));
    assertEquals([left.reason, left.steps, ran], ["calls-left-out", 1, []]);
    // A stage that leaves the call in: it runs, and the model's answer ends the loop as ever.
    const kept = last(await run(() => new TransformStream()));
    assertEquals([kept.reason, kept.steps, ran], ["no-tool-calls", 2, ["get_time"]]);
  });

  test("a call delivered at a stop (a limit, a provider error) never runs: the step ends aborted", async () => {
    const error = { error: { message: "boom", type: "InternalServerError", code: 500 } };
    const [a, b] = [
      chatFragment(0, '{"to":"bob"}', "call_a", "send"),
      chatFragment(1, '{"to":"carol"}', "call_b", "send"),
    ];
    // Ollama's /v1 sends each parallel call whole at index 0.
    const c = chatFragment(0, '{"to":"carol"}', "call_c", "send");
    const cases: [string, string, number | undefined, string][] = [
      ["maxToolCalls", openAISSE([a, b, chatChunk({}, "tool_calls")]), 1, "limit-exceeded"],
      ["provider error, [DONE]", openAISSE([a, b, error]), undefined, "provider-error"],
      ["provider error, body ends", openAISSE([a, b, error], false), undefined, "provider-error"],
      ["index 0 again, provider error", openAISSE([a, c, error]), undefined, "provider-error"],
    ];
    for (const [name, body, maxToolCalls, reason] of cases) {
      const ran: string[] = [];
      const events = await collect(
        runToolLoop({
          provider: "openai",
          messages: [],
          ...(maxToolCalls && { maxToolCalls }),
          tools: { send: { run: (args) => (ran.push((args as { to: string }).to), "sent") } },
          call: replayModel([body]).call,
        }),
      );
      assertEquals(ran, [], name);
      const call = events.find((e) => e.type === "tool-call");
      assert(call?.type === "tool-call" && call.stopped === true, `${name}: the call is delivered, marked stopped`);
      const order = events.filter((e) => ["tool-call", "error", "abort"].includes(e.type)).map((e) => e.type);
      assertEquals(order, ["tool-call", "error", "abort"], name);
      const abort = events.find((e) => e.type === "abort");
      assertEquals([abort?.type === "abort" && abort.reason, last(events).reason], [reason, "aborted"], name);
    }
  });

  test("an unknown tool is answered with its tool-error, so the model reads what exists", async () => {
    const recorded = openaiWeatherTwoCities;
    const model = replayModel(recorded.steps.map((s) => s.response));
    await collect(
      runToolLoop({ provider: "openai", messages: [], tools: { get_time: answer("noon") }, call: model.call }),
    );
    const tools = model.requests[1]!.messages.filter((m) => (m as { role: string }).role === "tool") as {
      content: string;
    }[];
    assertEquals(
      tools.map((m) => m.content),
      ["No tool of that name exists. Call one of: get_time.", "No tool of that name exists. Call one of: get_time."],
    );
  });

  test("a failing call ends the loop with call-failed and an error that does not repeat the caller's error", async () => {
    const events = await collect(
      runToolLoop({
        provider: "openai",
        messages: [],
        tools: {},
        call: () => Promise.reject(new Error("getaddrinfo ENOTFOUND internal-gateway.corp")),
      }),
    );
    assertEquals(
      events.map((e) => e.type),
      ["error", "loop-finish"],
    );
    assert(
      events[0]!.type === "error" && !events[0]!.error.message.includes("internal-gateway"),
      "nothing internal passed on",
    );
    assertEquals(last(events).reason, "call-failed");
  });

  test("the error of a failing call names its cause by its name and code, never its message", async () => {
    const failing = async (error: unknown) => {
      const events = await collect(
        runToolLoop({ provider: "openai", messages: [], tools: {}, call: () => Promise.reject(error) }),
      );
      assert(events[0]?.type === "error", "an error first");
      return events[0].error.message;
    };
    // Node's fetch to a server that is not running (the docs' example without the Worker).
    const refused = new TypeError("fetch failed", {
      cause: Object.assign(new Error("connect ECONNREFUSED 10.0.0.7:8787"), { code: "ECONNREFUSED" }),
    });
    assertEquals(await failing(refused), "The request of step 1 failed before a response: TypeError (ECONNREFUSED).");
    const timeout = new DOMException("The operation timed out at https://h.example/?key=sk-1", "TimeoutError");
    assertEquals(await failing(timeout), "The request of step 1 failed before a response: TimeoutError.");
    const coded = Object.assign(new Error("sk-live-123"), { name: "HttpError", code: "upstream_unreachable" });
    assertEquals(
      await failing(coded),
      "The request of step 1 failed before a response: HttpError (upstream_unreachable).",
    );
    // Names that are no identifiers, and what is no error, are not repeated.
    const odd = Object.assign(new Error("x"), { name: "key sk-live-123", code: "https://h.example" });
    assertEquals(await failing(odd), "The request of step 1 failed before a response.");
    assertEquals(await failing("sk-live-123"), "The request of step 1 failed before a response.");
  });

  test("a step whose response fails ends the loop as aborted with no turn appended", async () => {
    const events = await collect(
      runToolLoop({
        provider: "openai",
        messages: [{ role: "user", content: "hi" }],
        tools: {},
        call: () => Promise.resolve(new Response('{"error":{"message":"rate"}}', { status: 429 })),
      }),
    );
    assertEquals(
      events.map((e) => e.type),
      ["error", "abort", "step-finish", "loop-finish"],
    );
    const final = last(events);
    assertEquals([final.reason, final.messages], ["aborted", [{ role: "user", content: "hi" }]]);
  });

  test("a step the provider ends failed (a finish of reason error: vLLM's abort) ends the loop as aborted: no next request", async () => {
    const chunk = (delta: object, finish: string | null = null) =>
      `data: ${JSON.stringify({ choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
    const failed = [
      chunk({ tool_calls: [{ index: 0, id: "c1", function: { name: "get_time", arguments: "{}" } }] }),
      chunk({}, "abort"),
      "data: [DONE]\n\n",
    ].join("");
    let requests = 0;
    const events = await collect(
      runToolLoop({
        provider: "openai",
        messages: [{ role: "user", content: "time?" }],
        tools: { get_time: answer("noon") },
        call: () => (requests++, Promise.resolve(new Response(failed))),
      }),
    );
    assertEquals(requests, 1);
    assert(
      events.some((e) => e.type === "tool-result"),
      "the call completed before the failure ran",
    );
    assertEquals(last(events).reason, "aborted");
  });

  test("toolDefinitions lists the tools in each provider's request shape", () => {
    const tools = {
      get_time: {
        description: "The time in a zone.",
        parameters: { type: "object", properties: { zone: { type: "string" } } },
        run: () => "",
      },
    };
    const parameters = tools.get_time.parameters;
    assertEquals(toolDefinitions("openai", tools), [
      { type: "function", function: { name: "get_time", description: "The time in a zone.", parameters } },
    ]);
    assertEquals(toolDefinitions("openai-responses", tools), [
      { type: "function", name: "get_time", description: "The time in a zone.", parameters },
    ]);
    assertEquals(toolDefinitions("anthropic", tools), [
      { name: "get_time", description: "The time in a zone.", input_schema: parameters },
    ]);
    assertEquals(toolDefinitions("gemini", tools), [
      { functionDeclarations: [{ name: "get_time", description: "The time in a zone.", parameters }] },
    ]);
  });
});

group("runToolLoop approvals", (test) => {
  const recorded = openaiWeatherTwoCities;
  const initial = requestOf(recorded.steps[0]!)["messages"] as unknown[];
  const isToolMessage = (message: unknown): boolean => (message as { role?: string }).role === "tool";

  test("a needsApproval tool and no approve hook: the calls never run and the loop ends (approval) listing them, never hangs", async () => {
    const model = replayModel(recorded.steps.map((s) => s.response));
    const guarded = controlledTool({ needsApproval: true });
    const events = await endsOrHangs(
      runToolLoop({ provider: "openai", messages: initial, tools: { get_weather: guarded }, call: model.call }),
    );
    assert(events !== "hung", "the loop ended: nobody can answer its approval requests");
    const final = last(events);
    assertEquals([final.reason, final.steps, model.requests.length, guarded.runs.length], ["approval", 1, 1, 0]);
    const requested = events.filter((event) => event.type === "tool-approval-request").map((event) => event.id);
    assertEquals(
      final.unanswered?.map((call) => call.id),
      requested,
    );
    assertEquals(requested.length, 2);
    assertEquals(final.messages.length, initial.length + 1, "the turn with the calls, and no output for them");
    assert(!final.messages.some(isToolMessage), "no tool message answers them");
  });

  test("a turn with a call held and one that ran: no output goes in messages, the ran one's is in results, for one message of all", async () => {
    // Gemini (as Bedrock) takes a turn's results only all in one message, as many as its calls:
    // the loop's output for one and the application's for the other, in two, would be refused.
    const turn = {
      candidates: [
        {
          content: {
            role: "model",
            parts: [
              { functionCall: { name: "lookup", args: { q: "x" } } },
              { functionCall: { name: "delete_file", args: { path: "a" } } },
            ],
          },
          finishReason: "STOP",
        },
      ],
    };
    const model = replayModel([`data: ${JSON.stringify(turn)}\n\n`]);
    const user = { role: "user", parts: [{ text: "Clean up." }] };
    const events = await collect(
      runToolLoop({
        provider: "gemini",
        messages: [user],
        tools: { lookup: answer("found"), delete_file: { needsApproval: true, run: () => "deleted" } },
        call: model.call,
      }),
    );
    const final = last(events);
    assertEquals([final.reason, final.unanswered?.map((call) => call.name)], ["approval", ["delete_file"]]);
    assertEquals(final.messages, [user, { role: "model", parts: turn.candidates[0]!.content.parts }]);
    assertEquals(
      final.results?.map((result) => [result.call.name, result.output]),
      [["lookup", "found"]],
    );
    const answered = toolResultMessages("gemini", [...final.results!, { call: final.unanswered![0]!, output: "ok" }]);
    assertEquals(answered.length, 1);
  });

  test("an approve hook that says no, or fails: the calls never run and the model reads each denial (the loop goes on)", async () => {
    for (const approve of [() => false, () => Promise.reject(new Error("policy service down"))]) {
      const model = replayModel(recorded.steps.map((s) => s.response));
      const guarded = controlledTool({ needsApproval: true });
      const events = await collect(
        runToolLoop({
          provider: "openai",
          messages: initial,
          tools: { get_weather: guarded },
          approve,
          call: model.call,
        }),
      );
      const final = last(events);
      assertEquals(
        [final.reason, final.steps, final.unanswered, guarded.runs.length],
        ["no-tool-calls", 2, undefined, 0],
      );
      const answers = model.requests[1]!.messages.filter(isToolMessage) as { content: string }[];
      assertEquals(answers.length, 2);
      assert(
        answers.every((answer) => answer.content.includes("did not approve")),
        JSON.stringify(answers),
      );
    }
  });
});

group("runToolLoop cancellation", (test) => {
  test("cancelling the stream aborts the call in flight", async () => {
    const signals: AbortSignal[] = [];
    const never = deferred<Response>();
    const out = live(
      runToolLoop({
        provider: "openai",
        messages: [],
        tools: {},
        call: ({ signal }) => (signals.push(signal), never.promise),
      }),
    );
    await eventually(() => signals.length === 1, "the first call is in flight");
    assert(!signals[0]!.aborted, "not aborted yet");
    await out.cancel("user left");
    assert(signals[0]!.aborted && signals[0]!.reason === "user left", "the call's signal is aborted with the reason");
    await out.done;
  });

  test("the signal aborts the call in flight and ends the loop with cancelled, without waiting for the call", async () => {
    const abort = new AbortController();
    const signals: AbortSignal[] = [];
    const never = deferred<Response>();
    const out = live(
      runToolLoop({
        provider: "openai",
        messages: [],
        tools: {},
        signal: abort.signal,
        call: ({ signal }) => (signals.push(signal), never.promise),
      }),
    );
    await eventually(() => signals.length === 1, "in flight");
    abort.abort("stop");
    const events = await out.done;
    assert(signals[0]!.aborted, "aborted");
    assertEquals(
      events.map((e) => e.type),
      ["loop-finish"],
    );
    assertEquals(last(events).reason, "cancelled");
  });

  test("cancelling while a handler runs aborts its signal and cancels the response body", async () => {
    const recorded = openaiWeatherTwoCities;
    const tool = controlledTool();
    let bodyCancelled = false;
    const body = recorded.steps[0]!.response;
    const call = (): Promise<Response> =>
      Promise.resolve(
        new Response(
          new ReadableStream<Uint8Array>({
            start(controller) {
              controller.enqueue(new TextEncoder().encode(body.slice(0, body.lastIndexOf("data: [DONE]")))); // the calls are complete, the stream stays open
            },
            cancel() {
              bodyCancelled = true;
            },
          }),
        ),
      );
    const out = live(runToolLoop({ provider: "openai", messages: [], tools: { get_weather: tool }, call }));
    await eventually(() => tool.runs.length === 2, "both handlers run while the response is still open", 5000);
    await out.cancel("user left");
    assert(
      tool.runs.every((r) => r.context.signal.aborted),
      "every handler's signal is aborted",
    );
    await eventually(() => bodyCancelled, "the response body is cancelled");
  });

  test("the loop reads no further than its consumer: step 2 is not requested until step 1 is read", async () => {
    const recorded = anthropicShellTwoPlusTwo;
    const model = replayModel(recorded.steps.map((s) => s.response));
    const reader = runToolLoop({
      provider: "anthropic",
      messages: [],
      tools: { bash: answer("4") },
      call: model.call,
    }).getReader();
    await reader.read();
    for (let i = 0; i < 200; i++) await Promise.resolve();
    assertEquals(model.requests.length, 1, "one event read, one request made");
    await reader.cancel();
  });
});
