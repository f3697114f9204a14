import { isRefusal } from "./refusal.ts";
import { callKey } from "../shared/call-key.ts";
import type { Usage } from "../shared/deltas.ts";
import { AGUIReasoning } from "./ag-ui-reasoning.ts";
import type {
  AbortEvent,
  CompletedToolCallEvent,
  InvalidToolCallEvent,
  ToolCallDeltaEvent,
  ToolCallStartEvent,
} from "../shared/events.ts";
import { CallIds, prefixedId, randomId } from "./call-ids.ts";
import {
  aguiRun,
  resultEvent,
  runError,
  tokenUsage,
  violationEvent,
  type AGUICall,
  type AGUIEncoderOptions,
} from "./ag-ui-wire.ts";
import {
  abortError,
  callFailure,
  failedFinish,
  isLoopEvent,
  sseData,
  stepOf,
  type EncodableEvent,
  type ProtocolEncoder,
  withdrawn,
} from "./protocol-encoder.ts";
import { pushSent } from "./sent-fragments.ts";
import type { ToolErrorEvent, ToolResultEvent } from "../tools/tool-events.ts";
import { cutBy, cutCallError, finalArguments, holding } from "./cut-calls.ts";

/**
 * The pure core of {@link AGUIEncoderStream}: events to AG-UI events, as `data:` frames with LF
 * line ends (the framing `@ag-ui/client` splits on), in the order its event verifier enforces:
 *
 * - `RUN_STARTED {threadId, runId}` first;
 * - the assistant's text as one message, `TEXT_MESSAGE_START {messageId, role: "assistant"}`,
 *   `TEXT_MESSAGE_CONTENT`, and `TEXT_MESSAGE_END` when the response (or the step) finishes;
 * - reasoning as a reasoning span and message (`REASONING_START`, `REASONING_MESSAGE_START
 *   {role: "reasoning"}`, `REASONING_MESSAGE_CONTENT`, `REASONING_MESSAGE_END`, `REASONING_END`),
 *   closed when text or a call begins; with the `encryptedValue` option, a block's provider state as
 *   `REASONING_ENCRYPTED_VALUE {subtype: "message", entityId}` on its reasoning message, which then ends;
 * - each call as `TOOL_CALL_START {toolCallId, toolCallName, parentMessageId}` (the assistant
 *   message, so that all calls of a response land in it), `TOOL_CALL_ARGS` per fragment, and
 *   `TOOL_CALL_END` when it completes (an invalid call too, once what follows shows no stop cut
 *   it; not one an abnormal finish cut, which fails the run, nor one held at a fault). A call
 *   without an id gets a generated one; calls the provider ran itself are left out;
 * - with tools run at the edge: each call's result or error as {@link resultEvent} writes it;
 * - `RUN_FINISHED {threadId, runId}` at the end, with every message and call closed (token
 *   `usage` when the provider reported it); or `RUN_ERROR {message, code}` (with the `usage` reported before it) for a provider error, an abort or
 *   a loop's failed model call (`call-failed`), after which nothing is sent. A call the response cut short is never ended.
 *
 * Choices other than the first are not shown, nor events of a type the encoder does not know.
 * A tool loop's steps each get their own assistant message.
 *
 * @example
 * ```ts
 * const encoder = new AGUIEncoder({ threadId: input.threadId, runId: input.runId });
 * const out: string[] = [];
 * for (const event of events) encoder.encode(event, out);
 * encoder.end(out);
 * out.join(""); // 'data: {"type":"RUN_STARTED","threadId":"t1","runId":"r1"}\n\n...'
 * ```
 */
export class AGUIEncoder implements ProtocolEncoder<EncodableEvent> {
  readonly #run: { threadId: string; runId: string };
  readonly #reasoning: AGUIReasoning;
  readonly #generate: () => string;
  readonly #ids: CallIds;
  readonly #calls = new Map<string, AGUICall>();
  readonly #skipped = new Set<string>();
  readonly #usage: Usage[] = [];
  /** The invalid calls held ({@link holding}), each with the runner's answer to it once that came. */
  readonly #held: (InvalidToolCallEvent | ToolResultEvent | ToolErrorEvent)[] = [];
  #messageId: string;
  #started = false;
  #step: number | undefined;
  #text = false;
  /** Why a loop's model call failed (its last `error`), for a `loop-finish` of reason `call-failed`. */
  #lastError: AbortEvent["error"];
  #ended = false;
  readonly #newMessageId = (): string => prefixedId(this.#generate, "msg_");

  /** Creates the core; see {@link AGUIEncoderOptions} (an option it does not know is a `TypeError`). */
  constructor(options: AGUIEncoderOptions) {
    this.#run = aguiRun(options);
    this.#reasoning = new AGUIReasoning(this.#newMessageId, options.reasoning ?? true, options.encryptedValue);
    this.#generate = options.generateId ?? randomId;
    this.#ids = new CallIds(this.#generate);
    this.#messageId = options.messageId ?? this.#newMessageId();
  }

  /** True once `RUN_ERROR` or `RUN_FINISHED` went out. */
  get ended(): boolean {
    return this.#ended;
  }

  /** Appends the AG-UI events of one event to `out`. */
  encode(event: EncodableEvent, out: string[]): void {
    if (this.#ended || ("choice" in event && event.choice !== undefined && event.choice !== 0)) return;
    this.#begin(event, out);
    // An invalid call waits for what follows (a withdrawn one ends at once, never cut by the refusal after it).
    if (event.type === "invalid-tool-call" && !withdrawn(event)) return void this.#held.push(event);
    // The runner's answer to a held call waits with it: its result goes out after its TOOL_CALL_END.
    const answer = (event.type === "tool-result" || event.type === "tool-error") && callKey(event);
    if (answer && this.#held.some((held) => callKey(held) === answer)) return void this.#held.push(event);
    if (!holding(event)) this.#release(out);
    switch (event.type) {
      case "text-delta":
        return this.#textDelta(event.text, out);
      case "reasoning-part":
        return isRefusal(event.part) ? this.#textDelta(event.part.value, out) : this.#reasoning.part(event.part, out);
      case "reasoning-delta":
        return this.#reasoning.delta(event.text, out);
      case "tool-call-start":
        return void this.#start(event, out);
      case "tool-call-delta":
        return this.#args(event, out);
      case "tool-call-violation": {
        const call = this.#calls.get(callKey(event));
        if (call && !call.ended) out.push(sseData(violationEvent(call.id, event.error)));
        return;
      }
      case "tool-call":
      case "invalid-tool-call":
        return this.#end(event, out);
      case "tool-result":
      case "tool-error":
        return this.#result(event, out);
      case "error":
        this.#lastError = event.error;
        if (event.error.code === "provider-error") this.#fail(event.error, out);
        return;
      case "finish":
        if (event.usage) this.#usage.push(event.usage);
        if (event.reason === "error") return this.#fail(failedFinish(event), out);
        // A call a `length`, filter or `other` finish cut never ends: the run fails.
        if (cutBy(this.#held, event)) return this.#fail(cutCallError(event.reason), out);
        this.#release(out);
        return this.#closeMessages(out);
      case "abort":
        return this.#fail(abortError(event as AbortEvent), out);
      case "step-finish":
        return this.#closeMessages(out);
      case "loop-finish":
        if (event.reason !== "call-failed") return this.end(out);
        return this.#fail(abortError(callFailure(this.#lastError)), out);
    }
  }

  /**
   * Appends `RUN_FINISHED` once every message is closed (the invalid calls held end first, as content
   * after them would end them), or `RUN_ERROR` if another call is still open: a fault, which leaves them open.
   */
  end(out: string[]): void {
    if (this.#ended) return;
    this.#open(out);
    const keys = new Set(this.#held.map(callKey));
    if ([...this.#calls].some(([key, call]) => !call.ended && !keys.has(key)))
      return this.#fail({ code: "input-ended", message: "The response ended before it finished." }, out);
    this.#release(out);
    this.#closeMessages(out);
    out.push(sseData({ type: "RUN_FINISHED", ...this.#run, ...this.#usageField() }));
    this.#ended = true;
  }

  #open(out: string[]): void {
    if (this.#started) return;
    this.#started = true;
    out.push(sseData({ type: "RUN_STARTED", ...this.#run }));
  }

  /** `RUN_STARTED` once; each step of a tool loop is a new assistant message. */
  #begin(event: EncodableEvent, out: string[]): void {
    this.#open(out);
    if (isLoopEvent(event)) return;
    const step = stepOf(event);
    if (step === this.#step) return;
    if (this.#step !== undefined) {
      this.#closeMessages(out);
      this.#messageId = this.#newMessageId();
      this.#ids.nextStep();
      this.#calls.clear();
      this.#skipped.clear();
    }
    this.#step = step;
  }

  #textDelta(delta: string, out: string[]): void {
    if (delta === "") return;
    this.#reasoning.close(out);
    if (!this.#text) out.push(sseData({ type: "TEXT_MESSAGE_START", messageId: this.#messageId, role: "assistant" }));
    this.#text = true;
    out.push(sseData({ type: "TEXT_MESSAGE_CONTENT", messageId: this.#messageId, delta }));
  }

  #closeMessages(out: string[]): void {
    this.#reasoning.close(out);
    if (this.#text) out.push(sseData({ type: "TEXT_MESSAGE_END", messageId: this.#messageId }));
    this.#text = false;
  }

  #start(
    event: ToolCallStartEvent | CompletedToolCallEvent | InvalidToolCallEvent,
    out: string[],
    args = "",
  ): AGUICall | undefined {
    const key = callKey(event);
    if (event.type !== "invalid-tool-call" && event.providerExecuted) {
      this.#skipped.add(key);
      return undefined;
    }
    this.#reasoning.close(out);
    const call: AGUICall = { id: this.#ids.assign(key, event.id), sent: [], ended: false };
    this.#calls.set(key, call);
    const start = { toolCallId: call.id, toolCallName: event.name, parentMessageId: this.#messageId };
    out.push(sseData({ type: "TOOL_CALL_START", ...start }));
    if (args !== "") this.#send(call, args, out);
    return call;
  }

  #send(call: AGUICall, delta: string, out: string[]): void {
    pushSent(call.sent, delta);
    out.push(sseData({ type: "TOOL_CALL_ARGS", toolCallId: call.id, delta }));
  }

  #args(event: ToolCallDeltaEvent, out: string[]): void {
    const call = this.#calls.get(callKey(event));
    if (call && !call.ended && event.argumentsDelta !== "") this.#send(call, event.argumentsDelta, out);
  }

  #end(event: CompletedToolCallEvent | InvalidToolCallEvent, out: string[]): void {
    const key = callKey(event);
    if (this.#skipped.has(key)) return;
    const known = this.#calls.get(key);
    const final = finalArguments(event);
    const call = known ?? this.#start(event, out, final);
    if (!call || call.ended) return;
    const sent = call.sent.join("");
    // Final arguments that extend what streamed are sent in full; AG-UI only appends, so a replacement cannot be told.
    if (known && sent !== final && final.startsWith(sent)) this.#send(call, final.slice(sent.length), out);
    call.sent = [];
    call.ended = true;
    out.push(sseData({ type: "TOOL_CALL_END", toolCallId: call.id }));
  }

  /** Ends the invalid calls held, each followed by the runner's answer to it, in the order they came. */
  #release(out: string[]): void {
    for (const held of this.#held.splice(0))
      if (held.type === "invalid-tool-call") this.#end(held, out);
      else this.encode(held, out);
  }

  /** AG-UI has one result per call (each is a tool message): a streaming tool's results so far go as CUSTOM events. */
  #result(event: ToolResultEvent | ToolErrorEvent, out: string[]): void {
    const call = this.#calls.get(callKey(event));
    if (call?.ended) out.push(sseData(resultEvent(event, call.id, this.#newMessageId)));
  }

  /** `RUN_ERROR` ({@link runError}), after closing the text and reasoning (complete as far as they went); a call cut short stays open. */
  #fail(error: Parameters<typeof runError>[0], out: string[]): void {
    this.#closeMessages(out);
    out.push(sseData({ ...runError(error), ...this.#usageField() }));
    this.#ended = true;
  }

  /** The tokens the run spent so far, as `RUN_FINISHED` and `RUN_ERROR` both carry them (AG-UI's `usage`). */
  #usageField(): { usage?: Record<string, number>[] } {
    const usage = this.#usage.map(tokenUsage);
    return usage.length > 0 ? { usage } : {};
  }
}
