import { member, thousands } from "./bounded-issues.ts";
import { canonicalJson } from "./check-budget.ts";
import type { StepBudget } from "./pattern/pattern-vm.ts";
import { inDraft, resource } from "./schema-reading.ts";
import {
  ANCHORS,
  identifierNames,
  MAX_IDENTIFIER_LENGTH,
  notUriReference,
  ROOT_SCHEME,
  resourcesOf,
} from "./schema-resources.ts";
import type { JsonValue } from "../shared/json.ts";
import { resolveUri } from "./uri-reference.ts";
import { isRecord } from "../shared/values.ts";

/**
 * `checkToolSchema`'s checks of a document's identifiers together, as the core specs give them:
 * "there is no way for a URI to identify more than one schema. When multiple schemas try to
 * identify as the same URI, validators SHOULD raise an error condition" (2020-12 §9.1.2, 2019-09
 * §8.2.4.5, draft-07 §8.3.1); the same anchor name twice in one resource is undefined (2020-12
 * §8.2.2, 2019-09 §8.2.3); in 2019-09 and 2020-12 "$id MUST NOT contain a non-empty fragment"
 * (2020-12 §8.2.1, 2019-09 §8.2.2); and an anchor name is a plain name (2020-12 §8.2.2, 2019-09 §8.2.3).
 *
 * @module
 */

/** The words for one past {@link MAX_IDENTIFIER_LENGTH}. */
const LONG_IDENTIFIER: string = `must be at most ${thousands(MAX_IDENTIFIER_LENGTH)} characters`;

/**
 * Whether `schema` names itself for `$ref`s (see {@link identifierNames}); each identifier too long
 * to name anything, and each `$anchor` or `$dynamicAnchor` of its draft that is no plain name
 * (see {@link anchorProblem}), is given to `refuse` with why.
 */
export function identifiers(
  schema: Record<string, unknown>,
  dialect: number,
  refuse: (key: string, message: string) => void,
): boolean {
  const keys = identifierNames(schema, dialect);
  for (const [key] of keys) if ((schema[key] as string).length > MAX_IDENTIFIER_LENGTH) refuse(key, LONG_IDENTIFIER);
  for (const key of ANCHORS) {
    const problem = Object.hasOwn(schema, key) && inDraft(key, dialect) && anchorProblem(schema[key], dialect);
    if (problem) refuse(key, problem);
  }
  return keys.length > 0;
}

/**
 * Why an anchor name is none, if it is not: 2020-12 gives `$anchor` and `$dynamicAnchor` a letter
 * or `_`, then letters, digits, `-`, `_` and `.` (core §8.2.2, meta/core's `anchorString`);
 * 2019-09 a letter, then those and `:` (§8.2.3); a schema that declares no draft, either. One past
 * {@link MAX_IDENTIFIER_LENGTH} is refused as too long already.
 */
function anchorProblem(name: unknown, dialect: number): string | false {
  if (typeof name !== "string") return "must be a string";
  if (name.length > MAX_IDENTIFIER_LENGTH) return false;
  if (
    (dialect !== 2020 && /^[A-Za-z][-A-Za-z0-9.:_]*$/.test(name)) ||
    (dialect !== 2019 && /^[A-Za-z_][-A-Za-z0-9._]*$/.test(name))
  )
    return false;
  if (dialect === 2019) return 'must be a letter, then letters, digits, "-", "_", ":" or "."';
  return `must be a letter or "_", then letters, digits, "-", "_" or "."${dialect ? "" : ' (or ":" after a first letter, as 2019-09 allows)'}`;
}

/**
 * The steps of canonical JSON (as `uniqueItems` counts them) that comparing the schemas one
 * identifier names may take, some 25 ms: equal copies of one `$id` in a 1 MB body took 120 ms
 * when they shared the walk's 4,000,000.
 */
const COMPARE_STEPS = 250_000;

/** Why an `$id` with a fragment is refused where `$schema` says 2019-09 or 2020-12. */
const FRAGMENT = "must not have a fragment (#...) under 2019-09 and later: a plain name goes in $anchor";

/**
 * Reports, for each schema `paths` holds (those with an identifier, at their first path) in the
 * document `root` of the draft `dialect`: an `$id` with a non-empty fragment where the draft
 * forbids it, and an identifier that names the URI, or the anchor in the same resource, that an
 * earlier one names, for a schema not equal to that one as JSON (two copies of one schema are one
 * schema). The comparisons share {@link COMPARE_STEPS}: one past them is no clash.
 */
export function identifierIssues(
  root: unknown,
  dialect: number,
  paths: Map<unknown, string>,
  report: (at: string, message: string) => void,
): void {
  // The first schema each URI names, and each anchor name per URI: a `uri#name` key was a string
  // built per anchor, as long as its URI (up to 2 KB).
  const named = new Map<string, First>();
  const anchors = new Map<string, Map<string, First>>();
  const budget: StepBudget = { steps: COMPARE_STEPS };
  let uris: Map<unknown, string | undefined> | undefined;
  for (const [schema, at] of paths) {
    const keys = isRecord(schema) ? identifierNames(schema, dialect) : [];
    if (keys.length === 0) continue;
    uris ??= resourcesOf(root as object, dialect).uris;
    const uri = uris.get(schema);
    for (const [key, name] of keys) {
      const isId = key.endsWith("id");
      if (isId && name && dialect > 2018) report(`${at}${member(key)}`, FRAGMENT);
      if (isId && uris.has(schema) && !uri && !readable((schema as Record<string, string>)[key]!))
        report(`${at}${member(key)}`, NO_URI);
      if (!uri) continue;
      const clash = (table: Map<string, First>, id: string, what: string): void => {
        const first = table.get(id);
        if (!first) table.set(id, [schema as object, at, undefined]);
        else if (first[0] !== schema && !same(first, schema as JsonValue, budget)) {
          // A URI under the root's base, which the checks chose (no root `$id`), is said as the `$id` gives it.
          const said = uri.startsWith(ROOT_SCHEME) ? JSON.stringify((schema as Record<string, unknown>)[key]) : uri;
          const which = what[0] === "U" ? said : JSON.stringify(name);
          report(`${at}${member(key)}`, `names the same ${what} ${first[1]}, a different schema (${which})`);
        }
      };
      // `$id: "a.json#n"` names both the resource and an anchor in it; past the search's bounds,
      // nothing. `$id: "#"` (an empty fragment alone, which 2019-09's suite counts valid) is its
      // resource's own URI again, no second schema for it (the outer one is what the URI names).
      if (isId && resource(schema, dialect) && (schema as Record<string, string>)[key]!.split("#")[0])
        clash(named, uri, "URI as");
      // A name past the bound (refused as too long) names nothing, and keys no look-up (V8 hashes
      // a string past 16,383 characters by its length alone: a few thousand took seconds).
      if (name && name.length <= MAX_IDENTIFIER_LENGTH)
        clash(anchors.get(uri) ?? anchors.set(uri, new Map()).get(uri)!, name, "anchor as");
    }
  }
}

/** Why an `$id` that is no URI reference is refused: no `$ref` reaches it or an anchor in it. */
const NO_URI = "must be a URI reference (RFC 3986) that resolves against the $ids around it";

/**
 * Whether an identifier is a URI reference (one too long is refused as such): resolved against a
 * base of a path (not a URN's, which no relative reference resolves against), so that only an
 * identifier that is no URI reference (`http://exa mple.com/`, `http://h:port/`) is refused.
 */
function readable(id: string): boolean {
  if (id.length > MAX_IDENTIFIER_LENGTH) return true;
  return !notUriReference(id) && resolveUri(id, `${ROOT_SCHEME}/schema`) !== undefined;
}

/** The first schema an identifier names, its path, and its canonical JSON once read. */
type First = [object, string, string | undefined];

/** Whether `schema` is the same JSON as the first schema named (its canonical form kept), or cannot be told apart within `budget`. */
function same(first: First, schema: JsonValue, budget: StepBudget): boolean {
  // Past the steps, no copy is read again: each would cost up to its first string or key list.
  if (budget.steps < 0) return true;
  first[2] ??= canonicalJson(first[0] as JsonValue, budget);
  const text = first[2] === undefined ? undefined : canonicalJson(schema, budget);
  return text === undefined || text === first[2];
}
