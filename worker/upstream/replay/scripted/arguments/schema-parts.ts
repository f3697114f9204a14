/**
 * Small readers of a JSON Schema object shared by the scripted model's argument writer: the type
 * a schema gives its value, two schemas merged as one, `$ref`s resolved in a root, and the
 * library's checker asked about a value.
 *
 * @module
 */
import { CheckBudget, checkToolArguments, type JsonValue, type ToolSchema } from "../../../../../src/index.ts";
import { list, type Schema } from "./leaf-values.ts";

/** The type a schema gives its value: the first of a type list that is not `null`, else what its keywords imply. */
export function typeOf(s: Schema): string {
  const types = Array.isArray(s["type"]) ? s["type"] : s["type"] === undefined ? [] : [s["type"]];
  const chosen = types.find((type) => type !== "null") ?? types[0];
  if (typeof chosen === "string") return chosen;
  if (s["properties"] !== undefined || s["required"] !== undefined) return "object";
  if (s["additionalProperties"] !== undefined || s["minProperties"] !== undefined) return "object";
  if (s["items"] !== undefined || s["prefixItems"] !== undefined) return "array";
  if (s["minimum"] !== undefined || s["maximum"] !== undefined || s["multipleOf"] !== undefined) return "number";
  return "string";
}

/**
 * Two schemas as one: `properties` merged, `required` joined, any other keyword of `b` over `a`'s;
 * a step per keyword, property and required name copied taken from `budget`.
 */
export function merge(a: Schema, b: Schema, budget: CheckBudget): Schema {
  budget.steps -= size(a) + size(b);
  const merged: Schema = { ...a, ...b };
  if (isObject(a["properties"] ?? null) || isObject(b["properties"] ?? null))
    merged["properties"] = { ...asObject(a["properties"] ?? null), ...asObject(b["properties"] ?? null) };
  if (Array.isArray(a["required"]) || Array.isArray(b["required"]))
    merged["required"] = [...new Set([...list(a["required"]), ...list(b["required"])])];
  return merged;
}

/** What copying a schema in {@link merge} costs: its keywords, properties and required names. */
function size(s: Schema): number {
  const properties = s["properties"];
  return (
    1 +
    Object.keys(s).length +
    (isObject(properties ?? null) ? Object.keys(properties as Schema).length : 0) +
    list(s["required"]).length
  );
}

export function isObject(value: JsonValue | undefined): value is Schema {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function asObject(value: JsonValue): Schema {
  return isObject(value) ? value : {};
}

/** The most work the scripted model does for one turn (see {@link SchemaReader.budget}). */
export const MAX_TURN_STEPS = 250_000;

/** A fresh budget of {@link MAX_TURN_STEPS} for one turn of the scripted model. */
export function turnBudget(): CheckBudget {
  return new CheckBudget(Number.POSITIVE_INFINITY, MAX_TURN_STEPS);
}

/** What matching one enum option against the prompt's words costs, in a check's steps. */
const ENUM_OPTION_STEPS = 8;

/** Most `$ref` steps followed from one schema. */
const MAX_REFS = 16;

/** A tool's parameters, read: its `$ref`s resolved and values checked against its parts. */
export class SchemaReader {
  readonly root: Schema;
  /**
   * The work of the scripted model's whole turn (its checks and their compilations, its merges and
   * `$ref` steps), shared by every reader of the turn: a client's schema can ask for a check per
   * branch, property and candidate, each compiling a part that names the whole schema. Once it is
   * spent, nothing is accepted (no arguments are written, so no tool is called).
   */
  readonly budget: CheckBudget;
  /** Each `allOf` of the root with its parts merged ({} while they are being read). */
  readonly #allOfs = new Map<JsonValue[], Schema>();
  /** Each part checked, with the root's `$defs`: one object per part, so the checker compiles it once. */
  readonly #withDefs = new WeakMap<Schema, Schema>();

  constructor(root: Schema, budget: CheckBudget = turnBudget()) {
    this.root = root;
    this.budget = budget;
  }

  /**
   * Takes the reading of an enum's `options` from the budget (matched against the prompt's words,
   * {@link ENUM_OPTION_STEPS} steps each), before it is read; whether any budget was left for it.
   */
  readsEnum(options: readonly JsonValue[]): boolean {
    this.budget.steps -= 1 + ENUM_OPTION_STEPS * options.length;
    return !this.budget.exhausted;
  }

  /** Whether the library's checker accepts `value` for `schema` (a part of the root, whose `$defs` it may name). */
  accepts(value: JsonValue, schema: Schema): boolean {
    if (this.budget.exhausted) return false;
    let withDefs = schema === this.root ? schema : this.#withDefs.get(schema);
    if (withDefs === undefined) {
      withDefs = { ...schema, $defs: this.root["$defs"] ?? {}, definitions: this.root["definitions"] ?? {} };
      this.#withDefs.set(schema, withDefs);
    }
    const budget = this.budget;
    return checkToolArguments(value, withDefs as ToolSchema, { assertFormats: true, budget }).length === 0;
  }

  /**
   * The schema a `$ref` names, with the siblings of the `$ref`, and `allOf`'s parts merged in;
   * `allOf`s nested deeper than {@link MAX_REFS} (a part that names the schema it is in) are
   * anything, never a recursion without end.
   */
  resolve(schema: JsonValue, depth = 0): Schema {
    if (depth > MAX_REFS) return {};
    let current: JsonValue = schema;
    for (let step = 0; step < MAX_REFS && isObject(current) && typeof current["$ref"] === "string"; step++) {
      const { $ref, ...siblings } = current;
      const target = asObject(this.pointer($ref as string));
      this.budget.steps -= 1 + ($ref as string).length + size(target) + size(siblings);
      current = { ...target, ...siblings };
    }
    const resolved = asObject(current);
    if (!Array.isArray(resolved["allOf"])) return resolved;
    const { allOf, ...rest } = resolved;
    return merge(rest, this.#parts(allOf as JsonValue[], depth), this.budget);
  }

  /**
   * An `allOf`'s parts merged, once per `allOf` of the root: parts that name one `$def` several
   * times, nested, are read once each, not once per path to them; a part that names the `allOf`
   * it is in adds nothing.
   */
  #parts(allOf: JsonValue[], depth: number): Schema {
    const known = this.#allOfs.get(allOf);
    if (known !== undefined) return known;
    this.#allOfs.set(allOf, {});
    const merged = allOf.reduce<Schema>((into, part) => merge(into, this.resolve(part, depth + 1), this.budget), {});
    this.#allOfs.set(allOf, merged);
    return merged;
  }

  /** What a local JSON Pointer (`#/$defs/address`) names in the root, or `true` (anything) when nothing. */
  pointer(ref: string): JsonValue {
    if (!ref.startsWith("#")) return true;
    let at: JsonValue = this.root;
    for (const part of ref.slice(1).split("/").slice(1)) {
      const name = decoded(part).replace(/~1/g, "/").replace(/~0/g, "~");
      if (!isObject(at) || !Object.hasOwn(at, name)) return true;
      at = at[name]!;
    }
    return at;
  }
}

/** A pointer's part with its %-escapes decoded; as it is when one is malformed (`%E0`), which names nothing then. */
function decoded(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}
