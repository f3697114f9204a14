/**
 * Small readers of a JSON Schema object shared by the scripted model's argument writer: the type
 * a schema gives its value, two schemas merged as one, `$ref`s resolved in a root, and the
 * library's checker asked about a value.
 *
 * @module
 */
import { checkToolArguments, type JsonValue, type ToolSchema } from "../../../../../src/index.ts";
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

/** Two schemas as one: `properties` merged, `required` joined, any other keyword of `b` over `a`'s. */
export function merge(a: Schema, b: Schema): Schema {
  const merged: Schema = { ...a, ...b };
  if (isObject(a["properties"] ?? null) || isObject(b["properties"] ?? null))
    merged["properties"] = { ...asObject(a["properties"] ?? null), ...asObject(b["properties"] ?? null) };
  if (Array.isArray(a["required"]) || Array.isArray(b["required"]))
    merged["required"] = [...new Set([...list(a["required"]), ...list(b["required"])])];
  return merged;
}

export function isObject(value: JsonValue | undefined): value is Schema {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function asObject(value: JsonValue): Schema {
  return isObject(value) ? value : {};
}

/** Most `$ref` steps followed from one schema. */
const MAX_REFS = 16;

/** A tool's parameters, read: its `$ref`s resolved and values checked against its parts. */
export class SchemaReader {
  readonly root: Schema;
  /** Each `allOf` of the root with its parts merged ({} while they are being read). */
  readonly #allOfs = new Map<JsonValue[], Schema>();

  constructor(root: Schema) {
    this.root = root;
  }

  /** Whether the library's checker accepts `value` for `schema` (a part of the root, whose `$defs` it may name). */
  accepts(value: JsonValue, schema: Schema): boolean {
    const withDefs =
      schema === this.root
        ? schema
        : { ...schema, $defs: this.root["$defs"] ?? {}, definitions: this.root["definitions"] ?? {} };
    return checkToolArguments(value, withDefs as ToolSchema, { assertFormats: true }).length === 0;
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
      current = { ...asObject(this.pointer($ref as string)), ...siblings };
    }
    const resolved = asObject(current);
    if (!Array.isArray(resolved["allOf"])) return resolved;
    const { allOf, ...rest } = resolved;
    return merge(rest, this.#parts(allOf as JsonValue[], depth));
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
    const merged = allOf.reduce<Schema>((into, part) => merge(into, this.resolve(part, depth + 1)), {});
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
