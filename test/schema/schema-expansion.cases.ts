// A schema small on the wire that compiles to far more: `$ref`s were compiled once per schema they
// point to, but a `$ref` to a schema inside another one's target compiled that part again, so
// refs to every level of 60 nested schemas over one `enum` compiled the enum 61 times (a 242 KB
// request, 213 ms of compilation against 1.3 ms for the enum once). Past the compilation's
// limits (20,000 schemas, 4,000,000 steps) the rest of the schema accepted anything, and
// checkToolSchema, which counts the schemas as written, said nothing: a wrong value was accepted
// unsaid. Each schema object is now compiled once, and a schema that still goes past the limits
// (parts reached only through a `$ref`) is refused by checkToolSchema.
import {
  CheckBudget,
  checkToolArguments,
  checkToolSchema,
  IncrementalJsonParser,
  type ToolSchema,
} from "../../src/index.ts";
import { SchemaWatcher } from "../../src/schema/schema-watcher.ts";
import { assert, assertEquals, group } from "../support/harness.ts";

/** `levels` schemas of `items` one inside another over an enum of `values` numbers, and a property with a `$ref` to each level. */
function nestedRefs(levels: number, values: number): ToolSchema {
  let leaf: Record<string, unknown> = { enum: Array.from({ length: values }, (_, i) => i) };
  for (let i = 0; i < levels; i++) leaf = { items: leaf };
  const properties: Record<string, unknown> = {};
  for (let i = 0; i <= levels; i++) properties[`p${i}`] = { $ref: `#/$defs/l${"/items".repeat(i)}` };
  return { type: "object", properties, $defs: { l: leaf } } as ToolSchema;
}

/** The steps a first check of `{}` takes, the compilation of `schema` included. */
function compiled(schema: ToolSchema): number {
  const budget = new CheckBudget(Number.POSITIVE_INFINITY);
  checkToolArguments({}, schema, { budget });
  return budget.spent;
}

/** `count` properties that each take an integer. */
const integers = (count: number) =>
  Object.fromEntries(Array.from({ length: count }, (_, i) => [`k${i}`, { type: "integer" }]));

group("Schemas that compile to more than they are written", (test) => {
  test("$refs to a schema and to the schemas inside it compile each schema once", () => {
    const once = compiled(nestedRefs(0, 20_000));
    const everyLevel = compiled(nestedRefs(30, 20_000));
    // Before: 31 compilations of the enum, 660,000 steps against 20,000.
    assert(everyLevel < 1.5 * once, `${everyLevel} steps against ${once} for the enum once`);
    assertEquals(checkToolArguments({ p30: -1 }, nestedRefs(30, 20_000)), [
      "$.p30 must be one of the 20,000 allowed values",
    ]);
  });

  test("a $ref into another $ref's target past 20,000 compiled schemas still checks its values", () => {
    const schema = {
      type: "object",
      properties: { a: { $ref: "#/$defs/big" }, b: { $ref: "#/$defs/big/items" } },
      $defs: { big: { type: "array", items: { type: "object", properties: integers(10_500) } } },
    } as ToolSchema;
    assertEquals(checkToolSchema(schema), []);
    // Before: `b` compiled past the 20,000th schema and accepted anything, unsaid.
    assertEquals(checkToolArguments({ b: { k10400: "x" } }, schema), ["$.b.k10400 must be integer, not string"]);
    assertEquals(checkToolArguments({ a: [{ k10400: "x" }] }, schema), ["$.a[0].k10400 must be integer, not string"]);
  });

  test("schemas reached only through a $ref count among the 20,000, and a compilation past its steps is refused", () => {
    // Under a keyword that is not JSON Schema's, and inside an enum's value: the walk of
    // checkToolSchema did not count them, and the compilation's cut at 20,000 went unsaid.
    const refused = [{ path: "tools[0].parameters", message: "holds more than 20,000 schemas" }];
    const unknown = { $ref: "#/x", x: { properties: integers(20_001) } };
    assertEquals(checkToolSchema(unknown, "tools[0].parameters"), refused);
    const inEnum = {
      properties: { a: { $ref: "#/properties/b/enum/0" }, b: { enum: [{ properties: integers(20_001) }] } },
    };
    assertEquals(checkToolSchema(inEnum, "tools[0].parameters"), refused);
    assertEquals(checkToolSchema({ $ref: "#/x", x: { properties: integers(19_000) } }), []);
    // 4,000,001 values of an enum: the compilation stops at its 4,000,000 steps, and the rest accepts anything.
    const steps = { type: "object", properties: { a: { enum: new Array(4_000_001).fill(0) } } };
    assertEquals(checkToolSchema(steps), [
      {
        path: "parameters",
        message:
          "compiles to more than 20,000 schemas or 4,000,000 steps of work, counting those its $refs reach (the rest would accept anything)",
      },
    ]);
  });
});

group("checkToolSchema: what only a $ref reaches is checked too", (test) => {
  test("a pattern or keyword behind a $ref into a place no keyword of JSON Schema holds is refused at its path", () => {
    // Before: checkToolSchema walked the keywords only, so a schema reached only through a $ref
    // (under a keyword it does not know, in an enum's value) was never checked: its backreference
    // pattern or its enum that is no array were ignored by the checks, and accepted anything, unsaid.
    const backreference = {
      type: "object",
      properties: { code: { $ref: "#/x-shapes/code" } },
      "x-shapes": { code: { type: "string", pattern: "^(a)\\1$" } },
    };
    assertEquals(checkToolSchema(backreference, "tools[0].parameters"), [
      {
        path: 'tools[0].parameters["x-shapes"].code.pattern',
        message: "uses a backreference, which a linear-time matcher cannot run",
      },
    ]);
    const inEnum = { properties: { a: { $ref: "#/properties/b/enum/0" }, b: { enum: [{ enum: "abc" }] } } };
    assertEquals(checkToolSchema(inEnum), [
      { path: "parameters.properties.b.enum[0].enum", message: "must be an array" },
    ]);
    // Reached twice, checked once; a cycle of $refs ends.
    const twice = {
      $ref: "#/x",
      properties: { a: { $ref: "#/x" } },
      x: { $ref: "#/x/y", y: { $ref: "#/x", enum: 1 } },
    };
    assertEquals(checkToolSchema(twice), [{ path: "parameters.x.y.enum", message: "must be an array" }]);
    assertEquals(checkToolSchema({ $ref: "#/x", x: { type: "string", pattern: "^a+$" } }), []);
  });
});

group("$refs back into a schema being compiled, and $refs under an $id of its own", (test) => {
  test("a oneOf branch that $refs a schema still being compiled is not taken for exact", () => {
    // Before: the schema a `$ref` reached while it was still being compiled was read as exact (the
    // default), so a branch that fails only by a keyword the checks skip counted as matching:
    // `{kid: {extra: 1}}` "matches more than one of the allowed shapes". That keyword was
    // unevaluatedProperties, then `$dynamicRef`, until the checks read them; a remote `$ref` (to a
    // schema that may close the object) is still skipped.
    const kid = { oneOf: [{ $ref: "#" }, { type: "object", required: ["extra"] }] };
    const closed = { $ref: "https://example.com/closed" };
    const root = JSON.parse(
      JSON.stringify({
        type: "object",
        properties: { name: { type: "string" }, kid },
        allOf: [closed],
      }),
    );
    assertEquals(checkToolArguments({ kid: { extra: 1 } }, root), []);
    // The same through `$defs`: a cycle of `$ref`s, which had the stale flag before too.
    const cycle = {
      type: "object",
      properties: { root: { $ref: "#/$defs/N" } },
      $defs: {
        N: {
          type: "object",
          properties: { kid: { oneOf: [{ $ref: "#/$defs/N" }, { type: "object", required: ["extra"] }] } },
          allOf: [closed],
        },
      },
    } as ToolSchema;
    assertEquals(checkToolArguments({ root: { kid: { extra: 1 } } }, cycle), []);
    // What the checks read still rejects.
    assertEquals(checkToolArguments({ kid: 5 }, root), ["$.kid matches none of the allowed shapes (oneOf)"]);
    assertEquals(checkToolArguments({ root: { kid: { kid: 5 } } }, cycle), [
      "$.root.kid matches none of the allowed shapes (oneOf)",
    ]);
  });

  test("a $ref cycle that goes into the value keeps oneOf's more than one, not, if and maxContains", () => {
    // Before: a schema on a `$ref` cycle read its kids while they were still being compiled, so it
    // was never exact nor decided: a node of a tree matching two oneOf branches passed, `not` and
    // `if` over it were skipped, and the early check left its oneOf to the end.
    const node = { type: "object", properties: { v: { type: "integer" }, kids: { items: { $ref: "#/$defs/node" } } } };
    const tree = (keyword: Record<string, unknown>): ToolSchema =>
      ({ type: "object", $defs: { node }, properties: { t: keyword } }) as ToolSchema;
    const oneOf = tree({ oneOf: [{ $ref: "#/$defs/node" }, { required: ["v"] }] });
    assertEquals(checkToolArguments({ t: { v: 1 } }, oneOf), [
      "$.t matches more than one of the allowed shapes (oneOf)",
    ]);
    assertEquals(checkToolArguments({ t: { v: "x" } }, oneOf), []);
    assertEquals(checkToolArguments({ t: { v: 1 } }, tree({ not: { $ref: "#/$defs/node" } })), [
      "$.t must not match the schema in not",
    ]);
    const ifThen = tree({ if: { $ref: "#/$defs/node" }, then: { required: ["v"] } });
    assertEquals(checkToolArguments({ t: {} }, ifThen), ["$.t.v is required"]);
    const most = tree({ type: "array", contains: { $ref: "#/$defs/node" }, maxContains: 1 });
    assertEquals(checkToolArguments({ t: [{}, {}] }, most), ["$.t must have at most 1 items that match its contains"]);
    // The early check says "more than one" as the value closes, before the arguments end.
    const watcher = new SchemaWatcher(oneOf);
    const parser = new IncrementalJsonParser({ listener: watcher });
    parser.feed('{"t":{"v":1}');
    assertEquals(watcher.violation?.message, "Matches more than one of the allowed shapes (oneOf).");
    // A cycle in place (no value taken on the way) still is neither: the checks stop there and accept.
    const loop = {
      $defs: { l: { allOf: [{ $ref: "#/$defs/l" }] } },
      oneOf: [{ $ref: "#/$defs/l" }, { type: "integer" }],
    };
    assertEquals(checkToolArguments(1, loop as ToolSchema), []);
  });

  test("a $ref inside a schema with an $id of its own resolves against that schema, in both checks", () => {
    // Before: such `$ref`s were not read (they accepted anything), while checkToolSchema resolved
    // them against the root: `#/$defs/b` inside `a` was "points to nothing" (a 400 for a valid
    // schema), and a pointer the root happened to hold was walked though the checks ignored it.
    const a = { $id: "https://x/a", $defs: { b: { type: "string" } }, properties: { p: { $ref: "#/$defs/b" } } };
    const schema = { type: "object", $defs: { a }, properties: { a: { $ref: "#/$defs/a" } } } as ToolSchema;
    assertEquals(checkToolSchema(schema), []);
    assertEquals(checkToolArguments({ a: { p: 5 } }, schema), ["$.a.p must be string, not number"]);
    assertEquals(checkToolArguments({ a: { p: "s" } }, schema), []);
    // `#` inside it is `a` itself: a tree under an `$id`.
    const tree = { $id: "https://x/t", type: "object", properties: { v: { type: "integer" }, kid: { $ref: "#" } } };
    const rooted = { type: "object", properties: { t: tree } } as ToolSchema;
    assertEquals(checkToolArguments({ t: { kid: { kid: { v: "x" } } } }, rooted), [
      "$.t.kid.kid.v must be integer, not string",
    ]);
    // y's own `$defs.a` (an integer), not the root's (a string).
    const y = { $id: "https://x/y", $defs: { a: { type: "integer" } }, properties: { z: { $ref: "#/$defs/a" } } };
    const two = { type: "object", $defs: { a: { type: "string" } }, properties: { y, x: { $ref: "#/$defs/a" } } };
    assertEquals(checkToolArguments({ y: { z: 5 }, x: "s" }, two as ToolSchema), []);
    assertEquals(checkToolArguments({ y: { z: "s" }, x: 5 }, two as ToolSchema), [
      "$.y.z must be integer, not string",
      "$.x must be string, not number",
    ]);
    // One object in both resources: the root's `$defs.a` where the root reaches it, y's in y.
    const shared = { type: "object", $defs: { a: { type: "string" } }, properties: { x: y.properties.z, y } };
    assertEquals(checkToolArguments({ x: 5, y: { z: "s" } }, shared as ToolSchema), [
      "$.x must be string, not number",
      "$.y.z must be integer, not string",
    ]);
    // Reached by a pointer through y: in y's resource.
    const through = { ...two, properties: { y, w: { $ref: "#/properties/y/properties/z" } } };
    assertEquals(checkToolArguments({ w: "s" }, through as ToolSchema), ["$.w must be integer, not string"]);
    assertEquals(checkToolSchema(through), []);
    // Draft 7's `$id: "#name"` is an anchor, not a resource: its `$ref`s are the root's.
    const anchor = { ...two, properties: { y: { ...y, $id: "#y" } } };
    assertEquals(checkToolArguments({ y: { z: 5 } }, anchor as ToolSchema), ["$.y.z must be string, not number"]);
  });

  test("checkToolSchema resolves a $ref under an $id where the checks do, and names the place", () => {
    // Before: against the root, which holds `$defs.only` (walked, though the checks never read it)
    // and not `$defs.b` (a 400 for a valid schema).
    const a = { $id: "https://x/a", properties: { p: { $ref: "#/$defs/only" } } };
    assertEquals(checkToolSchema({ $defs: { only: { type: "string" } }, properties: { a } }), [
      {
        path: "parameters.properties.a.properties.p.$ref",
        message: "points to nothing in the schema of its $id (parameters.properties.a)",
      },
    ]);
    // A schema only a `$ref` reaches inside the resource is checked at its path from the root.
    const hidden = { $id: "https://x/h", "x-defs": { b: { enum: "x" } }, properties: { p: { $ref: "#/x-defs/b" } } };
    assertEquals(checkToolSchema({ properties: { h: hidden } }), [
      { path: 'parameters.properties.h["x-defs"].b.enum', message: "must be an array" },
    ]);
  });

  test("a document that says draft 7 ignores an $id beside a $ref, as that draft ignores a $ref's siblings", () => {
    // Before: a 400 ("points to nothing in the schema of its $id") for a valid draft-07 schema, and
    // its $ref unread (5 accepted). Without `$schema` (or with 2020-12's) the $id still scopes it.
    const p = { $id: "https://x/p", $ref: "#/definitions/s" };
    const draft7 = {
      $schema: "http://json-schema.org/draft-07/schema#",
      definitions: { s: { type: "string" } },
      properties: { p },
    };
    assertEquals(checkToolSchema(draft7), []);
    assertEquals(checkToolArguments({ p: 5 }, draft7 as ToolSchema), ["$.p must be string, not number"]);
    const draft4 = { ...draft7, $schema: "http://json-schema.org/draft-04/schema#" };
    assertEquals(checkToolArguments({ p: 5 }, draft4 as ToolSchema), ["$.p must be string, not number"]);
    const modern = { ...draft7, $schema: "https://json-schema.org/draft/2020-12/schema" };
    assertEquals(
      checkToolSchema(modern).map((issue) => issue.message),
      ["points to nothing in the schema of its $id (parameters.properties.p)"],
    );
    // An $id without a $ref beside it is a resource in draft 7 too.
    const scoped = {
      ...draft7,
      properties: { q: { $id: "https://x/q", properties: { r: { $ref: "#/definitions/s" } } } },
    };
    assertEquals(
      checkToolSchema(scoped).map((issue) => issue.message),
      ["points to nothing in the schema of its $id (parameters.properties.q)"],
    );
  });

  test("checkToolSchema refuses a schema nested past 64 however shallow the same object is elsewhere", () => {
    // Before: the shared object was walked at depth 1 first and then skipped as seen at depth 65,
    // where the checks accept anything (an integer check skipped unsaid).
    const shared = { type: "integer" };
    let deep: Record<string, unknown> = { type: "array", items: shared };
    for (let i = 0; i < 63; i++) deep = { type: "array", items: deep };
    const issues = checkToolSchema({ type: "object", not: shared, properties: { b: deep } });
    assertEquals(
      issues.map((issue) => issue.message),
      ["nests deeper than 64 schemas"],
    );
  });
});
