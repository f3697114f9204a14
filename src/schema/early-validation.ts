import type { StreamErrorInfo } from "../shared/errors.ts";
import type { AbortReason, ToolCallEvent } from "../shared/events.ts";
import { IncrementalJsonParser } from "../json/incremental-json-parser.ts";
import { budgetKey, type CheckBudget, responseBudgets } from "./check-budget.ts";
import { compileSchema } from "./compiled-schema.ts";
import { SchemaWatcher } from "./schema-watcher.ts";
import { schemasByName, type ToolDefinition } from "./tool-schema.ts";

/** Options of {@link earlySchemaValidator}. */
export interface EarlyValidationOptions {
  /**
   * At a violation, end the stream there: the accumulator reports an `abort` of reason
   * `schema-violation` (the call in `discarded`) and stops reading its input, which cancels the
   * provider request, so the rest of a call that cannot be used is not generated (nor paid for).
   * @defaultValue false
   */
  abortOnViolation?: boolean | undefined;
  /**
   * Deepest nesting the checks follow (pass the accumulator's `maxDepth`); deeper arguments are
   * not checked early.
   * @defaultValue 64
   */
  maxDepth?: number | undefined;
  /**
   * Check `format` (as the final check does with the same option): pass the same value to both.
   * @defaultValue false
   */
  assertFormats?: boolean | undefined;
}

/** What the early-validation plug-in may do to the accumulator it is plugged into. */
export interface EarlyValidationTarget {
  /** Stops before the finish, as `ToolCallAccumulator.abort` does. */
  abort(reason: AbortReason, error?: StreamErrorInfo): void;
}

/**
 * The accumulator's `earlyValidation` plug-in, as {@link earlySchemaValidator} makes it: given the
 * accumulator's own output, the accumulator, and what stops its input, it returns the output the
 * accumulator then uses (the same events, with `tool-call-violation`s added).
 */
export type EarlyValidation = (
  enqueue: (event: ToolCallEvent) => void,
  accumulator: EarlyValidationTarget,
  terminate: () => void,
) => (event: ToolCallEvent) => void;

/**
 * The accumulator's `earlyValidation` plug-in for the request's tools: each call's arguments are
 * checked against its tool's JSON Schema while they stream, by an {@link IncrementalJsonParser}
 * per call (work linear in the arguments). Right after the `tool-call-delta` whose fragment makes
 * the arguments impossible to complete validly, a `tool-call-violation` is emitted (once per
 * call); the call then streams on and completes as usual, or, with `abortOnViolation`, the stream
 * ends there with an `abort` of reason `schema-violation`.
 *
 * Decided as soon as decidable: a value's type (at its first character), a string no
 * `enum`/`const` value begins with (before it closes), a key `additionalProperties: false` does
 * not allow (by its beginning), `maxLength`, `maxItems` and `maxProperties` (the moment they are
 * exceeded), `propertyNames` (when a key is whole), a number's bounds, `multipleOf` and `integer`
 * type and a string's `minLength`, `pattern` and asserted `format` (when they close), `required`,
 * `dependentRequired` and `minProperties` (when their object closes), `minItems`, and
 * `enum`/`const` of other values (when they close), at any depth (`properties`,
 * `patternProperties`, `additionalProperties`, `prefixItems`, `items`, local `$ref`s). `anyOf`,
 * `oneOf`, type lists and `nullable` keep every alternative alive until none is left (and a
 * `oneOf` two of whose branches match, when the value closes, is reported if those branches hold
 * only keywords decided early); `allOf`,
 * `$ref` and the schema's own keywords beside them must all hold. A member name its object
 * already has is a violation as soon as it is whole, wherever it is (the final check rejects it
 * too, rather than keep the last value as `JSON.parse` does), but in a tool given by a validator
 * (`{ name, schema }`), whose validator judges the value, which holds the last. A value that ends up valid never
 * gets a violation, however it is split: every check is one `checkToolArguments` makes too.
 * `unevaluatedProperties`/`unevaluatedItems` are decided early where no schema applies in place
 * beside them (as `additionalProperties`/`items`). `not`, `if`/`then`/`else`, `dependentSchemas`,
 * `uniqueItems`, `contains`, and `unevaluated*` beside `allOf`, `anyOf`, `oneOf`, `$ref` are left
 * to the final check.
 *
 * Calls without a schema, calls the provider ran itself and free-text input are not checked; nor
 * are calls that were already open when the accumulator was restored from a snapshot.
 *
 * Bounded: its work is charged to the call's budget (`CheckBudget`: 20,000 steps plus 50 per
 * character of the arguments so far, at most 2,000,000), which the final check is then granted
 * whole again (its verdict never depends on what the early check spent). When it runs out, the
 * early check stops and reports nothing (it never aborts a call it could not judge); the final
 * check still judges the call.
 *
 * @example
 * ```ts
 * import { earlySchemaValidator, toolSchemaValidator, ToolCallAccumulatorStream } from "tool-call-stream/core";
 *
 * const events = body
 *   .pipeThrough(new SSEDecoderStream())
 *   .pipeThrough(new OpenAIChatDeltaStream())
 *   .pipeThrough(new ToolCallAccumulatorStream({
 *     validator: toolSchemaValidator(tools),
 *     earlyValidator: earlySchemaValidator(tools, { abortOnViolation: true }),
 *   }));
 * for await (const event of events) if (event.type === "tool-call-violation") console.log(event.name, event.error.path);
 * ```
 */
export function earlySchemaValidator(
  tools: readonly ToolDefinition[],
  options: EarlyValidationOptions = {},
): EarlyValidation {
  const schemas = schemasByName(tools);
  // Tools whose own validator is the judge: it reads JSON.parse's value, never the text.
  const judged = new Set(tools.flatMap((tool) => ("schema" in tool ? [tool.name] : [])));
  const compile = { assertFormats: options.assertFormats };
  // Compiled here, once per request: every call of the tool then shares it.
  for (const schema of schemas.values()) compileSchema(schema, compile);
  return (enqueue, accumulator, terminate) => {
    const watched = new Map<
      number,
      { name: string; parser: IncrementalJsonParser; watcher: SchemaWatcher; budget: CheckBudget; length: number }
    >();
    const depth = options.maxDepth === undefined ? {} : { maxDepth: options.maxDepth };
    let stopped = false;
    // The call's budget, which the final check (told of this accumulator) is granted whole again.
    const budgets = responseBudgets(accumulator);
    return (event) => {
      // After the abort, the accumulator may still be completing calls in the same call stack.
      if (stopped) return;
      enqueue(event);
      if (event.type === "tool-call-start") {
        const schema = schemas.get(event.name);
        if (schema === undefined || event.providerExecuted || event.inputFormat === "text") return;
        const budget = budgets.of(budgetKey(event.index, event.choice));
        const watcher = new SchemaWatcher(schema, { ...compile, budget, repeatedNames: !judged.has(event.name) });
        watched.set(budgetKey(event.index, event.choice), {
          name: event.name,
          watcher,
          parser: new IncrementalJsonParser({ ...depth, listener: watcher }),
          budget,
          length: 0,
        });
      } else if (event.type === "tool-call-delta") {
        const call = watched.get(budgetKey(event.index, event.choice));
        if (!call) return;
        call.budget.allow((call.length += event.argumentsDelta.length));
        call.parser.feed(event.argumentsDelta);
        const error = call.watcher.violation;
        if (!error) return;
        watched.delete(budgetKey(event.index, event.choice));
        const { index, id, choice } = event;
        // The name is the start's: a delta does not carry it.
        enqueue({
          type: "tool-call-violation",
          index,
          id,
          name: call.name,
          error,
          ...(choice !== undefined ? { choice } : {}),
        });
        if (!options.abortOnViolation) return;
        accumulator.abort("schema-violation", error);
        stopped = true;
        terminate();
      } else if (event.type === "tool-call" || event.type === "invalid-tool-call")
        watched.delete(budgetKey(event.index, event.choice));
      else if (event.type === "finish" || event.type === "abort") watched.clear();
    };
  };
}
