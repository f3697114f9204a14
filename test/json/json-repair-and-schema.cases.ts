import {
  checkToolArguments,
  IncrementalJsonParser,
  jsonSchema,
  repairJson,
  streamToolCalls,
  ToolCallAccumulatorStream,
  toolSchemaValidator,
  type ProviderDelta,
  type ToolCallAccumulatorOptions,
  type ToolCallEvent,
  type ToolSchema,
} from "../../src/index.ts";
import { assert, assertEquals, group } from "../support/harness.ts";
import { bytes, chatChunk, collect, fromChunks, openAISSE } from "../support/streams.ts";

const call = (args: string): unknown =>
  chatChunk({ tool_calls: [{ index: 0, id: "c1", function: { name: "get_weather", arguments: args } }] });
async function complete(args: string, reason = "tool_calls", options = {}): Promise<ToolCallEvent | undefined> {
  const events = await collect(
    streamToolCalls(fromChunks([bytes(openAISSE([call(args), chatChunk({}, reason)]))]), {
      provider: "openai",
      ...options,
    }),
  );
  return events.find((e) => e.type === "tool-call" || e.type === "invalid-tool-call");
}

const weather = {
  type: "function",
  function: {
    name: "get_weather",
    parameters: {
      type: "object",
      properties: {
        city: { type: "string" },
        unit: { type: "string", enum: ["c", "f"] },
        days: { type: ["integer", "null"] },
      },
      required: ["city", "unit"],
      additionalProperties: false,
    },
  },
};

group("JSON repair", (test) => {
  test("each repair is applied and reported", () => {
    // The repaired text too: the JSON the value was read from (where the schema checks look for a repeated name).
    const cases: [string, unknown, string[], string][] = [
      ["{'city': 'Paris'}", { city: "Paris" }, ["single-quotes"], '{"city": "Paris"}'],
      ['{city: "Paris"}', { city: "Paris" }, ["unquoted-keys"], '{"city": "Paris"}'],
      ['{"a": [1, 2,],}', { a: [1, 2] }, ["trailing-commas"], '{"a": [1, 2]}'],
      [
        '{"ok": True, "no": False, "x": None}',
        { ok: true, no: false, x: null },
        ["python-literals"],
        '{"ok": true, "no": false, "x": null}',
      ],
      ['```json\n{"a": 1}\n```', { a: 1 }, ["code-fence"], '{"a": 1}'],
      ["{'say': 'he said \"hi\"'}", { say: 'he said "hi"' }, ["single-quotes"], '{"say": "he said \\"hi\\""}'],
    ];
    for (const [given, value, repairs, text] of cases)
      assertEquals(repairJson(given, { closeTruncated: false }), { ok: true, value, repairs, text }, given);
  });

  test("a code fence is read in one pass: long runs of white space inside one cost no backtracking", () => {
    // The fence was a pattern whose lazy body backtracked on white space: 10 KB of it took minutes.
    const spaces = " ".repeat(200_000);
    assertEquals(repairJson(`\`\`\`${spaces}x`, { closeTruncated: false }).ok, false);
    assertEquals(repairJson(`\`\`\`json${spaces}{"a": 1}${spaces}\`\`\``, { closeTruncated: false }), {
      ok: true,
      value: { a: 1 },
      repairs: ["code-fence"],
      text: '{"a": 1}',
    });
    assertEquals(repairJson('  ```\n{"a": [1, 2,]}\n```\n', { closeTruncated: false }), {
      ok: true,
      value: { a: [1, 2] },
      repairs: ["code-fence", "trailing-commas"],
      text: '{"a": [1, 2]}',
    });
  });

  test("a number cut short is ended in one pass: long runs of signs or points cost no backtracking", () => {
    assertEquals(repairJson('{"a": [1, 2.5e-', { closeTruncated: true }), {
      ok: true,
      value: { a: [1, 2.5] },
      repairs: ["truncated"],
      text: '{"a": [1, 2.5]}',
    });
    // A pattern anchored only at the end was tried from every start: 80,000 of them took 6 to 12 s.
    for (const run of ["-", "+", ".", "e"]) {
      const text = `[1${run.repeat(200_000)}x, 1${run}`;
      assertEquals(repairJson(text, { closeTruncated: true }).ok, false, run);
    }
  });

  test("a value cut short is closed only when allowed", () => {
    assertEquals(repairJson('{"a": [1, "tw', { closeTruncated: true }), {
      ok: true,
      value: { a: [1, "tw"] },
      repairs: ["truncated"],
      text: '{"a": [1, "tw"]}',
    });
    assertEquals(repairJson('{"a": [1, "tw', { closeTruncated: false }), {
      ok: false,
      code: "invalid-json",
      position: 13,
    });
  });

  test("the accumulator reports repairs on the tool-call", async () => {
    const event = await complete("{'city': 'Paris', 'unit': 'c',}");
    assert(event?.type === "tool-call", "repaired into a tool-call");
    assertEquals(
      [event.arguments, event.repairs],
      [{ city: "Paris", unit: "c" }, ["single-quotes", "trailing-commas"]],
    );
  });

  test("a truncated value is closed after a normal finish, never after finish_reason length", async () => {
    const normal = await complete('{"city": "Par', "tool_calls");
    assert(normal?.type === "tool-call" && normal.repairs?.includes("truncated"), "closed after a normal finish");
    const cut = await complete('{"city": "Par', "length");
    assert(cut?.type === "invalid-tool-call" && cut.error.code === "invalid-json", "never after length");
  });

  test("bytes after a closed value make the call invalid with trailing-data, never a truncated call", async () => {
    const event = await complete('{"city": "Paris"} {"city": "Rome"}');
    assert(
      event?.type === "invalid-tool-call" && event.error.code === "trailing-data" && event.error.position === 18,
      "trailing-data at 18",
    );
  });

  test("repair: false leaves invalid arguments invalid", async () => {
    const event = await complete("{'city': 'Paris'}", "tool_calls", { repair: false });
    assert(event?.type === "invalid-tool-call", "invalid");
  });
});

group("Tool schema checks", (test) => {
  test("required, types, enums and additionalProperties: false give readable reasons", () => {
    assertEquals(checkToolArguments({ city: "Paris", unit: "c", days: null }, weather.function.parameters), []);
    assertEquals(checkToolArguments({ city: 1, unit: "k", extra: true, days: 1.5 }, weather.function.parameters), [
      "$.city must be string, not number",
      '$.unit must be one of "c", "f"',
      "$.extra is not allowed",
      "$.days must be integer or null, not number",
    ]);
    assertEquals(checkToolArguments({}, weather.function.parameters), ["$.city is required", "$.unit is required"]);
  });

  test("enum and const compare as JSON Schema does: objects whatever their key order, arrays in order", () => {
    const schema: ToolSchema = {
      type: "object",
      properties: {
        at: { enum: [{ lat: 1, lon: [2, { a: 1, b: 2 }] }, "x"] },
        pin: { const: { a: 1, b: { c: 2, d: 3 } } },
      },
    };
    assertEquals(
      checkToolArguments({ at: { lon: [2, { b: 2, a: 1 }], lat: 1 }, pin: { b: { d: 3, c: 2 }, a: 1 } }, schema),
      [],
    );
    assertEquals(
      checkToolArguments({ at: { lat: 1, lon: [{ a: 1, b: 2 }, 2] } }, schema).length,
      1,
      "arrays keep their order",
    );
    assertEquals(checkToolArguments({ pin: { a: 1, b: { c: 2 } } }, schema).length, 1, "a missing key differs");
    assertEquals(
      checkToolArguments({ pin: { a: 1, b: { c: 2, d: 3 }, e: null } }, schema).length,
      1,
      "an extra key differs",
    );
  });

  test("with tools and the jsonSchema plug-in, a violation or an unknown tool name is an invalid-tool-call with its issues", async () => {
    const bad = await complete('{"city": "Paris", "unit": "kelvin"}', "tool_calls", { tools: [weather], jsonSchema });
    assert(bad?.type === "invalid-tool-call" && bad.error.code === "schema-mismatch", "schema-mismatch");
    assertEquals(bad.error.issues, ['$.unit must be one of "c", "f"']);
    const good = await complete('{"city": "Paris", "unit": "c"}', "tool_calls", { tools: [weather], jsonSchema });
    assert(good?.type === "tool-call", "valid");
    const anthropicShape = [{ name: "other_tool", input_schema: { type: "object" } }];
    const unknown = await complete('{"city": "Paris"}', "tool_calls", { tools: anthropicShape, jsonSchema });
    assert(
      unknown?.type === "invalid-tool-call" &&
        unknown.error.issues?.[0] === "get_weather is not one of the request's tools",
      "unknown tool",
    );
    assertEquals(unknown.error.message, "get_weather is not one of the request's tools", "the message says so too");
  });

  test("a tool listed without a schema accepts any arguments", async () => {
    const event = await complete('{"anything": [1]}', "tool_calls", {
      tools: [{ name: "get_weather" }, { name: "other", input_schema: { type: "object" } }],
    });
    assert(event?.type === "tool-call", "accepted");
  });
});

group("Accumulator plug-ins", (test) => {
  const deltas = (args: string): ProviderDelta[] => [
    { type: "tool-call-chunk", index: 0, id: "c1", name: "get_weather", argumentsDelta: args },
    { type: "finish", rawReason: "tool_calls" },
  ];
  async function accumulate(args: string, options: ToolCallAccumulatorOptions): Promise<ToolCallEvent[]> {
    return collect(fromChunks(deltas(args)).pipeThrough(new ToolCallAccumulatorStream(options)));
  }
  const final = (events: ToolCallEvent[]): ToolCallEvent | undefined =>
    events.find((e) => e.type === "tool-call" || e.type === "invalid-tool-call");

  test("without plug-ins the lean core parses once: invalid JSON is invalid-json without a position, no partial values, no schema checks", async () => {
    const invalid = final(await accumulate("{'city': 'Paris'}", {}));
    assert(
      invalid?.type === "invalid-tool-call" &&
        invalid.error.code === "invalid-json" &&
        invalid.error.position === undefined,
      "invalid, no position",
    );
    assert(!invalid.error.message.includes("Paris"), "the message never embeds the arguments");
    const events = await accumulate('{"city": "Paris", "unit": "kelvin"}', {});
    assert(
      events.every((e) => e.type !== "tool-call-delta" || !("partialArguments" in e)),
      "no partial values",
    );
    assert(final(events)?.type === "tool-call", "not checked without validate");
  });

  test("repairer: repairJson repairs and reports the position of what it cannot repair", async () => {
    const repaired = final(await accumulate("{'city': 'Paris'}", { repairer: repairJson }));
    assert(repaired?.type === "tool-call", "repaired");
    assertEquals([repaired.arguments, repaired.repairs], [{ city: "Paris" }, ["single-quotes"]]);
    const invalid = final(await accumulate('{"x": @tru', { repairer: repairJson }));
    assert(invalid?.type === "invalid-tool-call" && invalid.error.position === 6, "position 6");
  });

  test("partialParser: IncrementalJsonParser gives live values and the error position", async () => {
    const events = await accumulate('{"x": @tru', { partialParser: IncrementalJsonParser });
    const delta = events.find((e) => e.type === "tool-call-delta");
    assert(delta?.type === "tool-call-delta" && "partialArguments" in delta, "partial value present");
    const invalid = final(events);
    assert(
      invalid?.type === "invalid-tool-call" && invalid.error.code === "invalid-json" && invalid.error.position === 6,
      "position 6",
    );
  });

  test("validator: toolSchemaValidator(tools) checks final arguments", async () => {
    const bad = final(
      await accumulate('{"city": "Paris", "unit": "kelvin"}', { validator: toolSchemaValidator([weather]) }),
    );
    assert(bad?.type === "invalid-tool-call" && bad.error.code === "schema-mismatch", "schema-mismatch");
    assertEquals(bad.error.issues, ['$.unit must be one of "c", "f"']);
    const good = final(
      await accumulate('{"city": "Paris", "unit": "c"}', { validator: toolSchemaValidator([weather]) }),
    );
    assert(good?.type === "tool-call", "valid");
  });
});
