import { isRecord } from "../shared/values.ts";
import { draftView, idKey, inDraft, legacy, own, pointerTokens, resource } from "./schema-reading.ts";
import type { StepBudget } from "./pattern/pattern-vm.ts";
import { MAX_COMPILE_STEPS, MAX_SCHEMA_DEPTH, MAX_SCHEMA_NODES } from "./schema-node.ts";
import { resolveUri } from "./uri-reference.ts";

/**
 * The identifiers a schema document declares, for the `$ref`s that are not a local JSON Pointer:
 * each resource's URI (its `$id`, draft 4's `id`, resolved as RFC 3986 says against the resource
 * around it: `resolveUri`) and each anchor (`$anchor`, `$dynamicAnchor`, draft 4 to 7's `$id: "#name"`) in its resource, as each
 * draft declares them (see {@link identifierNames}).
 *
 * @module
 */

/** What {@link resourcesOf} finds. */
export interface Resources {
  /** Each schema's resource's URI (no fragment; `undefined` for none). */
  uris: Map<unknown, string | undefined>;
  /** Each URI to its resource. */
  ids: Map<string, object>;
  /** Each URI to the anchors of its resource: each name to the resource and the schema it names. */
  anchors: Map<string, Map<string, [object, object]>>;
  /** Each `$dynamicAnchor` name (`true`: `$recursiveAnchor: true`, at a resource's root) to its resources and schemas. */
  dynamic: Map<string | true, [object, object][]>;
  /** The work of finding them: a step per schema and keyword, a step per character of each URI resolved. */
  steps: number;
  /**
   * Where each `$ref` that is no pointer leads, by the resource it is in, then its text (see
   * {@link refStart}): `checkToolSchema`'s walk and the compilation both resolve it, and parsed
   * twice a URI was a large part of a body of `$ref`s by URI.
   */
  located: Map<unknown, Map<string, Location | undefined>>;
}

/** Where a `$ref` leads: the resource, the schema it starts from, and the pointer on from there. */
type Location = readonly [object, object | undefined, string];

/**
 * The longest URI (an `$id` or a `$ref`, and what it resolves to) and anchor name read, in
 * characters: past it, none (`checkToolSchema` refuses such an `$id` or anchor name). A map keyed by
 * longer strings is slow in V8, which hashes a string past 16,383 characters by its length alone:
 * a few thousand anchors under one long `$id` took seconds to look up.
 */
export const MAX_IDENTIFIER_LENGTH = 2_048;

/** The keywords that only name anchors (`$anchor` from 2019-09, `$dynamicAnchor` in 2020-12). */
export const ANCHORS: string[] = ["$anchor", "$dynamicAnchor"];

/**
 * The identifier keywords of `schema` the document's draft has, each with the anchor name it
 * declares (`""` for none): the value of `$anchor` and `$dynamicAnchor`, the fragment of an `$id`
 * (`id` in draft 4: `#name`, or one after a URI, `a.json#name`, which draft 7 gives no meaning and
 * 2019-09 on forbid: `checkToolSchema` refuses it there). Draft 4 to 7 have no `$anchor` or
 * `$dynamicAnchor`, nor beside a `$ref` any (they ignore its siblings, as {@link resource} does).
 */
export function identifierNames(
  schema: Record<string, unknown>,
  dialect: number,
): readonly (readonly [key: string, name: string])[] {
  // Asked of every schema two or three times a check, and most have none: no list, no draft view.
  let names: [string, string][] | undefined;
  if (legacy(dialect) && typeof own(schema, "$ref") === "string") return NONE;
  for (const key of idKey(dialect) === "id" ? DRAFT4_IDENTIFIERS : IDENTIFIERS) {
    const value = own(schema, key);
    if (typeof value !== "string" || !inDraft(key, dialect)) continue;
    (names ??= []).push([key, key.endsWith("id") ? (value.split("#")[1] ?? "") : value]);
  }
  return names ?? NONE;
}

/** The identifier keywords of draft 3 to 5, and of the others. */
const DRAFT4_IDENTIFIERS = ["id", ...ANCHORS];
const IDENTIFIERS = ["$id", ...ANCHORS];
const NONE: readonly (readonly [string, string])[] = [];

/** The scheme of {@link ROOT}: a URI with it is the checks' own, which no sender wrote. */
export const ROOT_SCHEME = "tool-call-stream:";
/** The base URI of a root without an `$id` (an application's own, as JSON Schema lets it choose). */
const ROOT = "tool-call-stream:/schema";
/** Keywords whose value is a schema or a list of schemas, and those whose value is an object of schemas. */
const IN =
  "not if then else contains items prefixItems additionalItems additionalProperties propertyNames allOf anyOf oneOf unevaluatedItems unevaluatedProperties contentSchema";
const MAPS = "properties patternProperties $defs definitions dependentSchemas dependencies";
const KEYS = `${IN} ${MAPS}`.split(" ");

const found = new WeakMap<object, Resources>();

/**
 * Whether `id` holds a character no URI reference has (RFC 3986: a space, a control, `"`, `<`,
 * `>`, a backslash, `^`, a backtick, `{`, `|` or `}`): such an `$id` is refused (URL parsers
 * differed on them: Chromium's read `http://exa mple.com/`, which Node's and workerd's refused).
 *
 * @example
 * ```ts
 * notUriReference("http://exa mple.com/"); // true
 * ```
 */
export function notUriReference(id: string): boolean {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the controls are what RFC 3986 excludes.
  return /[\u0000-\u0020\u007f"<>\\^`{|}]/.test(id);
}

/**
 * The resources and anchors of a document, found once (kept per root object) in the schemas its
 * keywords hold, at most {@link MAX_SCHEMA_NODES} nested at most {@link MAX_SCHEMA_DEPTH} deep; a
 * URI's resolution costs a step per character, and the search stops past {@link MAX_COMPILE_STEPS}
 * (the compilation, charged them, then refuses the schema as too large). In draft 4 to 7 a
 * `$ref`'s siblings are not looked into, as those drafts ignore them. The first of two identical
 * identifiers is kept (`checkToolSchema` refuses two that name different schemas).
 */
export function resourcesOf(root: object, dialect: number): Resources {
  let known = found.get(root);
  if (known) return known;
  const state: Resources = {
    uris: new Map(),
    ids: new Map(),
    anchors: new Map(),
    dynamic: new Map(),
    steps: 0,
    located: new Map(),
  };
  const resolve = (uri: string, base: string | undefined): string | undefined => {
    state.steps += uri.length + (base?.length ?? 0);
    if (base === undefined || uri.length > MAX_IDENTIFIER_LENGTH || notUriReference(uri)) return undefined;
    // `undefined` for a relative reference against a URN: no URI of its own.
    const href = resolveUri(uri, base)?.[0];
    return href !== undefined && href.length > MAX_IDENTIFIER_LENGTH ? undefined : href;
  };
  let count = 0;
  const walk = (value: unknown, base: string | undefined, home: object, depth: number): void => {
    if (!isRecord(value) || state.uris.has(value) || depth > MAX_SCHEMA_DEPTH || ++count > MAX_SCHEMA_NODES) return;
    if (state.steps > MAX_COMPILE_STEPS) return;
    if (resource(value, dialect)) [base, home] = [resolve(own(value, idKey(dialect)) as string, base), value];
    if (value === home && base !== undefined && !state.ids.has(base)) state.ids.set(base, value);
    state.uris.set(value, base);
    // Draft 4 to 7 read a `$ref` alone; a keyword of another draft is none.
    const view = draftView(value, dialect);
    for (const [, name] of identifierNames(value, dialect)) {
      state.steps++;
      // Under no URI, no `$ref` resolves to it. Keyed by URI, then name: a `uri#name` key was built
      // per anchor (and per `$ref` to one), each as long as the URI.
      if (!name || name.length > MAX_IDENTIFIER_LENGTH || base === undefined) continue;
      const names = state.anchors.get(base) ?? state.anchors.set(base, new Map()).get(base)!;
      if (!names.has(name)) names.set(name, [home, value]);
    }
    // A `$dynamicAnchor` is kept by name too, wherever it is (`true`: `$recursiveAnchor: true`, at a resource's root).
    bindDynamic(state, own(view, "$dynamicAnchor"), home, value);
    if (value === home) bindDynamic(state, own(view, "$recursiveAnchor"), home, value);
    state.steps += KEYS.length;
    for (const key of KEYS) {
      // Read first, then asked whether it is its own: most are absent, and a list built for each
      // (of one `undefined`) was most of the walk's garbage.
      const kid = view[key];
      if (kid && typeof kid === "object" && Object.hasOwn(view, key))
        for (const one of Array.isArray(kid) ? kid : MAPS.includes(key) ? Object.values(kid) : [kid])
          walk(one, base, home, depth + 1);
    }
  };
  walk(root, ROOT, root, 0);
  found.set(root, (known = state));
  return known;
}

/** Keeps `schema` (in the resource `home`) under the dynamic anchor `name`, if it is one. */
function bindDynamic(state: Resources, name: unknown, home: object, schema: object): void {
  if (name === true || (typeof name === "string" && name.length <= MAX_IDENTIFIER_LENGTH))
    (state.dynamic.get(name) ?? state.dynamic.set(name, []).get(name)!).push([home, schema]);
}

/**
 * The anchor a `$dynamicRef` (`$recursiveRef`, `recursive`) resolves by the dynamic scope: the
 * name its fragment gives, percent-decoded (`true` for `$recursiveAnchor`), when `target`, where it points, has that
 * `$dynamicAnchor` (`$recursiveAnchor: true`); otherwise `undefined`: it is a `$ref`. Asked only
 * where the draft has the keyword (each has its anchor with it).
 */
export function dynamicName(ref: string, recursive: boolean, target: unknown): string | true | undefined {
  let name: string | true;
  try {
    name = recursive || decodeURIComponent(ref.split("#")[1] ?? ""); // `#it%65m` names `item`, as for a `$ref`
  } catch {
    return undefined; // no valid escape (checkToolSchema refuses it): it names no anchor
  }
  const key = name === true ? "$recursiveAnchor" : "$dynamicAnchor";
  return isRecord(target) && own(target, key) === name ? name : undefined;
}

const charged = new WeakSet<StepBudget>();

/** The document's resources, their search charged to `budget` the first time it asks. */
export function chargedResources(root: object, dialect: number, budget: StepBudget): Resources {
  const resources = resourcesOf(root, dialect);
  if (!charged.has(budget)) budget.steps -= resources.steps;
  charged.add(budget);
  return resources;
}

/**
 * Where a `$ref` leads from the resource `base` of the document `root`: the resource it lands in,
 * the schema it starts from (an anchor's, or the resource; `undefined` for an anchor the resource
 * lacks), and the JSON Pointer on from there (`#` or `#/...`, `""` when its URI is no resource of
 * the document: a remote reference). A JSON Pointer (`#`, `#/...`) is read from `base` as it is;
 * anything else finds the document's resources (their search charged to `budget` the first time
 * it asks), its URI resolved against `base`'s at a step per character.
 */
export function refStart(
  ref: string,
  root: unknown,
  dialect: number,
  base: unknown,
  budget: StepBudget,
): readonly [unknown, unknown, string] {
  if (pointerTokens(ref) || !isRecord(root)) return [base, base, ref];
  const resources = chargedResources(root, dialect, budget);
  if (budget.steps < 0) return [base, undefined, ""];
  return locate(ref, resources, base, budget) ?? [base, undefined, ""];
}

/** Where `ref` leads from `base`, charged to `budget` at each ask (the search is done once, see {@link Resources.located}). */
function locate(ref: string, resources: Resources, base: unknown, budget: StepBudget): Location | undefined {
  const from = resources.uris.get(base);
  // A fragment alone (`#name`, of characters no resolution changes) is in the base's own
  // URI: parsed, each cost the base's length (2,500 `$ref: "#a"` under a 2 KB `$id` were refused
  // as past 4,000,000 steps, some 0.3 s of checkToolSchema for 56 KB).
  const same = from !== undefined && /^#[!#-;=?-_a-~]*$/.test(ref);
  budget.steps -= ref.length + (same ? 0 : (from?.length ?? 0));
  if (ref.length > MAX_IDENTIFIER_LENGTH) return undefined;
  let known = resources.located.get(base);
  if (!known) resources.located.set(base, (known = new Map()));
  if (known.has(ref)) return known.get(ref);
  const location = search(ref, resources, from, same);
  known.set(ref, location);
  return location;
}

function search(ref: string, resources: Resources, from: string | undefined, same: boolean): Location | undefined {
  let [uri, fragment] = [from, ref.slice(1)];
  if (!same) {
    const resolved = from === undefined ? undefined : resolveUri(ref, from);
    if (!resolved) return undefined;
    [uri, fragment] = resolved;
  }
  const home = resources.ids.get(uri!);
  if (!home) return undefined;
  if (fragment === "" || fragment.startsWith("/")) return [home, home, `#${fragment}`];
  let name: string;
  try {
    name = decodeURIComponent(fragment);
  } catch {
    return [home, undefined, "#"];
  }
  const [at, schema] = resources.anchors.get(uri!)?.get(name) ?? [home, undefined];
  return [at, schema, "#"];
}
