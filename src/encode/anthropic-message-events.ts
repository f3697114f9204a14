import { isRefusal } from "./refusal.ts";
import { callKey } from "../shared/call-key.ts";
import type { ProviderErrorKind } from "../shared/errors.ts";
import type { ReasoningPart, Usage } from "../shared/deltas.ts";
import type { AbortEvent, CompletedToolCallEvent, FinishEvent, InvalidToolCallEvent } from "../shared/events.ts";
import type { JsonValue } from "../shared/json.ts";
import { isRecord, phaseOf } from "../shared/values.ts";
import { isAnthropicBlock } from "../providers/anthropic/anthropic-messages.ts";
import { BlockSequencer, type SequencedBlock } from "./block-sequencer.ts";
import { anthropicStopDetails } from "./anthropic-stop-details.ts";
import { isCohereSource, isGrounding, isOpenAIAnnotation } from "./citations.ts";
import { CallIds, prefixedId, randomId } from "./call-ids.ts";
import {
  anthropicContainer,
  anthropicError,
  anthropicStopReason,
  anthropicUsage,
  ownSignature,
  type AnthropicContentBlock,
  type AnthropicMessagesEncoderOptions,
  type AnthropicStreamEvent,
} from "./anthropic-messages-wire.ts";
import { abortError, type EncodableEvent, failedFinish, resultOfSkipped, withdrawn } from "./protocol-encoder.ts";
import { endsAnswer } from "./protocol-encoder.ts";
import { cutBy, cutCallError, finalArguments, holding } from "./cut-calls.ts";

/** The message of an input that ended without a finish or an abort. */
export const INPUT_ENDED = { code: "input-ended", message: "The response ended before it finished." };

/**
 * The library's events to Messages stream events (objects), the rules both the SSE encoder and
 * the non-streaming reader follow: `message_start` first, blocks through a {@link BlockSequencer}
 * (indices 0, 1, 2, ... in the order they open, one open at a time), one `message_delta`, then
 * `message_stop`; or an `error` event, after which nothing is written. At a fault, a call cut
 * short is left open, never stopped (a stopped `tool_use` reads as complete), and the blocks that
 * waited behind it (text, a complete call) open after it, each at the next index, before the error.
 */
export class AnthropicMessageEvents {
  readonly #emit: (event: AnthropicStreamEvent) => void;
  readonly #options: AnthropicMessagesEncoderOptions;
  readonly #signature: (part: ReasoningPart) => string | undefined;
  readonly #ids: CallIds;
  readonly #blocks: BlockSequencer;
  readonly #skipped = new Set<string>();
  /** Invalid calls not stopped yet: one an abnormal finish cut comes right before it. */
  readonly #held: InvalidToolCallEvent[] = [];
  #started = false;
  #calls = 0;
  #ended = false;

  /** Writes through `emit`. */
  constructor(emit: (event: AnthropicStreamEvent) => void, options: AnthropicMessagesEncoderOptions) {
    this.#emit = emit;
    this.#options = options;
    this.#signature = options.signature ?? ownSignature;
    this.#ids = new CallIds(options.generateId ?? randomId);
    this.#blocks = new BlockSequencer({
      open: (block) =>
        this.#emit({ type: "content_block_start", index: block.index, content_block: opening(block, this.#ids) }),
      delta: (block, fragment) => {
        // A free-text call's input goes whole at its end, as the JSON object a Messages tool takes.
        if (block.kind !== "call" || !block.textInput)
          this.#emit({ type: "content_block_delta", index: block.index, delta: delta(block, fragment) });
      },
      close: (block) => this.#close(block),
      citedTextEndsBlock: true,
    });
  }

  /** True once `message_stop` or an `error` went out. */
  get ended(): boolean {
    return this.#ended;
  }

  /** Takes one event. */
  add(event: EncodableEvent): void {
    if (this.#ended || ("choice" in event && event.choice !== undefined && event.choice !== 0)) return;
    if ("step" in event && typeof event.step === "number" && event.step > 1) return; // one message: a loop's first step (steps count from 1)
    // Content after an invalid call: no stop cut it (it goes out as the model wrote it).
    if (!holding(event)) this.#release();
    switch (event.type) {
      case "text-delta":
      case "reasoning-delta":
        this.#start();
        return this.#blocks.text(event.type === "text-delta" ? "text" : "reasoning", event.text);
      case "reasoning-part":
        if (isRefusal(event.part)) return this.add({ type: "text-delta", text: event.part.value });
        // OpenAI Responses' message phase is no Messages block (nor is Gemini's grounding).
        if (resultOfSkipped(event.part, this.#skipped) || isGrounding(event.part) || phaseOf(event.part)) return;
        this.#start();
        return this.#blocks.reasoningPart(event.part);
      case "tool-call-start":
      case "tool-call":
      case "invalid-tool-call": {
        const key = callKey(event);
        if (event.providerExecuted) {
          // Anthropic's own server call (its block on `providerMetadata.anthropicBlock`) is that
          // block, whole at its end, its result after it; any other provider-executed call is left
          // out, and so is its result (by the call's id).
          const block = event.type === "tool-call" ? serverCallBlock(event) : undefined;
          if (block) {
            this.#start();
            return this.#blocks.reasoningPart({ type: "block", block });
          }
          this.#skipped.add(key);
          if (event.type === "invalid-tool-call" || !isRecord(event.providerMetadata?.["anthropicBlock"]))
            this.#skipped.add(String(event.id));
          return;
        }
        // A call the provider withdrew before anything of it was shown is not shown at all.
        if (this.#skipped.has(key) || (withdrawn(event) && !this.#blocks.hasCall(key))) return;
        this.#start();
        if (event.type === "tool-call-start") return this.#blocks.startCall(event);
        return event.type === "invalid-tool-call" ? void this.#held.push(event) : this.#blocks.endCall(event);
      }
      case "tool-call-delta":
        return this.#blocks.callDelta(callKey(event), event.argumentsDelta);
      case "usage":
        // Only before the first block: a stream that already started waits for the finish's counts.
        return this.#start(event.usage);
      case "finish":
        return event.reason === "error" ? this.#fail(failedFinish(event)) : this.#finish(event);
      case "error":
        if (endsAnswer(event.error)) this.#fail(event.error);
        return;
      case "abort":
        return this.#fail(abortError(event as AbortEvent));
    }
  }

  /** The input ended: an error unless the message already ended. */
  end(): void {
    if (!this.#ended) this.#fail(INPUT_ENDED);
  }

  /** `message_start`, once: with the provider's early usage when it came first (Anthropic, Gemini), else zeros. */
  #start(usage?: Usage): void {
    if (this.#started) return;
    this.#started = true;
    const id = this.#options.id ?? prefixedId(this.#options.generateId ?? randomId, "msg_");
    this.#emit({
      type: "message_start",
      message: {
        id,
        type: "message",
        role: "assistant",
        model: this.#options.model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        stop_details: null,
        usage: anthropicUsage(usage),
      },
    });
  }

  #close(block: SequencedBlock): void {
    const part =
      block.kind === "reasoning" || (block.kind === "kept" && !isAnthropicBlock(block.part.block))
        ? block.part
        : undefined;
    const signature = part ? this.#signature(part) : undefined;
    if (signature !== undefined)
      this.#emit({ type: "content_block_delta", index: block.index, delta: { type: "signature_delta", signature } });
    // Anthropic's citations of the text, each as a citations_delta, as Anthropic streams them
    // (OpenAI's annotations and Cohere's sources have no Anthropic citation that says as much: left out).
    for (const span of block.kind === "text" ? block.cited : [])
      for (const citation of span.citations.filter(
        (citation) => !isOpenAIAnnotation(citation) && !isCohereSource(citation),
      ))
        this.#emit({ type: "content_block_delta", index: block.index, delta: { type: "citations_delta", citation } });
    // A withdrawn call (cut off by Anthropic's fallback) went out as Anthropic sent it, but is no call to run.
    if (block.kind === "call" && !(block.completion && withdrawn(block.completion))) {
      this.#calls++;
      const sent = block.sent.join("");
      const rest = remainder(sent, block.completion ? finalArguments(block.completion) : sent, block.textInput);
      if (rest !== "") this.#emit({ type: "content_block_delta", index: block.index, delta: delta(block, rest) });
    }
    this.#emit({ type: "content_block_stop", index: block.index });
  }

  #finish(event: FinishEvent): void {
    this.#start();
    // A call cut by a length stop cannot be run: `max_tokens`, as Anthropic itself reports a
    // response that ran out inside a tool_use block (which it stops), so no client runs its partial
    // input; one cut by a filter (Gemini's SAFETY, RECITATION) the same: `refusal`, never
    // `tool_use`. An `other` finish (Gemini's OTHER, a body that ended with no finish) cuts a call
    // as well, and no stop_reason says so (at `end_turn` the SDK's partial input reads as a call to
    // run): the response fails, as a Responses one does, the cut call never stopped.
    const cut = cutBy(this.#held, event);
    if (cut && event.reason === "other") return this.#fail(cutCallError("other"));
    this.#release();
    this.#blocks.finish();
    const usage = anthropicUsage(event.usage);
    const stop_reason = anthropicStopReason(event.reason, event.rawReason, this.#calls > 0 && !cut);
    this.#emit({
      type: "message_delta",
      delta: {
        stop_reason,
        stop_sequence: (stop_reason === "stop_sequence" && event.stopSequence) || null,
        // The container the provider named goes to the client as Anthropic sends it, for its next request.
        ...(event.container && { container: anthropicContainer(event.container) }),
        // Why the classifiers declined, on a `refusal` stop; `null` on any other, as Anthropic sends it.
        stop_details: stop_reason === "refusal" ? anthropicStopDetails(event.refusal) : null,
      },
      usage: event.usage?.inputTokens === undefined ? { output_tokens: usage.output_tokens } : usage,
    });
    this.#emit({ type: "message_stop" });
    this.#ended = true;
  }

  /** Stops the invalid calls held, in the order they came. */
  #release(): void {
    for (const call of this.#held.splice(0)) this.#blocks.endCall(call);
  }

  #fail(error: { code: string; message: string; kind?: ProviderErrorKind }): void {
    this.#start();
    // The calls held or still open are dropped; what waited behind them goes out (an open text stays open).
    this.#blocks.fault();
    this.#emit({ type: "error", error: anthropicError(error) });
    this.#ended = true;
  }
}

/** Anthropic's server call (`server_tool_use`, `mcp_tool_use`) as the block it came as, with its caller. */
function serverCallBlock(event: CompletedToolCallEvent): { [key: string]: JsonValue } | undefined {
  const block = event.providerMetadata?.["anthropicBlock"];
  if (!isRecord(block)) return undefined;
  const caller = event.providerMetadata?.["caller"];
  return {
    ...(block as { [key: string]: JsonValue }),
    id: event.id,
    name: event.name,
    input: event.arguments,
    ...(isRecord(caller) ? { caller: caller as { [key: string]: JsonValue } } : {}),
  };
}

/** The `content_block` of a `content_block_start`: empty, its content follows as deltas. */
function opening(block: SequencedBlock, ids: CallIds): AnthropicContentBlock {
  switch (block.kind) {
    case "text":
      return { type: "text", text: "" };
    case "reasoning":
      return { type: "thinking", thinking: "", signature: "" };
    case "redacted":
      return { type: "redacted_thinking", data: block.part.data };
    case "kept":
      // Another provider's block (a Gemini Interactions built-in tool's step) is no Messages
      // block: a thinking block, which carries it in its signature when the `signature` option
      // gives one (a client sends a thinking block back unchanged).
      if (!isAnthropicBlock(block.part.block)) return { type: "thinking", thinking: "", signature: "" };
      // Whole at its start, as the SDK's MessageStream keeps a block: it goes back as it came.
      return { ...block.part.block } as AnthropicContentBlock;
    case "call": {
      const { caller, toolsetName } = block.start.providerMetadata ?? {};
      return {
        type: "tool_use",
        id: ids.assign(callKey(block.start), block.start.id),
        name: block.start.name,
        input: {},
        // The client sends these back with the call: programmatic tool calling's caller, a toolset member's toolset.
        ...(isRecord(caller) && { caller: caller as { [key: string]: JsonValue } }),
        ...(typeof toolsetName === "string" && { toolset_name: toolsetName }),
      };
    }
  }
}

type BlockDelta = Extract<AnthropicStreamEvent, { type: "content_block_delta" }>["delta"];

function delta(block: SequencedBlock, fragment: string): BlockDelta {
  if (block.kind === "reasoning") return { type: "thinking_delta", thinking: fragment };
  if (block.kind === "call") return { type: "input_json_delta", partial_json: fragment };
  return { type: "text_delta", text: fragment };
}

/**
 * What a call's `partial_json` still lacks at its end: the rest when the final arguments extend
 * what streamed, `{}` for a call with no arguments (the concatenation must parse), the whole
 * input as `{"input": ...}` for a free-text call (Messages tools take JSON objects only). A
 * provider that replaced its streamed arguments cannot be told in a protocol that only appends.
 */
function remainder(sent: string, final: string, text: boolean): string {
  if (text) return JSON.stringify({ input: final });
  if (final === "" && sent === "") return "{}";
  return final !== sent && final.startsWith(sent) ? final.slice(sent.length) : "";
}
