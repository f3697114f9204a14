import type { SSEMessage } from "../../framing/framing.ts";
import type { ToolCallChunkDelta } from "../../shared/deltas.ts";
import type { JsonValue } from "../../shared/json.ts";
import { jsonText, type JsonWriter } from "../../shared/json-text.ts";
import { ToolCallStreamError } from "../../shared/errors.ts";
import { arrayOf, isRecord, nonEmptyString, ownValue, withChoice } from "../../shared/values.ts";
import { providerError, readJsonObject } from "../payload.ts";
import { ProviderDecoderStream, type DecoderLimits, type Emit, type ProviderDecoder } from "../provider-decoder.ts";
import { decoderLimits } from "../decoder-limits.ts";
import { readUsage } from "../usage.ts";
import { GEMINI_FINISH_REASONS } from "./gemini-finish-reasons.ts";
import { GeminiGrounding } from "./gemini-grounding.ts";
import { applyPartialArg, type Container } from "./gemini-partial-args.ts";

/**
 * The keys of the parts the model's turn holds besides text and calls, kept as `block` reasoning
 * parts and sent back as they came: a server tool's `toolCall` and `toolResponse`, code execution's
 * parts, a generated image (`inlineData`) too, with the signature Gemini 3 image models put on it.
 *
 * @example
 * ```ts
 * const kept = GEMINI_KEPT_PARTS.some((key) => key in part); // a part of a Gemini turn's content
 * ```
 */
export const GEMINI_KEPT_PARTS: readonly string[] = [
  "toolCall",
  "toolResponse",
  "executableCode",
  "codeExecutionResult",
  "inlineData",
];

/** A Vertex call whose arguments stream as `partialArgs`, per candidate. */
interface StreamedCall {
  index: number;
  name: string;
  args: Container;
  /** What its arguments keep so far (see `applyPartialArg`): bounded by `maxArgumentsLength`. */
  length: number;
}

/**
 * Google Gemini `streamGenerateContent?alt=sse` (Gemini API and Vertex AI) to normalized deltas.
 *
 * Gemini sends each `functionCall` whole: it becomes a start, one argument delta and a complete
 * call at once, with consecutive indexes across chunks. Vertex's streamed arguments
 * (`streamFunctionCallArguments`) open a call with `name` and `willContinue`, fill it with
 * `partialArgs` (`jsonPath` plus a value; strings are appended while `willContinue`) in parts that
 * may repeat its `name`, and close it with a part without `willContinue` (an empty `functionCall`);
 * what such a call keeps is bounded as it grows by the accumulator's `maxArgumentsLength` (past it,
 * a `ToolCallStreamError` of code `arguments-too-large` ends the stream).
 * Gemini sends no ids (`id` is `null` unless a `functionCall.id` comes) and no `[DONE]`: the chunk
 * where every candidate has finished (not `CONTINUATION`), with the usage, ends the response.
 * A `thoughtSignature` is kept on the call's `providerMetadata`: it must go back next turn. One on
 * another part (Gemini 3 signs a turn without calls in its last part, often an empty text) becomes a
 * `signed` reasoning part with no text, which the next turn puts back on its text part. A server
 * tool's `toolCall` and `toolResponse` parts (Gemini 3's tool combination) and code execution's
 * `executableCode` and `codeExecutionResult` parts become `block` reasoning parts, whole (with their
 * `id` and signature), which the next turn sends back in their place. The first candidate's
 * `groundingMetadata`, `citationMetadata` and `urlContextMetadata` are kept for the app ({@link GeminiGrounding}).
 * A long decode cut by the per-request limit finishes `CONTINUATION` with the candidate's latest
 * `continuationToken` (a checkpoint's, when that chunk has none) on its finish, to go on with; the
 * grounding kept so far goes out before that finish (a continuation's grounding is its own).
 *
 * @example
 * ```ts
 * const events = response.body!
 *   .pipeThrough(new SSEDecoderStream())
 *   .pipeThrough(new GeminiDeltaStream())
 *   .pipeThrough(new ToolCallAccumulatorStream());
 * ```
 */
export class GeminiDeltaStream extends ProviderDecoderStream {
  /**
   * Creates the stage; `limits.maxArgumentsLength` bounds a streamed call as it grows, in
   * characters (as the accumulator's, 4 Mi by default). An option it does not know is a `TypeError`.
   */
  constructor(limits: DecoderLimits = {}) {
    decoderLimits(limits);
    super((emit) => new GeminiDecoder(emit, limits, new GeminiGrounding()));
  }
}

/**
 * The pure decoder behind {@link GeminiDeltaStream}: one instance per response.
 *
 * @example
 * ```ts
 * const deltas: ProviderDelta[] = [];
 * const decoder = new GeminiDecoder((delta) => deltas.push(delta));
 * for (const message of messages) decoder.decode(message);
 * decoder.end();
 * ```
 */
export class GeminiDecoder implements ProviderDecoder {
  readonly #emit: Emit;
  /** How this response's objects are written as JSON text (its messages' own writer, or `jsonText`). */
  #write: JsonWriter = jsonText;
  readonly #nextIndex = new Map<number, number>();
  readonly #streamed = new Map<number, StreamedCall>();
  readonly #maxLength: number;
  readonly #grounding: GeminiGrounding | undefined;
  /** Each candidate's latest `continuationToken` (the checkpoints' too), for a `CONTINUATION` finish. */
  readonly #tokens: (string | undefined)[] = [];
  /** The candidates seen that have not finished yet; whether a finish (or a blocked prompt) was read. */
  readonly #open = new Set<number>();
  #finished = false;

  /**
   * Creates a decoder for one response that reports through `emit`, bounded by the accumulator's
   * `limits`, keeping the first candidate's grounding and citations with `grounding` (none: left out);
   * a name in `limits` that is no limit (another stage's option) is a `TypeError`.
   */
  constructor(emit: Emit, limits: DecoderLimits = {}, grounding?: GeminiGrounding) {
    decoderLimits(limits);
    this.#emit = emit;
    this.#maxLength = limits.maxArgumentsLength ?? 4194304;
    this.#grounding = grounding;
  }

  /**
   * The input ended, or failed. Gemini sends no end marker: a call still open (Vertex's
   * `willContinue` without its closing part) is cut (see `#close`) and left to the accumulator's end,
   * which discards it. The grounding kept (`GeminiGrounding`) goes out.
   */
  end(): void {
    this.#streamed.forEach((_, choice) => this.#close(choice, this.#emit, true));
    this.#grounding?.end(this.#emit);
  }

  /** Decodes one SSE message. */
  decode(message: SSEMessage): void {
    this.#write = message.jsonText ?? jsonText;
    const emit = this.#emit;
    const payload = readJsonObject(message, emit);
    if (!payload) return;
    // Gemini's error object is the stream's last (an SSE event or the JSON array's last element).
    if (isRecord(payload["error"])) {
      emit(providerError(payload["error"]));
      this.end();
      return emit({ type: "done" });
    }
    // Before the chunk's content: the first chunk's prompt count is known before any output is shown.
    const usage = readUsage(
      payload["usageMetadata"],
      ["promptTokenCount"],
      ["candidatesTokenCount"],
      ["totalTokenCount"],
      {
        cacheRead: ["cachedContentTokenCount"],
        reasoning: ["thoughtsTokenCount"],
        // Gemini counts the thoughts apart from the output; they are output too (billed so, and in the total).
        reasoningApart: true,
      },
    );
    if (usage?.totalTokens !== undefined) {
      this.#grounding?.usage(usage);
      emit({ type: "usage", usage });
    }
    const candidates = arrayOf(payload["candidates"]);
    candidates.forEach((candidate, position) => {
      if (isRecord(candidate))
        this.#onCandidate(candidate, typeof candidate["index"] === "number" ? candidate["index"] : position, emit);
    });
    const feedback = payload["promptFeedback"] as { blockReason?: unknown; blockReasonMessage?: unknown } | null;
    const blockReason = nonEmptyString(feedback?.blockReason);
    if (blockReason !== undefined && candidates.length === 0) {
      // The prompt itself was blocked, no candidate to come: a refusal (as the AI SDK reads it), not a
      // failure, so a client shows why where its protocol can; Vertex says why, as a `finishMessage`.
      const said = nonEmptyString(feedback?.blockReasonMessage);
      emit({
        type: "finish",
        rawReason: blockReason,
        reason: "content-filter",
        ...(said && { refusal: { explanation: said } }),
      });
      this.#finished = true;
    }
    // No end marker, and a finish means "the model stopped generating tokens": every candidate finished
    // and the usage read (here or in a trailing chunk) is the end, a body held open after it not waited
    // on. A `CONTINUATION` is none: the Worker reads its next hop through this decoder.
    if (this.#finished && !this.#open.size && usage?.totalTokens !== undefined) {
      this.end();
      emit({ type: "done" });
    }
  }

  #onCandidate(candidate: Record<string, unknown>, choice: number, emit: Emit): void {
    // Any value's `parts` is safe to read (a primitive has none); only an array of them is read.
    const parts = arrayOf((candidate["content"] as { parts?: unknown } | null | undefined)?.parts);
    for (const part of parts) if (isRecord(part)) this.#onPart(part, choice, emit);
    this.#grounding?.candidate(candidate, choice, emit);
    const token = (this.#tokens[choice] = nonEmptyString(candidate["continuationToken"]) ?? this.#tokens[choice]);
    const reason = nonEmptyString(candidate["finishReason"]);
    if (reason === undefined) return void this.#open.add(choice);
    this.#open.delete(choice);
    if (reason !== "CONTINUATION") this.#finished = true;
    // A normal finish ends a streamed call that never got its closing part; any other cuts it, and
    // the accumulator reports it invalid: its arguments were still coming.
    this.#close(choice, emit, reason !== "STOP");
    const normalized = ownValue(GEMINI_FINISH_REASONS, reason) ?? "other";
    // A failed finish's own words: a filter's are its refusal's explanation (as Anthropic's `stop_details`),
    // an error's ("Malformed function call: <the model's code>") the data of a provider error, as a failed
    // response's; only the first candidate's, the one the turn is (the accumulator keeps its finish's alone).
    const said = nonEmptyString(candidate["finishMessage"]);
    if (said && !choice && normalized === "error")
      emit(
        providerError({ finishReason: reason, finishMessage: said }, "The provider reported that the response failed."),
      );
    emit(
      withChoice(
        {
          type: "finish",
          rawReason: reason,
          reason: normalized,
          // Only a CONTINUATION can be resumed (the SDK's `isResumableFinishReason`).
          ...(reason === "CONTINUATION" && token && { continuationToken: token }),
          ...(said && normalized === "content-filter" && { refusal: { explanation: said } }),
        },
        choice,
      ),
    );
  }

  #onPart(part: Record<string, unknown>, choice: number, emit: Emit): void {
    const text = nonEmptyString(part["text"]);
    if (text !== undefined)
      emit(withChoice({ type: part["thought"] === true ? "reasoning-delta" : "text-delta", text }, choice));
    const call = part["functionCall"];
    const signature = nonEmptyString(part["thoughtSignature"]);
    if (!isRecord(call)) {
      // A server tool's call or response (Gemini 3's tool combination), code the model ran and
      // its result, or an image it made: kept whole, its `id` and signature with it, to go back in
      // its place ("The client is expected to echo this message back to the API").
      if (choice !== 0) return;
      if (GEMINI_KEPT_PARTS.some((key) => isRecord(part[key])))
        return emit({ type: "reasoning-part", part: { type: "block", block: part as { [key: string]: JsonValue } } });
      if (signature !== undefined) emit({ type: "reasoning-part", part: { type: "signed", text: "", signature } });
      return;
    }
    const name = nonEmptyString(call["name"]);
    // A continuation may repeat the open call's name with its `partialArgs` (python-genai's history
    // of such a turn does); the name with none (a start, whole `args`) is another call.
    if (name === undefined || (name === this.#streamed.get(choice)?.name && call["partialArgs"]))
      return this.#continue(call, choice, emit);
    this.#close(choice, emit);
    const index = this.#nextIndex.get(choice) ?? 0;
    this.#nextIndex.set(choice, index + 1);
    const chunk: ToolCallChunkDelta = withChoice({ type: "tool-call-chunk", index, name }, choice);
    const id = nonEmptyString(call["id"]);
    if (id !== undefined) chunk.id = id;
    if (signature !== undefined) chunk.providerMetadata = { thoughtSignature: signature };
    if (call["willContinue"] === true) {
      emit(chunk);
      this.#streamed.set(choice, { index, name, args: Object.create(null) as Container, length: 0 });
      return this.#continue(call, choice, emit);
    }
    const args = call["args"];
    chunk.argumentsDelta = (isRecord(args) && this.#write(args)) || "{}";
    emit(chunk);
    emit(withChoice({ type: "tool-call-end", index }, choice));
  }

  /** `partialArgs` of the open streamed call; its last part ("willContinue: Whether this is the last part") closes it. */
  #continue(call: Record<string, unknown>, choice: number, emit: Emit): void {
    const open = this.#streamed.get(choice);
    if (!open) return;
    for (const partial of arrayOf(call["partialArgs"])) {
      // Checked as it grows: the accumulator sees the arguments only at the close.
      if (isRecord(partial) && (open.length += applyPartialArg(open.args, partial)) > this.#maxLength)
        throw new ToolCallStreamError({
          code: "arguments-too-large",
          message: `Tool call arguments exceeded the limit of ${this.#maxLength} characters.`,
        });
    }
    if (call["willContinue"] !== true) this.#close(choice, emit);
  }

  /**
   * Ends the open streamed call; `cut` (a fault or a stop before its last part), the accumulator
   * gets what it received as its arguments so far, for the call it discards or reports invalid (as
   * every other provider's `rawArguments`): their JSON text up to its last quote, the start of the
   * text the call would have had, and never a whole value (the object stays open).
   */
  #close(choice: number, emit: Emit, cut?: boolean): void {
    const open = this.#streamed.get(choice);
    if (!open) return;
    this.#streamed.delete(choice);
    const text = this.#write(open.args)!;
    const { index } = open;
    emit(
      withChoice(
        cut
          ? { type: "tool-call-chunk", index, argumentsDelta: text.slice(0, text.lastIndexOf('"')) }
          : { type: "tool-call-end", index, arguments: text },
        choice,
      ),
    );
  }
}
