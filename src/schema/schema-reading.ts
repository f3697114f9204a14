import { isRecord } from "../shared/values.ts";
import type { SchemaNode } from "./schema-node.ts";

/**
 * How the compilation reads a schema's keywords: own keys only, counts and finite numbers of the
 * right shape, the dependency keywords of 2020-12 and draft 7, and local `$ref` pointers.
 *
 * @module
 */

/** `schema[key]` when it is an own key (a schema's `__proto__` or `constructor` is data, not the prototype's). */
export function own(schema: Record<string, unknown>, key: string): unknown {
  return Object.hasOwn(schema, key) ? schema[key] : undefined;
}

/** A count (`minLength`, `maxItems`, ...): a finite number at least 0, rounded down; otherwise `undefined`. */
export function count(value: unknown): number | undefined {
  return typeof value === "number" && Number.isFinite(value) && value >= 0 ? Math.floor(value) : undefined;
}

/** A finite number, or `undefined`. */
export function finite(value: unknown): number | undefined {
  return typeof value === "number" && Number.isFinite(value) ? value : undefined;
}

/** `dependentRequired`, `dependentSchemas`, and draft 7's `dependencies` (a list is the first, a schema the second). */
export function readDependencies(
  schema: Record<string, unknown>,
  node: SchemaNode,
  child: (value: unknown) => SchemaNode,
  strings: (value: unknown[]) => string[],
): void {
  const required: [string, string[]][] = [];
  const schemas: [string, SchemaNode][] = [];
  const read = (table: unknown, lists: boolean, schemasToo: boolean): void => {
    if (!isRecord(table)) return;
    for (const key of Object.keys(table)) {
      const value = table[key];
      if (Array.isArray(value) && lists) required.push([key, strings(value)]);
      else if (schemasToo && (isRecord(value) || typeof value === "boolean")) schemas.push([key, child(value)]);
    }
  };
  read(own(schema, "dependentRequired"), true, false);
  read(own(schema, "dependentSchemas"), false, true);
  read(own(schema, "dependencies"), true, true);
  if (required.length > 0) node.dependentRequired = required;
  if (schemas.length > 0) node.dependentSchemas = schemas;
}

/**
 * Whether a schema has an `$id` of its own, which makes it a resource: the `$ref`s in it resolve
 * against it (`#` is it, `#/$defs/a` its `$defs`). Draft 7's `$id: "#name"` is an anchor, not one
 * (`#` alone, an empty fragment, names the URI it resolves to); in a document of draft 4 to 7 (see
 * {@link dialectOf}) an `$id` beside a `$ref` is ignored, as those drafts ignore every sibling of a `$ref`.
 */
export function resource(schema: unknown, dialect: number): boolean {
  if (!isRecord(schema)) return false;
  const id = own(schema, "$id");
  return typeof id === "string" && !/^#./.test(id) && !(legacy(dialect) && own(schema, "$ref") !== undefined);
}

/**
 * The draft a schema's root declares in `$schema`: 3 to 7 (`draft-07`), 2020 (2019-09 or 2020-12),
 * or 0 for none (tool schemas rarely say: read as 2020-12, with draft 4's boolean bounds).
 */
export function dialectOf(root: unknown): number {
  const said = isRecord(root) && own(root, "$schema");
  const draft = typeof said === "string" && /json-schema\.org\/draft(?:-0([3-7])\/|\/20(?:19-09|20-12)\/)/.exec(said);
  return draft ? Number(draft[1] ?? 2020) : 0;
}

/** Whether a dialect is draft 3 to 7, which ignore a `$ref`'s siblings. */
export const legacy = (dialect: number): boolean => dialect % 2020 > 0;

/** The value a local reference points to, or `undefined`; `passed` is given each value on the way, the target too. */
export function pointerTarget(root: unknown, ref: string, passed?: (at: unknown) => void): unknown {
  const tokens = pointerTokens(ref);
  if (tokens === undefined) return undefined;
  let at: unknown = root;
  for (const key of tokens) {
    if (Array.isArray(at) && /^(0|[1-9][0-9]*)$/.test(key)) at = at[Number(key)];
    else if (isRecord(at) && Object.hasOwn(at, key)) at = at[key];
    else return undefined;
    passed?.(at);
  }
  return at;
}

/** The keys a local reference (`#/$defs/a~1b`) follows from the root (`["$defs", "a/b"]`), or `undefined` when it is not one. */
export function pointerTokens(ref: string): string[] | undefined {
  if (!ref.startsWith("#")) return undefined;
  let pointer: string;
  try {
    pointer = decodeURIComponent(ref.slice(1));
  } catch {
    return undefined;
  }
  if (pointer === "") return [];
  if (!pointer.startsWith("/")) return undefined; // an anchor name: only with $anchor, which is not read
  return pointer
    .slice(1)
    .split("/")
    .map((token) => token.replace(/~1/g, "/").replace(/~0/g, "~"));
}
