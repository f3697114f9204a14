import type { JsonParserListener } from "../json/json-grammar.ts";
import type { SchemaViolation } from "../shared/events.ts";
import type { JsonValue } from "../shared/json.ts";
import { isAllowed, kindBit, sortedStrings } from "./allowed-values.ts";
import { meets } from "./check-arguments.ts";
import { CheckBudget } from "./check-budget.ts";
import { type CompileOptions, compileSchema } from "./compiled-schema.ts";
import { matchesPattern, propertyKeys, type SchemaNode } from "./schema-node.ts";
import { KINDS, narrow, pointerToken } from "./watch-text.ts";
import { ANY, type Condition, expand, MAX_CONDITIONS, type OpenValue } from "./watch-conditions.ts";
import { allowedFailure, codePoints, numberFailure, numberTypeFailure, stringFailure } from "./schema-keywords.ts";
import { propertyOf } from "./text-keys.ts";

/**
 * The schema checks that run while arguments stream, on an {@link IncrementalJsonParser}'s events.
 *
 * Each open value keeps the conditions it must still meet, as a small tree per schema that
 * applies to it: a check of one schema's own keywords (a leaf), all of several (`$ref`, `allOf`,
 * and a schema's own keywords beside its `anyOf`/`oneOf`), or one of several (`anyOf`, `oneOf`,
 * `nullable`). A check that fails kills its leaf; a dead leaf kills an "all" above it, and an
 * "one of" whose members are all dead; a dead top condition of a value kills the leaf of its
 * parent value that asked for it; when the top of the arguments dies, no continuation of the text
 * can match and `violation` is set, once. Every check is one the final check (`checkToolArguments`)
 * makes too, at the first event that decides it, so a value that ends up valid never gets a
 * violation. A member name its object already has is a violation wherever it is (the final check,
 * told the text, reports it too: `JSON.parse` keeps the last value, this check read the first).
 * Left to the final check: `pattern`, `format`, `minLength` and `multipleOf`-like checks until
 * their value closes (and `oneOf` matching more than one, when the branches that match are decided
 * early); `not`, `if`, `contains`, `uniqueItems`, `dependentSchemas`, and `unevaluated*` beside
 * schemas in place (without them, the compiled schema holds them as `additionalProperties`/`items`).
 *
 * Its work is charged to the call's budget ({@link CheckBudget}): a step per condition made, per
 * schema applied to a key, per character a pattern reads or an `enum` comparison looks at. When
 * the budget runs out it stops checking and never reports a violation: the final check, granted
 * the call's budget whole again, still judges the arguments.
 *
 * @module
 */

const NONE_OF = ["", "", "Matches none of the allowed shapes (anyOf).", "Matches none of the allowed shapes (oneOf)."];

/** Options of {@link SchemaWatcher}: how the schema is compiled, and the call's budget. */
export interface SchemaWatcherOptions extends CompileOptions {
  /** The call's work budget, grown by the caller as the arguments arrive (`allow`); by default, the most a call may have. */
  budget?: CheckBudget | undefined;
  /** `false`: a repeated member name is no violation (a tool's own validator judges its value, which holds the last). @defaultValue true */
  repeatedNames?: boolean | undefined;
}

/** The early checker of one call's arguments against its tool's schema: a parser listener. */
export class SchemaWatcher implements JsonParserListener {
  /** The first violation, once no continuation can match; then it stops looking. */
  violation: SchemaViolation | undefined;
  readonly #schema: SchemaNode;
  readonly #stack: OpenValue[] = [];
  readonly #budget: CheckBudget;
  readonly #repeated: boolean;
  readonly #cutOffs = { count: 0 }; // its own count of cut conditions (see `CutOffs`)

  /** `schema`: the tool's JSON Schema (compiled once per schema object and kept). */
  constructor(schema: unknown, options: SchemaWatcherOptions = {}) {
    this.#schema = compileSchema(schema, options);
    this.#budget = options.budget ?? new CheckBudget(Number.POSITIVE_INFINITY);
    this.#repeated = options.repeatedNames !== false;
  }

  /** Whether it stopped looking: a violation was found, or the budget ran out. */
  get #stopped(): boolean {
    return this.violation !== undefined || this.#budget.steps < 0;
  }

  begin(first: number): void {
    if (this.#stopped) return;
    const budget = this.#budget;
    const depth = this.#stack.length;
    const parent = this.#stack[depth - 1];
    let conditions: Condition[] = [];
    let path = "";
    if (!parent) expand(this.#schema, -1, -1, 0, conditions, budget, this.#cutOffs);
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
          if (item) expand(item, i, -1, 0, conditions, budget, this.#cutOffs);
        }
      }
      if (this.#stopped) return;
    } else [conditions, path] = [parent.next ?? [], parent.nextPath];
    if (conditions.length > MAX_CONDITIONS) {
      conditions = [];
      this.#cutOffs.count++;
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
      cuts: this.#cutOffs.count,
    };
    this.#stack.push(value);
    for (const c of conditions) if (c.schema && c.live && !this.#stopped) this.#start(depth, value, c);
  }

  key(name: string): void {
    if (this.#stopped) return;
    const budget = this.#budget;
    const depth = this.#stack.length - 1;
    const object = this.#stack[depth]!;
    this.#checkKey(depth, object, name.slice(object.checked), true);
    if (this.#stopped) return;
    object.checked = 0;
    object.nextPath = `${object.path}/${pointerToken(name)}`;
    // Wherever it is, schema or none: the final check reads the last value, this the first.
    if (this.#repeated && object.keys!.has(name)) {
      this.violation = {
        code: "schema-mismatch",
        message: "A property name its object already has.",
        path: object.nextPath,
      };
      return;
    }
    object.keys!.add(name);
    const next: Condition[] = (object.next = []);
    for (const [i, c] of object.conditions.entries()) {
      const s = c.schema;
      c.names = undefined;
      if (!c.live || !s || this.#stopped) continue;
      if (s.maxProperties !== undefined && object.keys!.size > s.maxProperties) {
        this.#kill(depth, c, object.path, `Expected at most ${s.maxProperties} properties.`);
        continue;
      }
      if (s.propertyNames && !meets(name, s.propertyNames, budget)) {
        this.#kill(depth, c, object.path, "A property name the schema does not allow.");
        continue;
      }
      let matched = false;
      const property = s.properties && propertyOf(s.properties, name, budget);
      if (property) {
        matched = true;
        expand(property, i, -1, 0, next, budget, this.#cutOffs);
      }
      for (const [pattern, schema] of s.patternProperties ?? []) {
        if (!matchesPattern(pattern, name, budget)) continue;
        matched = true;
        expand(schema, i, -1, 0, next, budget, this.#cutOffs);
      }
      const extra = s.additionalProperties;
      if (matched || !extra) continue;
      if (extra.never) this.#kill(depth, c, object.path, "A property the schema does not allow.");
      else expand(extra, i, -1, 0, next, budget, this.#cutOffs);
    }
  }

  partial(added: string, isKey: boolean): void {
    if (this.#stopped) return;
    const depth = this.#stack.length - 1;
    if (isKey) this.#checkKey(depth, this.#stack[depth]!, added, false);
    else this.#checkString(depth, added, false);
  }

  end(value: JsonValue): void {
    if (this.#stopped) return;
    const depth = this.#stack.length - 1;
    const open = this.#stack[depth]!;
    // A string's end brings what no `partial` told: the rest of it (one slice per string).
    if (typeof value === "string") this.#checkString(depth, value.slice(open.checked), true);
    for (const c of open.conditions) if (c.schema && c.live && !this.#stopped) this.#finish(depth, open, c, value);
    if (open.cuts === this.#cutOffs.count) this.#moreThanOne(depth, open);
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
    const allowed = s.allowedValues;
    if (!allowed) return;
    if (!(allowed.kinds & kindBit(first))) return this.#kill(depth, c, value.path, allowedFailure(s)[1]);
    if (first === 0x22) c.strings = { lo: 0, hi: sortedStrings(allowed).length };
  }

  /** The checks a closed value decides. */
  #finish(depth: number, open: OpenValue, c: Condition, value: JsonValue): void {
    const s = c.schema!;
    const fail = (message: string, path = open.path): void => this.#kill(depth, c, path, message);
    if (typeof value === "number") {
      const failure = numberTypeFailure(value, s) ?? numberFailure(value, s, this.#budget)?.[1];
      if (failure) return fail(failure);
    } else if (typeof value === "string") {
      // maxLength and enum were checked as the string streamed.
      const failure = stringFailure(value, s, this.#budget);
      return failure ? fail(failure[1]) : undefined;
    } else if (open.keys) {
      this.#budget.steps -= s.required.length + (s.dependentRequired?.length ?? 0);
      const missing = s.required.find((key) => !open.keys!.has(key));
      if (missing !== undefined)
        return fail("A required property is missing.", `${open.path}/${pointerToken(missing)}`);
      for (const [key, needs] of s.dependentRequired ?? []) {
        this.#budget.steps -= needs.length;
        const lacking = open.keys.has(key) ? needs.find((other) => !open.keys!.has(other)) : undefined;
        if (lacking !== undefined)
          return fail("A property another one requires is missing.", `${open.path}/${pointerToken(lacking)}`);
      }
      if (s.minProperties !== undefined && open.keys.size < s.minProperties)
        return fail(`Expected at least ${s.minProperties} properties.`);
    } else if (Array.isArray(value) && s.minItems !== undefined && value.length < s.minItems)
      return fail(`Expected at least ${s.minItems} items.`);
    if (s.allowedValues && isAllowed(s.allowedValues, value, this.#budget) === false) fail(allowedFailure(s)[1]);
  }

  /** At a value's close: a `oneOf` two of whose branches are alive and all decided matches more than one. */
  #moreThanOne(depth: number, open: OpenValue): void {
    const { conditions } = open;
    if (!conditions.some((c) => c.group === 3)) return;
    // Inner groups first (a group comes before its members, so backwards): a nested oneOf's
    // verdict is known before the oneOf around it counts its members, and a member's liveness is
    // settled by the time it is counted (a kill only reaches groups before it). One pass.
    const certain: number[] = new Array(conditions.length).fill(0);
    for (let i = conditions.length - 1; i >= 0 && !this.#stopped; i--) {
      const c = conditions[i]!;
      if (c.group === 3 && c.live && c.left >= 2 && certain[i]! > 1)
        this.#kill(depth, c, open.path, "Matches more than one of the allowed shapes (oneOf).");
      if (c.live && c.decided && c.parent >= 0) certain[c.parent]!++;
    }
  }

  /** A string's length and `enum`/`const` prefix, on the characters `added` since the last check; `done` when it closed. */
  #checkString(depth: number, added: string, done: boolean): void {
    const open = this.#stack[depth]!;
    const from = open.checked;
    open.checked += added.length;
    let counted = false;
    const budget = this.#budget;
    budget.steps--;
    for (const c of open.conditions) {
      if (!c.live || this.#stopped || !c.schema) continue;
      const max = c.schema.maxLength;
      if (max !== undefined && !counted) {
        counted = true;
        open.points = codePoints(added, open.points, open.last, budget);
        if (added !== "") open.last = added.charCodeAt(added.length - 1);
      }
      if (max !== undefined && open.points > max)
        this.#kill(depth, c, open.path, `Expected at most ${max} characters.`);
      else if (c.strings) {
        narrow(sortedStrings(c.schema.allowedValues!), c.strings, added, from, done, budget);
        if (c.strings.lo >= c.strings.hi) this.#kill(depth, c, open.path, allowedFailure(c.schema)[1]);
      }
    }
  }

  /** A key's characters `added` since the last check, against `additionalProperties: false` (without `patternProperties`, which is checked when the key is whole). */
  #checkKey(depth: number, object: OpenValue, added: string, done: boolean): void {
    const from = object.checked;
    object.checked += added.length;
    this.#budget.steps--;
    for (const c of object.conditions) {
      const s = c.schema;
      if (!c.live || this.#stopped || !s || !s.additionalProperties?.never || s.patternProperties) continue;
      const names = propertyKeys(s);
      c.names ??= { lo: 0, hi: names.length };
      narrow(names, c.names, added, from, done, this.#budget);
      if (c.names.lo >= c.names.hi) this.#kill(depth, c, object.path, "A property the schema does not allow.");
    }
  }

  /** A condition failed: the group above it, or the leaf of the parent value above a top one, in turn. */
  #kill(depth: number, c: Condition, path: string, message: string): void {
    // Past the budget, a check may have failed for want of steps: nothing is reported.
    if (!c.live || this.#stopped) return;
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
