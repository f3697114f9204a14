import { z } from "zod";
import {
  checkToolArguments,
  checkToolSchema,
  jsonSchema,
  streamToolCalls,
  type ToolCallEvent,
  type ToolDefinition,
  type ToolSchema,
} from "../../src/index.ts";
import { validateStandard } from "../../src/schema/standard-schema.ts";
import { describeToolError, toolErrorInfo } from "../../src/tools/tool-outcome.ts";
import { assert, assertEquals, group } from "../support/harness.ts";
import { bytes, chatChunk, collect, fromChunks, openAISSE } from "../support/streams.ts";

const ALLOWED = Array.from({ length: 2000 }, (_, i) => `value-${i}`);
const ENUM_TOOL: ToolDefinition = {
  type: "function",
  function: {
    name: "pick",
    parameters: { type: "object", properties: { a: { type: "array", items: { enum: ALLOWED } } } },
  },
};

async function run(args: string, tools: ToolDefinition[], earlyValidation = true): Promise<ToolCallEvent[]> {
  const body = openAISSE([
    chatChunk({ tool_calls: [{ index: 0, id: "c1", function: { name: "pick", arguments: args } }] }),
    chatChunk({}, "tool_calls"),
  ]);
  return collect(
    streamToolCalls(fromChunks([bytes(body)]), { provider: "openai", tools, earlyValidation, jsonSchema }),
  );
}

group("Bounded error reports and total checks (issue 26)", (test) => {
  test("a failed enum check reports at most 20 issues, counts the rest, and never lists a long enum", () => {
    const issues = checkToolArguments({ a: Array.from({ length: 1000 }, () => 1) }, ENUM_TOOL.function.parameters!);
    assertEquals(issues.length, 21);
    assertEquals(issues[0], "$.a[0] must be one of the 2,000 allowed values");
    assertEquals(issues[20], "and 980 more");
    assertEquals(checkToolArguments(7, { enum: ["a", "b"] }), ['$ must be one of "a", "b"']);
    const long = checkToolArguments(7, { const: "x".repeat(5000) })[0]!;
    assert(long.length < 60, `a long const is cut: ${long.length}`);
    const deepKey = checkToolArguments({ ["k".repeat(5000)]: 1 }, { additionalProperties: false })[0]!;
    assert(deepKey.length <= 300, `an issue is at most 300 characters: ${deepKey.length}`);
  });

  test("what a failed call produces is a constant plus the call's own size, early validation on", async () => {
    for (const items of [300, 1000]) {
      const args = JSON.stringify({ a: Array.from({ length: items }, () => 1) });
      const events = await run(args, [ENUM_TOOL]);
      const size = JSON.stringify(events).length;
      assert(
        events.some((event) => event.type === "tool-call-violation"),
        "the early check flags it",
      );
      assert(
        events.some((event) => event.type === "invalid-tool-call"),
        "the final check rejects it",
      );
      // The call's text appears in its deltas and its raw arguments; the rest is bounded.
      assert(size < 20_000 + 4 * args.length, `${items} items: ${size} characters for ${args.length} of arguments`);
    }
  });

  test("a Standard Schema validator's issues are bounded the same way", async () => {
    const schema = z.object({ a: z.array(z.enum(ALLOWED as [string, ...string[]])) });
    const outcome = await validateStandard(schema, { a: Array.from({ length: 500 }, () => "nope") });
    assert(!outcome.ok, "rejected");
    assertEquals(outcome.issues.length, 21);
    assertEquals(outcome.issues[20], "and 480 more");
    assert(
      outcome.issues.every((issue) => issue.length <= 300),
      "each issue at most 300 characters",
    );
  });

  test("the tool-error messages written for the model are bounded too", () => {
    const issues = [
      ...Array.from({ length: 20 }, (_, i) => `$.a[${i}] must be one of the 2,000 allowed values`),
      "and 980 more",
    ];
    const required = Array.from({ length: 5000 }, (_, i) => `field_${i}`);
    const error = describeToolError({ code: "schema-mismatch", message: "", issues }, { parameters: { required } });
    assert(error.message.length < 1500, `${error.message.length} characters`);
    assert(error.message.includes("; and 990 more."), "the issues not shown are counted");
    assert(error.message.includes("field_9 and 4990 more"), "the required fields not shown are counted");
    const unknown = toolErrorInfo(
      "unknown-tool",
      Array.from({ length: 1000 }, (_, i) => `tool_${"x".repeat(200)}_${i}`),
    );
    assert(unknown.message.length < 2000 && unknown.message.endsWith(" and 980 more."), unknown.message.slice(-40));
  });

  test("parameters that are not a schema never make a check throw: the stream ends with its finish", async () => {
    for (const parameters of [
      { enum: "abc" },
      { anyOf: "x" },
      { properties: { city: { enum: 5 } } },
      { properties: { city: { anyOf: [null] } } },
      { properties: { city: { $ref: "#/nowhere", pattern: "(" } } },
    ]) {
      const tools = [{ type: "function", function: { name: "pick", parameters: parameters as ToolSchema } }];
      const events = await run('{"city": "Paris"}', tools);
      assertEquals(events.at(-1)?.type, "finish", JSON.stringify(parameters));
      const call = events.find((event) => event.type === "tool-call" || event.type === "invalid-tool-call");
      assert(call !== undefined, "the call completes");
    }
  });
});

group("checkToolSchema: a tool's schema checked at the request, by field", (test) => {
  const at = (schema: unknown): string[] =>
    checkToolSchema(schema, "tools[0].parameters").map((issue) => `${issue.path}: ${issue.message}`);

  test("agrees with the checks: what they would read as accepting anything is refused, what they never read is not", () => {
    // Found by test/schema/schema-agreement.cases.ts. Before: `type: "text"` and an `items` list
    // beside `prefixItems` were accepted, though the checks skip them (accepting anything there)…
    assertEquals(at({ properties: { a: { type: "text" } } }), [
      "tools[0].parameters.properties.a.type: must be one of object, array, string, number, integer, boolean, null, or a non-empty array of them",
    ]);
    assertEquals(at({ type: ["string", 1] }).length, 1);
    assertEquals(at({ prefixItems: [true], items: [{ type: "string" }] }), [
      "tools[0].parameters.items: must be a schema (an object or a boolean)",
    ]);
    assertEquals(at({ items: [{ type: "string" }], additionalItems: false }), [], "draft 7's tuple form");
    // …and a `$ref` the checks never follow (in an unused `$defs` entry, under additionalItems
    // beside one `items` schema, which 2020-12 ignores) was refused: a valid schema, a 400.
    const unused = { $defs: { old: { $ref: "https://x/old.json" }, gone: { $ref: "#/$defs/nowhere" } } };
    assertEquals(at(unused), []);
    assertEquals(at({ items: { type: "string" }, additionalItems: { $ref: "#/nowhere" } }), []);
    // Once a read part points to it, it is read: refused at its own path.
    assertEquals(at({ ...unused, properties: { a: { $ref: "#/$defs/gone" } } }), [
      "tools[0].parameters.$defs.gone.$ref: points to nothing in the schema",
    ]);
  });

  test("names each field whose value the checks cannot read", () => {
    assertEquals(at({ enum: "abc" }), ["tools[0].parameters.enum: must be an array"]);
    assertEquals(at({ anyOf: "x" }), ["tools[0].parameters.anyOf: must be a non-empty array of schemas"]);
    assertEquals(at({ properties: { city: { enum: 5 } } }), [
      "tools[0].parameters.properties.city.enum: must be an array",
    ]);
    assertEquals(at({ properties: { city: { anyOf: [null] } } }), [
      "tools[0].parameters.properties.city.anyOf[0]: must be a schema (an object or a boolean)",
    ]);
    assertEquals(at({ required: ["a", 1], minLength: -1, maximum: "9", multipleOf: 0, pattern: "(" }), [
      "tools[0].parameters.required: must be an array of strings, each once",
      "tools[0].parameters.maximum: must be a number",
      "tools[0].parameters.multipleOf: must be a number greater than 0 (one nearer 0 than a double holds, such as 1e-400, reads as 0)",
      "tools[0].parameters.minLength: must be a non-negative integer",
      "tools[0].parameters.pattern: is not a valid regular expression (ECMAScript, u flag)",
    ]);
    assertEquals(at({ properties: { "odd key": { $ref: "#/$defs/missing" } }, patternProperties: { "[": {} } }), [
      'tools[0].parameters.properties["odd key"].$ref: points to nothing in the schema',
      'tools[0].parameters.patternProperties["["]: is not a valid regular expression (ECMAScript, u flag)',
    ]);
    // An anchor is followed in its resource; one the schema lacks points to nothing.
    assertEquals(at({ $defs: { a: { $anchor: "item", type: "string" } }, properties: { p: { $ref: "#item" } } }), []);
    assertEquals(at({ $defs: { a: { $anchor: "item" } }, properties: { p: { $ref: "#items" } } }), [
      "tools[0].parameters.properties.p.$ref: points to nothing in the schema",
    ]);
    assertEquals(at({ $ref: "https://example.com/s.json" }), [
      "tools[0].parameters.$ref: must be a local reference (#/$defs/..., #name, or an $id's URI): remote ones are not followed",
    ]);
  });

  test("accepts what real tool schemas send, and bounds size, depth and the number of issues", () => {
    const real = {
      type: "object",
      properties: {
        city: { type: "string", minLength: 1, pattern: "^[A-Z]" },
        when: { anyOf: [{ type: "string", format: "date-time" }, { type: "null" }] },
        tags: { type: "array", items: { $ref: "#/$defs/tag" }, uniqueItems: true },
        n: { type: "integer", exclusiveMinimum: 0, multipleOf: 2 },
      },
      required: ["city"],
      additionalProperties: false,
      $defs: { tag: { type: "string", enum: ["a", "b"] } },
    };
    assertEquals(at(real), []);
    assertEquals(at(true), []);
    let deep: unknown = {};
    for (let i = 0; i < 100; i++) deep = { items: deep };
    assertEquals(at(deep).length, 1);
    assert(at(deep)[0]!.endsWith("nests deeper than 64 schemas"), at(deep)[0]!);
    const many = { properties: Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`p${i}`, { enum: 1 }])) };
    const issues = at(many);
    assertEquals(issues.length, 21);
    assertEquals(issues[20], "tools[0].parameters: and 80 more problems");
  });
});
