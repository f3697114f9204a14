// `$ref`s by anchor (`$anchor`, `$dynamicAnchor`, draft 6/7's `$id: "#name"`) and by the URI of a
// resource the document holds (an `$id`, resolved against the `$id`s around it with the URL API).
// Before, checkToolSchema refused both ("anchors (#name) are not followed", "remote ones are not
// followed": the Worker's 400 for a valid tool) and the checks accepted anything there.
import type { JsonValue, ToolSchema } from "../../src/index.ts";
import { CheckBudget, checkToolArguments, checkToolSchema } from "../../src/index.ts";
import { assert, assertEquals, group } from "../support/harness.ts";

const check = (value: unknown, schema: unknown): string[] =>
  checkToolArguments(value as JsonValue, schema as ToolSchema);

/** The steps a first check of `{}` takes, the compilation of `schema` included. */
function compiled(schema: unknown): number {
  const budget = new CheckBudget(Number.POSITIVE_INFINITY);
  checkToolArguments({}, schema as ToolSchema, { budget });
  return budget.spent;
}

group("Schema checks: $refs by anchor and by an embedded $id's URI", (test) => {
  test("an anchor resolves in its own resource", () => {
    const schema = {
      type: "object",
      $defs: { a: { $anchor: "item", type: "string" }, d: { $dynamicAnchor: "n", type: "integer" } },
      properties: { p: { $ref: "#item" }, n: { $ref: "#n" } },
    };
    assertEquals(checkToolSchema(schema), []);
    assertEquals(check({ p: "s", n: 1 }, schema), []);
    assertEquals(check({ p: 5, n: "x" }, schema), [
      "$.p must be string, not number",
      "$.n must be integer, not string",
    ]);
    // The same name in another resource is that resource's.
    const inner = {
      $id: "https://x/inner",
      $defs: { a: { $anchor: "item", type: "integer" } },
      properties: { q: { $ref: "#item" } },
    };
    const two = { ...schema, properties: { p: { $ref: "#item" }, i: inner } };
    assertEquals(checkToolSchema(two), []);
    assertEquals(check({ p: 5, i: { q: "s" } }, two), [
      "$.p must be string, not number",
      "$.i.q must be integer, not string",
    ]);
    // Draft 7's `$id: "#name"`.
    const draft7 = { definitions: { a: { $id: "#item", type: "string" } }, properties: { p: { $ref: "#item" } } };
    assertEquals(checkToolSchema(draft7), []);
    assertEquals(check({ p: 5 }, draft7), ["$.p must be string, not number"]);
  });

  test("a $ref by URI reaches the resource of that $id, absolute or relative, with a pointer or anchor after it", () => {
    const item = {
      $id: "item.json",
      type: "object",
      $defs: { n: { $anchor: "num", type: "number" } },
      required: ["id"],
    };
    const schema = {
      $id: "https://example.com/tools/root.json",
      type: "object",
      $defs: { item },
      properties: {
        a: { $ref: "item.json" },
        b: { $ref: "https://example.com/tools/item.json" },
        c: { $ref: "item.json#/$defs/n" },
        d: { $ref: "/tools/item.json#num" },
      },
    };
    assertEquals(checkToolSchema(schema), []);
    assertEquals(check({ a: {}, b: { id: 1 }, c: "x", d: "y" }, schema), [
      "$.a.id is required",
      "$.c must be number, not string",
      "$.d must be number, not string",
    ]);
    // Without a root `$id` the root has a base of the library's own: a relative `$id` still names its subschema.
    const bare = { $defs: { s: { $id: "s.json", type: "string" } }, properties: { p: { $ref: "s.json" } } };
    assertEquals(checkToolSchema(bare), []);
    assertEquals(check({ p: 1 }, bare), ["$.p must be string, not number"]);
    // A URI the document does not hold is remote: refused, and accepts anything.
    const remote = { properties: { p: { $ref: "https://example.com/other.json" } } };
    assertEquals(checkToolSchema(remote), [
      {
        path: "parameters.properties.p.$ref",
        message: "must be a local reference (#/$defs/..., #name, or an $id's URI): remote ones are not followed",
      },
    ]);
    assertEquals(check({ p: 1 }, remote), []);
  });

  test("hostile: many anchors cost their number, and deep relative $ids past 2,048 characters have no URI", () => {
    const anchors = (n: number) => ({
      $defs: Object.fromEntries(Array.from({ length: n }, (_, i) => [`d${i}`, { $anchor: `a${i}`, type: "integer" }])),
      properties: Object.fromEntries(Array.from({ length: n }, (_, i) => [`p${i}`, { $ref: `#a${i}` }])),
    });
    assertEquals(checkToolSchema(anchors(6_000)), []);
    assertEquals(check({ p5999: "x" }, anchors(6_000)), ["$.p5999 must be integer, not string"]);
    const [small, large] = [compiled(anchors(1_500)), compiled(anchors(6_000))];
    assert(large < small * 4.5, `linear: ${small} steps for 1,500 anchors, ${large} for 6,000`);
    // 60 nested `$id`s of 2,000 characters each, relative (each URI longer than the one around it),
    // and 15,000 `$id`s resolved against the deepest: about 1.8 billion characters of URIs
    // unbounded. A URI past 2,048 characters is none: from the second level on they have no URI,
    // and `s1` is no resource of the document (a remote reference, refused).
    let deep: Record<string, unknown> = {
      $defs: Object.fromEntries(Array.from({ length: 15_000 }, (_, i) => [`s${i}`, { $id: `s${i}` }])),
    };
    for (let i = 0; i < 60; i++) deep = { $id: `${"x".repeat(1_999)}/`, items: deep };
    const hostile = { type: "object", properties: { d: deep, r: { $ref: "s1" } } };
    assertEquals(
      checkToolSchema(hostile).map((issue) => issue.message),
      ["must be a local reference (#/$defs/..., #name, or an $id's URI): remote ones are not followed"],
    );
    assert(compiled(hostile) < 5_000_000, `bounded: ${compiled(hostile)} steps`);
  });

  test("hostile: an $id or anchor name past 2,048 characters is refused, and never a key of the lookups", () => {
    // V8 hashes a string past 16,383 characters by its length alone: 2,000 anchors under an `$id`
    // of 17,000 characters (a 72 KB schema) took 3.6 s of checkToolSchema, all keys colliding.
    const anchors = (id: string, name: (i: number) => string) => ({
      $id: id,
      $defs: Object.fromEntries(
        Array.from({ length: 2_000 }, (_, i) => [`d${i}`, { $anchor: name(i), type: "integer" }]),
      ),
      properties: { p: { $ref: `#${name(1_999)}` } },
    });
    const longId = anchors(`http://x.example/${"a".repeat(17_000)}`, (i) => `a${i}`);
    assertEquals(
      checkToolSchema(longId).map((issue) => `${issue.path}: ${issue.message}`),
      [
        "parameters.$id: must be at most 2,048 characters",
        "parameters.properties.p.$ref: cannot be resolved: the $id of the resource it is in is refused",
      ],
    );
    const longNames = anchors("http://x.example/s.json", (i) => `${"n".repeat(17_000)}${i}`);
    const issues = checkToolSchema(longNames);
    assertEquals(issues.length, 21, "20 issues and one that counts the rest");
    assertEquals(issues[0]!.message, "must be at most 2,048 characters");
    // Just within the bound: read, and checked.
    const within = anchors(`http://x.example/${"a".repeat(2_000)}`, (i) => `a${i}`);
    assertEquals(checkToolSchema(within), []);
    assertEquals(check({ p: "x" }, within), ["$.p must be integer, not string"]);
  });
});
