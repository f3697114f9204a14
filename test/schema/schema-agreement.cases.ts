// checkToolSchema and the compilation agree on what a schema means (a hostile review of the pair):
// generated schemas of `$ref`s and `$dynamicRef`s (cycles, pointers through `$id`s, anchors, remote and dangling
// ones), `$defs`, `$id` resources, boolean schemas and the applicators. Whenever checkToolSchema
// accepts a schema, every part of it compiles as read (exact: nothing left unread, which would
// accept anything there unsaid) and checking values neither throws nor stops short; and a schema
// the compilation reads whole, within its limits, is never refused for a `$ref` it does not read.
import fc from "fast-check";
import { checkToolArguments, checkToolSchema, type JsonValue, type ToolSchema } from "../../src/index.ts";
import { compileLimit, compileSchema } from "../../src/schema/compiled-schema.ts";
import { appliesTooDeepInPlace } from "../../src/schema/in-place-depth.ts";
import { assert, group } from "../support/harness.ts";

type Schema = Record<string, unknown> | boolean;

const REFS = [
  "#",
  "#/$defs/a",
  "#/$defs/b",
  "#/$defs/a/properties/p",
  "#/properties/p",
  "#/items",
  "#/$defs/nowhere",
  "#/%24defs/a",
  "#a",
  "https://x/r",
];

const schemaOf: fc.Memo<Schema> = fc.memo((depth) => {
  const sub = depth > 1 ? schemaOf(depth - 1) : fc.constantFrom<Schema>(true, false, {}, { type: "string" });
  const list = fc.array(sub, { minLength: 1, maxLength: 2 });
  const keyword = fc.oneof(
    fc.record({ type: fc.constantFrom("object", "array", "string", "integer", "null", ["string", "null"]) }),
    fc.record({ enum: fc.constantFrom([1, "a"], [null, { p: 1 }]) }),
    fc.record({ minimum: fc.integer({ min: -2, max: 2 }) }),
    fc.record({ maxLength: fc.nat(2) }),
    fc.record({ required: fc.constantFrom(["p"], ["q", "p"]) }),
    fc.record({ properties: fc.dictionary(fc.constantFrom("p", "q"), sub, { maxKeys: 2 }) }),
    fc.record({ additionalProperties: sub }),
    fc.record({ items: sub }),
    fc.record({ prefixItems: list }),
    fc.record({ prefixItems: list, items: fc.oneof(sub, list) }),
    fc.record({ contains: sub, maxContains: fc.nat(1) }),
    fc.record({ dependentSchemas: fc.record({ p: sub }) }),
    fc.record({ allOf: list }),
    fc.record({ anyOf: list }),
    fc.record({ oneOf: list }),
    fc.record({ not: sub }),
    fc.record({ if: sub, then: sub, else: sub }),
    fc.record({ $ref: fc.constantFrom(...REFS) }),
    fc.record({ $ref: fc.constantFrom(...REFS) }),
    fc.record({ $id: fc.constantFrom("https://x/r", "https://x/s", "#a", "t") }),
    fc.record({ $defs: fc.record({ a: sub, b: sub }, { requiredKeys: ["a"] }) }),
    fc.record({ $anchor: fc.constant("a") }),
    fc.record({ $dynamicRef: fc.constantFrom(...REFS) }),
    fc.record({ $dynamicAnchor: fc.constant("a") }),
  );
  return fc.oneof(
    { weight: 1, arbitrary: fc.constantFrom<Schema>(true, false) },
    {
      weight: 5,
      arbitrary: fc.array(keyword, { minLength: 1, maxLength: 4 }).map((parts) => Object.assign({}, ...parts)),
    },
  );
});

/** A tool's schema: the root with `$defs` of its own, its `$ref`s and `$id`s reaching into them. */
const toolSchema = fc
  .tuple(schemaOf(4), schemaOf(3), schemaOf(2))
  .map(([schema, a, b]): Schema => (typeof schema === "boolean" ? schema : { ...schema, $defs: { a, b } }));

const values = fc.array(fc.jsonValue({ maxDepth: 3 }), { minLength: 1, maxLength: 4 });

group("checkToolSchema and the compilation agree", (test) => {
  test("a schema checkToolSchema accepts compiles whole; one compiled whole is accepted (property)", () => {
    let accepted = 0;
    let refused = 0;
    fc.assert(
      fc.property(toolSchema, values, (schema, samples) => {
        // JSON, as a request's schema is: no object shared by two places.
        const parsed = JSON.parse(JSON.stringify(schema)) as ToolSchema;
        const issues = checkToolSchema(parsed);
        const node = compileSchema(parsed);
        const whole = node.exact && compileLimit(parsed) === undefined && !appliesTooDeepInPlace(node);
        const text = JSON.stringify(schema);
        if (issues.length === 0) {
          accepted++;
          assert(whole, `accepted, but compiles with a part unread: ${text}`);
          for (const value of samples) {
            const found = checkToolArguments(value as JsonValue, parsed);
            assert(!found.some((issue) => issue.includes("could not be checked")), `stopped short: ${text}`);
          }
        } else {
          refused++;
          // An unused `$defs` entry of a shape JSON Schema does not allow is refused (the schema is
          // not valid); one whose `$ref` cannot be followed is valid, and must not be.
          const refs = issues.filter((issue) => /\.\$(dynamicR|r)ef$/.test(issue.path));
          assert(!whole || refs.length === 0, `refused (${JSON.stringify(refs)}), but compiles whole: ${text}`);
        }
      }),
      { seed: 27, numRuns: 1000 },
    );
    console.log(`checkToolSchema and the compilation agree: ${accepted} schemas accepted, ${refused} refused`);
    assert(accepted > 100 && refused > 100, `both sides are exercised (${accepted} accepted, ${refused} refused)`);
  });
});
