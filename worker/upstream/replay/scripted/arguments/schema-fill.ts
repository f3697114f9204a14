/**
 * Arguments for a tool, written from its JSON Schema and the prompt: what the scripted model
 * sends when it calls a tool of the request. Every required property is filled, an optional one
 * only when the prompt gives it a value (an `enum` value it names, a place, a token its pattern
 * takes); objects, arrays (`items`, `prefixItems`, `minItems`), `allOf`, `anyOf`, `oneOf`, local
 * `$ref`s, `const`, `enum`, type lists and `nullable` are read. Each leaf value is the first of its
 * candidates (./leaf-values.ts) that the library's own checker accepts, and the whole is checked
 * again with `checkToolArguments`: arguments it refuses are never sent (the tool is then not
 * called).
 *
 * @module
 */
import { checkToolArguments, type JsonValue, type ToolSchema } from "../../../../../src/index.ts";
import {
  enumNamed,
  enumValue,
  fallbackStrings,
  hintOf,
  list,
  namedOptions,
  numberCandidates,
  promptStrings,
  type Schema,
  schemaStrings,
} from "./leaf-values.ts";
import type { PromptValues } from "./prompt-values.ts";

/** Deepest nesting of the arguments written. */
const MAX_DEPTH = 16;
/** Most `$ref` steps followed from one schema. */
const MAX_REFS = 16;
/** Most items written in one array. */
const MAX_ITEMS = 12;
/**
 * Most values written for one tool, in all: a client's schema nests arrays and `anyOf`s through
 * `$ref`s, and without a total the fan-out grows as items^depth (12^16 values).
 */
const MAX_VALUES = 2_000;

/**
 * Arguments for a tool whose parameters are `parameters` (an object schema; absent: no
 * parameters), filled from the prompt's `values`, or `undefined` when none the checker accepts
 * could be written. `now` dates a `date` or `date-time` the prompt does not give.
 */
export function fillArguments(
  parameters: JsonValue | undefined,
  values: PromptValues,
  now: number,
): { [key: string]: JsonValue } | undefined {
  if (parameters === undefined || parameters === null || parameters === true) return {};
  if (!isObject(parameters)) return undefined;
  for (const fromPrompt of [true, false]) {
    const filler: Filler = new Filler(parameters, fromPrompt ? values : EMPTY, now);
    const args = filler.value(parameters, undefined, 0);
    if (isObject(args) && filler.accepts(args, parameters)) return args;
  }
  return undefined;
}

/** Whether the prompt gives a required property of `parameters` a value its pattern, format or enum picks out. */
export function promptFits(parameters: JsonValue | undefined, values: PromptValues): boolean {
  if (!isObject(parameters) || !isObject(parameters["properties"] ?? null)) return false;
  const properties = parameters["properties"] as Schema;
  const filler = new Filler(parameters, values, 0);
  return list(parameters["required"]).some((key) => {
    if (typeof key !== "string" || !isObject(properties[key] ?? null)) return false;
    const schema = filler.resolve(properties[key]!);
    if (Array.isArray(schema["enum"])) return enumNamed(schema["enum"], values);
    const specific = typeof schema["pattern"] === "string" || typeof schema["format"] === "string";
    return specific && promptStrings(schema, key, values).some((value) => filler.accepts(value, schema));
  });
}

const EMPTY: PromptValues = {
  text: "",
  words: [],
  tokens: [],
  numbers: [],
  quoted: [],
  names: [],
  urls: [],
  emails: [],
  dates: [],
};

class Filler {
  /** Prompt values given to a property already, so that two properties take two values ("from Paris to Rome"). */
  readonly #used = new Set<string>();
  /** Which item of an array of unique items is being written: another sample of a pattern for each. */
  #variant = 0;

  readonly root: Schema;
  readonly values: PromptValues;
  readonly now: number;
  /** Values written so far (see {@link MAX_VALUES}). */
  written = 0;

  constructor(root: Schema, values: PromptValues, now: number) {
    this.root = root;
    this.values = values;
    this.now = now;
  }

  /** Whether the library's checker accepts `value` for `schema` (a part of the root, whose `$defs` it may name). */
  accepts(value: JsonValue, schema: Schema): boolean {
    const withDefs =
      schema === this.root
        ? schema
        : { ...schema, $defs: this.root["$defs"] ?? {}, definitions: this.root["definitions"] ?? {} };
    return checkToolArguments(value, withDefs as ToolSchema, { assertFormats: true }).length === 0;
  }

  /** The schema a `$ref` names, with the siblings of the `$ref`, and `allOf`'s parts merged in. */
  resolve(schema: JsonValue): Schema {
    let current: JsonValue = schema;
    for (let step = 0; step < MAX_REFS && isObject(current) && typeof current["$ref"] === "string"; step++) {
      const { $ref, ...siblings } = current;
      current = { ...asObject(this.pointer($ref as string)), ...siblings };
    }
    const resolved = asObject(current);
    if (!Array.isArray(resolved["allOf"])) return resolved;
    const { allOf, ...rest } = resolved;
    return (allOf as JsonValue[]).reduce<Schema>((merged, part) => merge(merged, this.resolve(part)), rest);
  }

  value(schema: JsonValue, key: string | undefined, depth: number): JsonValue {
    if (depth > MAX_DEPTH || ++this.written > MAX_VALUES) return null;
    const s = this.resolve(schema);
    if ("const" in s) return s["const"]!;
    if (Array.isArray(s["enum"])) {
      // Two properties of one enum take two of the values the prompt names ("from kg to lb").
      const named = namedOptions(s["enum"], this.values);
      const picked = named.find((option) => !this.#used.has(`e:${JSON.stringify(option)}`)) ?? named[0];
      if (picked === undefined) return enumValue(s, s["enum"], this.values);
      this.#used.add(`e:${JSON.stringify(picked)}`);
      return picked;
    }
    const branches = [...list(s["anyOf"]), ...list(s["oneOf"])];
    if (branches.length > 0) {
      const { anyOf: _a, oneOf: _o, ...rest } = s;
      const tries = branches
        .map((branch) => merge(rest, this.resolve(branch)))
        .sort((a, b) => Number(typeOf(a) === "null") - Number(typeOf(b) === "null"));
      const written = tries.map((branch) => this.value(branch, key, depth + 1));
      return written.find((value) => this.accepts(value, s)) ?? written[0] ?? null;
    }
    switch (typeOf(s)) {
      case "object":
        return this.object(s, depth);
      case "array":
        return this.array(s, key, depth);
      case "integer":
        return this.number(s, true);
      case "number":
        return this.number(s, false);
      case "boolean":
        return typeof s["default"] === "boolean" ? s["default"] : false;
      case "null":
        return null;
      default:
        return this.string(s, key);
    }
  }

  /** Whether the prompt gives an optional property a value of its own. */
  offers(schema: JsonValue, key: string): boolean {
    const s = this.resolve(schema);
    if (Array.isArray(s["enum"])) return enumNamed(s["enum"], this.values);
    const type = typeOf(s);
    if (type === "string") {
      const hint = hintOf(key);
      return (
        hint !== undefined && hint !== "text" && promptStrings(s, key, this.values).some((v) => this.accepts(v, s))
      );
    }
    if (type === "number" || type === "integer") return hintOf(key) === "count" && this.values.numbers.length > 0;
    // A list of numbers takes the prompt's ("a table for 1, 5 and 10"); a list of strings what its name says.
    if (type === "array" && !Array.isArray(s["items"]) && s["items"] !== undefined) {
      const items = this.resolve(s["items"]);
      const itemType = typeOf(items);
      if (itemType === "number" || itemType === "integer") return this.values.numbers.length > 0;
      return itemType === "string" && this.offers(items, key);
    }
    return false;
  }

  object(s: Schema, depth: number): JsonValue {
    const properties = asObject(s["properties"] ?? null);
    const required = new Set(list(s["required"]).filter((key): key is string => typeof key === "string"));
    const out: Schema = {};
    const keys = [...new Set([...Object.keys(properties), ...required])];
    const wanted = keys.filter((key) => required.has(key) || this.offers(properties[key] ?? true, key));
    const minimum = typeof s["minProperties"] === "number" ? s["minProperties"] : 0;
    for (const key of keys) if (wanted.length < minimum && !wanted.includes(key)) wanted.push(key);
    const dependent = asObject(s["dependentRequired"] ?? null);
    for (const key of [...wanted])
      for (const other of list(dependent[key]))
        if (typeof other === "string" && !wanted.includes(other)) wanted.push(other);
    for (const key of wanted) out[key] = this.value(properties[key] ?? true, key, depth + 1);
    return out;
  }

  array(s: Schema, key: string | undefined, depth: number): JsonValue {
    const prefix = list(s["prefixItems"]);
    const items = Array.isArray(s["items"]) ? undefined : (s["items"] ?? true);
    const min = typeof s["minItems"] === "number" ? s["minItems"] : 0;
    const max = typeof s["maxItems"] === "number" ? s["maxItems"] : MAX_ITEMS;
    const itemType = items === undefined ? undefined : typeOf(this.resolve(items));
    // A list of numbers takes every number of the prompt ("a table for 1, 5 and 10").
    const fromPrompt = itemType === "number" || itemType === "integer" ? this.values.numbers.length : 1;
    const count = Math.min(max, MAX_ITEMS, Math.max(min, prefix.length, items === undefined ? 0 : fromPrompt));
    const out: JsonValue[] = [];
    for (let i = 0; i < count; i++) {
      const schema = i < prefix.length ? prefix[i]! : items;
      if (schema === undefined) break;
      const outer = this.#variant;
      if (s["uniqueItems"] === true) this.#variant = i;
      let value = this.value(schema, key, depth + 1);
      this.#variant = outer;
      if (s["uniqueItems"] === true && out.some((other) => JSON.stringify(other) === JSON.stringify(value)))
        value = typeof value === "string" ? `${value} ${i + 1}` : typeof value === "number" ? value + i : value;
      out.push(value);
    }
    return out;
  }

  number(s: Schema, integer: boolean): number {
    const candidates = numberCandidates(s, this.values, integer);
    const fresh = candidates.filter((n) => !this.#used.has(`n:${n}`));
    const picked = [...fresh, ...candidates].find((n) => this.accepts(n, s)) ?? candidates[0] ?? 0;
    if (this.values.numbers.includes(picked)) this.#used.add(`n:${picked}`);
    return picked;
  }

  string(s: Schema, key: string | undefined): string {
    const fromPrompt = promptStrings(s, key, this.values);
    const fresh = fromPrompt.filter((value) => !this.#used.has(value));
    const ordered = [
      ...fresh,
      ...fromPrompt,
      ...schemaStrings(s, this.now, this.#variant),
      ...fallbackStrings(s, this.values),
    ];
    const picked = ordered.find((value) => this.accepts(value, s)) ?? ordered[0] ?? "";
    if (fromPrompt.includes(picked)) this.#used.add(picked);
    return picked;
  }

  /** What a local JSON Pointer (`#/$defs/address`) names in the root, or `true` (anything) when nothing. */
  pointer(ref: string): JsonValue {
    if (!ref.startsWith("#")) return true;
    let at: JsonValue = this.root;
    for (const part of ref.slice(1).split("/").slice(1)) {
      const name = decodeURIComponent(part).replace(/~1/g, "/").replace(/~0/g, "~");
      if (!isObject(at) || !Object.hasOwn(at, name)) return true;
      at = at[name]!;
    }
    return at;
  }
}

/** The type a schema gives its value: the first of a type list that is not `null`, else what its keywords imply. */
function typeOf(s: Schema): string {
  const types = Array.isArray(s["type"]) ? s["type"] : s["type"] === undefined ? [] : [s["type"]];
  const chosen = types.find((type) => type !== "null") ?? types[0];
  if (typeof chosen === "string") return chosen;
  if (s["properties"] !== undefined || s["required"] !== undefined) return "object";
  if (s["items"] !== undefined || s["prefixItems"] !== undefined) return "array";
  if (s["minimum"] !== undefined || s["maximum"] !== undefined || s["multipleOf"] !== undefined) return "number";
  return "string";
}

/** Two schemas as one: `properties` merged, `required` joined, any other keyword of `b` over `a`'s. */
function merge(a: Schema, b: Schema): Schema {
  const merged: Schema = { ...a, ...b };
  if (isObject(a["properties"] ?? null) || isObject(b["properties"] ?? null))
    merged["properties"] = { ...asObject(a["properties"] ?? null), ...asObject(b["properties"] ?? null) };
  if (Array.isArray(a["required"]) || Array.isArray(b["required"]))
    merged["required"] = [...new Set([...list(a["required"]), ...list(b["required"])])];
  return merged;
}

function isObject(value: JsonValue | undefined): value is Schema {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function asObject(value: JsonValue): Schema {
  return isObject(value) ? value : {};
}
