/**
 * Readers of a parsed request body that never see `Object.prototype`: a client's keys such as
 * `__proto__`, `constructor`, `toString` or `hasOwnProperty` are the client's data, and a field
 * the client left out is absent even when `Object.prototype` has a member of that name. Every
 * request parser reads the body's fields through `own`.
 *
 * @module
 */
import { checkToolSchema } from "../../src/index.ts";
import { invalidField, type HttpError } from "../response/json-error.ts";

/** Deepest nesting of arrays and objects a request may have: more is refused before anything recurses over it. */
export const MAX_DEPTH = 64;

/** `record[key]` when `key` is one of `record`'s own keys, else `undefined` (never a member of `Object.prototype`). */
export function own<T>(record: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}

/** True for a JSON object (not `null`, not an array). */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * The path of the first array or object nested deeper than {@link MAX_DEPTH} levels in `value`
 * (as `messages[0].content[0][0]...`), or `undefined`. Walks with an explicit stack, so that a
 * body of 100,000 nested arrays is measured without recursion; each entry links to its parent,
 * and a path is only built for the value at fault.
 */
export function tooDeep(value: unknown): string | undefined {
  const stack: Step[] = [{ value, depth: 0 }];
  while (stack.length > 0) {
    const step = stack.pop()!;
    const item = step.value;
    if (typeof item !== "object" || item === null) continue;
    if (step.depth >= MAX_DEPTH) return jsonPath(pathOf(step));
    const depth = step.depth + 1;
    if (Array.isArray(item)) item.forEach((entry, key) => stack.push({ value: entry, depth, key, parent: step }));
    else
      for (const key of Object.keys(item))
        stack.push({ value: (item as Record<string, unknown>)[key], depth, key, parent: step });
  }
  return undefined;
}

interface Step {
  value: unknown;
  depth: number;
  key?: string | number;
  parent?: Step;
}

function pathOf(step: Step): (string | number)[] {
  const path: (string | number)[] = [];
  for (let at: Step | undefined = step; at?.key !== undefined; at = at.parent) path.unshift(at.key);
  return path;
}

/** The 400 for a body nested deeper than {@link MAX_DEPTH}, naming where. */
export function tooDeepError(field: string): HttpError {
  return invalidField(field, `\`${field}\` is nested more than ${MAX_DEPTH} levels deep.`);
}

/** A path as `messages[2].content`; keys that are not plain names are written as `["key"]`. */
export function jsonPath(path: readonly (string | number)[]): string {
  return path.reduce<string>((text, key) => {
    if (typeof key === "number") return `${text}[${key}]`;
    if (/^[A-Za-z_$][\w$-]{0,63}$/.test(key)) return text === "" ? key : `${text}.${key}`;
    return `${text}[${/^[\w .-]{0,64}$/.test(key) ? JSON.stringify(key) : '"…"'}]`;
  }, "");
}

/**
 * A tool's JSON Schema checked before anything uses it (`checkToolSchema`: `enum` an array,
 * `anyOf` a list of schemas, `properties` an object of schemas, numbers where numbers go, bounded
 * size and depth): a 400 naming the first field at fault by its path from `path`, as the client
 * wrote it (`tools[0].parameters.properties.city.enum`), so a schema the validators cannot read
 * never reaches them. The message names the field and says what it must be, never its value.
 *
 * @example
 * ```ts
 * checkParameters(parameters, "tools[0].parameters"); // throws a 400 for { enum: "abc" }
 * ```
 */
export function checkParameters(schema: unknown, path: string): void {
  const issues = checkToolSchema(schema, path);
  const first = issues[0];
  if (!first) return;
  const more = issues.length > 1 ? ` (and ${issues.length - 1} more problems in this schema)` : "";
  throw invalidField(first.path, `\`${first.path}\` ${first.message}${more}.`);
}
