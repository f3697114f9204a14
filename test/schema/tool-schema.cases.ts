import {
  CheckBudget,
  checkToolArguments,
  checkToolSchema,
  IncrementalJsonParser,
  type JsonValue,
  type ToolSchema,
} from "../../src/index.ts";
import { SchemaWatcher } from "../../src/schema/schema-watcher.ts";
import { assert, assertEquals, group } from "../support/harness.ts";

const check = (value: JsonValue, schema: unknown, options = {}): string[] =>
  checkToolArguments(value, schema as ToolSchema, options);

group("checkToolArguments: every keyword applies with its siblings", (test) => {
  test("anyOf is one more condition, not a replacement for the schema's other keywords", () => {
    const schema = {
      type: "object",
      properties: { a: {}, b: {}, c: {} },
      required: ["a"],
      additionalProperties: false,
      anyOf: [{ required: ["b"] }, { required: ["c"] }],
    };
    assertEquals(check({ b: 1, zzz: true }, schema), ["$.a is required", "$.zzz is not allowed"]);
    assertEquals(check({ a: 1, c: 1 }, schema), []);
    assertEquals(check({ a: 1 }, schema), ["$ matches none of the allowed shapes"]);
    assertEquals(check(3, { type: "string", anyOf: [{ maxLength: 2 }, { maxLength: 5 }] }), [
      "$ must be string, not number",
    ]);
  });

  test("patternProperties beside additionalProperties: false allows the keys its patterns match", () => {
    const schema = { properties: { foo: {}, bar: {} }, patternProperties: { "^v": {} }, additionalProperties: false };
    assertEquals(check({ foo: 1, vroom: 2 }, schema), []);
    assertEquals(check({ foo: 1, hello: 2 }, schema), ["$.hello is not allowed"]);
    const both = { properties: { foo: { type: "string" } }, patternProperties: { o$: { maxLength: 1 } } };
    assertEquals(
      check({ foo: "ab" }, both),
      ["$.foo must have at most 1 characters"],
      "a property and a pattern both apply",
    );
  });

  test("prefixItems checks the first items, items only the rest", () => {
    const schema = { prefixItems: [{ type: "string" }], items: { type: "integer" } };
    assertEquals(check(["x", 2, 3], schema), []);
    assertEquals(check(["x", "y"], schema), ["$[1] must be integer, not string"]);
    assertEquals(check([1], { items: [{ type: "string" }], additionalItems: false }), [
      "$[0] must be string, not number",
    ]);
    assertEquals(check(["a", 1], { items: [{ type: "string" }], additionalItems: false }), ["$[1] is not allowed"]);
  });

  test("local $refs resolve to $defs and definitions, recursively, and a cycle that never goes into the value ends", () => {
    const tree = {
      $defs: {
        node: { type: "object", properties: { v: { type: "integer" }, kids: { items: { $ref: "#/$defs/node" } } } },
      },
      $ref: "#/$defs/node",
    };
    assertEquals(check({ v: 1, kids: [{ v: 2, kids: [] }] }, tree), []);
    assertEquals(check({ v: 1, kids: [{ v: 2, kids: [{ v: "x" }] }] }, tree), [
      "$.kids[0].kids[0].v must be integer, not string",
    ]);
    assertEquals(
      check({ a: "x" }, { properties: { a: { $ref: "#/definitions/n" } }, definitions: { n: { type: "number" } } }),
      ["$.a must be number, not string"],
    );
    assertEquals(check(1, { $ref: "#" }), [], "a schema that is only a reference to itself accepts");
    assertEquals(check(1, { allOf: [{ $ref: "#" }], type: "string" }), ["$ must be string, not number"]);
    assertEquals(check(1, { $ref: "https://example.com/s.json" }), [], "a remote reference is not followed");
  });

  test("allOf, oneOf, not, if/then/else and boolean schemas", () => {
    assertEquals(check(5, { allOf: [{ minimum: 1 }, { maximum: 3 }] }), ["$ must be at most 3"]);
    assertEquals(check(1, { oneOf: [{ type: "integer" }, { minimum: 0 }] }), [
      "$ matches more than one of the allowed shapes (oneOf)",
    ]);
    assertEquals(check(-1.5, { oneOf: [{ type: "integer" }, { minimum: 0 }] }), [
      "$ matches none of the allowed shapes (oneOf)",
    ]);
    assertEquals(check(-1, { oneOf: [{ type: "integer" }, { minimum: 0 }] }), []);
    assertEquals(check("x", { not: { type: "string" } }), ["$ must not match the schema in not"]);
    const conditional = {
      if: { properties: { k: { const: "a" } } },
      then: { required: ["a"] },
      else: { required: ["b"] },
    };
    assertEquals(check({ k: "a" }, conditional), ["$.a is required"]);
    assertEquals(check({ k: "z" }, conditional), ["$.b is required"]);
    assertEquals(check({ x: 1 }, { properties: { x: false } }), ["$.x is not allowed"]);
    assertEquals(check({ x: 1 }, true), []);
    assertEquals(check({ x: 1 }, false), ["$ is not allowed"]);
  });

  test("strings: pattern (ECMAScript, u flag), minLength in code points, format an annotation unless asserted", () => {
    assertEquals(check("abc", { pattern: "^a" }), []);
    assertEquals(check("xbc", { pattern: "^a" }), ["$ must match its pattern"]);
    assertEquals(check("😀", { pattern: "^.$" }), [], "u flag: . is one code point");
    assertEquals(check("😀😀", { minLength: 3 }), ["$ must have at least 3 characters"]);
    assertEquals(check("😀😀", { maxLength: 2 }), []);
    assertEquals(check("a".repeat(10_001), { pattern: "a" }), [], "any length: the budget bounds the work");
    assertEquals(check("x", { pattern: "(" }), [], "an invalid pattern is ignored (refused by checkToolSchema)");
    assertEquals(check("not a date", { format: "date" }), []);
    const asserted = { assertFormats: true };
    for (const [format, good, bad] of [
      ["date-time", "2026-02-28T10:00:00.5+01:00", "2026-02-29T10:00:00Z"],
      ["date", "2024-02-29", "2024-13-01"],
      ["time", "23:59:60Z", "24:00:00Z"],
      ["email", "a.b+c@example.com", "a@@b"],
      ["uri", "https://example.com/a?b#c", "/relative"],
      ["uuid", "123e4567-e89b-12d3-a456-426614174000", "123e4567e89b12d3a456426614174000"],
      ["ipv4", "192.168.0.1", "256.1.1.1"],
      ["ipv6", "::ffff:192.168.0.1", "1:2:3:4:5:6:7:8:9"],
    ] as const) {
      assertEquals(check(good, { format }, asserted), [], `${format}: ${good}`);
      assertEquals(check(bad, { format }, asserted), [`$ must be a valid ${format}`], `${format}: ${bad}`);
    }
  });

  test("draft 4's boolean exclusiveMinimum/Maximum make minimum/maximum exclusive, in both checks and under not", () => {
    const low = { minimum: 0, exclusiveMinimum: true };
    const high = { maximum: 10, exclusiveMaximum: true };
    assertEquals(check(0, low), ["$ must be greater than 0"]);
    assertEquals(check(0.5, low), []);
    assertEquals(check(10, high), ["$ must be less than 10"]);
    assertEquals(check(0, { minimum: 0, exclusiveMinimum: false }), []);
    assertEquals(check(-5, { exclusiveMinimum: true }), [], "without minimum, no bound");
    // Ignored, it made `not` reject 0, which the schema under it does not match.
    assertEquals(check(0, { not: low }), []);
    assertEquals(check(1, { not: low }), ["$ must not match the schema in not"]);
    const watcher = new SchemaWatcher({ type: "object", properties: { n: high } });
    new IncrementalJsonParser({ listener: watcher }).feed('{"n": 10}');
    assertEquals(watcher.violation?.message, "Expected less than 10.");
    assertEquals(checkToolSchema({ properties: { n: low } }), []);
  });

  test("numbers, arrays and objects: the rest of the keywords", () => {
    assertEquals(check(0.0075, { multipleOf: 0.0001 }), []);
    assertEquals(check(0.00751, { multipleOf: 0.0001 }), ["$ must be a multiple of 0.0001"]);
    assertEquals(check(3, { exclusiveMinimum: 3 }), ["$ must be greater than 3"]);
    assertEquals(check(3, { exclusiveMaximum: 3 }), ["$ must be less than 3"]);
    assertEquals(
      check(
        [
          { a: 1, b: 2 },
          { b: 2, a: 1 },
        ],
        { uniqueItems: true },
      ),
      ["$ must have items that are all different"],
    );
    assertEquals(check([1, "1"], { uniqueItems: true }), []);
    assertEquals(check([1, 2, 3], { contains: { minimum: 2 }, maxContains: 1 }), [
      "$ must have at most 1 items that match its contains",
    ]);
    assertEquals(check({}, { minProperties: 1 }), ["$ must have at least 1 properties"]);
    assertEquals(check({ a: 1, b: 2 }, { maxProperties: 1 }), ["$ must have at most 1 properties"]);
    assertEquals(check({ a: 1 }, { dependentRequired: { a: ["b"] } }), ["$.b is required when a is present"]);
    assertEquals(check({ abc: 1 }, { propertyNames: { maxLength: 2 } }), ["$.abc is not an allowed property name"]);
    assertEquals(check(null, { type: "string", nullable: true }), []);
  });

  test("a schema it cannot read never throws: what it does not understand accepts", () => {
    for (const schema of [
      { enum: "abc" },
      { anyOf: "x" },
      { properties: { city: { enum: 5 } } },
      { properties: { city: { anyOf: [null] } } },
      { required: "city" },
      { items: 3, minimum: "1", type: 7 },
      null,
      "string",
      [1, 2],
    ]) {
      for (const value of [{ city: "x" }, "x", null, [1]] as JsonValue[]) {
        const issues = check(value, schema);
        assert(issues.length <= 1, `${JSON.stringify(schema)} on ${JSON.stringify(value)}: ${JSON.stringify(issues)}`);
      }
    }
    let deep: unknown = { type: "string" };
    for (let i = 0; i < 10_000; i++) deep = { items: deep };
    assertEquals(check([[["x"]]], deep), [], "a schema nested past 64 levels accepts there");
  });
});

group("checkToolArguments: one budget for many checks", (test) => {
  const branches = (): ToolSchema => ({ anyOf: Array.from({ length: 1_000 }, (_, i) => ({ minLength: i % 3 })) });

  test("the compilation of a schema not compiled yet is charged to the check's budget, once", () => {
    const schema = branches();
    const budget = new CheckBudget(Number.POSITIVE_INFINITY);
    assertEquals(checkToolArguments("x", schema, { budget }), []);
    const first = budget.spent;
    // 1,001 schemas built, each worth 16 steps beside its keywords.
    assert(first > 16_000, `${first} steps for the first check`);
    assertEquals(checkToolArguments("x", schema, { budget }), []);
    assert(budget.spent - first < 100, `${budget.spent - first} steps for the second check, compiled already`);
  });

  test("fresh copies of a costly schema exhaust one shared budget, and the checks say so", () => {
    const budget = new CheckBudget(Number.POSITIVE_INFINITY);
    let checked = 0;
    for (let i = 0; i < 1_000 && !budget.exhausted; i++)
      if (checkToolArguments("x", branches(), { budget }).length === 0) checked++;
    assert(budget.exhausted, "the budget runs out");
    // 2,000,000 steps at more than 16,000 a compilation: about 120 checks, not 1,000.
    assert(checked < 130, `${checked} checks ran`);
    const spent = budget.spent;
    assertEquals(checkToolArguments("x", branches(), { budget }), [
      "$ could not be checked within its budget of 2,000,000 steps",
    ]);
    assertEquals(budget.spent, spent, "a check on a spent budget compiles nothing");
  });
});

group("checkToolArguments: $refs that nest deep", (test) => {
  /** `a` through a chain of `links` $defs, each reaching the next `hops` schemas deep. */
  const chain = (links: number, hops: 1 | 3): ToolSchema => {
    const defs: Record<string, unknown> = { [`d${links}`]: { type: "string" } };
    for (let i = 0; i < links; i++) {
      const next = { $ref: `#/$defs/d${i + 1}` };
      defs[`d${i}`] = hops === 1 ? next : { type: "object", properties: { x: { items: next } } };
    }
    return { type: "object", required: ["a"], properties: { a: { $ref: "#/$defs/d0" } }, $defs: defs } as ToolSchema;
  };

  test("a schema whose $refs nest up to 1,000 schemas deep is compiled whole, on every runtime's stack", () => {
    const schema = chain(330, 3);
    assertEquals(checkToolSchema(schema), []);
    assertEquals(check({}, schema), ["$.a is required"]);
    assertEquals(check({ a: { x: [{ x: [1] }] } }, schema), ["$.a.x[0].x[0] must be object, not number"]);
  });

  test("schemas applied in place more than 64 deep, or in a cycle, are refused by checkToolSchema", () => {
    // The checks stop after 64 in place and accept there: a chain of 100 accepted 1 for a string, unsaid.
    const message =
      "applies more than 64 schemas one inside another to one value ($ref, allOf, anyOf, oneOf, not, if), or applies them in a cycle";
    assertEquals(check({ a: 1 }, chain(100, 1)), []);
    assertEquals(checkToolSchema(chain(100, 1)), [{ path: "parameters", message }]);
    const cycle = {
      $defs: { a: { anyOf: [{ $ref: "#/$defs/b" }, { type: "string" }] }, b: { allOf: [{ $ref: "#/$defs/a" }] } },
      $ref: "#/$defs/a",
    };
    assertEquals(checkToolSchema(cycle), [{ path: "parameters", message }]);
    assertEquals(checkToolSchema(chain(60, 1)), [], "60 in place are checked");
    assertEquals(check({ a: 1 }, chain(60, 1)), ["$.a must be string, not number"]);
    const tree = {
      $defs: { node: { type: "object", properties: { children: { type: "array", items: { $ref: "#/$defs/node" } } } } },
      $ref: "#/$defs/node",
    };
    assertEquals(checkToolSchema(tree), [], "a recursion through the value is no cycle in place");
  });

  test("a chain of thousands of $refs is refused by checkToolSchema, never a stack overflow", () => {
    // 3,000 links overflowed the stack while compiling: the whole schema then accepted anything, unsaid.
    for (const links of [1_000, 15_000]) {
      assertEquals(checkToolSchema(chain(links, 1), "tools[0].parameters"), [
        { path: "tools[0].parameters", message: "nests deeper than 1,000 schemas through its $refs" },
      ]);
    }
  });

  test("a chain of $refs that overflows what is left of the stack is refused, never accepted unread", () => {
    // A cold isolate's interpreter frames are larger: workerd's stack ran out before the 1,000th
    // $ref, and the overflow, caught as an unreadable schema, accepted anything. Here the stack is
    // used up to each depth in turn before the check: whatever is left, the chain is never `[]`.
    // About 100 depths: the band where the check's own recursion runs out spans thousands of frames,
    // and each check of the chain is tens of milliseconds (400 ran past the timeout under load).
    const schema = chain(1_000, 1);
    const deepest = (n: number): number => {
      try {
        return deepest(n + 1);
      } catch {
        return n;
      }
    };
    const at = (n: number): unknown => (n === 0 ? checkToolSchema(schema) : at(n - 1));
    const max = deepest(0);
    let refusedWhole = 0;
    for (let depth = max; depth > 0; depth -= Math.max(1, Math.floor(max / 100))) {
      let issues: unknown;
      try {
        issues = at(depth);
      } catch {
        continue; // the overflow came before or after the check: not an answer
      }
      assert(Array.isArray(issues) && issues.length > 0, `accepted at a stack depth of ${depth}`);
      refusedWhole++;
    }
    assert(refusedWhole > 0, "checked at some depth");
  });

  test("a chain in place of thousands of schemas, each $ref compiled shallow first, is refused as such, never a stack overflow", () => {
    // `a{i}` is 8 allOf around a $ref to `a{i-1}`; `p` reaches each `a{i}` in turn, so the compilation
    // stays shallow, while the root's $ref starts a chain in place of some 18,000 schemas. Measured
    // by a recursion along it, the stack overflowed: "could not be read as JSON".
    const links = 1_999;
    const $defs: Record<string, unknown> = { a0: { type: "string" } };
    for (let i = 1; i <= links; i++) {
      let link: unknown = { $ref: `#/$defs/a${i - 1}` };
      for (let level = 0; level < 8; level++) link = { allOf: [link] };
      $defs[`a${i}`] = link;
    }
    const reach = Array.from({ length: links + 1 }, (_, i) => ({ $ref: `#/$defs/a${i}` }));
    const schema = { type: "object", properties: { p: { allOf: reach } }, $ref: `#/$defs/a${links}`, $defs };
    assertEquals(checkToolSchema(schema), [
      {
        path: "parameters",
        message:
          "applies more than 64 schemas one inside another to one value ($ref, allOf, anyOf, oneOf, not, if), or applies them in a cycle",
      },
    ]);
  });
});
