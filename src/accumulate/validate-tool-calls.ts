import {
  isStandardSchema,
  validateWithin,
  type StandardOutcome,
  type ValidationTimeoutOptions,
} from "../schema/standard-schema.ts";
import type { ToolDefinition } from "../schema/tool-schema.ts";
import type {
  AbortEvent,
  CompletedToolCallEvent,
  DiscardedToolCall,
  FinishEvent,
  InvalidToolCall,
  ToolCall,
  ToolCallEvent,
} from "../shared/events.ts";
import { callKey } from "../shared/call-key.ts";
import type { JsonValue } from "../shared/json.ts";
import type { StandardSchemaV1 } from "../shared/standard-schema.ts";
import { withChoice } from "../shared/values.ts";
import { eventStep, type EventSink, type EventStep } from "./event-step.ts";

/**
 * The validator each `tool-call` event this step made was validated with: a `ToolRunner` given
 * the same validator does not validate the output again (a transform would apply twice). Not
 * exported by the package.
 */
export const validatedWith: WeakMap<object, StandardSchemaV1> = new WeakMap();

/**
 * The step that validates each call of a tool given by a validator (`{ name, schema }`, any
 * Standard Schema v1: zod 4, valibot, arktype, ...) with it: the `tool-call` event then carries the
 * validator's output as `arguments` (defaults, coercions and transforms applied; `rawArguments`
 * keeps the text as the model sent it), and a call it rejects becomes an `invalid-tool-call` of
 * code `schema-mismatch` whose `issues` give each problem with its path (`$.items[3].qty: ...`).
 * The `finish` event's lists agree. Other tools' calls pass unchanged (their JSON Schemas are
 * the `validate` plug-in's, {@link toolSchemaValidator}), as do calls the provider ran itself and
 * free-text input. `streamToolCalls` does this for the validators in its `tools` option.
 *
 * A validator may be asynchronous: its call's event then waits for it, and every event after
 * it waits too, so the order never changes (the accumulator stage reads no more input
 * meanwhile). Calls completing together (at a finish) are validated at the same time. An
 * `abort` is passed on at once: a call whose validation has not settled then is listed in its
 * `discarded`, never delivered. The wait is bounded (`validationTimeoutMs` of `options`, 10 s
 * by default): a validator that has not settled by then makes its call an `invalid-tool-call` of
 * code `validation-timeout`, and the stream goes on.
 *
 * @example
 * ```ts
 * import { z } from "zod";
 *
 * const tools = [{ name: "get_weather", schema: z.object({ city: z.string(), unit: z.enum(["c", "f"]).default("c") }) }];
 * const events = deltas.pipeThrough(new ToolCallAccumulatorStream({ validator: toolSchemaValidator(tools), output: [validateToolCalls(tools)] }));
 * for await (const event of events) if (event.type === "tool-call") console.log(event.arguments); // { city: "Paris", unit: "c" }
 * ```
 */
export function validateToolCalls(tools: readonly ToolDefinition[], options: ValidationTimeoutOptions = {}): EventStep {
  const validators = new Map<string, StandardSchemaV1>();
  for (const tool of tools)
    if ("schema" in tool && isStandardSchema(tool.schema)) validators.set(tool.name, tool.schema);
  return eventStep((next) => new ToolCallValidation(next, validators, options).push);
}

/** A call's verdict: its output, or why it was rejected. */
type Verdict = StandardOutcome & { schema: StandardSchemaV1 };

/** An event on hold: ready once its validation settled (`make` then builds what goes out). */
interface Held {
  make: () => ToolCallEvent;
  ready: boolean;
  /** The call whose validation it waits for, to list as discarded if the stream aborts first. */
  call?: CompletedToolCallEvent;
  /** The finish: an abort that comes while it is held replaces it. */
  finish?: true;
}

/** The validation step's state: verdicts by call, and the events held behind an unsettled one. */
class ToolCallValidation {
  readonly #next: (event: ToolCallEvent) => void;
  readonly #validators: ReadonlyMap<string, StandardSchemaV1>;
  readonly #wait: ValidationTimeoutOptions;
  readonly #verdicts = new Map<string, Verdict>();
  /** Calls whose validation has started and not settled. */
  readonly #judging = new Set<string>();
  readonly #held: Held[] = [];
  /** Settles once nothing is held (and what was passed on has been taken). */
  #idle: { promise: Promise<void>; resolve: () => void } | undefined;
  /** What `next` said of the last event passed on while releasing (a later step's hold). */
  #after: PromiseLike<void> | void = undefined;
  #stopped = false;

  constructor(
    next: (event: ToolCallEvent) => void,
    validators: ReadonlyMap<string, StandardSchemaV1>,
    wait: ValidationTimeoutOptions,
  ) {
    this.#next = next;
    this.#validators = validators;
    this.#wait = wait;
  }

  readonly push: EventSink = (event) => {
    if (this.#stopped) return this.#next(event);
    if (event.type === "tool-call") return this.#call(event);
    if (event.type === "finish") return this.#finish(event);
    if (event.type === "abort") return this.#abort(event);
    return this.#pass(() => event);
  };

  #call(event: CompletedToolCallEvent): PromiseLike<void> | void {
    const schema =
      event.providerExecuted || event.inputFormat === "text" ? undefined : this.#validators.get(event.name);
    if (!schema) return this.#pass(() => event);
    const outcome = validateWithin(schema, event.arguments, this.#wait);
    if (!(outcome instanceof Promise)) {
      this.#verdicts.set(callKey(event), { ...outcome, schema });
      return this.#pass(() => judged(event, this.#verdicts.get(callKey(event))!));
    }
    const held: Held = { make: () => judged(event, this.#verdicts.get(callKey(event))!), ready: false, call: event };
    this.#hold(held);
    this.#judging.add(callKey(event));
    outcome
      .then((settled) => {
        if (this.#stopped) return;
        this.#judging.delete(callKey(event));
        this.#verdicts.set(callKey(event), { ...settled, schema });
        held.ready = true;
        this.#release();
      })
      .catch(this.#halt);
    return this.#idle!.promise;
  }

  /**
   * The finish event, with the verdicts in its lists (it goes out after every call before it, so
   * theirs are known by then); a call this step never saw (one completed before a snapshot was
   * restored) is validated first.
   */
  #finish(event: FinishEvent): PromiseLike<void> | void {
    const unjudged = event.toolCalls.filter((call) => {
      const key = callKey(call);
      return (
        !this.#verdicts.has(key) &&
        !this.#judging.has(key) &&
        this.#validators.has(call.name) &&
        !call.providerExecuted &&
        call.inputFormat !== "text"
      );
    });
    const checks = unjudged.map((call) => {
      const schema = this.#validators.get(call.name)!;
      const outcome = validateWithin(schema, call.arguments, this.#wait);
      const record = (settled: StandardOutcome): void => void this.#verdicts.set(callKey(call), { ...settled, schema });
      return outcome instanceof Promise ? outcome.then(record) : record(outcome);
    });
    const waits = checks.filter((check): check is Promise<void> => check instanceof Promise);
    if (waits.length === 0) return this.#pass(() => this.#rewrite(event), true);
    const held: Held = { make: () => this.#rewrite(event), ready: false, finish: true };
    this.#hold(held);
    Promise.all(waits)
      .then(() => {
        if (this.#stopped) return;
        held.ready = true;
        this.#release();
      })
      .catch(this.#halt);
    return this.#idle!.promise;
  }

  /**
   * An abort goes out at once, after what is ready; calls still being validated are discarded,
   * and a finish still held is replaced by it (a stream ends with one or the other). An abort
   * may come after the finish was made: `streamToolCalls` sends one when its signal fires while
   * the finish waits here.
   */
  #abort(event: AbortEvent): PromiseLike<void> | void {
    this.#stopped = true;
    const discarded: DiscardedToolCall[] = [];
    for (const held of this.#held.splice(0)) {
      if (held.finish) continue;
      if (held.ready) this.#next(held.make());
      else if (held.call)
        discarded.push(
          withChoice(
            { index: held.call.index, id: held.call.id, name: held.call.name, rawArguments: held.call.rawArguments },
            held.call.choice,
          ),
        );
    }
    this.#settleIdle();
    return this.#next(discarded.length > 0 ? { ...event, discarded: [...event.discarded, ...discarded] } : event);
  }

  /** Passes an event on now, or behind the held ones. */
  #pass(make: () => ToolCallEvent, finish?: true): PromiseLike<void> | void {
    if (this.#held.length === 0) return this.#next(make());
    this.#held.push({ make, ready: true, ...(finish && { finish }) });
    return this.#idle!.promise;
  }

  #hold(held: Held): void {
    this.#held.push(held);
    if (!this.#idle) {
      let resolve!: () => void;
      const promise = new Promise<void>((done) => (resolve = done));
      this.#idle = { promise, resolve };
    }
  }

  /** Passes on every ready event at the head, in order. */
  #release(): void {
    while (this.#held[0]?.ready) this.#after = this.#next(this.#held.shift()!.make());
    if (this.#held.length === 0) this.#settleIdle();
  }

  /** The output failed while events were released (the stream was cancelled or errored): nothing more goes out. */
  readonly #halt = (): void => {
    this.#stopped = true;
    this.#held.length = 0;
    this.#settleIdle();
  };

  #settleIdle(): void {
    const idle = this.#idle;
    this.#idle = undefined;
    if (!idle) return;
    const after = this.#after;
    this.#after = undefined;
    if (after) void Promise.resolve(after).then(idle.resolve, idle.resolve);
    else idle.resolve();
  }

  #rewrite(event: FinishEvent): FinishEvent {
    if (this.#verdicts.size === 0) return event;
    const toolCalls: ToolCall[] = [];
    const invalid: InvalidToolCall[] = [...event.invalidToolCalls];
    for (const call of event.toolCalls) {
      const verdict = this.#verdicts.get(callKey(call));
      if (!verdict) toolCalls.push(call);
      else if (verdict.ok) toolCalls.push({ ...call, arguments: verdict.value as JsonValue });
      else invalid.push(rejected(call, verdict));
    }
    invalid.sort((a, b) => (a.choice ?? 0) - (b.choice ?? 0) || a.index - b.index);
    return { ...event, toolCalls, invalidToolCalls: invalid };
  }
}

/** The call's event after its verdict: the output as `arguments`, or an `invalid-tool-call`. */
function judged(event: CompletedToolCallEvent, verdict: Verdict): ToolCallEvent {
  if (!verdict.ok) return { type: "invalid-tool-call", ...rejected(event, verdict) };
  const out: CompletedToolCallEvent = { ...event, arguments: verdict.value as JsonValue };
  validatedWith.set(out, verdict.schema);
  return out;
}

/** A call the validator rejected (or did not judge in time), as the accumulator reports one its schema check rejects. */
function rejected(call: ToolCall, verdict: StandardOutcome & { ok: false }): InvalidToolCall {
  const {
    type: _type,
    arguments: _arguments,
    repairs: _repairs,
    providerExecuted: _executed,
    inputFormat: _format,
    ...fields
  } = call as CompletedToolCallEvent;
  if (verdict.timeoutMs !== undefined)
    return {
      ...fields,
      error: {
        code: "validation-timeout",
        message: `The validator of ${call.name} did not settle within ${verdict.timeoutMs} ms.`,
      },
    };
  return {
    ...fields,
    error: {
      code: "schema-mismatch",
      message: `The tool arguments do not match the schema of ${call.name}.`,
      issues: verdict.issues,
    },
  };
}
