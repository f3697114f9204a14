// fast-check generators for early schema validation: tool schemas within the subset the early
// checks support, values valid for a schema, values changed at one place (often made invalid),
// their JSON text in several styles, and random splits of it.
import fc from "fast-check";
import { checkToolArguments, type JsonValue, type ToolSchema } from "../../src/index.ts";

/** Property names that begin one another, need escaping in a JSON Pointer, or name prototype members. */
export const KEYS = ["a", "ab", "abc", "b", "ba", "é", "杭州", "a/b", "~1", "__proto__", "x y"] as const;
/** Strings that begin one another, with escapes, surrogate pairs and a lone surrogate. */
const STRINGS = ["", "a", "ab", "abc", "b", "cel", "celsius", "😀", "😀x", 'é"\\', "\ud83d", "line\nbreak"];
/** The characters of generated strings: each one code point, several needing an escape. */
const CHARS = ["a", "b", "c", "é", "杭", "😀", '"', "\\", "\n", "\u0001", "/", "\ud800", " "];
const NUMBERS = [0, 1, -1, 2, 5, 1.5, -2.5, 100, 1e21];

type Schema = ToolSchema & Record<string, unknown>;

const option = <T>(arbitrary: fc.Arbitrary<T>): fc.Arbitrary<T | undefined> =>
  fc.option(arbitrary, { nil: undefined, freq: 2 });

/** Drops the keys whose value is `undefined`, so a schema holds only the keywords it uses. */
function defined(record: Record<string, unknown>): Schema {
  return Object.fromEntries(Object.entries(record).filter(([, value]) => value !== undefined)) as Schema;
}

const stringSchema = fc
  .record({
    enum: option(fc.uniqueArray(fc.constantFrom(...STRINGS), { minLength: 1, maxLength: 4 })),
    const: option(fc.constantFrom(...STRINGS)),
    maxLength: option(fc.nat(5)),
    nullable: option(fc.constant(true)),
  })
  .map((r) => defined({ type: "string", ...r, const: r.enum ? undefined : r.const }));
const numberSchema = fc
  .record({
    type: fc.constantFrom("number", "integer"),
    minimum: option(fc.integer({ min: -5, max: 5 })),
    maximum: option(fc.integer({ min: -5, max: 200 })),
    enum: option(fc.uniqueArray(fc.constantFrom(...NUMBERS), { minLength: 1, maxLength: 3 })),
  })
  .map(defined);
const otherLeaf = fc.constantFrom<Schema>(
  { type: "boolean" },
  { type: "boolean", enum: [true] },
  { type: "null" },
  {},
  { description: "anything" },
  { type: ["string", "null"] },
  { type: ["integer", "string"], maxLength: 3 },
  { type: "integer", nullable: true, minimum: 0 },
  { const: { a: [1, "x"] } },
  { enum: ["ab", 1, null, { a: 1 }, [true]] },
  { enum: [[1, 2], [1]] },
  { type: "object", enum: [{ a: 1 }, { b: "x" }] },
);

/** Tool schemas within the supported subset; `object` at the top, as tool arguments are. */
export const { schema: schemaArbitrary, object: objectSchemaArbitrary } = fc.letrec<{
  schema: Schema;
  leaf: Schema;
  object: Schema;
  array: Schema;
  anyOf: Schema;
}>((tie) => ({
  schema: fc.oneof({ depthIdentifier: "schema", maxDepth: 3 }, tie("leaf"), tie("object"), tie("array"), tie("anyOf")),
  leaf: fc.oneof(stringSchema, numberSchema, otherLeaf),
  object: fc
    .record({
      properties: fc.uniqueArray(fc.tuple(fc.constantFrom(...KEYS), tie("schema")), {
        selector: ([key]) => key,
        maxLength: 4,
      }),
      required: fc.array(fc.boolean(), { maxLength: 4 }),
      additionalProperties: fc.oneof(
        fc.constant(undefined),
        fc.constant(false),
        fc.constant(false),
        fc.constant(true),
        tie("leaf"),
      ),
      nullable: option(fc.constant(true)),
    })
    .map(({ properties, required, additionalProperties, nullable }) =>
      defined({
        type: "object",
        properties: Object.fromEntries(properties),
        required: properties.filter((_, i) => required[i]).map(([key]) => key),
        additionalProperties,
        nullable,
      }),
    ),
  array: fc
    .record({ items: tie("schema"), minItems: option(fc.nat(2)), maxItems: option(fc.nat(4)) })
    .map((r) => defined({ type: "array", ...r })),
  anyOf: fc
    .record({ anyOf: fc.array(tie("schema"), { minLength: 2, maxLength: 3 }), nullable: option(fc.constant(true)) })
    .map(defined),
}));

const anyJson: fc.Arbitrary<JsonValue> = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }) as fc.Arbitrary<JsonValue>,
  fc.constantFrom<JsonValue>(...STRINGS, ...NUMBERS, true, false, null, { a: 1 }, [1]),
);

const stringOf = (maxLength: number | undefined): fc.Arbitrary<string> =>
  fc.oneof(
    fc.array(fc.constantFrom(...CHARS), { maxLength: Math.min(maxLength ?? 8, 8) }).map((chars) => chars.join("")),
    fc.constantFrom(...STRINGS),
  );

/** Values meant to be valid for `schema` (check with `checkToolArguments`: a schema may be unsatisfiable). */
export function validValue(schema: unknown, depth = 0): fc.Arbitrary<JsonValue> {
  // A schema that allows anything nests without end: past a few levels, any JSON will do.
  if (typeof schema !== "object" || schema === null || Array.isArray(schema) || depth > 4) return anyJson;
  const s = schema as Schema;
  const choices: fc.Arbitrary<JsonValue>[] = s.nullable === true ? [fc.constant(null)] : [];
  if (Array.isArray(s.anyOf) && s.anyOf.length > 0)
    return fc.oneof(...choices, ...s.anyOf.map((branch) => validValue(branch, depth + 1)));
  const allowed = Array.isArray(s.enum) ? s.enum : s.const !== undefined ? [s.const] : undefined;
  if (allowed) return allowed.length > 0 ? fc.oneof(...choices, fc.constantFrom(...allowed)) : fc.constant(null);
  const types =
    typeof s.type === "string"
      ? [s.type]
      : Array.isArray(s.type)
        ? s.type
        : ["string", "number", "boolean", "null", "object", "array"];
  for (const type of types) {
    if (type === "string") choices.push(stringOf(s.maxLength));
    if (type === "boolean") choices.push(fc.boolean());
    if (type === "null") choices.push(fc.constant(null));
    if (type === "number" || type === "integer") {
      const min = s.minimum ?? -1000;
      const max = s.maximum ?? 1000;
      choices.push(max >= min ? fc.integer({ min: Math.ceil(min), max: Math.floor(max) }) : fc.constant(min));
      if (type === "number" && max >= min) choices.push(fc.double({ min, max, noNaN: true, noDefaultInfinity: true }));
    }
    if (type === "array") {
      const minLength = s.minItems ?? 0;
      choices.push(
        fc.array(validValue(s.items, depth + 1), {
          minLength,
          maxLength: Math.max(minLength, Math.min(s.maxItems ?? 3, 3)),
        }),
      );
    }
    if (type === "object") choices.push(validObject(s, depth));
  }
  return choices.length > 0 ? fc.oneof(...choices) : fc.constant(null);
}

function validObject(s: Schema, depth: number): fc.Arbitrary<JsonValue> {
  const properties = Object.entries(s.properties ?? {});
  const required = new Set(s.required ?? []);
  const extraKeys = KEYS.filter((key) => !Object.hasOwn(s.properties ?? {}, key));
  const extraSchema = typeof s.additionalProperties === "object" ? s.additionalProperties : {};
  return fc
    .tuple(
      fc.tuple(
        ...properties.map(([key, member]) =>
          (required.has(key) ? validValue(member, depth + 1) : option(validValue(member, depth + 1))).map(
            (value) => [key, value] as const,
          ),
        ),
      ),
      s.additionalProperties === false || extraKeys.length === 0
        ? fc.constant([] as (readonly [string, JsonValue])[])
        : fc.uniqueArray(fc.tuple(fc.constantFrom(...extraKeys), validValue(extraSchema, depth + 1)), {
            selector: ([key]) => key,
            maxLength: 2,
          }),
    )
    .map(
      ([own, extra]) => Object.fromEntries([...own, ...extra].filter(([, value]) => value !== undefined)) as JsonValue,
    );
}

/** Every place in a value, as paths of keys and indexes (the value itself is `[]`). */
function placesOf(value: JsonValue, at: (string | number)[] = []): (string | number)[][] {
  const places = [at];
  if (Array.isArray(value)) value.forEach((item, i) => places.push(...placesOf(item, [...at, i])));
  else if (value !== null && typeof value === "object")
    for (const [key, member] of Object.entries(value)) places.push(...placesOf(member, [...at, key]));
  return places;
}

/** `value` changed at one place: replaced, given an extra key or item, or missing a key or item. */
export function changedValue(value: JsonValue): fc.Arbitrary<JsonValue> {
  const places = placesOf(value);
  return fc
    .tuple(fc.nat(places.length - 1), fc.nat(3), anyJson, fc.constantFrom(...KEYS))
    .map(([which, how, other, key]) => {
      const copy = JSON.parse(JSON.stringify(value)) as JsonValue;
      const path = places[which]!;
      const parent = path
        .slice(0, -1)
        .reduce<JsonValue>((node, step) => (node as Record<string | number, JsonValue>)[step]!, copy);
      const target = path.length === 0 ? copy : (parent as Record<string | number, JsonValue>)[path.at(-1)!]!;
      if (how === 1 && Array.isArray(target)) target.push(other);
      else if (how === 1 && target !== null && typeof target === "object")
        Object.defineProperty(target, key, { value: other, enumerable: true, writable: true, configurable: true });
      else if (how === 2 && Array.isArray(target)) target.pop();
      else if (how === 2 && target !== null && typeof target === "object")
        delete (target as Record<string, JsonValue>)[Object.keys(target)[0] ?? key];
      else if (path.length === 0) return other;
      else (parent as Record<string | number, JsonValue>)[path.at(-1)!] = other;
      return copy;
    });
}

/** JSON text of a value in one of several styles: spacing, and whole numbers written `5`, `5.0` or `5E0`. */
export function jsonText(value: JsonValue, style: number): string {
  const space = ["", " ", "\n  "][style % 3]!;
  const wholeNumber = Math.floor(style / 3) % 3;
  const write = (node: JsonValue): string => {
    if (typeof node === "number") {
      const text = JSON.stringify(node);
      return /^-?\d+$/.test(text) && wholeNumber > 0 ? `${text}${wholeNumber === 1 ? ".0" : "E0"}` : text;
    }
    if (Array.isArray(node)) return `[${space}${node.map(write).join(`,${space}`)}${space}]`;
    if (node !== null && typeof node === "object") {
      return `{${space}${Object.entries(node)
        .map(([key, member]) => `${JSON.stringify(key)}:${space}${write(member)}`)
        .join(`,${space}`)}${space}}`;
    }
    return JSON.stringify(node);
  };
  return write(value);
}

/** Cuts `text` at `cuts` (taken modulo its length), or at every character when `everyCharacter`; no empty fragment. */
export function fragmentsOf(text: string, cuts: readonly number[], everyCharacter = false): string[] {
  if (everyCharacter) return [...Array(text.length).keys()].map((i) => text[i]!);
  const offsets = [...new Set(cuts.map((cut) => cut % (text.length + 1)))]
    .filter((cut) => cut > 0 && cut < text.length)
    .sort((a, b) => a - b);
  return [...offsets, text.length]
    .map((end, i, all) => text.slice(i === 0 ? 0 : all[i - 1], end))
    .filter((part) => part !== "");
}

/** A schema (an object schema when `objectsOnly`) with a value valid for it, or `undefined` when the value drawn is not. */
export function schemaWithValidValue(
  objectsOnly = true,
): fc.Arbitrary<{ schema: Schema; value: JsonValue; valid: boolean }> {
  return (objectsOnly ? objectSchemaArbitrary : schemaArbitrary).chain((schema) =>
    validValue(schema).map((value) => ({ schema, value, valid: checkToolArguments(value, schema).length === 0 })),
  );
}
