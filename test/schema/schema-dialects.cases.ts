// What a schema's root `$schema` changes: draft 4's boolean exclusiveMinimum/exclusiveMaximum are
// read only where no later draft is declared (draft 6 made them numbers: a boolean is not a valid
// schema there), and draft 4 to 7 ignore every sibling of a `$ref`.
import type { JsonValue, ToolSchema } from "../../src/index.ts";
import { checkToolArguments, checkToolSchema, IncrementalJsonParser } from "../../src/index.ts";
import { SchemaWatcher } from "../../src/schema/schema-watcher.ts";
import { assertEquals, group } from "../support/harness.ts";

const DRAFT4 = "http://json-schema.org/draft-04/schema#";
const DRAFT7 = "http://json-schema.org/draft-07/schema#";
const DRAFT2020 = "https://json-schema.org/draft/2020-12/schema";

const check = (value: unknown, schema: unknown): string[] =>
  checkToolArguments(value as JsonValue, schema as ToolSchema);

/** The early check's violation on `text` against `schema`, if any. */
function early(schema: unknown, text: string): string | undefined {
  const watcher = new SchemaWatcher(schema);
  new IncrementalJsonParser({ listener: watcher }).feed(text);
  return watcher.violation?.message;
}

group("Schema checks: the draft a schema's $schema declares", (test) => {
  test("draft 3's required: true is refused as that draft's form, which the checks do not read", () => {
    // Before: "must be an array of strings, each once", which a draft 3 schema's author reads as a
    // mistake of theirs, not as a draft the checks do not read.
    const said = (schema: unknown) => checkToolSchema(schema).map((issue) => `${issue.path}: ${issue.message}`);
    const form =
      "must be an array of strings, each once: a boolean required is draft 3's form, which the checks do not read (list the property in its object's required, as draft 4 and later do)";
    const property = { type: "object", properties: { a: { type: "string", required: true } } };
    assertEquals(said({ ...property, $schema: "http://json-schema.org/draft-03/schema#" }), [
      `parameters.properties.a.required: ${form}`,
    ]);
    assertEquals(said(property), [`parameters.properties.a.required: ${form}`]);
    assertEquals(said({ required: false, $schema: DRAFT4 }), [`parameters.required: ${form}`]);
    assertEquals(said({ required: "a" }), ["parameters.required: must be an array of strings, each once"]);
  });

  test("a boolean exclusiveMinimum/exclusiveMaximum is draft 4's only where no later draft is declared", () => {
    // Before: read as draft 4's in every dialect, so a 2020-12 schema with `exclusiveMinimum: true`
    // (not a valid schema there) was accepted by checkToolSchema and rejected 0.
    const bounds = { type: "object", properties: { n: { minimum: 0, exclusiveMinimum: true } } };
    for (const $schema of [undefined, DRAFT4, "http://json-schema.org/draft-03/schema#"]) {
      const schema = { ...bounds, $schema };
      assertEquals(checkToolSchema(schema), [], String($schema));
      assertEquals(check({ n: 0 }, schema), ["$.n must be greater than 0"]);
    }
    for (const $schema of [DRAFT2020, "https://json-schema.org/draft/2019-09/schema", DRAFT7]) {
      const schema = { ...bounds, $schema };
      assertEquals(checkToolSchema(schema, "tools[0].parameters"), [
        {
          path: "tools[0].parameters.properties.n.exclusiveMinimum",
          message: "must be a number ($schema says a draft after 4)",
        },
      ]);
      // The checks ignore what a schema cannot hold: `minimum` alone, inclusive.
      assertEquals(check({ n: 0 }, schema), [], $schema);
      assertEquals(
        early({ ...schema, properties: { n: { maximum: 9, exclusiveMaximum: true } } }, '{"n": 9}'),
        undefined,
      );
    }
  });

  test("draft 4 to 7 ignore a $ref's siblings, in checkToolSchema and both checks", () => {
    // Before: the sibling `type` applied beside the `$ref` (a valid "s" rejected, flagged early),
    // and checkToolSchema refused a sibling draft 7 ignores.
    const p = { $ref: "#/definitions/s", type: "number", maxLength: "many" };
    for (const $schema of [DRAFT7, DRAFT4, "http://json-schema.org/draft-06/schema"]) {
      const schema = { $schema, type: "object", definitions: { s: { type: "string" } }, properties: { p } };
      assertEquals(checkToolSchema(schema), [], $schema);
      assertEquals(check({ p: "s" }, schema), [], $schema);
      assertEquals(check({ p: 5 }, schema), ["$.p must be string, not number"]);
      assertEquals(early(schema, '{"p": "s"}'), undefined);
      assertEquals(early(schema, '{"p": 5}'), "Expected string, found number.");
    }
    // Undeclared or 2020-12: every sibling applies beside the `$ref`.
    for (const $schema of [undefined, DRAFT2020]) {
      const schema = { $schema, definitions: { s: { type: "string" } }, properties: { p } };
      assertEquals(check({ p: "ss" }, schema), ["$.p must be number, not string"]);
    }
  });

  test("$schema names a draft only as one of the drafts' own metaschema URIs, exactly (an empty fragment or none)", () => {
    // Before: an unanchored regex read a draft wherever `json-schema.org/draft-07/` appeared, and
    // any two-digit year and month, so an unknown metaschema (a draft 5 that has none, 2019-12, a
    // draft 7 look-alike on another host) was read as a known draft and its $ref's siblings ignored.
    // Now, as python-jsonschema's validator_for and Stranger6667/jsonschema's Draft::from_url: an
    // exact metaschema URI, else the documented reading of a root that declares none.
    const p = { $ref: "#/definitions/s", type: "number" };
    const schema = ($schema: string) => ({
      $schema,
      type: "object",
      definitions: { s: { type: "string" } },
      properties: { p },
    });
    for (const $schema of [
      DRAFT7,
      "http://json-schema.org/draft-07/schema",
      DRAFT4,
      "http://json-schema.org/draft-06/schema#",
    ])
      assertEquals(check({ p: "s" }, schema($schema)), [], $schema);
    for (const $schema of [
      "http://json-schema.org/draft-99/schema#",
      "http://json-schema.org/draft-05/schema#",
      "https://evil.example/draft-07/schema",
      "https://evil.example/json-schema.org/draft-07/schema#",
      "http://notjson-schema.org/draft-07/schema#",
      "http://json-schema.org/draft-07/schema#/x",
      "http://json-schema.org/draft-07/hyper-schema#",
      "https://json-schema.org/draft-07/schema#",
      "https://json-schema.org/draft/2019-12/schema",
      "https://json-schema.org/draft/2020-12/schema/../../draft-07/schema",
    ]) {
      assertEquals(check({ p: "s" }, schema($schema)), ["$.p must be number, not string"], $schema);
      assertEquals(checkToolSchema(schema($schema)), [], $schema);
    }
    // 2019-09 and 2020-12 exactly, with or without the empty fragment: their keywords only.
    for (const $schema of [DRAFT2020, `${DRAFT2020}#`, "https://json-schema.org/draft/2019-09/schema"])
      assertEquals(
        check([1], { $schema, prefixItems: [{ type: "string" }] }).length,
        $schema.includes("2019") ? 0 : 1,
        $schema,
      );
  });
});
