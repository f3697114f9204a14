import fc from "fast-check";
import {
  checkToolArguments,
  earlySchemaValidator,
  jsonSchema,
  streamToolCalls,
  ToolCallAccumulator,
  ToolCallAccumulatorStream,
  toolSchemaValidator,
  type ProviderDelta,
  type ToolCallEvent,
  type ToolDefinition,
  type ToolSchema,
} from "../../src/index.ts";
import { assert, assertEquals, group } from "../support/harness.ts";
import { assertEventInvariants } from "../support/invariants.ts";
import { changedValue, fragmentsOf, jsonText, schemaWithValidValue } from "../support/schema-arbitraries.ts";
import { referenceViolation } from "../support/schema-reference.ts";
import { eventually, recordingSource } from "../support/sources.ts";
import { bytes, chatChunk, collect, fromChunks, openAISSE } from "../support/streams.ts";

const UNIT: ToolSchema = {
  type: "object",
  properties: { city: { type: "string" }, unit: { type: "string", enum: ["celsius", "fahrenheit"] } },
  required: ["city"],
};
const TOOLS: ToolDefinition[] = [
  { type: "function", function: { name: "get_weather", parameters: UNIT } },
  {
    type: "function",
    function: {
      name: "search",
      parameters: { type: "object", properties: { query: { type: "string" } }, required: ["query"] },
    },
  },
];

/** Runs the accumulator with the plug-in over one call's fragments (a second, valid call interleaved) and a finish. */
function accumulateCall(schema: ToolSchema, fragments: readonly string[], abortOnViolation = false): ToolCallEvent[] {
  const tools: ToolDefinition[] = [
    { name: "f", parameters: schema },
    { name: "g", parameters: { type: "object", required: ["q"] } },
  ];
  const events: ToolCallEvent[] = [];
  const accumulator = new ToolCallAccumulator((event) => events.push(event), {
    validator: toolSchemaValidator(tools),
    earlyValidator: earlySchemaValidator(tools, { abortOnViolation }),
  });
  const deltas: ProviderDelta[] = [
    { type: "tool-call-chunk", index: 1, id: "call_g", name: "g", argumentsDelta: '{"q":' },
  ];
  fragments.forEach((fragment, i) =>
    deltas.push({
      type: "tool-call-chunk",
      index: 0,
      ...(i === 0 ? { id: "call_f", name: "f" } : {}),
      argumentsDelta: fragment,
    }),
  );
  deltas.push(
    { type: "tool-call-chunk", index: 1, argumentsDelta: ' "x"}' },
    { type: "finish", rawReason: "tool_calls", reason: "tool-calls" },
  );
  for (const delta of deltas) accumulator.push(delta);
  accumulator.end();
  return events;
}

/** The index of the first fragment after which the reference says the arguments cannot match. */
function referenceFragment(schema: ToolSchema, fragments: readonly string[]): number {
  return fragments.findIndex((_, i) => referenceViolation(fragments.slice(0, i + 1).join(""), schema) !== undefined);
}

const weatherSSE = (fragments: readonly string[]): string =>
  openAISSE([
    chatChunk({ content: "Checking." }),
    chatChunk({
      tool_calls: [{ index: 0, id: "call_s", function: { name: "search", arguments: '{"query": "Oslo"}' } }],
    }),
    chatChunk({ tool_calls: [{ index: 1, id: "call_w", function: { name: "get_weather", arguments: "" } }] }),
    ...fragments.map((arguments_) => chatChunk({ tool_calls: [{ index: 1, function: { arguments: arguments_ } }] })),
    chatChunk({}, "tool_calls"),
  ]);

const types = (events: readonly ToolCallEvent[]): string[] => events.map((event) => event.type);

group("Early validation through the accumulator and streamToolCalls", (test) => {
  test("the violation follows the delta of the fragment that settles it, once; the call then completes as an invalid-tool-call", () => {
    fc.assert(
      fc.property(
        schemaWithValidValue(true).chain((drawn) =>
          fc.tuple(fc.constant(drawn.schema), fc.oneof(fc.constant(drawn.value), changedValue(drawn.value))),
        ),
        fc.nat(8),
        fc.array(fc.nat(), { maxLength: 12 }),
        ([schema, value], style, cuts) => {
          const fragments = fragmentsOf(jsonText(value, style), cuts);
          const events = accumulateCall(schema, fragments);
          assertEventInvariants(events);
          const own = events.filter((event) => "index" in event && event.index === 0);
          const deltasBefore = own.findIndex((event) => event.type === "tool-call-violation");
          const expected = referenceFragment(schema, fragments);
          // The violation comes right after the delta of fragment `expected`, i.e. after `expected + 1` deltas and the start.
          assertEquals(
            deltasBefore,
            expected < 0 ? -1 : expected + 2,
            `violation position for ${JSON.stringify(fragments)}`,
          );
          const end = own.at(-1)!;
          const valid = checkToolArguments(value, schema).length === 0;
          assertEquals(
            end.type,
            valid ? "tool-call" : "invalid-tool-call",
            "the call completes as the final check says",
          );
          assert(
            events.some((event) => event.type === "tool-call" && event.name === "g"),
            "the other call is not affected",
          );
        },
      ),
      { seed: 1711, numRuns: 300 },
    );
  });

  test("abortOnViolation ends with an abort right after the violation, the call discarded with what streamed, nothing after", () => {
    fc.assert(
      fc.property(
        schemaWithValidValue(true).chain((drawn) => fc.tuple(fc.constant(drawn.schema), changedValue(drawn.value))),
        fc.array(fc.nat(), { maxLength: 12 }),
        ([schema, value], cuts) => {
          const fragments = fragmentsOf(JSON.stringify(value), cuts);
          const events = accumulateCall(schema, fragments, true);
          assertEventInvariants(events);
          const at = referenceFragment(schema, fragments);
          if (at < 0) return assertEquals(events.at(-1)?.type, "finish");
          const violation = events.at(-2);
          const abort = events.at(-1);
          assert(
            violation?.type === "tool-call-violation" && abort?.type === "abort",
            `ends with violation and abort: ${types(events)}`,
          );
          assertEquals(abort.reason, "schema-violation");
          assertEquals(abort.error, violation.error);
          assertEquals(
            abort.discarded.find((call) => call.index === 0)?.rawArguments,
            fragments.slice(0, at + 1).join(""),
          );
        },
      ),
      { seed: 1712, numRuns: 200 },
    );
  });

  test("streamToolCalls: a bad enum is reported before the string closes; the call streams on and ends invalid", async () => {
    const fragments = ['{"city": "Oslo", ', '"unit": "kel', 'vin"}'];
    const events = await collect(
      streamToolCalls(fromChunks([bytes(weatherSSE(fragments))]), {
        tools: TOOLS,
        jsonSchema,
        earlyValidation: true,
        partialArguments: true,
      }),
    );
    assertEventInvariants(events);
    assertEquals(types(events), [
      "text-delta",
      "tool-call-start",
      "tool-call-delta",
      "tool-call-start",
      "tool-call-delta",
      "tool-call-delta",
      "tool-call-violation",
      "tool-call-delta",
      "tool-call",
      "invalid-tool-call",
      "finish",
    ]);
    const violation = events[6]!;
    assertEquals(violation, {
      type: "tool-call-violation",
      index: 1,
      id: "call_w",
      name: "get_weather",
      error: { code: "schema-mismatch", message: 'Expected one of "celsius", "fahrenheit".', path: "/unit" },
    });
    const invalid = events[9];
    assert(
      invalid?.type === "invalid-tool-call" && invalid.error.code === "schema-mismatch",
      "the call still ends as invalid-tool-call",
    );
  });

  test("streamToolCalls with abortOnViolation: everything before is delivered (the call a later index followed too), then abort schema-violation, and the body is cancelled", async () => {
    for (const partialArguments of [false, true]) {
      const chunks = [
        ...weatherSSE(['{"city": "Os', 'lo", "unit": "ce', "lv", 'in"}', ...Array(20).fill(" ")]).matchAll(
          /data: .*\n\n/g,
        ),
      ].map(([event]) => bytes(event));
      const source = recordingSource(chunks);
      const events = await collect(
        streamToolCalls(source.stream, {
          tools: TOOLS,
          jsonSchema,
          earlyValidation: true,
          abortOnViolation: true,
          partialArguments,
        }),
      );
      assertEventInvariants(events);
      assertEquals(types(events), [
        "text-delta",
        "tool-call-start",
        "tool-call-delta",
        "tool-call-start",
        "tool-call-delta",
        "tool-call-delta",
        "tool-call-delta",
        "tool-call-violation",
        "tool-call",
        "abort",
      ]);
      const abort = events.at(-1);
      assert(abort?.type === "abort" && abort.reason === "schema-violation", "abort: schema-violation");
      // call_s was sent whole (call_w, at a later index, began): delivered as at a cut, not discarded.
      const search = events.at(-2);
      assert(search?.type === "tool-call" && search.id === "call_s", "call_s delivered");
      assertEquals(abort.error, {
        code: "schema-mismatch",
        message: 'Expected one of "celsius", "fahrenheit".',
        path: "/unit",
      });
      assertEquals(
        abort.discarded.map((call) => [call.id, call.rawArguments]),
        [["call_w", '{"city": "Oslo", "unit": "celv']],
      );
      await eventually(() => source.cancelled !== undefined, "the body saw the cancel");
      assert(source.pulled < chunks.length, `reading stopped at the violation (${source.pulled} of ${chunks.length})`);
    }
  });

  test("ToolCallAccumulatorStream with the plug-in: the abort cancels the chain's source", async () => {
    const deltas: ProviderDelta[] = [
      { type: "text-delta", text: "hi" },
      { type: "tool-call-chunk", index: 0, id: "c1", name: "get_weather", argumentsDelta: '{"city": 7' },
      ...Array.from({ length: 50 }, (): ProviderDelta => ({ type: "tool-call-chunk", index: 0, argumentsDelta: " " })),
    ];
    let pulled = 0;
    let cancelled = false;
    const source = new ReadableStream<ProviderDelta>(
      {
        pull(controller) {
          if (pulled < deltas.length) controller.enqueue(deltas[pulled++]!);
          else controller.close();
        },
        cancel() {
          cancelled = true;
        },
      },
      { highWaterMark: 0 },
    );
    const events = await collect(
      source.pipeThrough(
        new ToolCallAccumulatorStream({ earlyValidator: earlySchemaValidator(TOOLS, { abortOnViolation: true }) }),
      ),
    );
    assertEquals(types(events), ["text-delta", "tool-call-start", "tool-call-delta", "tool-call-violation", "abort"]);
    await eventually(() => cancelled, "the source saw the cancel");
    assert(pulled < deltas.length, "reading stopped");
  });

  test("without tools, or for a tool without a schema, nothing is checked early", async () => {
    const sse = weatherSSE(['{"city": 1}']);
    for (const options of [
      { earlyValidation: true },
      { earlyValidation: true, jsonSchema, tools: [{ name: "get_weather" }, { name: "search" }] },
    ]) {
      const events = await collect(streamToolCalls(fromChunks([bytes(sse)]), options));
      assert(!events.some((event) => event.type === "tool-call-violation"), "no violation");
      assertEquals(events.at(-1)?.type, "finish");
    }
  });
});
