// Hostile schemas whose work grew faster than their size: each is counted (links of the compiled
// graph, reads of a list), compared between sizes or against the size, never a time.
import type { ToolSchema } from "../../src/index.ts";
import { CheckBudget, checkToolArguments, checkToolSchema } from "../../src/index.ts";
import { compileSchema } from "../../src/schema/compiled-schema.ts";
import { inPlace, type SchemaNode } from "../../src/schema/schema-node.ts";
import { resourcesOf } from "../../src/schema/schema-resources.ts";
import { assert, assertEquals, group } from "../support/harness.ts";

/** `refs` properties each `$ref: "#s"` to one anchor, under a root `$id` some 2,000 characters long. */
function anchorRefsUnderLongId(refs: number): ToolSchema {
  const properties: Record<string, unknown> = {};
  for (let i = 0; i < refs; i++) properties[`p${i}`] = { $ref: "#s" };
  const $id = `https://example.com/${"a/".repeat(990)}`;
  return { $id, type: "object", properties, $defs: { s: { $anchor: "s", type: "string" } } } as ToolSchema;
}

/** `refs` properties each a `$dynamicRef` to `#x`, and `anchors` resources each binding `x`. */
function dynamicFanOut(refs: number, anchors: number): ToolSchema {
  const properties: Record<string, unknown> = {};
  for (let i = 0; i < refs; i++) properties[`p${i}`] = { $dynamicRef: "#x" };
  const $defs: Record<string, unknown> = {};
  for (let i = 0; i < anchors; i++) $defs[`r${i}`] = { $id: `r${i}`, $dynamicAnchor: "x", type: "object" };
  return { $id: "https://example.com/root", $dynamicAnchor: "x", type: "object", properties, $defs } as ToolSchema;
}

/** The in-place links of the compiled graph (each node's `inPlace`), every node reached once. */
function inPlaceLinks(root: SchemaNode): number {
  let links = 0;
  const seen = new Set([root]);
  for (const node of seen) {
    const next = [...inPlace(node), ...(node.properties?.values() ?? [])];
    links += inPlace(node).length;
    for (const kid of next) seen.add(kid);
  }
  return links;
}

group("Schema work linear in the schema", (test) => {
  test("$dynamicRefs to an anchor many resources bind: the compiled graph holds refs + anchors links, not refs x anchors", () => {
    // 2,000 refs to 2,000 anchors (215 KB) took 3.7 s of checkToolSchema: every ref linked every anchor.
    const links = (n: number): number => inPlaceLinks(compileSchema(dynamicFanOut(n, n)));
    const [small, large] = [links(200), links(400)];
    assert(large <= 2 * small + 8, `${small} links at 200 refs and anchors, ${large} at 400`);
    assert(large < 4 * 800, `${large} links for 400 refs and 401 anchors`);
  });

  test("checkToolSchema reads the schemas of a $dynamicAnchor name once, not once per $dynamicRef", () => {
    const schema = dynamicFanOut(300, 300);
    const resources = resourcesOf(schema, 0);
    const list = resources.dynamic.get("x")!;
    let reads = 0;
    const counted = new Proxy(list, {
      get: (target, key, receiver) => {
        if (key === Symbol.iterator) reads++;
        return Reflect.get(target, key, receiver);
      },
    });
    resources.dynamic.set("x", counted);
    assertEquals(checkToolSchema(schema), []);
    // Once by checkToolSchema's walk, once by the compilation: it was 300 walks plus the compilation's.
    assertEquals(reads, 2);
  });

  test("the anchors' schemas are still checked, reached from a read place, and still bound by the dynamic scope", () => {
    const schema = dynamicFanOut(3, 3) as { $defs: Record<string, Record<string, unknown>> };
    schema.$defs["r2"]!["minProperties"] = "1";
    assertEquals(checkToolSchema(schema), [
      { path: "parameters.$defs.r2.minProperties", message: "must be a non-negative integer" },
    ]);
    const budget = new CheckBudget(100);
    assertEquals(checkToolArguments({ p0: 1 }, dynamicFanOut(3, 3), { budget }), ["$.p0 must be object, not number"]);
  });

  test("a $ref to an anchor (#name) costs its own length, not its base URI's: 2,500 under a 2,000-character $id are accepted", () => {
    // Each was parsed as a URL against the base (and keyed by `uri#name`): 2,500 in 56 KB were
    // refused as compiling past 4,000,000 steps (4,040,032), some 0.3 s of checkToolSchema.
    const schema = anchorRefsUnderLongId(2_500);
    assertEquals(checkToolSchema(schema), []);
    const budget = { steps: 1e9 };
    compileSchema(structuredClone(schema), { budget });
    assert(1e9 - budget.steps < 200_000, `${1e9 - budget.steps} steps`);
    assertEquals(checkToolArguments({ p0: "x", p2499: 1 }, schema), ["$.p2499 must be string, not number"]);
  });
});

group("Boolean schemas count as schemas", (test) => {
  test("a list of 30,000 boolean schemas is refused as too many schemas, and its compilation is charged a step each", () => {
    // `true` and `false` were neither counted toward MAX_SCHEMA_NODES nor charged: 200,000 of them
    // in `prefixItems` (1 MB) were accepted by checkToolSchema and compiled into 200,000 nodes for
    // 21 steps of a check's budget.
    const refused = [{ path: "parameters", message: "holds more than 20,000 schemas" }];
    for (const key of ["prefixItems", "allOf"])
      assertEquals(checkToolSchema({ [key]: Array(30_000).fill(true) }), refused, key);
    const properties = Object.fromEntries(Array.from({ length: 30_000 }, (_, i) => [`p${i}`, false]));
    assertEquals(checkToolSchema({ properties }), refused);
    const budget = { steps: 1e9 };
    compileSchema({ prefixItems: Array(10_000).fill(true) }, { budget });
    assert(1e9 - budget.steps >= 10_000, `${1e9 - budget.steps} steps for 10,000 boolean schemas`);
  });
});
