/**
 * How well a prompt's values fit a tool's parameters, which the tool plan weighs when the prompt
 * does not name the tool:
 *
 * - a **fit**: a required property, or one nested in a required object or in a branch of its
 *   `oneOf`/`anyOf`, takes a value the prompt gives that its `pattern`, `format`, `enum` or
 *   `const` picks out ("Pay with my card ending 4242": `method.oneOf[0].kind` is `"card"`, and
 *   `last4`'s `^\d{4}$` takes `4242`);
 * - a **hint**: a required property's name says what it holds and the prompt holds one ("Wie ist
 *   das Wetter in Berlin?" and `city`: a place), which is weaker, and read in any language.
 *
 * @module
 */
import type { CheckBudget, JsonValue } from "../../../../../src/index.ts";
import { formatShaped } from "./format-shapes.ts";
import { enumNamed, hintOf, list, promptStrings, type Schema } from "./leaf-values.ts";
import type { PromptValues } from "./prompt-values.ts";
import { asObject, isObject, SchemaReader } from "./schema-parts.ts";

/** Plain words: a pattern that takes one of them takes any word of a prompt. */
const PLAIN = ["hello", "example", "Hello"];

/** Deepest nesting of objects and branches read. */
const MAX_DEPTH = 4;
/**
 * Most properties read for one tool: a schema whose `$ref`s repeat one object reads it once per
 * path, and a client's may list thousands.
 */
const MAX_READ = 256;

/**
 * Whether the prompt gives a required property of `parameters` (nested ones too) a value its
 * pattern, format, enum or const picks out; the checks' work taken from `budget` (the turn's).
 */
export function promptFits(parameters: JsonValue | undefined, values: PromptValues, budget?: CheckBudget): boolean {
  if (!isObject(parameters)) return false;
  const reader = new SchemaReader(parameters, budget);
  const read = { left: MAX_READ };
  return requiredOf(reader, parameters, 0).some(([key, schema]) => fits(reader, key, schema, values, 0, read));
}

/**
 * How much of a tool the prompt holds values for by what its required properties' names say they
 * hold (a place, an email, a URL, a date, a path): the share of its required properties that one
 * such value fills, 0 when none does. `city` alone and a place: 1; `source` and `destination` and
 * a place: 1/2. Of the first {@link MAX_READ} required properties; the checks' work taken from
 * `budget` (the turn's).
 */
export function promptSuits(parameters: JsonValue | undefined, values: PromptValues, budget?: CheckBudget): number {
  if (!isObject(parameters)) return 0;
  const reader = new SchemaReader(parameters, budget);
  // The first MAX_READ: each costs a read of the prompt's values, and a client's schema may hold thousands.
  const required = requiredOf(reader, parameters, 0).slice(0, MAX_READ);
  const suited = required.filter(([key, schema]) => {
    const hint = hintOf(key);
    if (hint === undefined || hint === "text" || hint === "name" || hint === "count" || hint === "id") return false;
    // A path suits only as one ("in München" is a place, not a file).
    const found = promptStrings(schema, key, values).filter((value) => hint !== "path" || /[/.]/.test(value));
    return found.some((value) => reader.accepts(value, schema));
  }).length;
  return suited === 0 ? 0 : suited / required.length;
}

/** The required properties of an object schema (its `allOf` parts' included), resolved. */
function requiredOf(reader: SchemaReader, schema: JsonValue, depth: number): [string, Schema][] {
  if (depth > MAX_DEPTH) return [];
  const s = reader.resolve(schema);
  const properties = asObject(s["properties"] ?? null);
  return list(s["required"]).flatMap((key) =>
    typeof key === "string" && isObject(properties[key] ?? null)
      ? [[key, reader.resolve(properties[key]!)] as [string, Schema]]
      : [],
  );
}

function fits(
  reader: SchemaReader,
  key: string,
  schema: Schema,
  values: PromptValues,
  depth: number,
  budget: { left: number },
): boolean {
  if (depth > MAX_DEPTH || --budget.left < 0) return false;
  if (Array.isArray(schema["enum"])) return reader.readsEnum(schema["enum"]) && enumNamed(schema["enum"], values);
  if (typeof schema["const"] === "string") return enumNamed([schema["const"]], values);
  const nested = [...requiredOf(reader, schema, depth + 1)];
  for (const branch of [...list(schema["oneOf"]), ...list(schema["anyOf"])])
    nested.push(...requiredOf(reader, branch, depth + 1));
  if (nested.some(([k, s]) => fits(reader, k, s, values, depth + 1, budget))) return true;
  // A pattern any plain word matches (`^[a-z0-9-]+$`) picks nothing out.
  const selective = typeof schema["pattern"] === "string" && !PLAIN.some((word) => reader.accepts(word, schema));
  const specific = selective || typeof schema["format"] === "string";
  return (
    specific &&
    promptStrings(schema, key, values).some((value) => formatShaped(schema, value) && reader.accepts(value, schema))
  );
}
