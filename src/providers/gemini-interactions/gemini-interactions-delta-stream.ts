import type { SSEMessage } from "../../framing/framing.ts";
import type { FinishDelta } from "../../shared/deltas.ts";
import { jsonText, type JsonWriter } from "../../shared/json-text.ts";
import { arrayOf, isRecord, nonEmptyString, ownValue } from "../../shared/values.ts";
import { eventType, providerError, readJsonObject } from "../payload.ts";
import { ProviderDecoderStream, type DecoderLimits, type Emit, type ProviderDecoder } from "../provider-decoder.ts";
import { decoderLimits } from "../decoder-limits.ts";
import { GEMINI_INTERACTIONS_FINISH_REASONS } from "./gemini-interactions-finish-reasons.ts";
import { InteractionsHops } from "./gemini-interactions-hops.ts";
import { InteractionsServerSteps } from "./gemini-interactions-server-steps.ts";
import { FRAGMENT_FIELDS, type InteractionsEventListener, type OpenStep } from "./gemini-interactions-steps.ts";

type Payload = Record<string, unknown>;

/**
 * Gemini's Interactions API (`POST /v1beta/interactions` with `stream: true`) to normalized deltas.
 *
 * An interaction streams steps: `step.start` names the step (`model_output`, `thought`,
 * `function_call` with its `id`, `name` and empty `arguments`), `step.delta`s fill it (`text`,
 * `thought_summary`, `thought_signature`, and a call's argument text as `arguments_delta`),
 * `step.stop` ends it, all by the step's `index`, which is the call's index. `interaction.completed`
 * ends the response with its `status` (`requires_action` when calls wait for results) and usage (a step delta's
 * `metadata.total_usage` and an `interaction.status_update`'s `usage`, the usage so far, are its usage before that); a
 * `requires_continuation` (the per-request decode limit) with its `continuation_token` on the finish, unless more
 * follows: `@google/genai`'s stream of a decode it continued, or resumed from a status update's checkpoint after a drop,
 * yields every hop, one answer ({@link InteractionsHops}). A failure in the stream (an `error` event, a `model_output`
 * step's `error`, a `failed` interaction's `error` or first `errors` entry, not a success's) is a provider error.
 * The legacy spelling (`interaction.start`, `content.start`/`content.delta`/`content.stop` with a
 * `content` in place of `step`, `interaction.complete`, a `function_call` delta carrying the whole
 * `arguments` object) is read the same way. A call's `signature`, if any, is kept on its
 * `providerMetadata` and a thought step's signature becomes a `signed` reasoning part: both must
 * go back on the next turn when the conversation is sent whole; a signature that comes after the
 * call's start (a `thought_signature` delta, or a `signature` on a later delta of the step) is
 * the call's too. Server-side tool steps (`google_search_call`, `code_execution_call`,
 * `url_context_call`, ...) are the provider's to run: `providerExecuted` calls completed with
 * their `*_result` step (see {@link InteractionsServerSteps}), never calls for the client; each
 * such step's deltas are bounded by `maxArgumentsLength` as JSON text (`arguments-too-large`).
 * Each event's `event_id` is where `GET /v1beta/interactions/{id}?stream=true&last_event_id=`
 * resumes; the final `event: done` / `data: [DONE]` is skipped.
 *
 * @example
 * ```ts
 * const events = response.body!
 *   .pipeThrough(new SSEDecoderStream())
 *   .pipeThrough(new GeminiInteractionsDeltaStream())
 *   .pipeThrough(new ToolCallAccumulatorStream());
 * ```
 */
export class GeminiInteractionsDeltaStream extends ProviderDecoderStream {
  /** Creates the stage; `limits.maxArgumentsLength` bounds a built-in tool's step (4 Mi by default); an unknown option is a `TypeError`. */
  constructor(limits: DecoderLimits = {}) {
    decoderLimits(limits);
    super((emit) => new GeminiInteractionsDecoder(emit, limits));
  }
}

/**
 * The pure decoder behind {@link GeminiInteractionsDeltaStream}: one instance per response.
 *
 * @example
 * ```ts
 * const deltas: ProviderDelta[] = [];
 * const decoder = new GeminiInteractionsDecoder((delta) => deltas.push(delta));
 * for (const message of messages) decoder.decode(message);
 * decoder.end();
 * ```
 */
export class GeminiInteractionsDecoder implements ProviderDecoder {
  readonly #emit: Emit;
  /** How this response's objects are written as JSON text (its messages' own writer, or `jsonText`). */
  #write: JsonWriter = jsonText;
  readonly #steps = new Map<number, OpenStep>();
  readonly #early = new Set<number>(); // the steps whose argument fragments came before their start
  readonly #server: InteractionsServerSteps;
  readonly #onEvent: InteractionsEventListener | undefined;
  readonly #hops = new InteractionsHops();
  #calls = 0;

  /**
   * Creates a decoder for one response that reports through `emit`; a server tool's step is
   * bounded by the accumulator's `maxArgumentsLength` in `limits` (4 Mi by default); `onEvent` is
   * given each event before it is read. A name in `limits` that is no limit is a `TypeError`.
   */
  constructor(emit: Emit, limits: DecoderLimits = {}, onEvent?: InteractionsEventListener) {
    decoderLimits(limits);
    this.#emit = emit;
    this.#onEvent = onEvent;
    this.#server = new InteractionsServerSteps(emit, jsonText, limits.maxArgumentsLength);
  }

  /**
   * The input ended (or the body's `[DONE]`): a terminal status update it ended on completes the hop; a held finish
   * goes out; a step still open is left to the accumulator, which discards a call without its end.
   */
  end(): void {
    const update = this.#hops.unfinished();
    // Its usage went out as it came; its status and checkpoint token are the completion's.
    if (update) this.#onCompleted({ status: update["status"], continuation_token: update["continuation_token"] });
    this.#hops.release(this.#emit);
  }

  /** Decodes one SSE message. */
  decode(message: SSEMessage): void {
    this.#write = message.jsonText ?? jsonText;
    this.#server.writer = this.#write;
    if (message.value === undefined && message.data.trim() === "[DONE]") return this.end();
    this.#hops.goOn();
    const payload = readJsonObject(message, this.#emit);
    if (!payload) return;
    const type = nonEmptyString(payload["event_type"]) ?? message.event ?? nonEmptyString(payload["type"]);
    const index = typeof payload["index"] === "number" ? this.#hops.index(payload["index"]) : undefined;
    this.#onEvent?.(type, index, payload);
    switch (eventType(type, payload)) {
      case "step.start":
      case "content.start":
        return void (index !== undefined && this.#onStart(index, payload["step"] ?? payload["content"]));
      case "step.delta":
      case "content.delta":
        // The usage so far (`metadata.total_usage`), before the delta: the first is the input's count before any output.
        this.#hops.report((payload["metadata"] as Payload | undefined)?.["total_usage"], this.#emit);
        if (index !== undefined && isRecord(payload["delta"])) this.#onDelta(index, payload["delta"]);
        return;
      case "step.stop":
      case "content.stop":
        return void (index !== undefined && this.#onStop(index));
      case "interaction.created":
        return void (this.#hops.created(payload["interaction"]) && this.#withdrawCut());
      case "interaction.status_update": // its `usage`, the interaction's so far, as a step delta's
        return this.#hops.statusUpdate(payload, this.#emit);
      case "interaction.completed":
      case "interaction.complete":
        return this.#onCompleted(isRecord(payload["interaction"]) ? payload["interaction"] : {});
      case "error": // the interaction's last event: nothing after it is read
        this.#emit(providerError(payload));
        return this.#emit({ type: "done" });
    }
  }

  #onStart(index: number, step: unknown): void {
    if (!isRecord(step) || this.#server.start(index, step)) return;
    const kind = step["type"];
    if (kind === "function_call") {
      this.#calls++;
      this.#callStart(index, step);
      const args = step["arguments"];
      const initial = isRecord(args) && Object.keys(args).length > 0 ? this.#write(args) : undefined;
      this.#steps.set(index, { kind: "call", streamed: this.#early.delete(index), initial }); // its fragments came first
      return;
    }
    if (kind === "thought") {
      const thought: OpenStep = { kind: "thought", text: "", signature: nonEmptyString(step["signature"]) };
      this.#steps.set(index, thought);
      for (const part of arrayOf(step["summary"])) this.#reasoning(thought, isRecord(part) ? part["text"] : undefined);
      return;
    }
    // A model output that starts with its content (the legacy `content.start` of text does), or its failure: an
    // `error` (a google.rpc.Status, `ModelOutputStep.error`) is the step's, whatever the interaction's status says.
    if (kind === "model_output") {
      for (const part of arrayOf(step["content"])) this.#text(part);
      if (isRecord(step["error"])) this.#emit(providerError(step["error"], "A step of the interaction failed."));
    } else if (kind === "text") this.#text(step);
  }

  #onDelta(index: number, delta: Payload): void {
    if (this.#server.has(index)) return this.#server.delta(index, delta);
    const open = this.#steps.get(index);
    // A call's signature after its start: on a `thought_signature` delta, or on any delta of its step.
    const signature = open?.kind === "call" ? nonEmptyString(delta["signature"]) : undefined;
    if (signature !== undefined) this.#emit({ type: "tool-call-chunk", index, providerMetadata: { signature } });
    if (open?.kind === "call" && delta["type"] === "thought_signature") return;
    switch (delta["type"]) {
      case "text":
        return this.#text(delta);
      case "thought_summary":
      case "thought":
        return this.#reasoning(
          this.#thought(index, open),
          isRecord(delta["content"]) ? delta["content"]["text"] : (delta["thought"] ?? delta["text"]),
        );
      case "thought_signature": {
        const signature = nonEmptyString(delta["signature"]);
        if (signature !== undefined) this.#thought(index, open).signature = signature;
        return;
      }
      case "arguments_delta":
      case "partial_arguments":
        return this.#onFragment(index, open, delta);
      case "function_call":
        return this.#onWholeCall(index, open, delta);
    }
  }

  #onFragment(index: number, open: OpenStep | undefined, delta: Payload): void {
    const fragment = FRAGMENT_FIELDS.map((field) => delta[field]).find((value) => typeof value === "string");
    if (typeof fragment !== "string" || fragment === "") return;
    if (open?.kind === "call") open.streamed = true;
    else this.#early.add(index); // before its step's start: passed on, never dropped (the start names the call)
    this.#emit({ type: "tool-call-chunk", index, argumentsDelta: fragment });
  }

  /** A `function_call` delta carries the call whole (the legacy spelling, and calls whose arguments are not streamed). */
  #onWholeCall(index: number, open: OpenStep | undefined, delta: Payload): void {
    const call: OpenStep = open?.kind === "call" ? open : { kind: "call", streamed: false };
    if (open?.kind !== "call") {
      // No `start` named it: this delta does.
      this.#calls++;
      this.#steps.set(index, call);
      this.#callStart(index, delta);
    }
    const args = delta["arguments"];
    if (isRecord(args) && call.kind === "call") call.whole = this.#write(args);
  }

  /** A call named: the `id`, `name` and `signature` that `from` (its step, or the delta that names it) has. */
  #callStart(index: number, from: Payload): void {
    const id = nonEmptyString(from["id"]);
    const name = nonEmptyString(from["name"]);
    const signature = nonEmptyString(from["signature"]);
    this.#emit({
      type: "tool-call-chunk",
      index,
      ...(id !== undefined && { id }),
      ...(name !== undefined && { name }),
      ...(signature !== undefined && { providerMetadata: { signature } }),
    });
  }

  /** `atEnd`: the interaction completed first; a call it left without arguments stays open for the finish to judge. */
  #onStop(index: number, atEnd?: boolean): void {
    if (this.#server.has(index)) return this.#server.stop(index);
    const open = this.#steps.get(index);
    if (!open) return;
    this.#steps.delete(index);
    if (open.kind === "thought") {
      if (open.signature !== undefined)
        this.#emit({ type: "reasoning-part", part: { type: "signed", text: open.text, signature: open.signature } });
      return;
    }
    // What the arguments are: the streamed text; else the whole object a delta or the start carried.
    if (open.streamed) {
      if (open.whole === undefined) return this.#emit({ type: "tool-call-end", index });
      return this.#emit({ type: "tool-call-end", index, arguments: open.whole });
    }
    // At the end, none: `{}` after a normal finish, and a call cut short after a failure or a limit.
    const args = open.whole ?? open.initial ?? (atEnd ? undefined : "{}");
    if (args === undefined) return;
    this.#emit({ type: "tool-call-chunk", index, argumentsDelta: args });
    this.#emit({ type: "tool-call-end", index });
  }

  /** A hop after a drop: a call the dropped hop left open was cut (the SDK resumes at its last checkpoint and
   * "re-generates any output yielded after" it), so it is withdrawn, never parsed as complete, whatever its text. */
  #withdrawCut(): void {
    for (const [index, open] of this.#steps)
      if (open.kind === "call" && this.#steps.delete(index))
        this.#emit({ type: "tool-call-end", index, withdrawn: true });
  }

  #onCompleted(interaction: Payload): void {
    // A step the stream never stopped is stopped here, so that its call or signature is not lost.
    for (const index of [...this.#steps.keys()]) this.#onStop(index, true);
    this.#server.complete();
    this.#hops.report(interaction["usage"], this.#emit);
    const status = nonEmptyString(interaction["status"]) ?? null;
    const fault = status === "failed" && [interaction["error"], ...arrayOf(interaction["errors"])].find(isRecord);
    if (fault) this.#emit(providerError(fault, "The provider reported that the interaction failed."));
    const reason = status === null ? "stop" : (ownValue(GEMINI_INTERACTIONS_FINISH_REASONS, status) ?? "other");
    // The token of a decode the per-request limit cut; only this snapshot's: it clears a checkpoint's (as the SDK reads it).
    const token = status === "requires_continuation" && nonEmptyString(interaction["continuation_token"]);
    // `requires_action` without a call the client can answer is not a turn of calls.
    const finish: FinishDelta = {
      type: "finish",
      rawReason: status,
      reason: reason === "tool-calls" && this.#calls === 0 ? "other" : reason,
      ...(token && { continuationToken: token }),
    };
    this.#hops.finish(finish, this.#emit); // held when the SDK's stream may go on (`requires_continuation`)
  }

  /** The thought step at `index`, opened if a delta came for one that never started. */
  #thought(index: number, open: OpenStep | undefined): Extract<OpenStep, { kind: "thought" }> {
    if (open?.kind === "thought") return open;
    const thought: OpenStep = { kind: "thought", text: "" };
    this.#steps.set(index, thought);
    return thought;
  }

  #reasoning(thought: Extract<OpenStep, { kind: "thought" }>, text: unknown): void {
    if (typeof text !== "string" || text === "") return;
    thought.text += text;
    this.#emit({ type: "reasoning-delta", text });
  }

  #text(content: unknown): void {
    const text = isRecord(content) && content["type"] === "text" ? nonEmptyString(content["text"]) : undefined;
    if (text !== undefined) this.#emit({ type: "text-delta", text });
  }
}
