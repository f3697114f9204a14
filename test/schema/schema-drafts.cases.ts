// Each draft's own keywords, read only where the root's `$schema` declares a draft that has them
// (elsewhere a keyword of another draft is unknown: an annotation, never followed or asserted). A
// schema that declares no draft reads 2020-12 with the forms earlier drafts gave keywords 2020-12
// does not define (`items` lists, `additionalItems`, `dependencies`, `$recursiveRef`), never
// draft 4's `id`. Before, 2019-09 and 2020-12 were one dialect, every draft read every keyword,
// and draft 4's `id` was read as `$id`.
import type { JsonValue } from "../../src/index.ts";
import { IncrementalJsonParser } from "../../src/index.ts";
import { SchemaWatcher } from "../../src/schema/schema-watcher.ts";
import { assert, assertEquals, group } from "../support/harness.ts";
import { check, DRAFT2019, DRAFT2020, DRAFT4, DRAFT6, DRAFT7, issues } from "../support/schema-drafts.ts";

/** The early check's violation, the value fed a character at a time. */
function early(schema: unknown, value: unknown): string | undefined {
  const watcher = new SchemaWatcher(schema);
  const parser = new IncrementalJsonParser({ listener: watcher });
  for (const character of JSON.stringify(value)) parser.feed(character);
  return watcher.violation?.message;
}

group("Schema checks: each draft's own keywords", (test) => {
  test("draft 4's identifier is id: it names resources and anchors, and $id is an unknown keyword there", () => {
    // Draft-04 core §7.2: `id` ("#name" for a plain-name fragment). Before: `id` named nothing (both
    // `$ref`s refused as remote, accepting anything) and `$id` made a resource.
    const byId = {
      $schema: DRAFT4,
      properties: { a: { $ref: "item.json" }, b: { $ref: "#num" } },
      definitions: { item: { id: "item.json", type: "string" }, num: { id: "#num", type: "number" } },
    };
    assertEquals(issues(byId), []);
    assertEquals(check({ a: 1, b: 2 }, byId), ["$.a must be string, not number"]);
    assertEquals(check({ a: "x", b: "y" }, byId), ["$.b must be number, not string"]);
    // `$id` under draft 4 is no resource: its `#/definitions/s` is the root's.
    const dollar = {
      $schema: DRAFT4,
      definitions: { s: { type: "string" } },
      properties: { a: { $id: "http://example.com/a", properties: { b: { $ref: "#/definitions/s" } } } },
    };
    assertEquals(issues(dollar), []);
    assertEquals(check({ a: { b: 1 } }, dollar), ["$.a.b must be string, not number"]);
    // Draft 6 on, and a schema that declares no draft, have no `id`: the `$ref` names nothing.
    for (const $schema of [DRAFT6, DRAFT7, DRAFT2020, undefined])
      assertEquals(
        issues({ ...byId, $schema }),
        [
          "parameters.properties.a.$ref: must be a local reference (#/$defs/..., #name, or an $id's URI): remote ones are not followed",
          "parameters.properties.b.$ref: points to nothing in the schema",
        ],
        String($schema),
      );
  });

  test("a keyword of another draft is unknown: never asserted, by either check; no draft declared reads it", () => {
    // [the draft, a keyword it does not have, a value that keyword would reject]
    const table: [string, Record<string, unknown>, JsonValue][] = [
      [DRAFT4, { const: 1 }, 2],
      [DRAFT4, { contains: { type: "string" } }, [1]],
      [DRAFT4, { propertyNames: { maxLength: 1 } }, { ab: 1 }],
      [DRAFT6, { if: true, then: false }, 1],
      [DRAFT7, { unevaluatedProperties: false }, { a: 1 }],
      [DRAFT7, { dependentRequired: { a: ["b"] } }, { a: 1 }],
      [DRAFT7, { dependentSchemas: { a: false } }, { a: 1 }],
      [DRAFT7, { contains: true, minContains: 2 }, [1]],
      [DRAFT7, { prefixItems: [{ type: "string" }] }, [1]],
      [DRAFT2019, { prefixItems: [{ type: "string" }] }, [1]],
      [DRAFT2019, { $dynamicRef: "#/$defs/n", $defs: { n: { type: "number" } } }, "a"],
      [DRAFT2020, { $recursiveRef: "#/$defs/n", $defs: { n: { type: "number" } } }, "a"],
      [DRAFT2020, { dependencies: { a: ["b"] } }, { a: 1 }],
      [DRAFT2020, { dependencies: { a: false } }, { a: 1 }],
    ];
    for (const [$schema, keywords, value] of table) {
      const schema = { $schema, ...keywords };
      const said = `${$schema} ${JSON.stringify(keywords)}`;
      assertEquals(issues(schema), [], said);
      assertEquals(check(value, schema), [], said);
      assertEquals(early(schema, value), undefined, said);
      // The same keyword where no draft is declared: read, and the value rejected.
      assert(check(value, keywords).length > 0, `no $schema: ${said}`);
    }
  });

  test("2019-09 reads an items list with additionalItems and not prefixItems; 2020-12 the reverse", () => {
    const tuple = { items: [{ type: "string" }], additionalItems: { type: "number" } };
    for (const $schema of [DRAFT2019, DRAFT7, undefined]) {
      const schema = { $schema, ...tuple };
      assertEquals(check(["a", 1], schema), [], String($schema));
      assertEquals(check(["a", "b"], schema), ["$[1] must be number, not string"], String($schema));
    }
    // 2019-09: `items` alone applies to every item, whatever `prefixItems` says.
    assertEquals(check(["a"], { $schema: DRAFT2019, prefixItems: [{ type: "string" }], items: { type: "number" } }), [
      "$[0] must be number, not string",
    ]);
    // 2020-12: an `items` list is no schema (refused at the request; the checks ignore it) and
    // `additionalItems` is unknown.
    const schema = { $schema: DRAFT2020, ...tuple };
    assertEquals(issues(schema), ["parameters.items: must be a schema (an object or a boolean)"]);
    assertEquals(check([1, "b"], schema), []);
    assertEquals(check(["a", "b"], { $schema: DRAFT2020, prefixItems: [true], additionalItems: false }), []);
  });

  test("$recursiveRef is 2019-09's and $dynamicRef 2020-12's: each followed only under its own draft", () => {
    const recursive = {
      $recursiveAnchor: true,
      type: "object",
      properties: { n: { type: "number" }, kids: { type: "array", items: { $recursiveRef: "#" } } },
    };
    const value = { n: 1, kids: [{ n: "x" }] };
    for (const $schema of [DRAFT2019, undefined])
      assertEquals(check(value, { $schema, ...recursive }), ["$.kids[0].n must be number, not string"]);
    assertEquals(check(value, { $schema: DRAFT2020, ...recursive }), []);
    // 2019-09 has no `$dynamicAnchor`: it names no anchor a `$ref` can find.
    const anchored = { $schema: DRAFT2019, properties: { a: { $ref: "#n" } }, $defs: { n: { $dynamicAnchor: "n" } } };
    assertEquals(issues(anchored), ["parameters.properties.a.$ref: points to nothing in the schema"]);
    assertEquals(issues({ ...anchored, $schema: DRAFT2020 }), []);
  });

  test("an $anchor or $dynamicAnchor that is no plain name is refused at its path, as its draft spells names", () => {
    // 2020-12 core §8.2.2 (meta/core `^[A-Za-z_][-A-Za-z0-9._]*$`); 2019-09 §8.2.3 (`^[A-Za-z][-A-Za-z0-9.:_]*$`).
    // Before: any string named an anchor (`#1 a` too), and a number was silently no anchor.
    const at = (key: string, name: unknown, $schema?: string): string[] =>
      issues({ $schema, $defs: { x: { [key]: name } } });
    const NAME_2020 = 'must be a letter or "_", then letters, digits, "-", "_" or "."';
    const NAME_2019 = 'must be a letter, then letters, digits, "-", "_", ":" or "."';
    for (const name of ["a", "_a", "A-b.c_9"]) assertEquals(at("$anchor", name, DRAFT2020), [], name);
    for (const name of ["1a", "a b", "a:b", "-a", "", "é"])
      assertEquals(at("$anchor", name, DRAFT2020), [`parameters.$defs.x.$anchor: ${NAME_2020}`], name);
    assertEquals(at("$dynamicAnchor", "a/b", DRAFT2020), [`parameters.$defs.x.$dynamicAnchor: ${NAME_2020}`]);
    assertEquals(at("$anchor", "a:b", DRAFT2019), []);
    assertEquals(at("$anchor", "_a", DRAFT2019), [`parameters.$defs.x.$anchor: ${NAME_2019}`]);
    // No draft declared: either draft's name.
    for (const name of ["_a", "a:b"]) assertEquals(at("$anchor", name), [], name);
    assertEquals(at("$anchor", "1a"), [
      `parameters.$defs.x.$anchor: ${NAME_2020} (or ":" after a first letter, as 2019-09 allows)`,
    ]);
    assertEquals(at("$dynamicAnchor", 5), ["parameters.$defs.x.$dynamicAnchor: must be a string"]);
    // Not a keyword of the draft: not read, not refused.
    assertEquals(at("$anchor", "1a", DRAFT7), []);
    assertEquals(at("$dynamicAnchor", "1a", DRAFT2019), []);
  });

  test("$recursiveAnchor must be a boolean, refused at its path where the draft has it (2019-09, or none declared)", () => {
    // 2019-09 core §8.2.4.2.2: its value MUST be a boolean. Before: a string was accepted and named no anchor.
    const schema = (draft?: string) => ({ ...(draft ? { $schema: draft } : {}), $recursiveAnchor: "node" });
    assertEquals(issues(schema(DRAFT2019)), ["parameters.$recursiveAnchor: must be a boolean"]);
    assertEquals(issues(schema()), ["parameters.$recursiveAnchor: must be a boolean"]);
    assertEquals(issues({ $schema: DRAFT2019, $recursiveAnchor: true }), []);
    // Not a keyword of 2020-12 or draft 7: not read, not refused.
    assertEquals(issues(schema(DRAFT2020)), []);
    assertEquals(issues(schema(DRAFT7)), []);
  });

  test("a $schema that is no string, or names a draft other than the root's, is refused at its path", () => {
    // 2020-12 core §8.1.1: an embedded resource may declare a dialect of its own, which the checks
    // (reading every resource as the root's draft) cannot honour. Before: accepted, and draft 7's
    // resource below was read as 2020-12, its $ref's sibling `type` asserted (1 rejected, which
    // draft 7 accepts); 2020-12's `prefixItems` inside draft 7 was never asserted.
    const draft7In2020 = {
      $schema: DRAFT2020,
      $ref: "a",
      $defs: { a: { $id: "a", $schema: DRAFT7, $ref: "#/definitions/b", type: "string", definitions: { b: {} } } },
    };
    const other = "must name the draft the root's $schema declares: a resource of another draft is not read as its own";
    assertEquals(issues(draft7In2020), [`parameters.$defs.a.$schema: ${other}`]);
    const in7 = { $schema: DRAFT7, items: { $id: "b", $schema: DRAFT2020, prefixItems: [{ type: "string" }] } };
    assertEquals(issues(in7), [`parameters.items.$schema: ${other}`]);
    // An unknown metaschema inside a declared draft: its keywords' meanings are not known.
    const unknown = { $schema: DRAFT2020, properties: { a: { $id: "a", $schema: "https://x.example/meta" } } };
    assertEquals(issues(unknown), [`parameters.properties.a.$schema: ${other}`]);
    // JSON Schema's metaschemas give `$schema` a string (a URI), at the root too.
    assertEquals(issues({ $schema: 7, type: "string" }), ["parameters.$schema: must be a string"]);
    assertEquals(issues({ properties: { a: { $schema: null } } }), [
      "parameters.properties.a.$schema: must be a string",
    ]);
    // The root's own draft again, or any where the root declares none (read as such a schema is): accepted.
    assertEquals(issues({ ...draft7In2020, $defs: { a: { ...draft7In2020.$defs.a, $schema: DRAFT2020 } } }), []);
    assertEquals(issues({ properties: { a: { $schema: DRAFT7, type: "string" } } }), []);
    // Beside a $ref in draft 7 it is ignored, as every sibling is.
    assertEquals(issues({ $schema: DRAFT7, properties: { a: { $ref: "#", $schema: DRAFT2020 } } }), []);
  });
});
