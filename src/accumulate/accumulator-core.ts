import type { FinishReason, ProviderDelta, ToolCallChunkDelta, ToolCallEndDelta } from "../shared/deltas.ts";
import type { StreamErrorInfo } from "../shared/errors.ts";
import type { AbortReason, InvalidToolCall, ToolCall, ToolCallEvent } from "../shared/events.ts";
import { withChoice } from "../shared/values.ts";
import {
  DEFAULT_MAX_ARGUMENTS_LENGTH,
  DEFAULT_MAX_TOOL_CALLS,
  type ToolCallAccumulatorOptions,
} from "./accumulator-options.ts";
import type { AccumulatorState } from "./accumulator-state.ts";
import { lostFragment, settle } from "./final-arguments.ts";
import { finishEvent } from "./finish-event.ts";
import { ACCUMULATOR_CORE_OPTIONS } from "./accumulator-option-names.ts";
import { checkOptionNames } from "../shared/option-names.ts";
import { summary, ToolCallRegistry, withCallFields, type OpenToolCall } from "./tool-call-registry.ts";

/** An accumulator's state and registry (a pair), for the snapshot functions (outside the class: bundles that never snapshot do not carry them). Not exported by the package. */
export let accumulatorInternals: (accumulator: ToolCallAccumulatorCore) => [AccumulatorState, ToolCallRegistry];

/**
 * {@link ToolCallAccumulator} with the plug-ins it is given and no other: without `turnBlocks` unless passed. What `streamToolCalls` runs,
 * with the `turnBlocks` of the protocols that name it, so that a bundle for the others holds none of it; use {@link ToolCallAccumulator} unless you count bytes.
 *
 * @example
 * ```ts
 * const accumulator = new ToolCallAccumulatorCore((event) => events.push(event), { turnBlocks });
 * ```
 */
export class ToolCallAccumulatorCore {
  static {
    accumulatorInternals = (accumulator) => [accumulator.#s, accumulator.#registry];
  }
  readonly #enqueue: (event: ToolCallEvent) => void;
  readonly #onTerminate: () => void;
  readonly #registry: ToolCallRegistry;
  #stopping = false; // the response stopped or failed (a provider error: the state's, snapshots keep it): a call completed now is `stopped`
  /** The options as given: the limit and the plug-ins are read from here. */
  readonly #options: ToolCallAccumulatorOptions;
  /** Everything a snapshot keeps besides the registry, as one plain object (so that snapshot and restore are one copy each); in the order of the `finish` event's fields. */
  readonly #s: AccumulatorState = {
    rawReason: null,
    toolCalls: [],
    invalidToolCalls: [],
    finishSeen: false,
    providerErrorSeen: false,
    text: "",
    reasoning: "",
    closed: false,
  };

  /** Creates an accumulator that reports events through `enqueue`; an option it does not know (another stage's) is a `TypeError`. */
  constructor(
    enqueue: (event: ToolCallEvent) => void,
    options: ToolCallAccumulatorOptions = {},
    onTerminate: () => void = () => {},
  ) {
    checkOptionNames(options, ACCUMULATOR_CORE_OPTIONS);
    // The early-validation plug-in sees every event first, and adds its own.
    this.#enqueue = options.earlyValidator?.(enqueue, this, onTerminate) ?? enqueue;
    this.#onTerminate = onTerminate;
    this.#options = options;
    // Where each call of the first choice came among its text and reasoning, for the finish's `order`.
    this.#registry = new ToolCallRegistry(
      options.maxToolCalls ?? DEFAULT_MAX_TOOL_CALLS,
      { parser: options.partialParser, maxDepth: options.maxDepth },
      (call) => void (call.choice === 0 && options.turnBlocks?.note(this.#s, "tool-call", call.index)),
    );
  }

  /** True once a `finish` or `abort` has been emitted; later input is ignored. */
  get closed(): boolean {
    return this.#s.closed;
  }

  /** Feeds one normalized delta. */
  push(delta: ProviderDelta): void {
    const s = this.#s;
    if (s.closed) return;
    switch (delta.type) {
      case "text-delta":
      case "reasoning-delta": {
        const { choice, ...event } = delta; // a reasoning text's `field` too
        // The first choice's go in the finish (with the `turnBlocks` plug-in, where its text came).
        if (!choice) {
          if (delta.type === "reasoning-delta") s.reasoning += delta.text;
          else {
            s.text += delta.text;
            this.#options.turnBlocks?.note(s, "text", delta.text.length);
          }
        }
        return this.#enqueue(withChoice(event, choice));
      }
      case "reasoning-part":
        // Counted apart from the calls, against their limit (as approval requests and citations are); noted in its place.
        if ((s.reasoningParts ??= []).length >= (this.#options.maxToolCalls ?? DEFAULT_MAX_TOOL_CALLS))
          return this.#fail("too-many-tool-calls", "The response has more reasoning parts than the limit allows.");
        s.reasoningParts.push(delta.part);
        this.#options.turnBlocks?.note(s, "reasoning-parts", 1);
        return this.#enqueue(delta); // the event is the delta: `{ type, part }`
      case "tool-call-chunk":
        return this.#onChunk(delta);
      case "tool-call-end":
        return this.#onEnd(this.#registry.find(delta.choice ?? 0, delta.index), delta);
      case "tool-call-whole":
        return this.#registry.mark(delta);
      case "approval-request":
        return this.#options.turnBlocks?.approve?.(s, delta.request, this.#enqueue);
      case "finish": {
        s.finishSeen = true;
        // The stages normalize the reason; a finish built by hand without one counts as a normal stop.
        const reason = delta.reason || (delta.rawReason !== null ? "stop" : undefined);
        // Another choice's finish (`n > 1`) completes its own calls, by its own reason: only the first's is the response's.
        if (delta.choice) return this.#completeAll(delta.choice, reason);
        if (reason) s.reason = reason;
        // Of its other fields only those a stage names reach the state and event: a hand-made or SDK delta holds any key.
        for (const key of ["rawReason", "container", "stopSequence", "refusal", "continuationToken"] as const)
          if (delta[key]) (s as Record<typeof key, unknown>)[key] = delta[key];
        return this.#completeAll(0, s.reason);
      }
      case "usage": // the first report is news (input tokens before any output); later ones update the finish's
        if (!s.usage) this.#enqueue(delta);
        s.usage = delta.usage;
        return;
      case "moderation": // the latest, for the finish
        return void (s.moderation = delta.moderation);
      case "error": // a provider's error stops the response: the calls known whole go out before it (as at a limit)
        if (delta.error.code === "provider-error" && (s.providerErrorSeen = true)) this.#wholes(false);
        this.#registry.skipped(delta.error.code);
        return this.#enqueue(delta); // the event is the delta: `{ type, error }`
      case "done":
        return this.#stop(true);
    }
  }

  /** The input ended: finish if the provider finished, otherwise abort and discard open calls. */
  end(): void {
    if (!this.#s.closed) this.#stop(false);
  }

  /** Stops before the finish: the calls known whole complete, then `error` (with `report`); the others are discarded. */
  abort(reason: AbortReason, error?: StreamErrorInfo, report?: boolean): void {
    this.#wholes(reason === "limit-exceeded");
    if (this.#s.closed) return;
    if (report) this.#enqueue({ type: "error", error: error! });
    this.#s.closed = true;
    this.#enqueue({ type: "abort", reason, discarded: this.#registry.drain().map(summary), ...(error && { error }) });
  }

  /** Completes the open calls known whole as if ended (past a `limit`, not a wrapper: it would open calls), `stopped`. */
  #wholes(limit: boolean): void {
    this.#stopping = true;
    for (const call of this.#registry.open)
      if (call.whole && !this.#s.closed && !(limit && this.#options.unwrapper?.(call))) this.#onEnd(call, {});
  }

  #onChunk(delta: ToolCallChunkDelta): void {
    const call = this.#registry.resolve(delta);
    if (!call) return this.#fail("too-many-tool-calls", "The response has more tool calls than the limit allows.");
    // A whole call resent as one final summary fragment is dropped: only when the text so far is one closed JSON
    // value and the fragment repeats it exactly (a genuine fragment cannot: nothing but white space may follow it).
    const fragment = call.args.isClosedValue && delta.argumentsDelta === call.args.text ? "" : delta.argumentsDelta;
    if (fragment) {
      const max = this.#options.maxArgumentsLength ?? DEFAULT_MAX_ARGUMENTS_LENGTH;
      if (call.args.length + fragment.length > max) {
        return this.#fail("arguments-too-large", `Tool call arguments exceeded the limit of ${max} characters.`);
      }
      call.args.append(fragment);
    }
    // The start waits for arguments (or the completion): a name split across fragments is whole by then.
    if (!call.started) {
      if (call.name && call.args.length && !this.#options.unwrapper?.(call)) this.#start(call);
    } else if (fragment) {
      this.#delta(call, fragment);
    }
  }

  /** The provider's end of a call (or, with `{}`, a call known whole completed at a stop). */
  #onEnd(call: OpenToolCall | undefined, delta: Partial<ToolCallEndDelta>): void {
    if (!call) return;
    if (delta.withdrawn) {
      // Closed unparsed: never completed, whether the plug-in reports it or not.
      this.#registry.close(call);
      return this.#options.turnBlocks?.withdraw?.(this.#s, summary(call), this.#enqueue);
    }
    // The provider's final text: the rest of what streamed, or its value (which the early check read, a client was shown).
    const error = settle(call, delta.arguments, this.#registry, this.#options.repairer, (t) => this.#delta(call, t));
    if (!error) return this.#complete(call);
    this.#registry.close(call);
    this.#invalid({ ...withCallFields(summary(call), call), error });
  }

  #start(call: OpenToolCall): void {
    call.started = true;
    const start = { type: "tool-call-start" as const, index: call.index, id: call.id, name: call.name };
    this.#enqueue(withCallFields(withChoice(start, call.choice), call));
    if (call.args.text) this.#delta(call, call.args.text);
  }

  /** Emits a `tool-call-delta`: the fragment, whether the arguments are now one closed JSON value, and the live partial value when asked for. */
  #delta(call: OpenToolCall, fragment: string): void {
    const event = withChoice(
      {
        type: "tool-call-delta" as const,
        index: call.index,
        id: call.id,
        argumentsDelta: fragment,
        closed: call.args.isClosedValue,
      },
      call.choice,
    );
    const partial = this.#options.partialParser && call.inputFormat !== "text";
    this.#enqueue(partial ? { ...event, partialArguments: call.args.partialValue } : event);
  }

  /** Completes a call; `closeTruncated` after a normal finish, `cut` after an abnormal one (`length`, a filter, an error). */
  #complete(call: OpenToolCall, closeTruncated = false, cut = false): void {
    this.#registry.close(call);
    // A held wrapper pushes the calls it stands for instead, each as if sent alone (and counted in its place).
    if (!call.started && this.#options.unwrapper?.(call, this, this.#registry)) return;
    if (!call.started && call.name) this.#start(call);
    const base: Omit<ToolCall, "arguments"> = withCallFields(summary(call), call);
    if (!call.name) {
      return this.#invalid({
        ...base,
        error: { code: "missing-name", message: "A tool call completed without a function name." },
      });
    }
    if (call.lost) return this.#invalid({ ...base, error: lostFragment(base) });
    // Free-text input is the call's input as it is, unless a stop cut it short (it may end anywhere).
    const parsed = call.args.parse({
      repair: this.#options.repairer,
      closeTruncated,
      cut,
      text: call.inputFormat === "text",
    });
    if (!parsed.ok) return this.#invalid({ ...base, error: parsed.error });
    // Free text (a custom tool's input) is checked too, so that its name is: a custom tool declares no JSON Schema.
    const issues = call.providerExecuted
      ? undefined
      : this.#options.validator?.(call.name, parsed.value, {
          response: this,
          index: call.index,
          choice: call.choice,
          length: call.args.length,
          text: parsed.text ?? call.args.text, // the JSON text of the value: a repair's, whose names it holds
        });
    if (issues) {
      const message = issues.message ?? `The tool arguments do not match the schema of ${call.name}.`;
      return this.#invalid({ ...base, error: { code: issues.code ?? "schema-mismatch", message, issues } });
    }
    const toolCall: ToolCall = { ...base, arguments: parsed.value, ...(parsed.repairs && { repairs: parsed.repairs }) };
    this.#s.toolCalls.push(toolCall);
    const stopped = this.#stopping || this.#s.providerErrorSeen;
    this.#enqueue({ type: "tool-call", ...toolCall, ...(stopped && { stopped: true as const }) });
  }

  /** An `invalid-tool-call`, listed for the finish. */
  #invalid(call: InvalidToolCall): void {
    this.#s.invalidToolCalls.push(call);
    this.#enqueue({ type: "invalid-tool-call", ...call });
  }

  /** Completes the open calls of `choice` at its finish of `reason` (only a normal one closes a value cut short, not `[DONE]`, nor the end after another choice's), or all at the end of the response (none after a wrapper's calls past the limit aborted it). */
  #completeAll(choice?: number, reason?: FinishReason): void {
    const normal = choice !== undefined && (reason === undefined || reason === "stop" || reason === "tool-calls");
    for (const call of this.#registry.openCalls(choice))
      this.#s.closed || this.#complete(call, normal && !call.cut, (choice !== undefined && !normal) || call.cut);
  }

  /** The input ended (`done`: with `[DONE]`): finish after the provider's finish with no call left open (`n > 1`: another choice's finish does not finish this one's), or at `[DONE]` with no provider error; otherwise abort, discarding what is open (vLLM and llama.cpp send `[DONE]` after an error that cut a call). */
  #stop(done: boolean): void {
    const { finishSeen, providerErrorSeen } = this.#s;
    if ((finishSeen && !this.#registry.open.size) || (done && !providerErrorSeen)) this.#finish();
    else this.abort(providerErrorSeen ? "provider-error" : "input-ended");
  }

  /** The `finish` event, once every call is settled. */
  #finish(): void {
    this.#completeAll();
    this.#s.closed = true;
    this.#enqueue(finishEvent(this.#s, this.#options.turnBlocks));
  }

  #fail(code: StreamErrorInfo["code"], message: string): void {
    this.abort("limit-exceeded", { code, message }, true);
    this.#onTerminate();
  }
}
