import fc from "fast-check";
import {
  checkToolArguments,
  IncrementalJsonParser,
  type JsonValue,
  type SchemaViolation,
  type ToolSchema,
} from "../../src/index.ts";
import { SchemaWatcher } from "../../src/schema/schema-watcher.ts";
import { assert, assertEquals, group } from "../support/harness.ts";
import {
  changedValue,
  fragmentsOf,
  jsonText,
  schemaArbitrary,
  schemaWithValidValue,
} from "../support/schema-arbitraries.ts";
import { referenceViolation } from "../support/schema-reference.ts";

/** Feeds fragments to a parser with a watcher: the index of the fragment after which the violation came, and it. */
function watch(
  schema: ToolSchema,
  fragments: readonly string[],
): { at: number; violation: SchemaViolation | undefined } {
  const watcher = new SchemaWatcher(schema);
  const parser = new IncrementalJsonParser({ listener: watcher });
  for (const [i, fragment] of fragments.entries()) {
    parser.feed(fragment);
    if (watcher.violation) return { at: i, violation: watcher.violation };
  }
  return { at: -1, violation: undefined };
}

/** The reference's answer: the first fragment after which the prefix can no longer be completed validly. */
function reference(
  schema: ToolSchema,
  fragments: readonly string[],
): { at: number; violation: SchemaViolation | undefined } {
  let prefix = "";
  for (const [i, fragment] of fragments.entries()) {
    prefix += fragment;
    const found = referenceViolation(prefix, schema);
    if (found) return { at: i, violation: { code: "schema-mismatch", ...found } };
  }
  return { at: -1, violation: undefined };
}

/** One argument text, cut and checked: [the text's fragments, the first violation]. */
function firstViolation(schema: ToolSchema, text: string, cuts: readonly number[] = []): SchemaViolation | undefined {
  return watch(schema, fragmentsOf(text, cuts, cuts.length === 0)).violation;
}

const WEATHER: ToolSchema = {
  type: "object",
  properties: {
    city: { type: "string", maxLength: 12 },
    unit: { type: "string", enum: ["celsius", "fahrenheit"] },
    items: {
      type: "array",
      maxItems: 4,
      items: { type: "object", properties: { qty: { type: "integer", minimum: 1, maximum: 99 } }, required: ["qty"] },
    },
  },
  required: ["city"],
  additionalProperties: false,
};

group("Early schema validation (SchemaWatcher on IncrementalJsonParser events)", (test) => {
  // The property to test hardest: split in two so that each case stays short in every runtime.
  for (const [what, objectsOnly, seed] of [
    ["schemas of any type", false, 1701],
    ["object schemas (as tool arguments are)", true, 1705],
  ] as const) {
    test(`valid instances of generated ${what} never give a violation, however they are split`, () => {
      fc.assert(
        fc.property(
          schemaWithValidValue(objectsOnly),
          fc.nat(8),
          fc.array(fc.nat(), { maxLength: 24 }),
          fc.boolean(),
          ({ schema, value, valid }, style, cuts, everyCharacter) => {
            fc.pre(valid);
            const text = jsonText(value, style);
            assertEquals(JSON.parse(text), JSON.parse(JSON.stringify(value)), "the text is the value");
            const { at, violation } = watch(schema, fragmentsOf(text, cuts, everyCharacter));
            assert(
              violation === undefined,
              `no violation for a valid value of ${JSON.stringify(schema)}: ${text} (fragment ${at}: ${JSON.stringify(violation)})`,
            );
          },
        ),
        { seed, numRuns: 3000, maxSkipsPerRun: 1000 },
      );
    });
  }

  test("a changed instance gets its violation at the exact fragment, and path, where the reference first settles it", () => {
    let violations = 0;
    fc.assert(
      fc.property(
        fc
          .oneof(schemaWithValidValue(false), schemaWithValidValue(true))
          .chain((drawn) => fc.tuple(fc.constant(drawn.schema), changedValue(drawn.value))),
        fc.nat(8),
        fc.array(fc.nat(), { maxLength: 16 }),
        fc.boolean(),
        ([schema, value], style, cuts, everyCharacter) => {
          const text = jsonText(value, style);
          const fragments = fragmentsOf(text, cuts, everyCharacter);
          const expected = reference(schema, fragments);
          assertEquals(watch(schema, fragments), expected, `${JSON.stringify(schema)} on ${JSON.stringify(fragments)}`);
          // Once the whole text is read, every value in it has closed except a number or literal at the top:
          // then the early checks have said all the final check says.
          if (typeof value === "object" && value !== null) {
            assertEquals(
              expected.at >= 0,
              checkToolArguments(value, schema).length > 0,
              `settled as the final check for ${text}`,
            );
          }
          if (expected.at >= 0) violations++;
        },
      ),
      { seed: 1702, numRuns: 1500 },
    );
    assert(violations > 300, `the changed values give violations (${violations})`);
  });

  test("the reference and the watcher agree on arbitrary JSON against arbitrary schemas", () => {
    fc.assert(
      fc.property(
        schemaArbitrary,
        fc.jsonValue({ maxDepth: 3 }),
        fc.array(fc.nat(), { maxLength: 12 }),
        (schema, value, cuts) => {
          const fragments = fragmentsOf(JSON.stringify(value), cuts);
          assertEquals(
            watch(schema, fragments),
            reference(schema, fragments),
            `${JSON.stringify(schema)} on ${JSON.stringify(fragments)}`,
          );
        },
      ),
      { seed: 1703, numRuns: 500 },
    );
  });

  test("decides each keyword at the first character that settles it", () => {
    /** The text read, character by character, when the violation came (the whole text when none came). */
    const decidedBy = (text: string): string => {
      const characters = [...text];
      const { at } = watch(WEATHER, characters);
      return characters.slice(0, at < 0 ? characters.length : at + 1).join("");
    };
    // An enum string no member begins with: at the `k` of "kelvin", before the string closes.
    assertEquals(decidedBy('{"city": "Oslo", "unit": "kelvin"}'), '{"city": "Oslo", "unit": "k');
    assertEquals(firstViolation(WEATHER, '{"unit": "kelvin"}'), {
      code: "schema-mismatch",
      path: "/unit",
      message: 'Expected one of "celsius", "fahrenheit".',
    });
    // A key additionalProperties forbids: at the `x` of "ux", the first letter no property name has.
    assertEquals(decidedBy('{"ux": 1}'), '{"ux');
    assertEquals(firstViolation(WEATHER, '{"ux": 1}'), {
      code: "schema-mismatch",
      path: "",
      message: "A property the schema does not allow.",
    });
    // A wrong type at the value's first character.
    assertEquals(decidedBy('{"city": 42}'), '{"city": 4');
    // maxLength the moment it is exceeded, in code points (😀 is one).
    assertEquals(decidedBy('{"city": "😀😀😀😀😀😀😀😀😀😀😀😀xyz"}'), '{"city": "😀😀😀😀😀😀😀😀😀😀😀😀x');
    // maxItems when the item past it begins; the minimum when the number closes (at the `}` after it).
    assertEquals(
      decidedBy('{"items": [{"qty": 1}, {"qty": 1}, {"qty": 1}, {"qty": 1}, {"qty": 1}]}'),
      '{"items": [{"qty": 1}, {"qty": 1}, {"qty": 1}, {"qty": 1}, {',
    );
    assertEquals(decidedBy('{"items": [{"qty": 0}]}'), '{"items": [{"qty": 0}');
    assertEquals(firstViolation(WEATHER, '{"items": [{"qty": 2}, {"qty": 1}, {"qty": 1}, {"qty": 0}]}'), {
      code: "schema-mismatch",
      path: "/items/3/qty",
      message: "Expected at least 1.",
    });
    // An integer is only known to be one when it closes: 1.5e1 is 15.
    assertEquals(firstViolation(WEATHER, '{"city": "x", "items": [{"qty": 1.5e1}]}'), undefined);
    // A missing required property when its object closes.
    assertEquals(decidedBy('{"unit": "celsius"}'), '{"unit": "celsius"}');
    assertEquals(firstViolation(WEATHER, '{"unit": "celsius"}'), {
      code: "schema-mismatch",
      path: "/city",
      message: "A required property is missing.",
    });
    assertEquals(firstViolation(WEATHER, '{"city": "Oslo", "unit": "celsius", "items": [{"qty": 99}]}'), undefined);
  });

  test("anyOf, type lists and nullable report only when no alternative is left", () => {
    const schema: ToolSchema = {
      type: "object",
      properties: {
        when: {
          anyOf: [
            { type: "string", enum: ["now", "later"] },
            { type: "integer", minimum: 0 },
          ],
          nullable: true,
        },
        tag: { type: ["string", "null"], maxLength: 2 },
        size: { type: "number", nullable: true, maximum: 3 },
      },
    };
    for (const valid of [
      '{"when": null, "tag": null, "size": null}',
      '{"when": "later", "tag": "ab", "size": 3}',
      '{"when": 7}',
      '{"when": 0.0}',
    ]) {
      assertEquals(firstViolation(schema, valid), undefined, valid);
    }
    assertEquals(firstViolation(schema, '{"when": "no'), undefined, "a string could still be now");
    assertEquals(firstViolation(schema, '{"when": "nox"'), {
      code: "schema-mismatch",
      path: "/when",
      message: "Matches none of the allowed shapes (anyOf).",
    });
    assertEquals(firstViolation(schema, '{"when": -1}'), {
      code: "schema-mismatch",
      path: "/when",
      message: "Matches none of the allowed shapes (anyOf).",
    });
    assertEquals(firstViolation(schema, '{"when": true'), {
      code: "schema-mismatch",
      path: "/when",
      message: "Matches none of the allowed shapes (anyOf).",
    });
    assertEquals(firstViolation(schema, '{"tag": 1'), {
      code: "schema-mismatch",
      path: "/tag",
      message: "Expected string or null, found number.",
    });
    assertEquals(firstViolation(schema, '{"size": 4}'), {
      code: "schema-mismatch",
      path: "/size",
      message: "Expected at most 3.",
    });
  });

  test("what needs the whole value waits for it, and nothing decided early is one the final check would not say", () => {
    const schema = {
      type: "object",
      properties: {
        a: { type: "string", pattern: "^x", format: "email", minLength: 5 },
        b: { not: { type: "number" } },
        c: { type: "array", prefixItems: [{ type: "string" }], items: { type: "number" }, uniqueItems: true },
        d: { type: "object", patternProperties: { "^x": {} }, additionalProperties: false },
        e: { type: ["string", "any"] },
        f: { items: [{ type: "string" }], contains: { type: "number" } },
        g: { oneOf: [{ type: "number" }, { type: "integer", not: { const: 2 } }] },
        h: { $ref: "https://example.com/remote.json" },
      },
    } as unknown as ToolSchema;
    // Each of b, c, f and g is invalid, but only the final check says so: nothing is reported early
    // (g matches both branches of its oneOf, but one of them holds a `not`, which is not decided early).
    const text = '{"b": 1, "c": ["s", 1, 1], "d": {"xyz": true}, "e": 1, "f": ["s"], "g": 1, "h": 0';
    for (let cut = 0; cut <= text.length; cut++)
      assertEquals(
        watch(schema, [text.slice(0, cut), text.slice(cut)].filter(Boolean)).violation,
        undefined,
        `cut at ${cut}`,
      );
    assertEquals(
      checkToolArguments(JSON.parse(`${text}}`), schema),
      [
        "$.b must not match the schema in not",
        "$.c must have items that are all different",
        "$.f must have at least 1 items that match its contains",
        "$.g matches more than one of the allowed shapes (oneOf)",
      ],
      "the final check rejects each",
    );
    // A oneOf whose branches are all decided early says "more than one" when its value closes.
    const twice = { type: "object", properties: { n: { oneOf: [{ type: "number" }, { type: "integer" }] } } };
    assertEquals(firstViolation(twice as ToolSchema, '{"n": 1}'), {
      code: "schema-mismatch",
      path: "/n",
      message: "Matches more than one of the allowed shapes (oneOf).",
    });
    assertEquals(firstViolation(twice as ToolSchema, '{"n": 1.5}'), undefined);
    // A string's pattern and minLength are decided when it closes, by the final check's own rules.
    assertEquals(firstViolation(schema, '{"a": "xy@z"}'), {
      code: "schema-mismatch",
      path: "/a",
      message: "Expected at least 5 characters.",
    });
    assertEquals(firstViolation(schema, '{"a": "yyy@zz"}')?.message, "Expected to match its pattern.");
    assertEquals(firstViolation(schema, '{"a": "xyyzz"}'), undefined, "format is an annotation by default");
    assertEquals(firstViolation(schema, '{"d": {"yz": 1}}')?.message, "A property the schema does not allow.");
  });

  test("anyOf, oneOf, allOf and $ref are conditions beside the schema's other keywords", () => {
    const schema = {
      type: "object",
      properties: { a: {}, b: {}, c: {}, n: { $ref: "#/$defs/small" }, t: { $ref: "#/$defs/tree" } },
      required: ["a"],
      additionalProperties: false,
      anyOf: [{ required: ["b"] }, { required: ["c"] }],
      $defs: {
        small: { type: "integer", allOf: [{ minimum: 0 }, { maximum: 9 }], oneOf: [{ enum: [1, 2] }, { enum: [3] }] },
        tree: { type: "object", properties: { kids: { type: "array", items: { $ref: "#/$defs/tree" } } } },
      },
    } as unknown as ToolSchema;
    assertEquals(
      firstViolation(schema, '{"a": 1, "b": 1, "zzz": true}')?.message,
      "A property the schema does not allow.",
    );
    assertEquals(firstViolation(schema, '{"a": 1, "b": 1}'), undefined);
    assertEquals(firstViolation(schema, '{"a": 1}')?.message, "Matches none of the allowed shapes (anyOf).");
    assertEquals(firstViolation(schema, '{"a": 1, "b": 1, "n": 12}'), {
      code: "schema-mismatch",
      path: "/n",
      message: "Expected at most 9.",
    });
    assertEquals(
      firstViolation(schema, '{"a": 1, "b": 1, "n": 4}')?.message,
      "Matches none of the allowed shapes (oneOf).",
    );
    assertEquals(firstViolation(schema, '{"a": 1, "b": 1, "n": 2, "t": {"kids": [{"kids": []}]}}'), undefined);
    assertEquals(firstViolation(schema, '{"a": 1, "b": 1, "t": {"kids": [{"kids": [1]}]}}'), {
      code: "schema-mismatch",
      path: "/t/kids/0/kids/0",
      message: "Expected object, found number.",
    });
    assertEquals(
      firstViolation({ type: "string", anyOf: [{ maxLength: 2 }, { maxLength: 5 }] }, "3")?.message,
      "Expected string, found number.",
    );
    assertEquals(
      firstViolation({ type: "object", properties: { x: false } } as unknown as ToolSchema, '{"x": 1}')?.path,
      "/x",
    );
  });

  test("enum and const of objects compare whatever the key order (JSON Schema equality); arrays in order", () => {
    const schema: ToolSchema = {
      type: "object",
      properties: { at: { enum: [{ lat: 1, lon: [2, { a: 1, b: 2 }] }] }, pin: { const: { a: 1, b: { c: 2 } } } },
    };
    assertEquals(
      firstViolation(schema, '{"at": {"lon": [2, {"b": 2, "a": 1}], "lat": 1}, "pin": {"b": {"c": 2}, "a": 1}}'),
      undefined,
    );
    assertEquals(firstViolation(schema, '{"at": {"lat": 1, "lon": [{"a": 1, "b": 2}, 2]}}')?.path, "/at");
    assertEquals(firstViolation(schema, '{"pin": {"a": 1, "b": {"c": 2}, "e": 0}}')?.path, "/pin");
    assertEquals(
      firstViolation({ enum: [{ a: 1, b: 2 }], const: { b: 2, a: 1 } }, '{"a": 1, "b": 2}'),
      undefined,
      "enum and const together",
    );
  });

  test("paths are JSON Pointers: ~ and / in keys are escaped, and messages never quote the arguments", () => {
    const schema: ToolSchema = {
      type: "object",
      properties: { "a/b": { type: "object", properties: { "~x": { type: "integer" } } } },
    };
    const violation = firstViolation(schema, '{"a/b": {"~x": "secret text"}}');
    assertEquals(violation, { code: "schema-mismatch", path: "/a~1b/~0x", message: "Expected integer, found string." });
    const forbidden = firstViolation({ type: "object", additionalProperties: false }, '{"secret key": 1}');
    assert(forbidden !== undefined && !JSON.stringify(forbidden).includes("secret"), "the forbidden key is not quoted");
  });

  test("reports once, then stops looking; a parse failure is not a violation", () => {
    const watcher = new SchemaWatcher(WEATHER);
    const parser = new IncrementalJsonParser({ listener: watcher });
    parser.feed('{"city": 1, "unit": "x"');
    assertEquals(watcher.violation?.path, "/city");
    parser.feed(', "zzz": []}');
    assertEquals(watcher.violation?.path, "/city");
    assertEquals(firstViolation(WEATHER, "{'city': 1}"), undefined);
    assertEquals(firstViolation(WEATHER, '{"city": x}'), undefined);
  });

  test("a listener does not change what the parser builds", () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 3 }), fc.array(fc.nat(), { maxLength: 8 }), (value, cuts) => {
        const text = JSON.stringify(value);
        const plain = new IncrementalJsonParser();
        const listened = new IncrementalJsonParser({ listener: new SchemaWatcher({}) });
        for (const part of fragmentsOf(text, cuts)) {
          plain.feed(part);
          listened.feed(part);
          assertEquals(listened.value as JsonValue, plain.value as JsonValue);
        }
        assertEquals([listened.end(), listened.value], [plain.end(), plain.value]);
      }),
      { seed: 1704, numRuns: 150 },
    );
  });
});
