import type { SchemaViolation } from "../shared/events.ts";
import type { JsonValue } from "../shared/json.ts";
import { isRecord } from "../shared/values.ts";
import type { JsonParserListener } from "../json/json-grammar.ts";
import { codePoints, sameJson, type ToolSchema } from "./tool-schema.ts";

/**
 * The schema checks that run while arguments stream, on an {@link IncrementalJsonParser}'s events.
 *
 * Each open value keeps the schemas it may still match (its candidates: one, or one per `anyOf`
 * branch, under each candidate of its parent). A check that fails kills a candidate; a value
 * whose candidates under one parent candidate are all dead kills that one in turn; when none is
 * left for the top value, no continuation of the text can match and `violation` is set, once.
 * Every check is one the final `checkToolArguments` makes too, at the first event that decides
 * it, so a value that ends up valid never gets a violation. Keywords it does not know allow
 * anything; `patternProperties` turns off the `additionalProperties: false` check and
 * `prefixItems` (or an `items` list) the `items` check, which they loosen.
 *
 * @module
 */

/** One schema a value may still match, under one candidate of its parent (`owner`). */
interface Candidate {
  schema: Schema;
  owner: number;
  live: boolean;
  /** A string: the `enum`/`const` strings it may still become (absent when any string will do). */
  strings?: string[] | undefined;
  /** An object with `additionalProperties: false`: the property names the key being read may still become. */
  names?: string[] | undefined;
}

/** One value being read. */
interface OpenValue {
  path: string;
  first: number;
  candidates: Candidate[];
  /** Arrays: items begun. */
  items: number;
  /** Objects: the keys read. */
  keys: Set<string> | undefined;
  /** Objects: the candidates and path of the member whose key was just read. */
  next: Candidate[] | undefined;
  nextPath: string;
  /** Strings and keys: characters already checked, code points counted in them, and the last one's code. */
  checked: number;
  points: number;
  last: number;
}

type Schema = ToolSchema & Record<string, unknown>;

const ANY: Schema = {};
const NULL: Schema = { type: "null" };
const TYPES = new Set(["object", "array", "string", "number", "integer", "boolean", "null"]);
/** Most candidates one value keeps; past it, the value is not checked early (the final check still is). */
const MAX_CANDIDATES = 64;

/** The early checker of one call's arguments against its tool's schema: a parser listener. */
export class SchemaWatcher implements JsonParserListener {
  /** The first violation, once no continuation can match; then it stops looking. */
  violation: SchemaViolation | undefined;
  readonly #schema: unknown;
  readonly #stack: OpenValue[] = [];

  constructor(schema: ToolSchema) {
    this.#schema = schema;
  }

  begin(first: number): void {
    if (this.violation) return;
    const depth = this.#stack.length;
    const parent = this.#stack[depth - 1];
    let candidates: Candidate[] = [];
    let path = "";
    if (!parent) candidates = flatten(this.#schema, 0);
    else if (parent.first === 0x5b) {
      path = `${parent.path}/${parent.items++}`;
      for (const [i, c] of parent.candidates.entries()) {
        if (!c.live) continue;
        if (typeof c.schema.maxItems === "number" && parent.items > c.schema.maxItems)
          this.#kill(depth - 1, c, parent.path, `Expected at most ${c.schema.maxItems} items.`);
        else flatten(itemsOf(c.schema), i, candidates);
      }
      if (this.violation) return;
    } else [candidates, path] = [parent.next ?? [], parent.nextPath];
    if (candidates.length > MAX_CANDIDATES) candidates = [{ schema: ANY, owner: 0, live: true }];
    const value: OpenValue = {
      path,
      first,
      candidates,
      items: 0,
      keys: first === 0x7b ? new Set() : undefined,
      next: undefined,
      nextPath: "",
      checked: 0,
      points: 0,
      last: 0,
    };
    this.#stack.push(value);
    for (const c of candidates) if (!this.violation) this.#start(depth, value, c);
  }

  key(name: string): void {
    if (this.violation) return;
    const depth = this.#stack.length - 1;
    const object = this.#stack[depth]!;
    this.#checkKey(depth, object, name.slice(object.checked), true);
    if (this.violation) return;
    object.checked = 0;
    object.keys!.add(name);
    object.nextPath = `${object.path}/${pointerToken(name)}`;
    const next: Candidate[] = (object.next = []);
    for (const [i, c] of object.candidates.entries()) {
      c.names = undefined;
      if (c.live) flatten(propertyOf(c.schema, name), i, next);
    }
  }

  partial(added: string, isKey: boolean): void {
    if (this.violation) return;
    const depth = this.#stack.length - 1;
    if (isKey) this.#checkKey(depth, this.#stack[depth]!, added, false);
    else this.#checkString(depth, added, false);
  }

  end(value: JsonValue): void {
    if (this.violation) return;
    const depth = this.#stack.length - 1;
    const open = this.#stack[depth]!;
    // A string's end brings what no `partial` told: the rest of it (one slice per string).
    if (typeof value === "string") this.#checkString(depth, value.slice(open.checked), true);
    else for (const c of open.candidates) if (c.live && !this.violation) this.#finish(depth, open, c, value);
    this.#stack.pop();
  }

  /** The checks a value's first character decides: its type, and whether an allowed value has that type. */
  #start(depth: number, value: OpenValue, c: Candidate): void {
    const { first } = value;
    if (first === 0x6e && c.schema.nullable === true) return void (c.schema = ANY);
    const kind = KINDS[first] ?? "number";
    const types = typesOf(c.schema);
    if (types && !types.some((type) => type === kind || (type === "integer" && kind === "number"))) {
      return this.#kill(depth, c, value.path, `Expected ${types.join(" or ")}, found ${kind}.`);
    }
    const allowed = allowedOf(c.schema);
    if (!allowed) return;
    if (!allowed.some((option) => fits(option, first)))
      return this.#kill(depth, c, value.path, allowedMessage(c.schema));
    if (first === 0x22) c.strings = allowed.filter((option): option is string => typeof option === "string");
  }

  /** The checks a closed number, literal, object or array decides. */
  #finish(depth: number, open: OpenValue, c: Candidate, value: JsonValue): void {
    const s = c.schema;
    const fail = (message: string, path = open.path): void => this.#kill(depth, c, path, message);
    if (typeof value === "number") {
      const types = typesOf(s);
      if (types && !types.includes("number") && !Number.isInteger(value)) return fail("Expected an integer.");
      if (typeof s.minimum === "number" && value < s.minimum) return fail(`Expected at least ${s.minimum}.`);
      if (typeof s.maximum === "number" && value > s.maximum) return fail(`Expected at most ${s.maximum}.`);
    } else if (open.keys) {
      const missing = Array.isArray(s.required)
        ? s.required.find((key) => typeof key === "string" && !open.keys!.has(key))
        : undefined;
      if (missing !== undefined)
        return fail("A required property is missing.", `${open.path}/${pointerToken(missing)}`);
    } else if (Array.isArray(value) && typeof s.minItems === "number" && value.length < s.minItems)
      return fail(`Expected at least ${s.minItems} items.`);
    const allowed = allowedOf(s);
    if (allowed && !allowed.some((option) => sameJson(option, value))) fail(allowedMessage(s));
  }

  /** A string's length and `enum`/`const` prefix, on the characters `added` since the last check; `done` when it closed. */
  #checkString(depth: number, added: string, done: boolean): void {
    const open = this.#stack[depth]!;
    const from = open.checked;
    open.checked += added.length;
    let counted = false;
    for (const c of open.candidates) {
      if (!c.live || this.violation) continue;
      const max = c.schema.maxLength;
      if (typeof max === "number" && !counted) {
        counted = true;
        open.points = codePoints(added, open.points, open.last);
        if (added !== "") open.last = added.charCodeAt(added.length - 1);
      }
      if (typeof max === "number" && open.points > max)
        this.#kill(depth, c, open.path, `Expected at most ${max} characters.`);
      else if (c.strings && (c.strings = narrow(c.strings, added, from, done)).length === 0)
        this.#kill(depth, c, open.path, allowedMessage(c.schema));
    }
  }

  /** A key's characters `added` since the last check, against `additionalProperties: false`. */
  #checkKey(depth: number, object: OpenValue, added: string, done: boolean): void {
    const from = object.checked;
    object.checked += added.length;
    for (const c of object.candidates) {
      if (
        !c.live ||
        this.violation ||
        c.schema.additionalProperties !== false ||
        c.schema.patternProperties !== undefined
      )
        continue;
      c.names = narrow(
        c.names ?? Object.keys(isRecord(c.schema.properties) ? c.schema.properties : {}),
        added,
        from,
        done,
      );
      if (c.names.length === 0) this.#kill(depth, c, object.path, "A property the schema does not allow.");
    }
  }

  /** A candidate failed: its owner fails when it has no candidate left in this value, up to the top. */
  #kill(depth: number, c: Candidate, path: string, message: string): void {
    if (!c.live || this.violation) return;
    c.live = false;
    // Counted only here, on the way to a violation: nothing is kept per owner on the common path.
    const value = this.#stack[depth]!;
    const siblings = value.candidates.filter((other) => other.owner === c.owner);
    if (siblings.some((other) => other.live)) return;
    const why =
      siblings.length > 1
        ? { path: value.path, message: "Matches none of the allowed shapes (anyOf)." }
        : { path, message };
    if (depth === 0) this.violation = { code: "schema-mismatch", message: why.message, path: why.path };
    else this.#kill(depth - 1, this.#stack[depth - 1]!.candidates[c.owner]!, why.path, why.message);
  }
}

const KINDS: Record<number, string> = {
  123: "object",
  91: "array",
  34: "string",
  116: "boolean",
  102: "boolean",
  110: "null",
};

/** A schema's alternatives: its `anyOf` branches (and `null` when it is `nullable`), or itself. */
function flatten(schema: unknown, owner: number, out: Candidate[] = []): Candidate[] {
  if (!isRecord(schema)) out.push({ schema: ANY, owner, live: true });
  else if (Array.isArray(schema["anyOf"]) && schema["anyOf"].length > 0) {
    if (schema["nullable"] === true) out.push({ schema: NULL, owner, live: true });
    for (const branch of schema["anyOf"]) flatten(branch, owner, out);
  } else out.push({ schema: schema as Schema, owner, live: true });
  return out;
}

/** The `type` list, or `undefined` when absent or naming a type it does not know (then not checked). */
function typesOf(schema: Schema): string[] | undefined {
  const type: unknown = schema.type;
  const types = typeof type === "string" ? [type] : Array.isArray(type) ? type : undefined;
  return types?.every((name) => TYPES.has(name)) ? types : undefined;
}

/** The values `enum` and `const` together allow, or `undefined` when they do not restrict. */
function allowedOf(schema: Schema): JsonValue[] | undefined {
  const list = Array.isArray(schema.enum) ? schema.enum : undefined;
  if (schema.const === undefined) return list;
  const only = schema.const;
  return (list ?? [only]).filter((option) => sameJson(option, only));
}

function allowedMessage(schema: Schema): string {
  const list = Array.isArray(schema.enum) ? schema.enum : [schema.const];
  const shown = list
    .slice(0, 10)
    .map((option) => JSON.stringify(option))
    .join(", ");
  return list.length === 1 ? `Expected ${shown}.` : `Expected one of ${shown}${list.length > 10 ? ", ..." : ""}.`;
}

/** Whether a value that begins with `first` can be `option`. */
function fits(option: JsonValue, first: number): boolean {
  if (first === 0x7b) return isRecord(option);
  if (first === 0x5b) return Array.isArray(option);
  if (first === 0x22) return typeof option === "string";
  if (first === 0x74 || first === 0x66) return option === (first === 0x74);
  if (first === 0x6e) return option === null;
  return typeof option === "number";
}

/** The strings of `options` that still begin with the text checked so far followed by `added` (that equal it, when `done`). */
function narrow(options: string[], added: string, from: number, done: boolean): string[] {
  const length = from + added.length;
  return options.filter(
    (option) => (done ? option.length === length : option.length >= length) && option.startsWith(added, from),
  );
}

/** A key as a JSON Pointer token (RFC 6901): `~` and `/` escaped. */
function pointerToken(key: string): string {
  return key.replace(/~/g, "~0").replace(/\//g, "~1");
}

function itemsOf(schema: Schema): unknown {
  return schema.prefixItems === undefined && isRecord(schema.items) ? schema.items : ANY;
}

function propertyOf(schema: Schema, name: string): unknown {
  const properties = schema.properties;
  if (isRecord(properties) && Object.hasOwn(properties, name)) return properties[name];
  return schema.patternProperties === undefined && isRecord(schema.additionalProperties)
    ? schema.additionalProperties
    : ANY;
}
