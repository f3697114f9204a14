// `$dynamicRef` (2020-12) and `$recursiveRef` (2019-09) followed by the final check through the
// dynamic scope: the resources entered on the way, the outermost with the anchor winning. Before,
// such a node accepted anything, so a generic list or tree, and every schema extending a base by
// `$dynamicAnchor`, validated nothing there. The early check still treats them as anything.
import type { JsonValue, ToolSchema } from "../../src/index.ts";
import { CheckBudget, checkToolArguments, checkToolSchema, IncrementalJsonParser } from "../../src/index.ts";
import { SchemaWatcher } from "../../src/schema/schema-watcher.ts";
import { assert, assertEquals, group } from "../support/harness.ts";

const check = (value: unknown, schema: unknown, budget?: CheckBudget): string[] =>
  checkToolArguments(value as JsonValue, schema as ToolSchema, budget && { budget });

/** The early check's violation, the value fed a character at a time. */
function early(schema: unknown, value: unknown): string | undefined {
  const watcher = new SchemaWatcher(schema);
  const parser = new IncrementalJsonParser({ listener: watcher });
  for (const character of JSON.stringify(value)) parser.feed(character);
  return watcher.violation?.message;
}

/** A generic list whose items are what the schema extending it says (`item`), anything by default. */
const list = {
  $id: "https://example.com/list",
  type: "array",
  items: { $dynamicRef: "#item" },
  $defs: { item: { $dynamicAnchor: "item" } },
};
const strings = {
  $id: "https://example.com/strings",
  type: "object",
  properties: { tags: { $ref: "list" } },
  $defs: { list, item: { $dynamicAnchor: "item", type: "string" } },
};

/** The spec's tree, and its strict extension (no key but its own, at every level). */
const tree = {
  $id: "https://example.com/tree",
  $dynamicAnchor: "node",
  type: "object",
  properties: { data: true, children: { type: "array", items: { $dynamicRef: "#node" } } },
};
const strictTree = {
  $id: "https://example.com/strict-tree",
  $dynamicAnchor: "node",
  $ref: "tree",
  unevaluatedProperties: false,
  $defs: { tree },
};

group("Schema checks: $dynamicRef and $recursiveRef follow the dynamic scope", (test) => {
  test("a generic list takes its items' schema from the schema that extends it", () => {
    assertEquals(checkToolSchema(strings), []);
    assertEquals(check({ tags: ["a", "b"] }, strings), []);
    assertEquals(check({ tags: ["a", 1] }, strings), ["$.tags[1] must be string, not number"]);
    // The list alone: its own anchor, which accepts anything.
    assertEquals(check(["a", 1], list), []);
  });

  test("a strict tree rejects a misspelled key at every level; the tree alone accepts it", () => {
    assertEquals(checkToolSchema(strictTree), []);
    const value = { data: 1, children: [{ data: 2, children: [{ daat: 3 }] }] };
    // Where a level fails, what it evaluated is dropped (as JSON Schema drops a failing schema's
    // annotations): the levels above report their keys too.
    assertEquals(check(value, strictTree), [
      "$.children[0].children[0].daat is not allowed",
      "$.children[0].data is not allowed",
      "$.children[0].children is not allowed",
      "$.data is not allowed",
      "$.children is not allowed",
    ]);
    assertEquals(check({ data: 1, children: [{ data: 2, children: [{ data: 3 }] }] }, strictTree), []);
    assertEquals(check(value, { ...tree, $id: "https://example.com/t" }), []);
  });

  test("$recursiveRef (2019-09) with $recursiveAnchor: true; without it on the outer schema, like a $ref", () => {
    const base = {
      $id: "https://example.com/tree",
      $recursiveAnchor: true,
      type: "object",
      properties: { data: true, children: { type: "array", items: { $recursiveRef: "#" } } },
    };
    const strict = {
      $schema: "https://json-schema.org/draft/2019-09/schema",
      $id: "https://example.com/strict-tree",
      $recursiveAnchor: true,
      $ref: "tree",
      unevaluatedProperties: false,
      $defs: { tree: base },
    };
    assertEquals(checkToolSchema(strict), []);
    const value = { children: [{ children: [{ daat: 3 }] }] };
    assertEquals(check(value, strict), [
      "$.children[0].children[0].daat is not allowed",
      "$.children[0].children is not allowed",
      "$.children is not allowed",
    ]);
    // The outer schema has no `$recursiveAnchor`: the recursion stays in the tree (only the top is strict).
    assertEquals(check(value, { ...strict, $recursiveAnchor: false }), []);
    assertEquals(check({ daat: 1 }, { ...strict, $recursiveAnchor: false }), ["$.daat is not allowed"]);
    // The tree's own anchor false: a plain `$ref` to its root.
    const plain = { ...strict, $defs: { tree: { ...base, $recursiveAnchor: false } } };
    assertEquals(check(value, plain), []);
  });

  test("a $dynamicRef's percent-encoded fragment names the anchor it decodes to, as a $ref's does", () => {
    // `#it%65m` is `#item` (RFC 3986 §2.1). Before: the target was found (the anchor decoded) but
    // compared undecoded with its `$dynamicAnchor`, so it was a plain `$ref` to the list's own item.
    const escaped = { ...strings, $defs: { ...strings.$defs, list: { ...list, items: { $dynamicRef: "#it%65m" } } } };
    assertEquals(checkToolSchema(escaped), []);
    assertEquals(check({ tags: ["a", 1] }, escaped), ["$.tags[1] must be string, not number"]);
  });

  test("a $dynamicRef whose target has no such $dynamicAnchor is a $ref; the scope is left as the check leaves it", () => {
    // `#item` names an `$anchor`: no dynamic resolution, the outer `$dynamicAnchor` is not used.
    const anchored = { ...list, $defs: { item: { $anchor: "item", type: "number" } } };
    const outer = { ...strings, $defs: { list: anchored, item: { $dynamicAnchor: "item", type: "string" } } };
    assertEquals(check({ tags: [1] }, outer), []);
    assertEquals(check({ tags: ["a"] }, outer), ["$.tags[0] must be number, not string"]);
    // One branch enters a resource binding `item`; a sibling branch after it is not in its scope.
    const sibling = {
      $id: "https://example.com/s",
      allOf: [{ $ref: "strings" }, { properties: { more: { $ref: "list" } } }],
      $defs: { strings: { ...strings, $id: "strings" }, list: { ...list, $id: "list" } },
    };
    assertEquals(check({ tags: [1], more: [1] }, sibling), ["$.tags[0] must be string, not number"]);
  });

  test("checkToolSchema follows a $dynamicRef as a $ref, and reads every schema its anchor may reach", () => {
    assertEquals(checkToolSchema({ properties: { a: { $dynamicRef: "#nowhere" } } }), [
      { path: "parameters.properties.a.$dynamicRef", message: "points to nothing in the schema" },
    ]);
    // Draft 4 to 7 have neither keyword (an unknown one, ignored): nothing to refuse. Before: both
    // refused, "points to nothing" and "must be a string", a 400 for a valid draft 7 schema.
    for (const $schema of ["http://json-schema.org/draft-07/schema#", "http://json-schema.org/draft-04/schema#"]) {
      const schema = { $schema, properties: { a: { $dynamicRef: "#nowhere" }, b: { $recursiveRef: 5 } } };
      assertEquals(checkToolSchema(schema), [], $schema);
      assertEquals(check({ a: 1, b: 1 }, schema), []);
    }
    // Only a `$dynamicRef` reaches the outer `item` (no `$ref` names it): its `$ref` is read too.
    const broken = { ...strings, $defs: { list, item: { $dynamicAnchor: "item", $ref: "#/$defs/none" } } };
    assertEquals(checkToolSchema(broken), [
      { path: "parameters.$defs.item.$ref", message: "points to nothing in the schema" },
    ]);
  });

  test("the early check never raises a false alarm where the dynamic scope changes the target", () => {
    // The list's own anchor says number; the extension says string: "a" is valid.
    const numbers = {
      ...strings,
      $defs: {
        list: { ...list, $defs: { item: { $dynamicAnchor: "item", type: "number" } } },
        item: { $dynamicAnchor: "item", type: "string" },
      },
    };
    assertEquals(check({ tags: ["a"] }, numbers), []);
    assertEquals(early(numbers, { tags: ["a"] }), undefined);
    // propertyNames, which the early check judges whole: without the path, a `$dynamicRef` accepts anything.
    const names = {
      $id: "https://example.com/names",
      type: "object",
      propertyNames: { $dynamicRef: "#name" },
      $defs: { name: { $dynamicAnchor: "name", maxLength: 1 } },
    };
    const wide = {
      $id: "https://example.com/wide",
      $ref: "names",
      $defs: { names, name: { $dynamicAnchor: "name", maxLength: 10 } },
    };
    assertEquals(check({ abc: 1 }, wide), []);
    assertEquals(early(wide, { abc: 1 }), undefined);
    // Alone, the names resource is the outermost with the anchor: the final check and the early one reject.
    assertEquals(check({ abc: 1 }, names), ["$.abc is not an allowed property name"]);
  });
});

/**
 * `levels` resources, each entered from the one before (`next`), each with `names` shared
 * `$dynamicAnchor`s (integer in the first, string in the others) and one of its own (so each
 * enters a new scope); the last one's `leaf` `$dynamicRef`s every shared name.
 */
function deepScopes(levels: number, names: number): [schema: unknown, value: (leaf: unknown) => unknown] {
  const defs: Record<string, unknown> = {};
  for (let i = 0; i < levels; i++) {
    const anchors: Record<string, unknown> = { own: { $dynamicAnchor: `own${i}` } };
    for (let j = 0; j < names; j++) anchors[`s${j}`] = { $dynamicAnchor: `s${j}`, type: i ? "string" : "integer" };
    const leaf = { allOf: [true, ...Array.from({ length: names }, (_, j) => ({ $dynamicRef: `#s${j}` }))] };
    const own = { $dynamicRef: `#own${i}` };
    defs[`r${i}`] = {
      $id: `r${i}`,
      type: "object",
      $defs: anchors,
      properties: i === levels - 1 ? { leaf, own } : { next: { $ref: `r${i + 1}` }, own },
    };
  }
  const value = (leaf: unknown): unknown => {
    let at: unknown = { leaf };
    for (let i = 1; i < levels; i++) at = { next: at };
    return at;
  };
  return [{ $id: "https://example.com/deep", $ref: "r0", $defs: defs }, value];
}

group("Schema checks: the dynamic scope's work is charged and bounded", (test) => {
  test("deeply nested scopes with many anchors: the outermost wins, in steps linear in the anchors", () => {
    const spent = (levels: number, names: number, leaf: unknown): [steps: number, issues: string[]] => {
      const [schema, value] = deepScopes(levels, names);
      assertEquals(checkToolSchema(schema), []);
      check({}, schema); // compiled: the steps below are the check's
      const budget = new CheckBudget(Number.POSITIVE_INFINITY);
      const issues = check(value(leaf), schema, budget);
      // At most 6 steps per anchor the schema declares, 20 per level of the value (measured: 5,932
      // steps for 60 levels of 21 anchors, 7,135 for 240; 3,235 for 240 levels of one).
      const most = 6 * levels * (names + 1) + 20 * levels;
      assert(budget.spent <= most, `${levels} levels of ${names} names: ${budget.spent} steps`);
      return [budget.spent, issues];
    };
    // Each name resolves to the first resource's anchor (integer), not the last's (string).
    assertEquals(spent(60, 20, 5)[1], []);
    const [, bad] = spent(60, 20, "x");
    const leaf = bad.every((issue) => issue.endsWith(".leaf must be integer, not string"));
    assert(leaf && bad.length === 20, `${bad.length} issues: ${bad[0]}`);
    // Past 64 resources binding names of their own, a `$dynamicRef` accepts anything: a look-up
    // walks at most 64 scopes (uncapped, each level's name of its own took the whole path: about
    // 30,000 steps for 240 levels, 8,000 for 120, quadratic).
    assertEquals(spent(240, 20, "x")[1], []);
    assertEquals(spent(240, 0, "x")[1], []);
    assert(spent(240, 0, 5)[0] <= 2 * spent(120, 0, 5)[0], "twice the levels, at most twice the steps");
  });

  test("scopes that differ on every path are charged each: a hostile graph stops at its budget", () => {
    // 20 levels, each entered by two resources binding the level's name, which the end looks up:
    // 2^20 scopes reach the end, each binding the names its own way. Never slow: the check stops at its budget and says so.
    const refs: unknown[] = [];
    const defs: Record<string, unknown> = {};
    for (let i = 0; i < 20; i++) {
      const next = i === 19 ? "end" : `l${i + 1}`;
      refs.push({ $dynamicRef: `x${i}#n${i}` });
      defs[`l${i}`] = { $id: `l${i}`, allOf: [{ $ref: `x${i}` }, { $ref: `y${i}` }] };
      for (const side of ["x", "y"])
        defs[`${side}${i}`] = {
          $id: `${side}${i}`,
          $defs: { n: { $dynamicAnchor: `n${i}`, type: "object" } },
          $ref: next,
        };
    }
    defs["end"] = { $id: "end", type: "object", allOf: refs };
    const schema = { $id: "https://example.com/paths", $ref: "l0", $defs: defs };
    assertEquals(checkToolSchema(schema), []);
    const budget = new CheckBudget(100);
    assertEquals(check({ v: 1 }, schema, budget), ["$ could not be checked within its budget of 25,000 steps"]);
    assert(budget.spent < 25_100, `${budget.spent} steps`);
  });
});
