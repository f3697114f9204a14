import { callKey } from "../shared/call-key.ts";
import type { ReasoningPart } from "../shared/deltas.ts";
import type { AbortEvent, FinishEvent, InvalidToolCallEvent } from "../shared/events.ts";
import { BlockSequencer, type SequencedBlock } from "./block-sequencer.ts";
import { CallIds, prefixedId, randomId } from "./call-ids.ts";
import { citedText, isGrounding, responsesAnnotations } from "./citations.ts";
import { approvalBlock, approvalItemOf, BuiltInCalls, responsesCallFields } from "./openai-responses-built-in.ts";
import {
  outputText,
  ownEncryptedContent,
  responsesError,
  responsesUsage,
  type OpenAIResponse,
  type OpenAIResponsesEncoderOptions,
  type OpenAIResponsesError,
  type OpenAIResponsesOutputItem,
} from "./openai-responses-wire.ts";
import type { OpenAIResponsesStreamEvent, SendResponsesEvent } from "./openai-responses-stream-events.ts";
import { responseSettings } from "./openai-response-settings.ts";
import { phaseOf } from "../shared/values.ts";
import { responsesModeration } from "./moderation.ts";
import { isRefusal, openingPart, placeRefusal, refusalBlock, refusalOf, writeRefusal } from "./refusal.ts";
import { cutCallError, finalArguments, holding, responsesIncomplete } from "./cut-calls.ts";
import { abortError, type EncodableEvent, failedFinish, resultOfSkipped, withdrawn } from "./protocol-encoder.ts";
import { endsAnswer } from "./protocol-encoder.ts";

/**
 * The library's events to Responses stream events (objects), the rules both the SSE encoder and
 * the non-streaming reader follow: `response.created` and `response.in_progress` first, output
 * items through a {@link BlockSequencer} (appended one at a time, each added, streamed and done
 * before the next), then `response.completed`, `.incomplete` or `.failed` with the whole output.
 * An event holds the response and its items as they are, not copies: `emit` serializes it at once
 * (the SSE encoder) or keeps only the terminal one (the non-streaming builder).
 */
export class OpenAIResponseEvents {
  readonly #emit: (event: OpenAIResponsesStreamEvent) => void;
  readonly #generate: () => string;
  readonly #encrypted: (part: ReasoningPart) => string | undefined;
  readonly #now: () => number;
  readonly #ids: CallIds;
  readonly #builtIns: BuiltInCalls;
  readonly #blocks: BlockSequencer;
  readonly #response: OpenAIResponse;
  readonly #skipped = new Set<string>();
  /** Each open block's item, by the block's index (its `output_index`). */
  readonly #items: OpenAIResponsesOutputItem[] = [];
  #sequence = 0;
  #started = false;
  #ended = false;
  /** A length or content-filter stop cuts the response: the item still open ends `incomplete`. */
  #cut = false;
  /** Invalid calls not closed yet: one a length or content-filter stop cut comes before the `finish` that says so. */
  readonly #held: InvalidToolCallEvent[] = [];
  /** The `phase` of the message item opened next (`commentary`, `final_answer`), when the provider gave one. */
  #phase: string | undefined;

  /** Writes through `emit`. */
  constructor(emit: (event: OpenAIResponsesStreamEvent) => void, options: OpenAIResponsesEncoderOptions) {
    this.#emit = emit;
    this.#generate = options.generateId ?? randomId;
    this.#encrypted = options.encryptedContent ?? ownEncryptedContent;
    this.#ids = new CallIds(this.#generate);
    this.#builtIns = new BuiltInCalls(options.builtInTools);
    this.#now = options.now ?? Date.now;
    this.#response = {
      id: options.id ?? prefixedId(this.#generate, "resp_"),
      object: "response",
      created_at: options.createdAt ?? Math.floor(this.#now() / 1000),
      completed_at: null,
      status: "in_progress",
      error: null,
      incomplete_details: null,
      model: options.model,
      output: [],
      usage: null,
      ...responseSettings(options.settings),
    };
    this.#blocks = new BlockSequencer({
      open: (block) => this.#open(block),
      delta: (block, fragment) => this.#delta(block, fragment),
      close: (block) => this.#close(block),
    });
  }

  /** True once the terminal event went out. */
  get ended(): boolean {
    return this.#ended;
  }

  /** Takes one event. */
  add(event: EncodableEvent): void {
    if (this.#ended || ("choice" in event && event.choice !== undefined && event.choice !== 0)) return;
    if ("step" in event && typeof event.step === "number" && event.step > 1) return; // one response: a loop's first step (steps count from 1)
    this.#start();
    // Content after an invalid call: no stop cut it (the model's bad JSON goes back to it, `completed`).
    if (!holding(event)) this.#release();
    switch (event.type) {
      case "text-delta":
      case "reasoning-delta":
        return this.#blocks.text(event.type === "text-delta" ? "text" : "reasoning", event.text);
      case "reasoning-part":
        // A message's phase (OpenAI Responses'): the message before it ends, and the message opened next has it.
        this.#phase = phaseOf(event.part) ?? this.#phase;
        if (phaseOf(event.part) !== undefined) return this.#blocks.endText();
        if (isRefusal(event.part)) return this.#blocks.reasoningPart(refusalBlock(event.part.value)); // a message of its own
        // Citations (Gemini's grounding too) annotate text; a kept block (Anthropic's compaction) is an encrypted reasoning item.
        if (citedText(event.part) || isGrounding(event.part)) return this.#blocks.reasoningPart(event.part);
        if (event.part.type === "block" && this.#encrypted(event.part) === undefined) return;
        return resultOfSkipped(event.part, this.#skipped) ? undefined : this.#blocks.reasoningPart(event.part);
      case "tool-call-start":
      case "tool-call":
      case "invalid-tool-call": {
        const key = callKey(event);
        // A provider-executed call is left out, and so is its result (by the call's id).
        if (event.type !== "invalid-tool-call" && event.providerExecuted) this.#skipped.add(key).add(String(event.id));
        // A call the provider withdrew (Anthropic's fallback) before anything of it was shown is not shown at all.
        if (this.#skipped.has(key) || (withdrawn(event) && !this.#blocks.hasCall(key))) return;
        if (event.type === "tool-call-start") return this.#blocks.startCall(event);
        return event.type === "invalid-tool-call" ? void this.#held.push(event) : this.#blocks.endCall(event);
      }
      case "tool-call-delta":
        return this.#blocks.callDelta(callKey(event), event.argumentsDelta);
      case "approval-request": // written whole, in its place: its item goes back as it came
        return this.#blocks.reasoningPart(approvalBlock(event));
      case "finish":
        return event.reason === "error" ? this.fail(failedFinish(event)) : this.#finish(event);
      case "error":
        if (endsAnswer(event.error)) this.fail(event.error);
        return;
      case "abort":
        return this.fail(abortError(event as AbortEvent));
    }
  }

  /** The input ended: a failed response unless it already ended. */
  end(): void {
    this.#start();
    if (!this.#ended) this.fail({ code: "input-ended", message: "The response ended before it finished." });
  }

  // The fields are `type`'s by the signature; TypeScript cannot join a correlated union back.
  readonly #send: SendResponsesEvent = (type, fields) =>
    this.#emit({ type, sequence_number: this.#sequence++, ...fields } as unknown as OpenAIResponsesStreamEvent);

  #start(): void {
    if (this.#started) return;
    this.#started = true;
    this.#send("response.created", { response: this.#response });
    this.#send("response.in_progress", { response: this.#response });
  }

  #open(block: SequencedBlock): void {
    if (this.#builtIns.defers(block)) return;
    const kind =
      refusalOf(block) !== undefined ? "text" : block.kind === "call" && block.textInput ? "custom" : block.kind;
    const id = prefixedId(this.#generate, PREFIX[kind]);
    const item: OpenAIResponsesOutputItem =
      (block.kind === "kept" && approvalItemOf(block.part)) ||
      (kind === "text"
        ? { type: "message", id, status: "in_progress", role: "assistant", content: [], ...this.#takePhase() }
        : block.kind === "call"
          ? {
              ...(block.textInput
                ? { type: "custom_tool_call" as const, input: "" }
                : { type: "function_call" as const, arguments: "" }),
              id,
              status: "in_progress",
              call_id: this.#ids.assign(callKey(block.start), block.start.id),
              name: block.start.name,
              ...responsesCallFields(block.start.providerMetadata),
            }
          : { type: "reasoning", id, status: "in_progress", summary: [] });
    this.#items[block.index] = item;
    this.#send("response.output_item.added", { output_index: block.index, item });
    const at = { item_id: item.id, output_index: block.index, content_index: 0 };
    if (item.type === "message") this.#send("response.content_part.added", { ...at, part: openingPart(block) });
  }

  /** The phase kept for the next message item, once. */
  #takePhase(): { phase?: string } {
    const phase = this.#phase;
    this.#phase = undefined;
    return phase === undefined ? {} : { phase };
  }

  #delta(block: SequencedBlock, delta: string): void {
    if (this.#builtIns.holds(block)) return;
    const item = this.#items[block.index]!;
    const at = { item_id: item.id, output_index: block.index };
    if (item.type === "message")
      return this.#send("response.output_text.delta", { ...at, content_index: 0, delta, logprobs: [] });
    if (item.type === "function_call") return this.#send("response.function_call_arguments.delta", { ...at, delta });
    if (item.type === "custom_tool_call") return this.#send("response.custom_tool_call_input.delta", { ...at, delta });
    if (block.sent.length === 1)
      this.#send("response.reasoning_summary_part.added", { ...at, summary_index: 0, part: summary("") });
    this.#send("response.reasoning_summary_text.delta", { ...at, summary_index: 0, delta });
  }

  #close(block: SequencedBlock): void {
    if (this.#builtIns.holds(block) && block.kind === "call") {
      const callId = this.#ids.assign(callKey(block.start), block.start.id);
      const item = this.#builtIns.write(block, this.#generate(), callId, this.#send);
      if (item) return void this.#response.output.push(item);
      this.#open(block);
    }
    const item = this.#items[block.index]!;
    const at = { item_id: item.id, output_index: block.index };
    const text = block.sent.join("");
    if (refusalOf(block) !== undefined) writeRefusal(item, block, at, this.#send);
    else if (item.type === "message") {
      // The provider's citations of the text (Anthropic's) as the part's annotations, each announced.
      const annotations = block.kind === "text" ? responsesAnnotations(block.cited) : [];
      const part = { ...at, content_index: 0 };
      annotations.forEach((annotation, annotation_index) =>
        this.#send("response.output_text.annotation.added", { ...part, annotation_index, annotation }),
      );
      this.#send("response.output_text.done", { ...part, text, logprobs: [] });
      this.#send("response.content_part.done", { ...part, part: outputText(text, annotations) });
      Object.assign(item, { status: this.#cut ? "incomplete" : "completed", content: [outputText(text, annotations)] });
      writeRefusal(item, block, at, this.#send); // a refusal that stopped the text, after it
    } else if (item.type === "function_call" || item.type === "custom_tool_call") {
      // The arguments as the provider completed them (a `.done` value may extend or replace what streamed).
      const completion = block.kind === "call" ? block.completion : undefined;
      const final = completion ? finalArguments(completion, true) : text;
      // A repaired call's closing rest is one more delta (`.done` says what they said); a repair no closing makes, `.done` alone.
      if (final !== text && final.startsWith(text)) this.#delta(block, final.slice(text.length));
      const status = this.#cut && completion?.type === "invalid-tool-call" ? "incomplete" : "completed";
      if (item.type === "function_call") {
        this.#send("response.function_call_arguments.done", { ...at, name: item.name, arguments: final });
        Object.assign(item, { status, arguments: final });
      } else {
        this.#send("response.custom_tool_call_input.done", { ...at, input: final });
        Object.assign(item, { status, input: final });
      }
    } else if (item.type === "reasoning") {
      if (text !== "") {
        this.#send("response.reasoning_summary_text.done", { ...at, summary_index: 0, text });
        this.#send("response.reasoning_summary_part.done", { ...at, summary_index: 0, part: summary(text) });
        item.summary = [summary(text)];
      }
      const part = "part" in block ? block.part : undefined; // reasoning, redacted or kept
      const encrypted = part && this.#encrypted(part);
      if (encrypted !== undefined) item.encrypted_content = encrypted;
      // Open Responses: every item has a status (OpenAI's reasoning items have none).
      item.status = this.#cut ? "incomplete" : "completed";
    }
    this.#response.output.push(item);
    this.#send("response.output_item.done", { output_index: block.index, item });
  }

  #finish(event: FinishEvent): void {
    // Open Responses has no incomplete reason for an `other` stop (Gemini's OTHER): a call it cut fails the response.
    if (event.reason === "other" && this.#held.length > 0) return this.fail(cutCallError("other"));
    const incomplete = responsesIncomplete(event);
    this.#cut = incomplete !== undefined && incomplete !== "steered"; // a steered answer's items are whole
    // Why the provider's classifiers declined (Anthropic's `stop_details`): a refusal content part, last.
    if (event.refusal?.explanation) placeRefusal(this.#blocks, event.refusal.explanation);
    this.#release();
    this.#blocks.finish();
    this.#response.status = incomplete ? "incomplete" : "completed";
    if (incomplete) this.#response.incomplete_details = { reason: incomplete };
    else this.#response.completed_at = Math.floor(this.#now() / 1000);
    this.#response.usage = responsesUsage(event.usage);
    Object.assign(this.#response, responsesModeration(event.moderation)); // OpenAI's moderated completions
    this.#terminal(incomplete ? "response.incomplete" : "response.completed");
  }

  /**
   * Ends with a failed response: an open message or reasoning item is closed `completed` (Open Responses
   * keeps `incomplete` for incomplete responses). A call cut short (or invalid, held) is discarded:
   * never sent `output_item.done` (Codex runs every `function_call` sent done, whatever its status) nor
   * in the failed output; what waited behind it is then written, added and done.
   */
  fail(error: OpenAIResponsesError): void {
    if (this.#ended) return;
    this.#start();
    this.#blocks.finish(); // closes the open text
    this.#blocks.fault(); // a call still open is dropped, what waited behind it goes out
    this.#response.status = "failed";
    const failure = responsesError(error);
    this.#response.error = { code: failure.code, message: failure.message };
    // "Any error incurred while streaming will be followed by a `response.failed` event" (Open Responses).
    this.#send("error", { error: failure });
    this.#terminal("response.failed");
  }

  /** Closes the invalid calls held, in the order they came. */
  #release(): void {
    for (const event of this.#held.splice(0)) this.#blocks.endCall(event);
  }

  #terminal(type: "response.completed" | "response.incomplete" | "response.failed"): void {
    this.#ended = true;
    this.#send(type, { response: this.#response });
  }
}

const PREFIX = { text: "msg_", reasoning: "rs_", redacted: "rs_", kept: "rs_", call: "fc_", custom: "ctc_" } as const;
const summary = (text: string): { type: "summary_text"; text: string } => ({ type: "summary_text", text });
