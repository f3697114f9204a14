import type { StandardJSONSchemaV1, StandardSchemaV1 } from "../shared/standard-schema.ts";
import { isRecord } from "../shared/values.ts";
import { boundIssues, MAX_ISSUES } from "./bounded-issues.ts";
import { platformTimers, type Timers } from "../shared/timers.ts";

/**
 * Reading an application's own validators (Standard Schema v1: zod 4, valibot, arktype, ...):
 * running one on final arguments, with its issues turned into readable reasons that name the
 * path, and asking one for its JSON Schema (Standard JSON Schema v1) when it can give it.
 *
 * @module
 */

/**
 * What a Standard Schema validator said of a value: its output, or readable reasons; `timeoutMs`
 * when it said nothing within that bound ({@link validateWithin}).
 */
export type StandardOutcome = { ok: true; value: unknown } | { ok: false; issues: string[]; timeoutMs?: number };

/** The bounded wait for an asynchronous validator: how long, and the timer (injected in tests). */
export interface ValidationTimeoutOptions {
  /**
   * How long an asynchronous validator may take on one call's arguments, in milliseconds; past it
   * the call is judged without it (an `invalid-tool-call` of code `validation-timeout`, or a runner's
   * `timeout` error), so a validator that never settles cannot hold the stream (`Infinity`: no limit).
   * @defaultValue 10000
   */
  validationTimeoutMs?: number | undefined;
  /** The timers behind the bound (a manual clock in tests). @defaultValue `globalThis`'s */
  timers?: Timers | undefined;
}

/**
 * Default of {@link ValidationTimeoutOptions.validationTimeoutMs}.
 * @example
 * ```ts
 * streamToolCalls(response, { provider: "openai", tools, validationTimeoutMs: DEFAULT_VALIDATION_TIMEOUT_MS * 3 });
 * ```
 */
export const DEFAULT_VALIDATION_TIMEOUT_MS: number = 10_000;

/** The longest delay platform timers honour (a longer one would fire at once). */
export const MAX_TIMER_MS: number = 2_147_483_647;

/**
 * {@link validateStandard} with a bounded wait: an asynchronous verdict that has not come within
 * `validationTimeoutMs` gives `{ ok: false, timeoutMs }` (a later verdict is ignored).
 *
 * @example
 * ```ts
 * await validateWithin(slowValidator, args, { validationTimeoutMs: 500 }); // { ok: false, issues: [...], timeoutMs: 500 }
 * ```
 */
export function validateWithin(
  schema: StandardSchemaV1,
  value: unknown,
  options: ValidationTimeoutOptions,
): StandardOutcome | Promise<StandardOutcome> {
  const outcome = validateStandard(schema, value);
  const ms = options.validationTimeoutMs ?? DEFAULT_VALIDATION_TIMEOUT_MS;
  if (!(outcome instanceof Promise) || !(ms <= MAX_TIMER_MS)) return outcome;
  const timers = options.timers ?? platformTimers;
  const set = (callback: () => void, delay: number): unknown => timers.setTimeout(callback, delay);
  const clear = (handle: unknown): void => timers.clearTimeout(handle);
  let timer: unknown;
  const expired = new Promise<StandardOutcome>(
    (resolve) =>
      (timer = set(
        () => resolve({ ok: false, issues: [`$: the validator did not settle within ${ms} ms`], timeoutMs: ms }),
        ms,
      )),
  );
  return Promise.race([outcome, expired]).finally(() => clear(timer));
}

/**
 * The JSON Schema dialect asked of a validator: draft-07 is the one every implementation of the
 * interface supports and every provider reads (OpenAI, Anthropic, Gemini, Responses).
 */
const TARGET: StandardJSONSchemaV1.Target = "draft-07";

const jsonSchemas = new WeakMap<object, Record<string, unknown> | null>();

/**
 * True for a Standard Schema v1 validator (its `~standard` has `version: 1` and a `validate`).
 *
 * @example
 * ```ts
 * isStandardSchema(z.object({ city: z.string() })); // true
 * isStandardSchema({ type: "object" }); // false
 * ```
 */
export function isStandardSchema(value: unknown): value is StandardSchemaV1 {
  const props = isObject(value) ? (value as { "~standard"?: unknown })["~standard"] : undefined;
  return (
    isObject(props) &&
    (props as { version?: unknown }).version === 1 &&
    typeof (props as { validate?: unknown }).validate === "function"
  );
}

/**
 * The JSON Schema of the values a validator accepts, when it implements Standard JSON Schema v1
 * (zod 4.2+, arktype; valibot through `toStandardJsonSchema`) and its type has one: the input
 * side (what the model must send; defaults make a property optional), in draft-07, without
 * `$schema` (which some providers reject in a tool's parameters). `undefined` otherwise, and when
 * the library cannot express the type (a transform, a `Date`). Computed once per validator.
 *
 * @example
 * ```ts
 * standardJsonSchema(z.object({ city: z.string() }));
 * // { type: "object", properties: { city: { type: "string" } }, required: ["city"] }
 * ```
 */
export function standardJsonSchema(schema: unknown): Record<string, unknown> | undefined {
  if (!isObject(schema)) return undefined;
  const known = jsonSchemas.get(schema);
  if (known !== undefined) return known ?? undefined;
  const converter = (schema as Partial<StandardJSONSchemaV1>)["~standard"]?.jsonSchema;
  let converted: Record<string, unknown> | null = null;
  if (converter && typeof converter.input === "function") {
    try {
      const { $schema: _dialect, ...rest } = converter.input({ target: TARGET });
      converted = rest;
    } catch {
      // The interface lets a library throw for a type JSON Schema cannot express: no schema then.
      converted = null;
    }
  }
  jsonSchemas.set(schema, converted);
  return converted ?? undefined;
}

/**
 * Runs a Standard Schema validator on a value: the output, or one readable reason per issue,
 * each starting with the path it concerns (`$.items[3].qty: Expected number`). A validator that
 * throws gives one reason saying so, never its error text. Synchronous when the validator is.
 *
 * @example
 * ```ts
 * validateStandard(z.object({ city: z.string() }), { city: 1 });
 * // { ok: false, issues: ["$.city: Invalid input: expected string, received number"] }
 * ```
 */
export function validateStandard(schema: StandardSchemaV1, value: unknown): StandardOutcome | Promise<StandardOutcome> {
  let result: StandardSchemaV1.Result<unknown> | Promise<StandardSchemaV1.Result<unknown>>;
  try {
    result = schema["~standard"].validate(value);
  } catch {
    return failedValidator();
  }
  // A thenable, not only this realm's Promise: a validator may come from another realm or polyfill.
  return isThenable(result) ? Promise.resolve(result).then(toOutcome, failedValidator) : toOutcome(result);
}

/**
 * An issue as a readable reason: its path in the notation of `checkToolArguments` (`$`, `.key`,
 * `[index]`, `["odd key"]`), then the validator's message.
 *
 * @example
 * ```ts
 * describeIssue({ message: "Required", path: ["items", 3, { key: "qty" }] }); // "$.items[3].qty: Required"
 * ```
 */
export function describeIssue(issue: StandardSchemaV1.Issue): string {
  let path = "$";
  for (const segment of issue.path ?? []) {
    const key = isObject(segment) ? segment.key : segment;
    if (typeof key === "number") path += `[${key}]`;
    else if (typeof key === "string" && /^[A-Za-z_$][\w$]*$/.test(key)) path += `.${key}`;
    else path += `[${JSON.stringify(String(key))}]`;
  }
  return `${path}: ${issue.message}`;
}

function toOutcome(result: StandardSchemaV1.Result<unknown>): StandardOutcome {
  if (!isRecord(result)) return failedValidator();
  if (result.issues)
    return {
      ok: false,
      // Bounded: a validator may report every item of a long array, each with its whole enum.
      issues:
        result.issues.length > 0
          ? boundIssues(result.issues.slice(0, MAX_ISSUES).map(describeIssue), result.issues.length)
          : ["$: rejected by the validator"],
    };
  return { ok: true, value: result.value };
}

function failedValidator(): StandardOutcome {
  return { ok: false, issues: ["$: the validator failed while checking the arguments"] };
}

function isThenable<T>(value: T | Promise<T>): value is Promise<T> {
  return isObject(value) && typeof (value as { then?: unknown }).then === "function";
}

function isObject(value: unknown): value is object {
  return (typeof value === "object" && value !== null) || typeof value === "function";
}
