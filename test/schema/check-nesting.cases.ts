// The final check recurses into a value as its schema does (items, properties, `$ref`s), and
// `enum`, `const` and `uniqueItems` build a value's canonical form recursively: a value nested
// thousands deep (given to checkToolArguments, or let through by an accumulator whose `maxDepth`
// was raised) overflowed the stack, a RangeError out of a function documented never to throw, and
// out of the accumulator's push. Past 500 levels the check now stops as a spent budget stops it.
import {
  checkToolArguments,
  checkToolSchema,
  earlySchemaValidator,
  ToolCallAccumulator,
  type ToolCallEvent,
  type ToolSchema,
  toolSchemaValidator,
} from "../../src/index.ts";
import { MAX_CHECK_NESTING } from "../../src/schema/check-budget.ts";
import { pushCall } from "../support/accumulator-runs.ts";
import { assert, assertEquals, group } from "../support/harness.ts";

const nested = (depth: number): string => `${"[".repeat(depth)}${"]".repeat(depth)}`;
// Said as depth, not as steps (it named a budget of 2,000,000 steps the check had not spent).
const tooDeep = "$ could not be checked past 500 levels of nesting";
/** An array of arrays, each level through a `$ref`: two schemas applied per level of the value. */
const defs = { list: { type: "array", items: { $ref: "#/$defs/list" } } };
const recursive: ToolSchema = { $ref: "#/$defs/list", $defs: defs };

group("Checks of values nested too deep to follow", (test) => {
  test("a value 100,000 deep: one issue, never a stack overflow", () => {
    const value = JSON.parse(nested(100_000));
    assertEquals(checkToolArguments(value, recursive), [tooDeep]);
    assertEquals(checkToolArguments(value, { uniqueItems: true }), [tooDeep]);
    assertEquals(checkToolArguments(value, { enum: [[1], [[2]]] }), [tooDeep]);
    assertEquals(checkToolArguments(JSON.parse(nested(200)), recursive), []);
  });

  test("canonical forms deep at the bottom of schemas nested deep: within the bound together", () => {
    // 240 levels of `$ref`ed items (480 schemas one inside another), then uniqueItems on a value 1,000 deeper.
    const levels = MAX_CHECK_NESTING / 2 - 10;
    const defs: Record<string, ToolSchema> = {};
    for (let i = 0; i < levels; i++) defs[`d${i}`] = { type: "array", items: { $ref: `#/$defs/d${i + 1}` } };
    defs[`d${levels}`] = { uniqueItems: true };
    const schema = { $ref: "#/$defs/d0", $defs: defs } as ToolSchema;
    assertEquals(checkToolArguments(JSON.parse(nested(levels + 1_000)), schema), [tooDeep]);
    assertEquals(checkToolArguments(JSON.parse(nested(levels + 20)), schema), []);
  });

  test("an accumulator whose maxDepth lets such a value through rejects the call, as past its budget", () => {
    const tools = [
      {
        type: "function",
        function: {
          name: "f",
          parameters: { type: "object", properties: { a: { $ref: "#/$defs/list" } }, $defs: defs },
        },
      },
    ] as const;
    const text = `{"a":${nested(50_000)}}`;
    const events: ToolCallEvent[] = [];
    const accumulator = new ToolCallAccumulator((event) => events.push(event), {
      validator: toolSchemaValidator(tools),
      earlyValidator: earlySchemaValidator(tools),
      maxDepth: 100_000,
    });
    pushCall(accumulator, text, { id: "c", name: "f" });
    const rejected = events.find((event) => event.type === "invalid-tool-call");
    assert(rejected?.type === "invalid-tool-call", "the call is rejected");
    assertEquals(rejected.error.code, "validation-budget-exceeded");
    assertEquals(
      rejected.error.message,
      "The arguments of f could not be checked against its schema past 500 levels of nesting.",
    );
  });

  test("checkToolSchema refuses an enum or const value nested past 500 levels at its keyword, as too deep", () => {
    // Their canonical forms stop there, as a value's do. Before: a 1.2 KB schema was refused at
    // its root as compiling to "more than 20,000 schemas or 4,000,000 steps of work".
    const deep = (depth: number) => JSON.parse(nested(depth));
    const said = `nests deeper than ${MAX_CHECK_NESTING} levels (the checks compare values no deeper)`;
    const issues = (schema: unknown) => checkToolSchema(schema).map(({ path, message }) => `${path}: ${message}`);
    assertEquals(issues({ const: deep(MAX_CHECK_NESTING + 1) }), [`parameters.const: ${said}`]);
    assertEquals(issues({ properties: { a: { enum: [1, { b: deep(100_000) }] } } }), [
      `parameters.properties.a.enum: ${said}`,
    ]);
    // At the bound, compared whole; `default` and `examples` are never compared.
    assertEquals(issues({ const: deep(MAX_CHECK_NESTING), enum: [deep(MAX_CHECK_NESTING)] }), []);
    assertEquals(checkToolArguments(deep(MAX_CHECK_NESTING), { const: deep(MAX_CHECK_NESTING) }), []);
    assertEquals(issues({ default: deep(5_000), examples: [deep(5_000)] }), []);
  });
});
