// A schema that one value reaches by many ways (an allOf or anyOf whose branches $ref the same
// schema, level after level: a diamond) is checked once per value, not once per way: a 1 KB
// schema of 16 such levels, which checkToolSchema accepts, took 2^16 walks of `{}` (263,421
// steps), so every call of its tool, `{}` included, was refused as past its budget. Counted in
// steps and compared between n and 2n levels, never a time.
import { CheckBudget, checkToolArguments, checkToolSchema, type ToolSchema } from "../../src/index.ts";
import { assert, assertEquals, group } from "../support/harness.ts";

/** `levels` schemas, each applying the next twice in place (`how`: allOf or anyOf, or down one property). */
function diamond(levels: number, how: "allOf" | "anyOf" | "properties", leaf: object): ToolSchema {
  const defs: Record<string, unknown> = { [`d${levels}`]: leaf };
  for (let i = 0; i < levels; i++) {
    const next = { $ref: `#/$defs/d${i + 1}` };
    // Two different schemas, each going down into `a` to the same next level.
    defs[`d${i}`] =
      how === "properties"
        ? { allOf: [{ properties: { a: next } }, { properties: { a: next }, type: "object" }] }
        : { [how]: [next, { ...next, minLength: 0 }] };
  }
  return { $ref: "#/$defs/d0", $defs: defs } as ToolSchema;
}

/** The steps a check takes, and its issues. */
function check(value: Parameters<typeof checkToolArguments>[0], schema: ToolSchema): [number, string[]] {
  const budget = new CheckBudget(Number.POSITIVE_INFINITY);
  const issues = checkToolArguments(value, schema, { budget });
  return [budget.spent, issues];
}

/** `{ a: { a: ... } }`, `depth` levels. */
function nested(depth: number, leaf: unknown): Parameters<typeof checkToolArguments>[0] {
  let value = leaf as Parameters<typeof checkToolArguments>[0];
  for (let i = 0; i < depth; i++) value = { a: value };
  return value;
}

group("Schemas reached by many ways: checked once per value", (test) => {
  test("allOf and anyOf diamonds: steps grow with the levels, not 2^levels; {} fits a call's budget", () => {
    for (const how of ["allOf", "anyOf"] as const) {
      const leaf = { type: "object", required: ["b"] };
      for (const value of [{ b: 1 }, {}, "x"] as Parameters<typeof checkToolArguments>[0][]) {
        const [small] = check(value, diamond(12, how, leaf));
        const [large] = check(value, diamond(24, how, leaf));
        assert(large < 3 * small, `${how} on ${JSON.stringify(value)}: ${small} steps at 12 levels, ${large} at 24`);
      }
      // 24 levels of 2 schemas in place each (the branch, its $ref's target): within the 64 in place.
      const schema = diamond(24, how, leaf);
      assertEquals(checkToolSchema(schema), []);
      assertEquals(checkToolArguments({ b: 1 }, schema, { budget: new CheckBudget(8) }), []);
      // The issues are those of the one schema that fails, once.
      assertEquals(
        check({}, schema)[1],
        how === "allOf" ? ["$.b is required"] : ["$ matches none of the allowed shapes"],
      );
    }
  });

  test("a pattern at the bottom of a diamond is run once per string, not once per way", () => {
    const schema = diamond(24, "anyOf", { type: "string", pattern: "^b" });
    const [steps, issues] = check("a".repeat(5_000), schema);
    assert(steps < 100_000, `${steps} steps`);
    assertEquals(issues, ["$ matches none of the allowed shapes"]);
    assertEquals(checkToolArguments("b".repeat(5_000), schema), []);
  });

  test("two schemas going down into one property, level after level: linear in the levels", () => {
    const leaf = { type: "integer" };
    const [small] = check(nested(16, 1), diamond(16, "properties", leaf));
    const [large] = check(nested(32, 1), diamond(32, "properties", leaf));
    assert(large < 3 * small, `${small} steps at 16 levels, ${large} at 32`);
    const [bad, issues] = check(nested(32, "x"), diamond(32, "properties", leaf));
    assert(bad < 40 * small, `${bad} steps for an invalid value`);
    assert(issues.length > 0 && issues[0]!.endsWith("must be integer, not string"), JSON.stringify(issues));
  });

  test("a failure is reported once per place: each place a shared value is at, one place reached by two schemas once", () => {
    const defs = { $defs: { x: { type: "object", required: ["n"] }, s: { type: "string", minLength: 3 } } };
    // An app's value may hold one object in two places (JSON never does): each place has its issue.
    const both = { ...defs, properties: { a: { $ref: "#/$defs/x" }, b: { $ref: "#/$defs/x" } } } as ToolSchema;
    const shared = {};
    assertEquals(checkToolArguments({ a: shared, b: shared }, both), ["$.a.n is required", "$.b.n is required"]);
    // Two schemas going into one property, a string there: one place, one issue.
    const into = {
      ...defs,
      properties: { a: { $ref: "#/$defs/s" } },
      allOf: [{ properties: { a: { $ref: "#/$defs/s" } } }],
    };
    assertEquals(checkToolArguments({ a: "x" }, into as ToolSchema), ["$.a must have at least 3 characters"]);
  });
});

/** Counts the reads of an array's items or an object's keys: the work done on it, seen from outside. */
function counted<T extends object>(target: T, tally: { reads: number }): T {
  return new Proxy(target, {
    get: (object, key, receiver) => (tally.reads++, Reflect.get(object, key, receiver)),
    ownKeys: (object) => (tally.reads++, Reflect.ownKeys(object)),
    getOwnPropertyDescriptor: (object, key) => (tally.reads++, Reflect.getOwnPropertyDescriptor(object, key)),
  });
}

group("Many schemas on one large array or object: each reads what it checks", (test) => {
  // 19,000 schemas of `{type: "array"}` (315 KB) on 200,000 items (390 KB) read every item once per
  // schema, uncharged: 12.8 s of one call, judged valid. Keys were listed once per schema too.
  const reads = (n: number, make: (n: number) => [object, ToolSchema]): number => {
    const tally = { reads: 0 };
    const [value, schema] = make(n);
    const budget = new CheckBudget(Number.POSITIVE_INFINITY);
    checkToolArguments(counted(value, tally) as Parameters<typeof checkToolArguments>[0], schema, { budget });
    assert(!budget.exhausted, `n = ${n}: ${budget.spent} steps`);
    return tally.reads;
  };
  const cases: [string, (n: number) => [object, ToolSchema]][] = [
    [
      "allOf of n {type: array} on n items",
      (n) => [Array(n).fill(0), { allOf: Array.from({ length: n }, () => ({ type: "array" })) }],
    ],
    [
      "allOf of n {required: [k_i]} on n keys",
      (n) => [keyed(n), { allOf: Array.from({ length: n }, (_, i) => ({ required: [`k${i}`] })) }],
    ],
    [
      "allOf of n {properties: {k_i}} on n keys",
      (n) => [
        keyed(n),
        { allOf: Array.from({ length: n }, (_, i) => ({ properties: { [`k${i}`]: { type: "integer" } } })) },
      ],
    ],
  ];
  for (const [name, make] of cases)
    test(`${name}: reads grow with n, not n²`, () => {
      const [small, large] = [reads(300, make), reads(600, make)];
      assert(large < 3 * small, `${small} reads at n = 300, ${large} at 600`);
    });

  test("the verdicts and issues stay: items past a tuple unchecked without items, properties by name", () => {
    assertEquals(checkToolArguments([1, "x", "y"], { prefixItems: [{ type: "integer" }] }), []);
    const schema = { type: "object", properties: { a: { type: "string" }, b: { type: "string" } } } as ToolSchema;
    assertEquals(checkToolArguments({ z: 0, y: 0, x: 0, b: 1, a: 2 }, schema), [
      "$.a must be string, not number",
      "$.b must be string, not number",
    ]);
  });
});

function keyed(n: number): Record<string, number> {
  return Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, i]));
}
