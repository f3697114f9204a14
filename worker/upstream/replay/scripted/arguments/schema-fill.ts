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
import type { CheckBudget, JsonValue } from "../../../../../src/index.ts";
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
import { byEnd, Ends, keyEnd } from "./directions.ts";
import { pickOption } from "./enum-choice.ts";
import { formatShaped } from "./format-shapes.ts";
import { flagOf, numberFit } from "./prompt-phrases.ts";
import { type PromptValues, readValues } from "./prompt-values.ts";
import { asObject, isObject, merge, SchemaReader, turnBudget, typeOf } from "./schema-parts.ts";

/** Deepest nesting of the arguments written. */
const MAX_DEPTH = 16;
/** Most items written in one array. */
const MAX_ITEMS = 12;
/**
 * Most values written for one tool, in all: a client's schema nests arrays and `anyOf`s through
 * `$ref`s, and without a total the fan-out grows as items^depth (12^16 values).
 */
const MAX_VALUES = 2_000;

/**
 * Arguments for a tool whose parameters are `parameters` (an object schema; absent: none), filled
 * from the prompt's `values`, or `undefined` when none the checker accepts could be written (or
 * the turn's `budget` was spent). `now` dates a `date` or `date-time` the prompt does not give.
 */
export function fillArguments(
  parameters: JsonValue | undefined,
  values: PromptValues,
  now: number,
  budget: CheckBudget = turnBudget(),
): { [key: string]: JsonValue } | undefined {
  if (parameters === undefined || parameters === null || parameters === true) return {};
  if (!isObject(parameters)) return undefined;
  for (const fromPrompt of [true, false]) {
    // Then from the schema alone: an empty prompt.
    const filler: Filler = new Filler(parameters, fromPrompt ? values : readValues(""), now, budget);
    const args = filler.value(parameters, undefined, 0);
    if (isObject(args) && filler.accepts(args, parameters)) return args;
  }
  return undefined;
}

export class Filler extends SchemaReader {
  /** Prompt values given to a property already, so that two properties take two values ("from Paris to Rome"). */
  readonly #used = new Set<string>();
  /** The `$ref`s being written, outermost first: an array of one of them again writes its fewest items (a tree's `children`). */
  readonly #refs: string[] = [];
  /** Each prompt value's end of a move, as read. */
  readonly #ends: Ends;
  /** Which item of an array of unique items is being written: another sample of a pattern for each. */
  #variant = 0;

  readonly values: PromptValues;
  readonly now: number;
  /** Values written so far (see {@link MAX_VALUES}). */
  written = 0;

  constructor(root: Schema, values: PromptValues, now: number, budget?: CheckBudget) {
    super(root, budget);
    this.values = values;
    this.now = now;
    this.#ends = new Ends(values.lower, values.languages);
  }

  value(schema: JsonValue, key: string | undefined, depth: number): JsonValue {
    if (depth > MAX_DEPTH || ++this.written > MAX_VALUES || --this.budget.steps < 0) return null;
    const ref = isObject(schema) && typeof schema["$ref"] === "string" ? schema["$ref"] : undefined;
    if (ref === undefined) return this.#write(this.resolve(schema), key, depth);
    this.#refs.push(ref);
    try {
      return this.#write(this.resolve(schema), key, depth);
    } finally {
      this.#refs.pop();
    }
  }

  #write(s: Schema, key: string | undefined, depth: number): JsonValue {
    if ("const" in s) return s["const"]!;
    if (Array.isArray(s["enum"])) {
      if (!this.readsEnum(s["enum"])) return s["enum"][0] ?? null;
      // Two properties of one enum take two of the values the prompt names ("from kg to lb").
      const picked = pickOption(s["enum"], key, this.values, this.#ends, this.#used);
      return picked === undefined ? enumValue(s, s["enum"], this.values) : picked;
    }
    // `if`/`then`/`else` are two more branches: the `if` and its `then` together, or the `else`.
    const conditional = isObject(s["if"] ?? null)
      ? [merge(this.resolve(s["if"]!), asObject(s["then"] ?? null), this.budget), asObject(s["else"] ?? null)]
      : [];
    const branches = [...list(s["anyOf"]), ...list(s["oneOf"]), ...conditional];
    if (branches.length > 0) {
      const { anyOf: _a, oneOf: _o, if: _i, then: _t, else: _e, ...rest } = s;
      const tries = branches
        .map((branch) => merge(rest, this.resolve(branch), this.budget))
        .sort((a, b) => Number(typeOf(a) === "null") - Number(typeOf(b) === "null"));
      const written = tries.map((branch) => this.value(branch, key, depth + 1));
      const accepted = written.filter((value) => this.accepts(value, s));
      // The branch the prompt gave a value ("at 1767225600": the integer of a date-time or a Unix time).
      return accepted.find((value) => this.#said(value)) ?? accepted[0] ?? written[0] ?? null;
    }
    switch (typeOf(s)) {
      case "object":
        return this.object(s, depth);
      case "array":
        return this.array(s, key, depth);
      case "integer":
        return this.number(s, true, key);
      case "number":
        return this.number(s, false, key);
      case "boolean":
        return flagOf(key, this.values.words) ?? (typeof s["default"] === "boolean" ? s["default"] : false);
      case "null":
        return null;
      default:
        return this.string(s, key);
    }
  }

  /** Whether a number or a string is one the prompt says. */
  #said(value: JsonValue): boolean {
    if (typeof value === "number") return this.values.numbers.includes(value);
    return typeof value === "string" && value !== "" && this.values.lower.includes(value.toLowerCase());
  }

  /** Whether the prompt gives an optional property a value of its own. */
  offers(schema: JsonValue, key: string): boolean {
    const s = this.resolve(schema);
    if (Array.isArray(s["enum"])) return this.readsEnum(s["enum"]) && enumNamed(s["enum"], this.values);
    const type = typeOf(s);
    if (type === "string") {
      const hint = hintOf(key);
      // A format the prompt gives a value of says as much as a name does ("due 2026-12-05" for a `date`).
      const specific = (hint !== undefined && hint !== "text") || typeof s["format"] === "string";
      return specific && promptStrings(s, key, this.values).some((v) => this.accepts(v, s));
    }
    if (type === "number" || type === "integer")
      return (
        (hintOf(key) === "count" && this.values.numbers.length > 0) ||
        this.values.numbersInContext.some((number) => numberFit(key, number, false) > 0)
      );
    if (type === "boolean") return flagOf(key, this.values.words) !== undefined;
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
    // A set: a client's schema may list thousands of properties, and `minProperties` ask for them all.
    const wanted = new Set(keys.filter((key) => required.has(key) || this.offers(properties[key] ?? true, key)));
    const minimum = typeof s["minProperties"] === "number" ? s["minProperties"] : 0;
    for (const key of keys) if (wanted.size < minimum) wanted.add(key);
    const dependent = asObject(s["dependentRequired"] ?? null);
    for (const key of [...wanted])
      for (const other of list(dependent[key])) if (typeof other === "string") wanted.add(other);
    for (const key of wanted) out[key] = this.value(properties[key] ?? true, key, depth + 1);
    this.#moreProperties(s, out, minimum, depth);
    return out;
  }

  /**
   * Properties beyond the declared ones, up to `minProperties`, where the schema takes them: a name
   * a `patternProperties` pattern or the `propertyNames` pattern samples (else `key`, `key_2`, ...),
   * the prompt's tokens that fit first, and a value of `patternProperties` or `additionalProperties`.
   */
  #moreProperties(s: Schema, out: Schema, minimum: number, depth: number): void {
    const names = asObject(s["propertyNames"] ?? null);
    const patterns: [string | undefined, JsonValue][] = Object.entries(asObject(s["patternProperties"] ?? null));
    if (s["additionalProperties"] !== false) patterns.push([undefined, s["additionalProperties"] ?? true]);
    for (let i = 0; Object.keys(out).length < minimum && i < MAX_ITEMS && patterns.length > 0; i++) {
      const [pattern, schema] = patterns[i % patterns.length]!;
      const named = pattern === undefined ? names : merge(names, { pattern }, this.budget);
      const nameSchema: Schema = { ...named, type: "string" };
      const tried: string[] = [
        ...this.values.tokens,
        ...schemaStrings(nameSchema, this.now, i),
        i === 0 ? "key" : `key_${i + 1}`,
      ];
      const name = tried.find((n) => !Object.hasOwn(out, n) && this.accepts(n, nameSchema));
      if (name !== undefined) out[name] = this.value(schema, name, depth + 1);
    }
  }

  array(s: Schema, key: string | undefined, depth: number): JsonValue {
    const prefix = list(s["prefixItems"]);
    const items = Array.isArray(s["items"]) || s["items"] === false ? undefined : (s["items"] ?? true);
    const min = typeof s["minItems"] === "number" ? s["minItems"] : 0;
    const max = typeof s["maxItems"] === "number" ? s["maxItems"] : MAX_ITEMS;
    const resolved = items === undefined ? undefined : this.resolve(items);
    const itemType = resolved === undefined ? undefined : typeOf(resolved);
    const listed = resolved !== undefined && Array.isArray(resolved["enum"]) ? resolved["enum"] : undefined;
    const options = listed !== undefined && this.readsEnum(listed) ? listed : undefined;
    // A list of numbers takes every number of the prompt ("a table for 1, 5 and 10"), a list of an
    // enum every value the prompt names; a list of what is being written (a tree's children) its fewest.
    const recursive = isObject(items) && typeof items["$ref"] === "string" && this.#refs.includes(items["$ref"]);
    const fromPrompt = recursive
      ? 0
      : options !== undefined
        ? Math.max(1, namedOptions(options, this.values).length)
        : itemType === "number" || itemType === "integer"
          ? this.values.numbers.length
          : itemType === "string" &&
              (typeof resolved!["format"] === "string" || typeof resolved!["pattern"] === "string")
            ? // A list of addresses, URLs, ids takes each the prompt gives.
              Math.max(1, promptStrings(resolved!, key, this.values).filter((v) => this.accepts(v, resolved!)).length)
            : 1;
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
        value = this.#another(value, out, options, i);
      out.push(value);
    }
    return out;
  }

  /** For an array of unique items, a value other than those of `out`: an enum's next option, the other boolean, a string or number made distinct. */
  #another(
    value: JsonValue,
    out: readonly JsonValue[],
    options: readonly JsonValue[] | undefined,
    i: number,
  ): JsonValue {
    const taken = new Set(out.map((other) => JSON.stringify(other)));
    const free = [...(options ?? (typeof value === "boolean" ? [false, true] : []))].find(
      (option) => !taken.has(JSON.stringify(option)),
    );
    if (free !== undefined || options !== undefined || typeof value === "boolean") return free ?? value;
    return typeof value === "string" ? `${value} ${i + 1}` : typeof value === "number" ? value + i : value;
  }

  number(s: Schema, integer: boolean, key?: string): number {
    const candidates = numberCandidates(s, this.values, integer, key);
    const fresh = candidates.filter((n) => !this.#used.has(`n:${n}`));
    const picked = [...fresh, ...candidates].find((n) => this.accepts(n, s)) ?? candidates[0] ?? 0;
    if (this.values.numbers.includes(picked)) this.#used.add(`n:${picked}`);
    return picked;
  }

  /**
   * A string: the prompt's values that fit the property not given to another yet, at the end of a
   * move its name asks for first ("from Paris to Berlin": `to` takes Berlin); then the schema's
   * own; then the prompt's other words; then values given already, or at the other end.
   */
  string(s: Schema, key: string | undefined): string {
    const want = keyEnd(key);
    const endOf = (value: string) => this.#ends.of(value);
    const fromPrompt = byEnd(promptStrings(s, key, this.values), endOf, want);
    const fallback = byEnd(fallbackStrings(s, this.values, key), endOf, want);
    const fresh = (values: string[]) => values.filter((value) => !this.#used.has(value));
    const own = schemaStrings(s, this.now, this.#variant);
    const ordered = [
      ...fresh(fromPrompt.near),
      ...own,
      ...fresh(fallback.near),
      ...fromPrompt.near,
      ...fallback.near,
      ...fromPrompt.far,
      ...fallback.far,
    ];
    const picked = ordered.find((value) => formatShaped(s, value) && this.accepts(value, s)) ?? ordered[0] ?? "";
    if (!own.includes(picked)) this.#used.add(picked);
    return picked;
  }
}
