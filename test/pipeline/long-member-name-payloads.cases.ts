// A provider payload whose call arguments are an object (Gemini's `args`, Ollama's `arguments`, a
// whole response's `input`) holding a member name past 16,383 characters: the payload is read with
// a long name of the library's own in place of the name (src/shared/long-member-name.ts), the call
// holding it is an `invalid-tool-call` of code `long-member-name`, and everything else in the
// payload (the other calls, the text, the usage, the finish) is delivered as before.
import { type Provider, streamToolCalls, type ToolCallEvent } from "../../src/index.ts";
import { assert, assertEquals, group } from "../support/harness.ts";
import { longMemberNameKey } from "../../src/shared/long-member-name.ts";
import { name, parsedLongNames } from "../support/long-names.ts";
import { bytes, collect, fromChunks } from "../support/streams.ts";

/** Arguments of two names of 16,400 characters, alike but for their ends. */
const LONG_ARGS = { a: 1, [name("a")]: 1, [name("b")]: 2 };

/** The events' outline: type, then the call's name, the error's code, the text or the finish reason. */
const outline = (events: ToolCallEvent[]): string[] =>
  events
    .filter((event) => !["tool-call-start", "tool-call-delta"].includes(event.type))
    .map((event) => {
      const e = event as { type: string; name?: string; error?: { code: string }; text?: string; reason?: string };
      return [
        e.type,
        e.name ?? "",
        e.type === "finish" ? e.reason : e.type === "text-delta" ? e.text : "",
        e.error?.code ?? "",
      ]
        .filter(Boolean)
        .join(" ");
    });

async function read(
  body: string,
  provider: Provider | undefined,
  contentType: string,
  options: { partialArguments?: boolean } = {},
): Promise<ToolCallEvent[]> {
  let events: ToolCallEvent[] = [];
  const run = async () =>
    (events = await collect(
      streamToolCalls(new Response(fromChunks([bytes(body)]), { headers: { "content-type": contentType } }), {
        provider,
        ...options,
      }),
    ));
  const parsed = await parsedLongNames(run);
  assertEquals(parsed, 0, "texts parsed with the name");
  const invalid = events.find((event) => event.type === "invalid-tool-call");
  assert(invalid?.type === "invalid-tool-call", "an invalid call");
  // The text we have: a name of the parse's own in place of each (one length each), never the name.
  assert(invalid.rawArguments.includes(`"${longMemberNameKey(2)}"`), invalid.rawArguments.slice(0, 80));
  assert(!invalid.rawArguments.includes(name("a")), "the raw arguments hold the name");
  return events;
}

const sse = (events: unknown[]): string => events.map((event) => `data: ${JSON.stringify(event)}\r\n\r\n`).join("");
const CALLS = ["text-delta Calling.", "usage", "tool-call u", "invalid-tool-call t long-member-name"];

group("Member names V8 interns in quadratic time, inside a provider's payload", (test) => {
  const ok = { functionCall: { name: "u", args: { a: 1 } } };
  const call = { functionCall: { name: "t", args: LONG_ARGS } };
  const usageMetadata = { promptTokenCount: 5, candidatesTokenCount: 7, totalTokenCount: 12 };
  const text = { candidates: [{ content: { role: "model", parts: [{ text: "Calling." }] }, index: 0 }] };
  const last = {
    candidates: [{ content: { role: "model", parts: [ok, call] }, finishReason: "STOP", index: 0 }],
    usageMetadata,
  };

  test("Gemini: the call with such a name is invalid; the other call, the usage and the finish in its chunk are delivered", async () => {
    for (const provider of ["gemini", undefined] as const)
      assertEquals(outline(await read(sse([text, last]), provider, "text/event-stream")), [
        ...CALLS,
        "finish tool-calls",
      ]);
  });

  test("Gemini, partial arguments on: the live value never shows the name in place of the long one", async () => {
    const events = await read(sse([text, last]), "gemini", "text/event-stream", { partialArguments: true });
    const start = events.find((event) => event.type === "tool-call-start" && event.name === "t");
    const index = start?.type === "tool-call-start" ? start.index : -1;
    const partial = events.flatMap((event) =>
      event.type === "tool-call-delta" && event.index === index ? [event.partialArguments] : [],
    );
    assert(partial.length > 0, "a delta of the call");
    for (const value of partial) assertEquals(value, { a: 1 }, "the live value");
  });

  test("Gemini: a short name a model writes as stop 70's reserved key is an argument as any other", async () => {
    const key = "\u0000long-member-name1";
    const chunk = {
      candidates: [
        {
          content: { role: "model", parts: [{ functionCall: { name: "u", args: { [key]: 1 } } }] },
          finishReason: "STOP",
        },
      ],
    };
    const events = await collect(
      streamToolCalls(new Response(fromChunks([bytes(sse([chunk]))])), { provider: "gemini" }),
    );
    const call = events.find((event) => event.type.endsWith("tool-call"));
    assertEquals(call?.type === "tool-call" && call.arguments, { [key]: 1 });
  });

  test("detection: a first event holding such a name tells the protocol", async () => {
    const first = { candidates: [{ content: { role: "model", parts: [{ text: "Calling." }, ok, call] }, index: 0 }] };
    const done = {
      candidates: [{ content: { role: "model", parts: [{ text: "" }] }, finishReason: "STOP" }],
      usageMetadata,
    };
    assertEquals(outline(await read(sse([first, done]), undefined, "text/event-stream")), [
      "text-delta Calling.",
      "tool-call u",
      "invalid-tool-call t long-member-name",
      "usage",
      "finish tool-calls",
    ]);
  });

  test("Ollama: the same in one line", async () => {
    const line = {
      model: "m",
      message: {
        role: "assistant",
        content: "Calling.",
        tool_calls: [
          { function: { name: "u", arguments: { a: 1 } } },
          { function: { name: "t", arguments: LONG_ARGS } },
        ],
      },
      done: true,
      done_reason: "stop",
      prompt_eval_count: 5,
      eval_count: 7,
    };
    const events = await read(`${JSON.stringify(line)}\n`, "ollama", "application/x-ndjson");
    assertEquals(
      outline(events).filter((entry) => entry !== "usage"),
      [...CALLS.filter((entry) => entry !== "usage"), "finish tool-calls"],
    );
    assert(
      events.some((event) => event.type === "usage"),
      "usage",
    );
  });

  test("whole responses: Gemini's and Anthropic's keep their other call, text, usage and finish", async () => {
    const gemini = {
      candidates: [{ content: { role: "model", parts: [{ text: "Calling." }, ok, call] }, finishReason: "STOP" }],
      usageMetadata,
    };
    const anthropic = {
      id: "msg_1",
      type: "message",
      role: "assistant",
      model: "m",
      content: [
        { type: "text", text: "Calling." },
        { type: "tool_use", id: "toolu_1", name: "u", input: { a: 1 } },
        { type: "tool_use", id: "toolu_2", name: "t", input: LONG_ARGS },
      ],
      stop_reason: "tool_use",
      stop_sequence: null,
      usage: { input_tokens: 5, output_tokens: 7 },
    };
    const bedrock = {
      output: {
        message: {
          role: "assistant",
          content: [
            { text: "Calling." },
            { toolUse: { toolUseId: "t1", name: "u", input: { a: 1 } } },
            { toolUse: { toolUseId: "t2", name: "t", input: LONG_ARGS } },
          ],
        },
      },
      stopReason: "tool_use",
      usage: { inputTokens: 5, outputTokens: 7, totalTokens: 12 },
    };
    for (const [provider, body] of [
      ["gemini", gemini],
      ["anthropic", anthropic],
      ["bedrock", bedrock],
    ] as const) {
      const events = outline(await read(JSON.stringify(body), provider, "application/json"));
      assertEquals(
        events.filter((entry) => entry !== "usage"),
        [...CALLS.filter((entry) => entry !== "usage"), "finish tool-calls"],
        provider,
      );
      assert(events.includes("usage"), `${provider}: usage`);
    }
  });

  test("Gemini Interactions: a step's arguments object holding such a name is the invalid call", async () => {
    const step = (index: number, id: string, name: string, args: object) => [
      { event_type: "step.start", index, step: { type: "function_call", id, name, arguments: args } },
      { event_type: "step.stop", index },
    ];
    const body = sse([
      { event_type: "interaction.created", interaction: { id: "i_1", status: "in_progress" } },
      ...step(0, "call_1", "u", { a: 1 }),
      ...step(1, "call_2", "t", LONG_ARGS),
      { event_type: "interaction.completed", interaction: { id: "i_1", status: "requires_action" } },
    ]);
    const events = outline(await read(body, "gemini-interactions", "text/event-stream"));
    assertEquals(events.slice(0, 2), ["tool-call u", "invalid-tool-call t long-member-name"]);
    assert(events.at(-1)?.startsWith("finish"), events.join(", "));
  });
});
