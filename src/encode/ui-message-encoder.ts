import { isRefusal } from "./refusal.ts";
import { callKey } from "../shared/call-key.ts";
import { checkOptionNames } from "../shared/option-names.ts";
import type { ReasoningPart } from "../shared/deltas.ts";
import type { AbortEvent, CompletedToolCallEvent, InvalidToolCallEvent, ToolCallStartEvent } from "../shared/events.ts";
import { CallIds, randomId } from "./call-ids.ts";
import { UISources } from "./citations.ts";
import {
  approvalChunks,
  approvalRequestChunk,
  ServedResults,
  toolOutputChunk,
  UI_FINISH_REASONS,
  violationChunk,
  type UICall,
  type UIMessageEncoderOptions,
  UI_OPTIONS,
} from "./ui-message-wire.ts";
import {
  abortError,
  callFailure,
  DISCARDED_CALL_MESSAGE,
  failedFinish,
  isLoopEvent,
  SSE_DONE,
  sseData,
  stepOf,
  type EncodableEvent,
  type ProtocolEncoder,
} from "./protocol-encoder.ts";

/**
 * The pure core of {@link UIMessageEncoderStream}: events to the AI SDK's UI message stream
 * (protocol v1, the `data:` frames `useChat` and `readUIMessageStream` read), writing only the
 * documented fields of each chunk, each delta after its start:
 *
 * - `start` (with `messageId` when given), then `start-step` for the response (one per step of
 *   a tool loop, each closed by `finish-step`);
 * - text as `text-start` / `text-delta` / `text-end` and reasoning as `reasoning-*`, a part
 *   closed when another kind of content begins (with `reasoningMetadata`, a block's state on its `reasoning-end`);
 * - each call as `tool-input-start {toolCallId, toolName}`, `tool-input-delta` per fragment,
 *   then `tool-input-available {input}`, or `tool-input-error` with the raw text and the reason for
 *   an invalid call or one the response cut short; provider-executed calls and their results (the
 *   kept block that names the call) carry `providerExecuted: true`; a call without an id gets one;
 * - with tools run at the edge: `tool-output-available` (`preliminary: true` for a streaming tool's
 *   results so far), `-error`, `tool-approval-request`, `-denied`; a provider's `approval-request` (`approvalChunks`);
 * - a provider's citations as `source-url` / `source-document`, each source once; an error as `error {errorText}`;
 * - at the end: `finish-step`, `finish {finishReason}` (`UI_FINISH_REASONS`), `[DONE]`; a cancelled
 *   response with `abort`, `[DONE]`; any other abort, or a loop's failed model call, with `error`.
 *
 * Choices other than the first are not shown (one message), nor events of types it does not know.
 *
 * @example
 * ```ts
 * const encoder = new UIMessageEncoder({ messageId: "msg_1" });
 * const out: string[] = [];
 * for (const event of events) encoder.encode(event, out);
 * encoder.end(out);
 * out.join(""); // 'data: {"type":"start","messageId":"msg_1"}\n\ndata: {"type":"start-step"}\n\n...'
 * ```
 */
export class UIMessageEncoder implements ProtocolEncoder<EncodableEvent> {
  readonly #messageId: string | undefined;
  readonly #v5: boolean;
  readonly #ids: CallIds;
  readonly #reasoningMetadata: UIMessageEncoderOptions["reasoningMetadata"];
  readonly #calls = new Map<string, UICall>();
  readonly #served = new ServedResults();
  readonly #sources = new UISources();
  #started = false;
  #stepOpen = false;
  #step: number | undefined;
  #part: { kind: "text" | "reasoning"; id: string } | undefined;
  #parts = 0;
  /** As the protocol names it. */
  #finishReason: string | undefined;
  #errorSent = false;
  /** Why a loop's model call failed (its last `error`), for a `loop-finish` of reason `call-failed`. */
  #lastError: AbortEvent["error"];
  #ended = false;

  /** Creates the core; see {@link UIMessageEncoderOptions} (an option it does not know is a `TypeError`). */
  constructor(options: UIMessageEncoderOptions = {}) {
    checkOptionNames(options, UI_OPTIONS);
    this.#messageId = options.messageId;
    this.#v5 = options.minVersion === 5;
    this.#ids = new CallIds(options.generateId ?? randomId);
    this.#reasoningMetadata = options.reasoningMetadata;
  }

  /** Appends the chunks of one event to `out`. */
  encode(event: EncodableEvent, out: string[]): void {
    if (this.#ended || ("choice" in event && event.choice !== undefined && event.choice !== 0)) return;
    this.#begin(event, out);
    switch (event.type) {
      case "text-delta":
      case "reasoning-delta": {
        const kind = event.type === "text-delta" ? "text" : "reasoning";
        if (event.text !== "")
          out.push(sseData({ type: `${kind}-delta`, id: this.#openPart(kind, out), delta: event.text }));
        return;
      }
      case "tool-call-start":
        return this.#start(event, out);
      case "tool-call-delta": {
        const call = this.#calls.get(callKey(event));
        if (call?.started && !call.ended && event.argumentsDelta !== "")
          out.push(sseData({ type: "tool-input-delta", toolCallId: call.id, inputTextDelta: event.argumentsDelta }));
        return;
      }
      case "tool-call-violation": {
        // A transient data part (ai 5+), not a `tool-input-error` (see violationChunk).
        const call = this.#calls.get(callKey(event));
        if (call?.started) out.push(sseData(violationChunk(call, event.error)));
        return;
      }
      case "tool-call":
        return this.#available(event, out);
      case "invalid-tool-call":
        return this.#inputError(this.#call(event), event.rawArguments, event.error.message, out);
      case "tool-result":
      case "tool-error":
        return this.#output(callKey(event), toolOutputChunk(event, this.#v5), out);
      case "tool-approval-request":
        return this.#v5 ? undefined : this.#output(callKey(event), approvalRequestChunk, out);
      case "reasoning-part": // OpenAI's refusal is text; else the pages and documents a provider's cited text (Anthropic's citations) cites
        if (isRefusal(event.part)) return this.encode({ type: "text-delta", text: event.part.value }, out);
        this.#reasoningEnd(event.part, out);
        this.#served.take(event.part, (key, chunk) => this.#output(key, chunk, out));
        return void out.push(...this.#sources.chunks(event.part).map(sseData));
      case "approval-request":
        this.#closePart(out);
        return void out.push(...approvalChunks(event, this.#v5).map(sseData));
      case "error":
        this.#lastError = event.error;
        if (event.error.code === "provider-error") this.#error(event.error.message, out);
        return;
      case "finish":
        this.#closePart(out);
        this.#finishReason = UI_FINISH_REASONS[event.reason];
        if (event.reason === "error") this.#error(failedFinish(event).message, out);
        return;
      case "abort":
        return this.#abort(event as AbortEvent, out);
      case "step-finish":
        this.#closePart(out);
        return this.#closeStep(out);
      case "loop-finish":
        if (event.reason === "call-failed") return this.#abort(callFailure(this.#lastError), out);
        return event.reason === "cancelled" ? this.#cancelled(out) : this.end(out);
    }
  }

  /** Appends the closing chunks: the open part and step, `finish`, `[DONE]`. */
  end(out: string[]): void {
    if (this.#ended) return;
    this.#open(out);
    this.#closePart(out);
    this.#closeStep(out);
    const reason = this.#v5 || this.#finishReason === undefined ? {} : { finishReason: this.#finishReason };
    out.push(sseData({ type: "finish", ...reason }), SSE_DONE);
    this.#ended = true;
  }

  #open(out: string[]): void {
    if (this.#started) return;
    this.#started = true;
    out.push(sseData({ type: "start", ...(this.#messageId === undefined ? {} : { messageId: this.#messageId }) }));
  }

  /** `start` once, and a step around every event of content: a new one when a loop's step changes. */
  #begin(event: EncodableEvent, out: string[]): void {
    this.#open(out);
    if (isLoopEvent(event)) return;
    const step = stepOf(event);
    if (step !== this.#step) {
      if (this.#step !== undefined) this.#ids.nextStep();
      this.#closePart(out);
      this.#closeStep(out);
      this.#step = step;
      this.#calls.clear();
      this.#served.clear();
    }
    if (!this.#stepOpen) {
      this.#stepOpen = true;
      out.push(sseData({ type: "start-step" }));
    }
  }

  #closeStep(out: string[]): void {
    if (!this.#stepOpen) return;
    this.#stepOpen = false;
    out.push(sseData({ type: "finish-step" }));
  }

  #openPart(kind: "text" | "reasoning", out: string[]): string {
    if (this.#part?.kind !== kind) {
      this.#closePart(out);
      this.#part = { kind, id: `${kind}-${++this.#parts}` };
      out.push(sseData({ type: `${kind}-start`, id: this.#part.id }));
    }
    return this.#part.id;
  }

  /** A block's provider state on its reasoning part's end (a part of no text, a redacted block's, opened for it). */
  #reasoningEnd(part: ReasoningPart, out: string[]): void {
    const providerMetadata = this.#reasoningMetadata?.(part);
    if (providerMetadata === undefined) return;
    out.push(sseData({ type: "reasoning-end", id: this.#openPart("reasoning", out), providerMetadata }));
    this.#part = undefined;
  }

  #closePart(out: string[]): void {
    if (!this.#part) return;
    out.push(sseData({ type: `${this.#part.kind}-end`, id: this.#part.id }));
    this.#part = undefined;
  }

  #call(event: ToolCallStartEvent | CompletedToolCallEvent | InvalidToolCallEvent): UICall {
    const key = callKey(event);
    let call = this.#calls.get(key);
    if (!call)
      this.#calls.set(
        key,
        (call = { id: this.#ids.assign(key, event.id), name: event.name, started: false, ended: false }),
      );
    return call;
  }

  #start(event: ToolCallStartEvent | CompletedToolCallEvent, out: string[]): void {
    this.#closePart(out);
    const call = this.#call(event);
    if (call.started) return;
    call.started = true;
    out.push(
      sseData({
        type: "tool-input-start",
        toolCallId: call.id,
        toolName: call.name,
        ...(event.providerExecuted ? { providerExecuted: true } : {}),
        ...(event.inputFormat === "text" && !this.#v5 ? { inputEncoding: "text" } : {}),
      }),
    );
  }

  #available(event: CompletedToolCallEvent, out: string[]): void {
    this.#start(event, out);
    const call = this.#call(event);
    call.ended = true;
    this.#served.add(event);
    const executed = event.providerExecuted && { providerExecuted: true };
    out.push(
      sseData({
        type: "tool-input-available",
        toolCallId: call.id,
        toolName: call.name,
        input: event.arguments,
        ...executed,
      }),
    );
  }

  #inputError(call: UICall, input: string, errorText: string, out: string[]): void {
    this.#closePart(out);
    call.ended = true;
    out.push(sseData({ type: "tool-input-error", toolCallId: call.id, toolName: call.name, input, errorText }));
  }

  /** A chunk about a call whose input the client has; processUIMessageStream throws on any other id. */
  #output(key: string, chunk: (toolCallId: string) => Record<string, unknown>, out: string[]): void {
    const call = this.#calls.get(key);
    if (!call?.ended) return;
    this.#closePart(out);
    out.push(sseData(chunk(call.id)));
  }

  #error(errorText: string, out: string[]): void {
    this.#closePart(out);
    if (!this.#errorSent) out.push(sseData({ type: "error", errorText }));
    this.#errorSent = true;
  }

  #abort(event: AbortEvent, out: string[]): void {
    this.#closePart(out);
    for (const discarded of event.discarded) {
      const call = this.#calls.get(callKey(discarded));
      if (call?.started && !call.ended) this.#inputError(call, discarded.rawArguments, DISCARDED_CALL_MESSAGE, out);
    }
    if (event.reason === "cancelled") return this.#cancelled(out);
    this.#error(abortError(event).message, out);
    this.#finishReason = "error";
    this.end(out);
  }

  #cancelled(out: string[]): void {
    this.#closePart(out);
    out.push(sseData({ type: "abort" }), SSE_DONE);
    this.#ended = true;
  }
}
