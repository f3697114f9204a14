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

/** `dependentRequired`, `dependentSchemas`, and draft 4 to 7's `dependencies` (a list is the first, a schema the second), as `schema`'s draft has them (see {@link draftView}). */
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
 * Whether a schema has an identifier of its own (`$id`; draft 4's `id`), which makes it a resource:
 * the `$ref`s in it resolve against it (`#` is it, `#/$defs/a` its `$defs`). Draft 4 to 7's
 * `$id: "#name"` is an anchor, not one (`#` alone, an empty fragment, names the URI it resolves
 * to); in a document of draft 4 to 7 (see {@link dialectOf}) an `$id` beside a `$ref` is ignored,
 * as those drafts ignore every sibling of a `$ref`.
 */
export function resource(schema: unknown, dialect: number): boolean {
  if (!isRecord(schema)) return false;
  const id = own(schema, idKey(dialect));
  return typeof id === "string" && !/^#./.test(id) && !(legacy(dialect) && own(schema, "$ref") !== undefined);
}

/** The identifier keyword of a draft: draft 3 and 4's `id`, the others' `$id`. */
export const idKey = (dialect: number): string => (dialect > 0 && dialect < 6 ? "id" : "$id");

/**
 * The draft a schema's root declares in `$schema`: 3 to 7 (`draft-07`), 2019 (2019-09), 2020
 * (2020-12), or 0 for none. Tool schemas rarely say: none reads as 2020-12 with the forms earlier
 * drafts gave keywords 2020-12 does not define (see {@link inDraft}), and draft 4's boolean bounds.
 * Only a draft's exact metaschema URI names it (as python-jsonschema's `validator_for` and
 * Stranger6667/jsonschema's `Draft::from_url` read it): any other (another host, a `draft-99`, the
 * `https` form of draft 7's) is an unknown metaschema, read as none declared (json-schema-spec PR #1353).
 */
export function dialectOf(root: unknown): number {
  const said = isRecord(root) && own(root, "$schema");
  // The metaschemas' `$id`s (draft 3 to 7 `http`, the others `https`), an empty fragment or none.
  // There is no draft 5 metaschema: draft-05 was published with draft 4's.
  const draft =
    typeof said === "string" &&
    /^http(s?):\/\/json-schema\.org\/draft(?:-0([3467])|\/(2019-09|2020-12))\/schema#?$/.exec(said);
  return draft && !draft[1] === !draft[3] ? Number.parseInt(draft[2] ?? draft[3]!, 10) : 0;
}

/** Whether a dialect is draft 3 to 7, which ignore a `$ref`'s siblings. */
export const legacy = (dialect: number): boolean => dialect > 0 && dialect < 8;

/**
 * The keywords only some drafts have, with the first and last that have each (as {@link dialectOf}
 * numbers them): under another, one is unknown, an annotation (draft-07 core §4.3.1: "SHOULD
 * ignore"). `items` as a list of schemas is 3 to 2019 too, as `additionalItems` is.
 */
const SPANS = new Map(
  Object.entries({
    "3 5": "id",
    "6 2020": "$id const contains propertyNames examples",
    "7 2020": "if then else $comment readOnly writeOnly contentMediaType contentEncoding",
    "3 7": "dependencies",
    "3 2019": "additionalItems",
    "2019 2019": "$recursiveRef $recursiveAnchor",
    "2020 2020": "$dynamicRef $dynamicAnchor prefixItems",
    "2019 2020":
      "$anchor $vocabulary deprecated contentSchema dependentRequired dependentSchemas minContains maxContains unevaluatedItems unevaluatedProperties",
  }).flatMap(([span, keys]) => keys.split(" ").map((key) => [key, span.split(" ").map(Number)] as const)),
);

/** Whether the draft `dialect` has the keyword `key`: none declared (0) reads every draft's, draft 4's `id` aside. */
export function inDraft(key: string, dialect: number): boolean {
  if (!dialect) return key !== "id";
  const span = SPANS.get(key);
  return span === undefined || (span[0]! <= dialect && dialect <= span[1]!);
}

/**
 * The keywords of `schema` its draft reads: draft 4 to 7 read a `$ref` alone, ignoring its
 * siblings; a keyword of other drafts only is left out. With no draft declared, itself (its `id`
 * is never read as draft 4's). Itself too when its draft has all its keywords (most schemas): a
 * copy per schema, three times a check, was a large part of a declared draft's cost.
 */
export function draftView(schema: Record<string, unknown>, dialect: number): Record<string, unknown> {
  if (!dialect) return schema;
  const keys = Object.keys(schema);
  if (legacy(dialect) && typeof own(schema, "$ref") === "string")
    return keys.length === 1 ? schema : { $ref: schema["$ref"] };
  for (const key of keys)
    if (!inDraft(key, dialect))
      return Object.fromEntries(keys.filter((key) => inDraft(key, dialect)).map((key) => [key, schema[key]]));
  return schema;
}

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

/** The last reference {@link pointerTokens} read, and its keys: each `$ref` is asked of 3 to 5 times in a row. */
let lastRef = "";
let lastTokens: readonly string[] | undefined;

/** The keys a local reference (`#/$defs/a~1b`) follows from the root (`["$defs", "a/b"]`), or `undefined` when it is not one. */
export function pointerTokens(ref: string): readonly string[] | undefined {
  if (ref !== lastRef) lastTokens = tokensOf((lastRef = ref));
  return lastTokens;
}

function tokensOf(ref: string): string[] | undefined {
  if (!ref.startsWith("#")) return undefined;
  let pointer: string;
  try {
    pointer = decodeURIComponent(ref.slice(1));
  } catch {
    return undefined;
  }
  if (pointer === "") return [];
  if (!pointer.startsWith("/")) return undefined; // an anchor name: only with $anchor, which is not read
  // RFC 6901: `~` is `~0` or `~1`, anything else an error (`~2` was read as a key of that name).
  if (/~(?![01])/.test(pointer)) return undefined;
  return pointer
    .slice(1)
    .split("/")
    .map((token) => token.replace(/~1/g, "/").replace(/~0/g, "~"));
}
