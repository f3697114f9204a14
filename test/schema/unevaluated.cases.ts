// unevaluatedProperties and unevaluatedItems (draft 2020-12): the keys and items that no schema
// applied to the value evaluated (its own properties, patternProperties, additionalProperties,
// prefixItems, items, contains, and those of the schemas in place that hold: allOf, anyOf, oneOf,
// if/then/else, dependentSchemas, $ref; not none). They were ignored: a schema that closes an
// object composed with allOf or $ref accepted any other key. Counted in steps, never a time.
import type { JsonValue, ToolSchema } from "../../src/index.ts";
import { CheckBudget, checkToolArguments, checkToolSchema, IncrementalJsonParser } from "../../src/index.ts";
import { SchemaWatcher } from "../../src/schema/schema-watcher.ts";
import { assert, assertEquals, group } from "../support/harness.ts";

/** The early check's violation on `value` fed a character at a time, if any: its message, and the text read by then. */
function early(schema: object, value: JsonValue): string | undefined {
  const watcher = new SchemaWatcher(schema);
  const parser = new IncrementalJsonParser({ listener: watcher });
  let read = "";
  for (const character of JSON.stringify(value)) {
    parser.feed(character);
    read += character;
    if (watcher.violation) return `${watcher.violation.message} at ${read}`;
  }
  return undefined;
}

/** The steps a check takes, and its issues. */
function steps(value: JsonValue, schema: ToolSchema): [number, string[]] {
  const budget = new CheckBudget(Number.POSITIVE_INFINITY);
  const issues = checkToolArguments(value, schema, { budget });
  assert(!budget.exhausted, `${budget.spent} steps`);
  return [budget.spent, issues];
}

/** A schema as a tool's (ToolSchema types `properties` values as schemas, not `true`). */
const tool = (schema: object): ToolSchema => schema as ToolSchema;

const keyed = (n: number): Record<string, number> =>
  Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, i]));

group("unevaluatedProperties and unevaluatedItems", (test) => {
  test("a closed object: its own properties, those of allOf, $ref, anyOf, if and dependentSchemas", () => {
    const closed = tool({
      type: "object",
      properties: { a: { type: "string" } },
      unevaluatedProperties: false,
    });
    assertEquals(checkToolSchema(closed), []);
    assertEquals(checkToolArguments({ a: "x", b: 1 }, closed), ["$.b is not allowed"]);
    const composed = tool({
      type: "object",
      allOf: [{ $ref: "#/$defs/base" }],
      anyOf: [{ properties: { c: { type: "number" } } }, { properties: { d: true } }],
      if: { properties: { kind: { const: "e" } } },
      then: { properties: { e: true } },
      dependentSchemas: { f: { properties: { g: true } } },
      properties: { kind: true, f: true },
      unevaluatedProperties: false,
      $defs: { base: { properties: { a: { type: "string" } }, required: ["a"] } },
    });
    assertEquals(checkToolSchema(composed), []);
    assertEquals(checkToolArguments({ a: "x", c: 1, d: 2, kind: "e", e: 0, f: 0, g: 0 }, composed), []);
    // The anyOf branch that fails (c not a number) evaluates nothing; not and a failed if none either.
    assertEquals(checkToolArguments({ a: "x", c: "y", d: 2, kind: "z", e: 0, g: 0, h: 0 }, composed), [
      "$.c is not allowed",
      "$.e is not allowed",
      "$.g is not allowed",
      "$.h is not allowed",
    ]);
    const negated = tool({ not: { properties: { a: { const: 1 } } }, unevaluatedProperties: false });
    assertEquals(checkToolArguments({ a: 2 }, negated), ["$.a is not allowed"]);
  });

  test("a schema under unevaluatedProperties, nested ones, and cousins that cannot see each other", () => {
    const typed = tool({ allOf: [{ properties: { a: true } }], unevaluatedProperties: { type: "string" } });
    assertEquals(checkToolArguments({ a: 1, b: "x" }, typed), []);
    assertEquals(checkToolArguments({ a: 1, b: 2 }, typed), ["$.b must be string, not number"]);
    // An inner unevaluatedProperties evaluates every key it holds: the outer one sees them all.
    const nested = tool({
      allOf: [{ properties: { a: true }, unevaluatedProperties: true }],
      unevaluatedProperties: false,
    });
    assertEquals(checkToolArguments({ a: 1, b: 2 }, nested), []);
    const cousins = tool({ allOf: [{ properties: { a: true } }, { unevaluatedProperties: false }] });
    assertEquals(checkToolArguments({ a: 1 }, cousins), ["$.a is not allowed"]);
    // Per value: the key `a` of the inner object is not the outer one's, nor the reverse.
    const inner = tool({ properties: { o: { properties: { a: true } } }, unevaluatedProperties: false });
    assertEquals(checkToolArguments({ o: { a: 1 }, a: 1 }, inner), ["$.a is not allowed"]);
    // Two schemas of one inner object, side by side (cousins): the closed one sees none of the other's keys.
    const sides = tool({
      properties: { o: { properties: { a: true } } },
      allOf: [{ properties: { o: { unevaluatedProperties: false } } }],
    });
    assertEquals(checkToolArguments({ o: { a: 1, b: 2 } }, sides), ["$.o.a is not allowed", "$.o.b is not allowed"]);
  });

  test("a closed array: prefixItems, items, contains, through allOf and anyOf", () => {
    const tuple = tool({
      type: "array",
      allOf: [{ prefixItems: [{ type: "string" }] }],
      anyOf: [{ prefixItems: [true, { type: "number" }] }, true],
      unevaluatedItems: false,
    });
    assertEquals(checkToolArguments(["a", 1], tuple), []);
    assertEquals(checkToolArguments(["a", "b"], tuple), ["$[1] is not allowed"]);
    assertEquals(checkToolArguments(["a", 1, true], tuple), ["$[2] is not allowed"]);
    const contained = tool({ allOf: [{ contains: { type: "number" } }], unevaluatedItems: { type: "null" } });
    assertEquals(checkToolArguments([1, null, 2], contained), []);
    assertEquals(checkToolArguments([1, "x"], contained), ["$[1] must be null, not string"]);
    const all = tool({ allOf: [{ items: true }], unevaluatedItems: false });
    assertEquals(checkToolArguments([1, 2, 3], all), []);
  });

  test("a $dynamicRef evaluates what its target does; what the checks do not follow (a remote $ref) never rejects", () => {
    // The $dynamicRef resolves to the anchor evaluating b (valid as JSON Schema says), and no more.
    const dynamic = tool({
      $defs: { more: { $dynamicAnchor: "more", properties: { b: true } } },
      properties: { a: true },
      $dynamicRef: "#more",
      unevaluatedProperties: false,
    });
    assertEquals(checkToolArguments({ a: 1, b: 2 }, dynamic), []);
    assertEquals(checkToolArguments({ a: 1, c: 2 }, dynamic), ["$.c is not allowed"]);
    const remote = tool({ allOf: [{ $ref: "https://example.com/s" }], unevaluatedProperties: false });
    assertEquals(checkToolArguments({ a: 1 }, remote), []);
  });

  test("early: the sibling-only case is caught by its key; beside schemas in place, left to the final check", () => {
    const closed = { type: "object", properties: { a: { type: "string" } }, unevaluatedProperties: false };
    assertEquals(early(closed, { a: "x", b: 1 }), 'A property the schema does not allow. at {"a":"x","b');
    const tuple = { type: "array", prefixItems: [{ type: "string" }], unevaluatedItems: false };
    assert(early(tuple, ["a", 1])?.endsWith('["a",1') === true, `the item past the tuple: ${early(tuple, ["a", 1])}`);
    const composed = { allOf: [{ properties: { a: true } }], unevaluatedProperties: false };
    assertEquals(early(composed, { a: 1 }), undefined);
    assertEquals(early(composed, { a: 1, b: 2 }), undefined);
    assertEquals(checkToolArguments({ a: 1, b: 2 }, tool(composed)), ["$.b is not allowed"]);
    // A oneOf branch that fails only by unevaluatedProperties is never counted as a sure match early.
    const one = { oneOf: [composed, { required: ["a"] }] };
    assertEquals(early(one, { a: 1, b: 2 }), undefined);
    assertEquals(checkToolArguments({ a: 1, b: 2 }, tool(one)), []);
  });

  test("checkToolSchema reads the schemas under unevaluated*: a $ref there that points nowhere is refused", () => {
    assertEquals(checkToolSchema({ unevaluatedProperties: { $ref: "#/$defs/none" } }), [
      { path: "parameters.unevaluatedProperties.$ref", message: "points to nothing in the schema" },
    ]);
  });

  test("many anyOf branches on a large object: steps grow with n, not n²", () => {
    // n branches each evaluating one key, and n branches that $ref one schema reading every key
    // (kept once per value): every branch is walked for its keys, each key's marks read once.
    const own = (n: number): ToolSchema =>
      tool({
        type: "object",
        anyOf: Array.from({ length: n }, (_, i) => ({ properties: { [`k${i}`]: { type: "integer" } } })),
        unevaluatedProperties: false,
      });
    const shared = (n: number): ToolSchema =>
      tool({
        anyOf: Array.from({ length: n }, (_, i) => ({ $ref: "#/$defs/every", minProperties: i % 2 })),
        unevaluatedProperties: false,
        $defs: { every: { patternProperties: { "^k": { type: "integer" } } } },
      });
    for (const [name, make] of [
      ["own properties", own],
      ["a shared schema", shared],
    ] as const) {
      const [small, issues] = steps({ ...keyed(300), x: 1 }, make(300));
      assertEquals(issues, ["$.x is not allowed"]);
      const [large] = steps({ ...keyed(600), x: 1 }, make(600));
      assert(large < 3 * small, `${name}: ${small} steps at n = 300, ${large} at 600`);
      assertEquals(steps(keyed(600), make(600))[1], []);
    }
  });
});
