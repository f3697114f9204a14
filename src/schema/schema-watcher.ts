import type { JsonParserListener } from "../json/json-grammar.ts";
import type { SchemaViolation } from "../shared/events.ts";
import type { JsonValue } from "../shared/json.ts";
import { MAX_CHECK_STEPS, meets } from "./check-arguments.ts";
import { type CompileOptions, compileSchema } from "./compiled-schema.ts";
import { matchesPattern, type SchemaNode } from "./schema-node.ts";
import { fits, KINDS, narrow, pointerToken } from "./watch-text.ts";
import { ANY, type Condition, cutOffs, expand, MAX_CONDITIONS } from "./watch-conditions.ts";
import { allowedFailure, codePoints, numberFailure, sameJson, stringFailure } from "./schema-keywords.ts";

/**
 * The schema checks that run while arguments stream, on an {@link IncrementalJsonParser}'s events.
 *
 * Each open value keeps the conditions it must still meet, as a small tree per schema that
 * applies to it: a check of one schema's own keywords (a leaf), all of several (`$ref`, `allOf`,
 * and a schema's own keywords beside its `anyOf`/`oneOf`), or one of several (`anyOf`, `oneOf`,
 * `nullable`). A check that fails kills its leaf; a dead leaf kills an "all" above it, and an
 * "one of" whose members are all dead; a dead top condition of a value kills the leaf of its
 * parent value that asked for it; when the top of the arguments dies, no continuation of the
 * text can match and `violation` is set, once. Every check is one the final check
 * (`checkToolArguments`) makes too, at the first event that decides it, so a value that ends up
 * valid never gets a violation. What is left to the final check: `pattern`, `format`,
 * `minLength` and `multipleOf`-like checks until their value closes (and `oneOf` matching more
 * than one, when the branches that match are decided early); `not`, `if`, `contains`,
 * `uniqueItems` and `dependentSchemas`.
 *
 * @module
 */

/** One value being read. */
interface OpenValue {
  path: string;
  first: number;
  conditions: Condition[];
  /** Arrays: items begun. */
  items: number;
  /** Objects: the keys read. */
  keys: Set<string> | undefined;
  /** Objects: the conditions and path of the member whose key was just read. */
  next: Condition[] | undefined;
  nextPath: string;
  /** Strings and keys: characters already checked, code points counted in them, and the last one's code. */
  checked: number;
  points: number;
  last: number;
  /** {@link cutOffs} when it began: a change by its close means part of it was not checked. */
  cuts: number;
}

const NONE_OF = ["", "", "Matches none of the allowed shapes (anyOf).", "Matches none of the allowed shapes (oneOf)."];

/** The early checker of one call's arguments against its tool's schema: a parser listener. */
export class SchemaWatcher implements JsonParserListener {
  /** The first violation, once no continuation can match; then it stops looking. */
  violation: SchemaViolation | undefined;
  readonly #schema: SchemaNode;
  readonly #stack: OpenValue[] = [];
  /** The patterns' work, for the whole call; once spent, the watcher stops looking (and accepts). */
  readonly #budget = { steps: MAX_CHECK_STEPS };
  #spent = false;

  /** `schema`: the tool's JSON Schema (compiled once per schema object and kept). */
  constructor(schema: unknown, options: CompileOptions = {}) {
    this.#schema = compileSchema(schema, options);
  }

  begin(first: number): void {
    if (this.violation || this.#spent) return;
    const depth = this.#stack.length;
    const parent = this.#stack[depth - 1];
    let conditions: Condition[] = [];
    let path = "";
    if (!parent) expand(this.#schema, -1, -1, 0, conditions);
    else if (parent.first === 0x5b) {
      path = `${parent.path}/${parent.items}`;
      const index = parent.items++;
      for (const [i, c] of parent.conditions.entries()) {
        const s = c.schema;
        if (!c.live || !s) continue;
        if (s.maxItems !== undefined && parent.items > s.maxItems)
          this.#kill(depth - 1, c, parent.path, `Expected at most ${s.maxItems} items.`);
        else {
          const item = s.prefixItems && index < s.prefixItems.length ? s.prefixItems[index] : s.items;
          if (item) expand(item, i, -1, 0, conditions);
        }
      }
      if (this.violation) return;
    } else [conditions, path] = [parent.next ?? [], parent.nextPath];
    if (conditions.length > MAX_CONDITIONS) {
      conditions = [];
      cutOffs.count++;
    }
    const value: OpenValue = {
      path,
      first,
      conditions,
      items: 0,
      keys: first === 0x7b ? new Set() : undefined,
      next: undefined,
      nextPath: "",
      checked: 0,
      points: 0,
      last: 0,
      cuts: cutOffs.count,
    };
    this.#stack.push(value);
    for (const c of conditions) if (c.schema && c.live && !this.violation) this.#start(depth, value, c);
  }

  key(name: string): void {
    if (this.violation || this.#spent) return;
    const depth = this.#stack.length - 1;
    const object = this.#stack[depth]!;
    this.#checkKey(depth, object, name.slice(object.checked), true);
    if (this.violation) return;
    object.checked = 0;
    object.keys!.add(name);
    object.nextPath = `${object.path}/${pointerToken(name)}`;
    const next: Condition[] = (object.next = []);
    for (const [i, c] of object.conditions.entries()) {
      const s = c.schema;
      c.names = undefined;
      if (!c.live || !s || this.violation) continue;
      if (s.maxProperties !== undefined && object.keys!.size > s.maxProperties) {
        this.#kill(depth, c, object.path, `Expected at most ${s.maxProperties} properties.`);
        continue;
      }
      if (s.propertyNames && !meets(name, s.propertyNames)) {
        this.#kill(depth, c, object.path, "A property name the schema does not allow.");
        continue;
      }
      let matched = false;
      const property = s.properties?.get(name);
      if (property) {
        matched = true;
        expand(property, i, -1, 0, next);
      }
      for (const [pattern, schema] of s.patternProperties ?? []) {
        if (!matchesPattern(pattern, name, this.#budget)) {
          if (this.#budget.steps < 0) return void (this.#spent = true);
          continue;
        }
        matched = true;
        expand(schema, i, -1, 0, next);
      }
      const extra = s.additionalProperties;
      if (matched || !extra) continue;
      if (extra.never) this.#kill(depth, c, object.path, "A property the schema does not allow.");
      else expand(extra, i, -1, 0, next);
    }
  }

  partial(added: string, isKey: boolean): void {
    if (this.violation || this.#spent) return;
    const depth = this.#stack.length - 1;
    if (isKey) this.#checkKey(depth, this.#stack[depth]!, added, false);
    else this.#checkString(depth, added, false);
  }

  end(value: JsonValue): void {
    if (this.violation || this.#spent) return;
    const depth = this.#stack.length - 1;
    const open = this.#stack[depth]!;
    // A string's end brings what no `partial` told: the rest of it (one slice per string).
    if (typeof value === "string") this.#checkString(depth, value.slice(open.checked), true);
    for (const c of open.conditions) if (c.schema && c.live && !this.violation) this.#finish(depth, open, c, value);
    if (this.#spent) return;
    if (open.cuts === cutOffs.count) this.#moreThanOne(depth, open);
    this.#stack.pop();
  }

  /** The checks a value's first character decides: its type, and whether an allowed value has that type. */
  #start(depth: number, value: OpenValue, c: Condition): void {
    const { first } = value;
    const s = c.schema!;
    if (s.never) return this.#kill(depth, c, value.path, "Expected no value here (the schema is false).");
    if (first === 0x6e && s.nullable) return void (c.schema = ANY);
    const kind = KINDS[first] ?? "number";
    if (s.types && !s.types.some((type) => type === kind || (type === "integer" && kind === "number"))) {
      return this.#kill(depth, c, value.path, `Expected ${s.types.join(" or ")}, found ${kind}.`);
    }
    const allowed = s.allowed;
    if (!allowed) return;
    if (!allowed.some((option) => fits(option, first))) return this.#kill(depth, c, value.path, allowedFailure(s)[1]);
    if (first === 0x22) c.strings = allowed.filter((option): option is string => typeof option === "string");
  }

  /** The checks a closed value decides. */
  #finish(depth: number, open: OpenValue, c: Condition, value: JsonValue): void {
    const s = c.schema!;
    const fail = (message: string, path = open.path): void => this.#kill(depth, c, path, message);
    if (typeof value === "number") {
      if (s.types && !s.types.includes("number") && !Number.isInteger(value)) return fail("Expected an integer.");
      const failure = numberFailure(value, s);
      if (failure) return fail(failure[1]);
    } else if (typeof value === "string") {
      // maxLength and enum were checked as the string streamed.
      const failure = stringFailure(value, s, this.#budget);
      if (this.#budget.steps < 0) return void (this.#spent = true);
      return failure ? fail(failure[1]) : undefined;
    } else if (open.keys) {
      const missing = s.required.find((key) => !open.keys!.has(key));
      if (missing !== undefined)
        return fail("A required property is missing.", `${open.path}/${pointerToken(missing)}`);
      for (const [key, needs] of s.dependentRequired ?? []) {
        const lacking = open.keys.has(key) ? needs.find((other) => !open.keys!.has(other)) : undefined;
        if (lacking !== undefined)
          return fail("A property another one requires is missing.", `${open.path}/${pointerToken(lacking)}`);
      }
      if (s.minProperties !== undefined && open.keys.size < s.minProperties)
        return fail(`Expected at least ${s.minProperties} properties.`);
    } else if (Array.isArray(value) && s.minItems !== undefined && value.length < s.minItems)
      return fail(`Expected at least ${s.minItems} items.`);
    if (s.allowed && !s.allowed.some((option) => sameJson(option, value))) fail(allowedFailure(s)[1]);
  }

  /** At a value's close: a `oneOf` two of whose branches are alive and all decided matches more than one. */
  #moreThanOne(depth: number, open: OpenValue): void {
    const { conditions } = open;
    // Inner groups first (a group comes before its members): a nested oneOf's verdict is known
    // before the oneOf around it counts its members.
    for (let i = conditions.length - 1; i >= 0; i--) {
      const group = conditions[i]!;
      if (group.group !== 3 || !group.live || group.left < 2 || this.violation) continue;
      let certain = 0;
      for (const member of conditions) if (member.parent === i && member.live && member.decided) certain++;
      if (certain > 1) this.#kill(depth, group, open.path, "Matches more than one of the allowed shapes (oneOf).");
    }
  }

  /** A string's length and `enum`/`const` prefix, on the characters `added` since the last check; `done` when it closed. */
  #checkString(depth: number, added: string, done: boolean): void {
    const open = this.#stack[depth]!;
    const from = open.checked;
    open.checked += added.length;
    let counted = false;
    for (const c of open.conditions) {
      if (!c.live || this.violation || !c.schema) continue;
      const max = c.schema.maxLength;
      if (max !== undefined && !counted) {
        counted = true;
        open.points = codePoints(added, open.points, open.last);
        if (added !== "") open.last = added.charCodeAt(added.length - 1);
      }
      if (max !== undefined && open.points > max)
        this.#kill(depth, c, open.path, `Expected at most ${max} characters.`);
      else if (c.strings && (c.strings = narrow(c.strings, added, from, done)).length === 0)
        this.#kill(depth, c, open.path, allowedFailure(c.schema)[1]);
    }
  }

  /** A key's characters `added` since the last check, against `additionalProperties: false` (without `patternProperties`, which is checked when the key is whole). */
  #checkKey(depth: number, object: OpenValue, added: string, done: boolean): void {
    const from = object.checked;
    object.checked += added.length;
    for (const c of object.conditions) {
      const s = c.schema;
      if (!c.live || this.violation || !s || !s.additionalProperties?.never || s.patternProperties) continue;
      c.names = narrow(c.names ?? [...(s.properties?.keys() ?? [])], added, from, done);
      if (c.names.length === 0) this.#kill(depth, c, object.path, "A property the schema does not allow.");
    }
  }

  /** A condition failed: the group above it, or the leaf of the parent value above a top one, in turn. */
  #kill(depth: number, c: Condition, path: string, message: string): void {
    if (!c.live || this.violation) return;
    c.live = false;
    const value = this.#stack[depth]!;
    if (c.parent >= 0) {
      const group = value.conditions[c.parent]!;
      if (group.group !== 1 && --group.left > 0) return;
      const why = group.group === 1 ? { path, message } : { path: value.path, message: NONE_OF[group.group]! };
      return this.#kill(depth, group, why.path, why.message);
    }
    if (depth === 0) this.violation = { code: "schema-mismatch", message, path };
    else this.#kill(depth - 1, this.#stack[depth - 1]!.conditions[c.owner]!, path, message);
  }
}
