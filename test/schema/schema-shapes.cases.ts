// Schemas the metaschemas or the core spec call invalid, which checkToolSchema accepted and the
// checks then read as something else; each is now refused at its field:
// - the array form of `items` is a non-empty list (draft 4 to 2019-09's `schemaArray`,
//   `minItems: 1`): `items: []` was read as no tuple at all, `additionalItems` on every item;
// - a JSON Pointer's `~` is `~0` or `~1` (RFC 6901 §3, §4: anything else is an error): `#/$defs/~2`
//   reached a key spelled `~2`;
// - `$vocabulary` is an object of booleans keyed by URIs (2019-09 and 2020-12 meta/core);
// - an `$id` is a URI reference (2020-12 core §8.2.1): one the URL parser cannot read made every
//   anchor in its resource unreachable, and a `$ref: "#name"` there was called "remote";
// - `$schema` is a URI with a scheme (2020-12 core §8.1.1; one the checks do not know still reads
//   as the default dialect, as the suite's custom metaschemas and OpenAPI 3.1's dialect need);
//   `$id` a string; the annotations of the meta-data and content vocabularies of their types; the
//   names of `type` and `required` each once (every metaschema's `uniqueItems: true`);
// - a number past what a double holds (`1e400`, which JSON.parse reads as Infinity) was said to be
//   "no number", which its sender wrote as one.
import { assertEquals, group } from "../support/harness.ts";
import { check, DRAFT2019, DRAFT2020, DRAFT4, DRAFT7, issues } from "../support/schema-drafts.ts";

const NO_URI_REFERENCE = "must be a URI reference (RFC 3986) that resolves against the $ids around it";
group("checkToolSchema: shapes the metaschemas give", (test) => {
  test("the array form of items must hold a schema, where a draft has it", () => {
    for (const $schema of [undefined, DRAFT4, DRAFT7, DRAFT2019])
      assertEquals(
        issues({ $schema, properties: { list: { items: [] } } }),
        ["parameters.properties.list.items: must be a schema, or a non-empty array of schemas"],
        String($schema),
      );
    assertEquals(issues({ $schema: DRAFT2020, items: [] }), [
      "parameters.items: must be a schema (an object or a boolean)",
    ]);
    assertEquals(issues({ $schema: DRAFT7, items: [{ type: "string" }], additionalItems: false }), []);
  });

  test("a JSON Pointer's ~ is ~0 or ~1: ~2, or a ~ at the end, is refused, not read as a key", () => {
    for (const name of ["~2", "a~", "~~0"]) {
      const pointer = `#/$defs/${name}`;
      const schema = { $defs: { [name]: { type: "string" } }, properties: { a: { $ref: pointer } } };
      assertEquals(
        issues(schema),
        ["parameters.properties.a.$ref: has a JSON Pointer with a ~ not followed by 0 or 1 (RFC 6901)"],
        name,
      );
      assertEquals(check({ a: 1 }, schema), [], "a pointer that is none accepts anything, as a dangling one");
    }
    const escaped = { $defs: { "a~b/c": { type: "string" } }, properties: { a: { $ref: "#/$defs/a~0b~1c" } } };
    assertEquals(issues(escaped), []);
    assertEquals(check({ a: 1 }, escaped), ["$.a must be string, not number"]);
  });

  test("$vocabulary is an object of booleans keyed by URIs, where a draft has it", () => {
    const core = "https://json-schema.org/draft/2020-12/vocab/core";
    assertEquals(issues({ $vocabulary: { [core]: true, "https://example.com/v": false } }), []);
    for (const $vocabulary of [5, [core], { [core]: "yes" }, { core: true }])
      assertEquals(
        issues({ $schema: DRAFT2020, $vocabulary }),
        ["parameters.$vocabulary: must be an object of booleans keyed by URIs"],
        JSON.stringify($vocabulary),
      );
    assertEquals(issues({ $schema: DRAFT7, $vocabulary: 5 }), [], "no keyword of draft 7: unknown, not read");
  });

  test("an $id the URL parser cannot read is refused at it, and a $ref by anchor in its resource says why it fails", () => {
    const schema = {
      $id: "http://exa mple.com/",
      $defs: { a: { $anchor: "foo", type: "string" } },
      properties: { a: { $ref: "#foo" } },
    };
    assertEquals(issues(schema), [
      "parameters.properties.a.$ref: cannot be resolved: the $id of the resource it is in is refused",
      "parameters.$id: must be a URI reference (RFC 3986) that resolves against the $ids around it",
    ]);
    assertEquals(issues({ ...schema, $id: "urn:example:root" }), []);
    // No URI reference has these (RFC 3986), whichever runtime's URL parser would read them.
    for (const $id of ["http://example.com/a b", "http://example.com/a{b}", "item\\one", "<x>"])
      assertEquals(issues({ $id, type: "object" }), [`parameters.$id: ${NO_URI_REFERENCE}`], $id);
  });

  test("a number past what a double holds (1e400, read as Infinity) is said to be so", () => {
    const past = "is a number past what a double holds (about 1.8e308)";
    for (const key of ["minimum", "exclusiveMaximum", "multipleOf", "maxLength", "minItems"])
      assertEquals(issues(JSON.parse(`{"${key}": 1e400}`)), [`parameters.${key}: ${past}`], key);
    assertEquals(issues(JSON.parse('{"maximum": -1e400}')), [`parameters.maximum: ${past}`]);
    assertEquals(issues({ minimum: "5" }), ["parameters.minimum: must be a number"]);
  });

  test("$schema a URI, $id a string, annotations of their types, type and required names once", () => {
    assertEquals(issues({ $schema: "not a uri" }), [
      "parameters.$schema: must be a URI with a scheme (RFC 3986), naming the metaschema",
    ]);
    for (const $schema of ["https://spec.openapis.org/oas/3.1/dialect/base", "http://localhost:1234/metaschema.json"])
      assertEquals(issues({ $schema, type: "object" }), [], $schema);
    assertEquals(issues({ $id: 5 }), ["parameters.$id: must be a string"]);
    assertEquals(issues({ $schema: DRAFT4, id: 5 }), ["parameters.id: must be a string"]);
    const wrong = {
      title: 5,
      description: [],
      $comment: {},
      readOnly: 1,
      writeOnly: "no",
      deprecated: "x",
      examples: { a: 1 },
      contentMediaType: 5,
      contentEncoding: true,
      contentSchema: 5,
    };
    assertEquals(issues({ properties: { p: wrong } }), [
      "parameters.properties.p.contentSchema: must be a schema (an object or a boolean)",
      "parameters.properties.p.title: must be a string",
      "parameters.properties.p.description: must be a string",
      "parameters.properties.p.$comment: must be a string",
      "parameters.properties.p.contentMediaType: must be a string",
      "parameters.properties.p.contentEncoding: must be a string",
      "parameters.properties.p.readOnly: must be a boolean",
      "parameters.properties.p.writeOnly: must be a boolean",
      "parameters.properties.p.deprecated: must be a boolean",
      "parameters.properties.p.examples: must be an array",
    ]);
    // Draft 4 has none of these but title and description: the others are unknown there, not read.
    assertEquals(issues({ $schema: DRAFT4, properties: { p: wrong } }), [
      "parameters.properties.p.title: must be a string",
      "parameters.properties.p.description: must be a string",
    ]);
    assertEquals(issues({ type: ["string", "string"] }), [
      "parameters.type: must be one of object, array, string, number, integer, boolean, null, or a non-empty array of them",
    ]);
    assertEquals(issues({ required: ["a", "a"] }), ["parameters.required: must be an array of strings, each once"]);
    assertEquals(issues({ dependentRequired: { a: ["b", "b"] } }), [
      "parameters.dependentRequired: must be an object of arrays of strings, each once",
    ]);
  });
});
