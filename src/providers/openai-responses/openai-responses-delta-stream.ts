import type { SSEMessage } from "../../framing/framing.ts";
import type { JsonValue } from "../../shared/json.ts";
import { arrayOf, isRecord, nonEmptyString, ownValue } from "../../shared/values.ts";
import { eventType, providerError, readJsonObject } from "../payload.ts";
import { ProviderDecoderStream, type DecoderLimits, type Emit, type ProviderDecoder } from "../provider-decoder.ts";
import { readUsage } from "../usage.ts";
import { boundedApprovalRequest } from "./openai-responses-approvals.ts";
import { ResponsesBuiltInCalls } from "./openai-responses-built-in-calls.ts";
import { RESPONSES_FINISH_REASONS } from "./openai-responses-finish-reasons.ts";
import { builtInCallsMissing, type OpenAIResponsesDeltaStreamOptions } from "./openai-responses-options.ts";
import { responsesOptions } from "./openai-responses-options.ts";
import { ResponsesFinalText } from "./openai-responses-final-text.ts";
import { ResponsesFastDelta } from "./responses-fast-delta.ts";
import { SequenceReorderer } from "./sequence-reorderer.ts";

type Payload = Record<string, unknown>;

/** Item types that are tool calls, and whether their input is free text rather than JSON. */
const CALL_ITEMS: Record<string, boolean> = { function_call: false, custom_tool_call: true };

/** Kept whole, sent back in place: programs, server tools' outputs, tools made available, the items of tools OpenAI ran. */
const KEPT =
  /^(compaction|tool_search_output|additional_tools|mcp_list_tools|program|program_output|shell_call_output|(web_search|code_interpreter|image_generation|file_search)_call)$/;
/** The built-in tools' items that are calls, which only the `builtInCalls` plug-in reads. */
const BUILT_IN_ITEMS = /^(apply_patch|shell|local_shell|mcp|tool_search|computer)_call$/;

/**
 * OpenAI Responses API streaming events to normalized deltas (also Azure, DeepSeek and LM Studio Responses endpoints). A `function_call` output item is a call
 * whose id is its `call_id` (not the item id) and whose index is its `output_index`; it completes at `function_call_arguments.done`, whose arguments end what
 * streamed. `custom_tool_call` items carry free text, kept as a string and never parsed. Events are put back in `sequence_number` order within a bounded
 * window; exact duplicates are dropped and a gap that never fills is reported rather than waited for. A `reasoning` item, at its `output_item.done`, becomes a
 * `reasoning-part` delta (its id, `encrypted_content`, `summary` and raw reasoning `content`), in stream order: a manually passed-back turn must repeat it
 * before its calls. A refusal is a `refusal` field part, not text, with the id of its `message` item, which the next turn sends back with the refusal as its
 * `refusal` part: at its `response.refusal.done`, else at its item's end, else at the response's or the input's end with what its deltas streamed (a stream
 * cut before `.done` keeps the refusal it streamed, as it keeps its text). The built-in client tools' items (`apply_patch_call`, `shell_call`,
 * `local_shell_call`, `computer_call`) are calls the application runs, and an `mcp_call` a call the provider ran (see {@link ResponsesBuiltInCalls}). A
 * `function_call` of a tool that tool search loaded keeps its `namespace` on `providerMetadata.responsesItem`, which its item must carry back. With
 * programmatic tool calling, a `function_call` made by a program carries a `caller` (`{ type: "program", caller_id }`), kept on the call's
 * `providerMetadata.responsesItem`, and the `program` item that made it (its `code` and the `fingerprint` that "must be round-tripped") on its
 * `providerMetadata.responsesProgram`: the next turn sends the program item back before its calls, and each call with its caller. An `mcp_approval_request`
 * item (a remote MCP tool OpenAI runs only once the application approves it) is an `approval-request` delta at its `output_item.done`, never a call, and
 * bounded as one (`ResponsesApprovals`). A `compaction` item (the context compacted), a server tool's output item (`tool_search_output` of a server tool
 * search, `program_output`, a hosted shell's `shell_call_output`) and a tool OpenAI ran (`web_search_call`, ...) are kept blocks, sent back in place; with
 * `builtInCalls`, also a `providerExecuted` call right before its block. So are `additional_tools` (tools made available from it on) and `mcp_list_tools`
 * items (an MCP server's tools). A call whose item never came done ends with its item in `response.completed`; one never announced (a gateway sends its item
 * only done, or only in that output) starts there, known by its item id, else by its place there. A message's text that no delta streamed (a gateway's: only
 * in `output_text.done`, `output_item.done` or `response.completed`) comes from the first ({@link ResponsesFinalText}). A reasoning summary's parts are joined
 * with a blank line, as Codex shows them; a `reasoning-delta` says whether it is the summary or the raw reasoning (`field`, either name of its events).
 *
 * @example
 * ```ts
 * const events = response.body!
 *   .pipeThrough(new SSEDecoderStream())
 *   .pipeThrough(new OpenAIResponsesDeltaStream())
 *   .pipeThrough(new ToolCallAccumulatorStream());
 * ```
 */
export class OpenAIResponsesDeltaStream extends ProviderDecoderStream {
  /** Creates the stage; an option it does not know is a `TypeError`. */
  constructor(options: OpenAIResponsesDeltaStreamOptions = {}) {
    responsesOptions(options);
    super((emit) => new OpenAIResponsesDecoder(emit, { builtInCalls: ResponsesBuiltInCalls, ...options }));
  }
}

/**
 * The pure decoder behind {@link OpenAIResponsesDeltaStream}: one instance per response.
 *
 * @example
 * ```ts
 * const deltas: ProviderDelta[] = [];
 * const decoder = new OpenAIResponsesDecoder((delta) => deltas.push(delta));
 * for (const message of messages) decoder.decode(message);
 * decoder.end();
 * ```
 */
export class OpenAIResponsesDecoder implements ProviderDecoder {
  readonly #emit: Emit;
  readonly #reorderer: SequenceReorderer<Payload>;
  /** Output index of each call item, by item id, for events that carry only `item_id`. */
  readonly #itemIndex = new Map<string, number>();
  /** The output indexes of the calls started: some servers change an item's id between its events (vLLM, mistral.rs). */
  readonly #calls = new Set<number>();
  readonly #builtIns: ResponsesBuiltInCalls | undefined;
  readonly #fast = new ResponsesFastDelta();
  readonly #limits: DecoderLimits;
  #approvals = 0;
  /** The `program` items that completed (programmatic tool calling), by `call_id`, for their calls' metadata (each is kept in its place too). */
  readonly #programs = new Map<string, { responsesProgram: Payload }>();
  /** The refusal each message item streamed, by the item's id, until it is given. */
  readonly #refusals = new Map<string, string>();
  readonly #final = new ResponsesFinalText();

  /** Creates a decoder that reports through `emit`; an option it does not know is a `TypeError`. */
  constructor(emit: Emit, options: OpenAIResponsesDeltaStreamOptions = {}) {
    this.#emit = emit;
    this.#limits = responsesOptions(options);
    this.#builtIns = options.builtInCalls && new options.builtInCalls(emit, options);
    this.#reorderer = new SequenceReorderer<Payload>(
      options.reorderWindow ?? 64,
      (payload) => this.#onEvent(payload),
      (from, to) => {
        const message = `Events ${from} to ${to} never arrived; the stream went on without them.`;
        emit({ type: "error", error: { code: "sequence-gap", message } });
      },
    );
  }

  /** Decodes one SSE message (a delta event, nearly all of a stream, read without its payload object unless held for its order). */
  decode(message: SSEMessage): void {
    const fast = this.#fast;
    const delta = message.value === undefined ? fast.read(message.data) : undefined;
    if (delta !== undefined && this.#reorderer.next(fast.sequence)) return this.#onDelta(fast.type, delta, fast.index);
    const payload = delta === undefined ? readJsonObject(message, this.#emit) : fast.payload(delta);
    if (!payload) return;
    payload["type"] ??= message.event;
    this.#reorderer.push(payload["sequence_number"], payload);
  }

  /** The input ended: release what the reorder window still holds, then each refusal cut before its end. */
  end(): void {
    this.#reorderer.flush();
    this.#refusal();
  }

  /** Gives the refusal kept for a message item (without one: every refusal kept) once, with the item's id. */
  #refusal(item?: string): void {
    for (const [id, value] of this.#refusals)
      if (item === undefined || item === id) {
        this.#refusals.delete(id);
        this.#emit({ type: "reasoning-part", part: { type: "field", field: "refusal", value, id } });
      }
  }

  #onEvent(event: Payload): void {
    const type = String(eventType(event["type"], event));
    const text = nonEmptyString(event["delta"] ?? event["refusal"] ?? (event["summary_index"] && "\n\n")); // a delta, a refusal's whole text, the blank line between a summary's parts (Codex's section break)
    const id = event["item_id"] as string;
    switch (type) {
      case "response.output_item.added":
        return this.#onItemAdded(event);
      case "response.function_call_arguments.delta":
      case "response.custom_tool_call_input.delta":
      case "response.mcp_call_arguments.delta":
        return this.#onArguments(event, text);
      case "response.function_call_arguments.done":
      case "response.custom_tool_call_input.done":
        return this.#onArgumentsDone(event, event["arguments"] ?? event["input"]);
      case "response.output_item.done":
        return this.#onItemDone(event);
      case "response.refusal.delta": // kept until its `.done` gives it whole (else its item's end, the response's, the input's)
        if (text) this.#refusals.set(id, (this.#refusals.get(id) ?? "") + text);
        return this.#builtIns?.event(type, event, -1); // for the plug-in's bound (`ResponsesCitations`)
      case "response.refusal.done":
        if (text) this.#refusals.set(id, text);
        return this.#refusal(id);
      case "response.output_text.delta":
      case "response.reasoning_summary_part.added":
      case "response.reasoning_summary_text.delta":
      case "response.reasoning_text.delta":
      case "response.reasoning.delta": // Open Responses' name of `reasoning_text.delta` (its spec, vLLM, Ollama)
        return this.#onDelta(type, text, 0);
      case "response.output_text.done": // its text, when no delta streamed it (a gateway's)
        return this.#final.done(event, this.#emit);
      case "response.completed":
      case "response.incomplete":
      case "response.failed":
        return this.#onEnd(event, type);
      case "error": // a bare `{"error": ...}` (no `type`: vLLM's, SGLang's) is their stream's last: no `response.failed` follows
        this.#emit(providerError(event));
        return void (event["type"] ?? this.#emit({ type: "done" }));
      default: // a built-in call's own events (diff, commands), at -1 those of no item (`response.created`)
        if (type === "response.created" || type === "response.in_progress") this.#final.open();
        this.#builtIns?.event(type, event, this.#indexOf(event) ?? -1);
    }
  }

  #onItemAdded(event: Payload): void {
    const item = event["item"];
    const index = event["output_index"];
    if (!isRecord(item) || typeof index !== "number") return;
    const type = String(item["type"]);
    const builtIn = this.#builtIns
      ? this.#builtIns.added(item, index)
      : BUILT_IN_ITEMS.test(type) && builtInCallsMissing(type);
    const text = ownValue(CALL_ITEMS, type);
    if (!builtIn && text === undefined) return;
    const itemId = nonEmptyString(item["id"]);
    if (itemId) this.#itemIndex.set(itemId, index);
    if (builtIn) return;
    this.#calls.add(index);
    const id = nonEmptyString(item["call_id"]) ?? itemId;
    const name = nonEmptyString(item["name"]);
    // What its item must carry back: a tool search tool's `namespace` ("Round-trip the model's function_call
    // item with its namespace field included", OpenAI's 400 says), a program's call's `caller` and program.
    const caller = item["caller"];
    const namespace = item["namespace"];
    this.#emit({
      type: "tool-call-chunk",
      index,
      ...(id && { id }),
      ...(name && { name }),
      ...(text && { inputFormat: "text" as const }),
      ...((isRecord(caller) || typeof namespace === "string") && {
        providerMetadata: {
          responsesItem: {
            type,
            ...(typeof namespace === "string" && { namespace }),
            ...(isRecord(caller) && { caller }),
          },
          ...(isRecord(caller) && this.#programs.get(String(caller["caller_id"]))),
        },
      }),
    });
  }

  /** A delta event read fast (or a text's, reasoning's): a call's argument fragment (the item at `index`'s), a text's or reasoning's delta. */
  #onDelta(type: string, text: string | undefined, index: number): void {
    if (!text) return;
    if (type.endsWith("arguments.delta")) this.#emit({ type: "tool-call-chunk", index, argumentsDelta: text });
    else if (type === "response.output_text.delta") this.#final.delta(text, this.#emit);
    else this.#emit({ type: "reasoning-delta", text, field: type.includes("summary") ? "summary" : "content" });
  }

  #indexOf(event: Payload): number | undefined {
    const index = event["output_index"];
    return typeof index === "number" ? index : this.#itemIndex.get(event["item_id"] as string);
  }

  #onArguments(event: Payload, fragment: string | undefined): void {
    const index = this.#indexOf(event);
    if (index !== undefined && fragment) this.#emit({ type: "tool-call-chunk", index, argumentsDelta: fragment });
  }

  /** A call's end; an MCP call's arguments end before it ran, and the call ends with its item, which holds its output. */
  #onArgumentsDone(event: Payload, final: unknown): void {
    const index = this.#indexOf(event);
    if (index === undefined || this.#builtIns?.has(index)) return;
    this.#emit({ type: "tool-call-end", index, ...(typeof final === "string" && { arguments: final }) });
  }

  /** Keeps a reasoning item; starts a call never announced, ends one whose `.done` never came (a complete call ignores it), unless the item is `incomplete` (the limit cut it: the finish judges it, a fault discards it). */
  #onItemDone(event: Payload): void {
    const item = event["item"];
    if (!isRecord(item)) return;
    const type = String(item["type"]);
    const index = this.#indexOf(event);
    if (index !== undefined && this.#builtIns?.done(item, index)) return;
    if (type === "message") this.#final.item(item, index, this.#emit); // its text, when nothing gave it
    if (type === "message") return this.#refusal(String(item["id"])); // its `.done` never came
    const id = nonEmptyString(item["id"]);
    const request = type === "mcp_approval_request" && boundedApprovalRequest(item, ++this.#approvals, this.#limits);
    if (request) return this.#emit({ type: "approval-request", request });
    const block = item as { [key: string]: JsonValue };
    if (type === "program") this.#programs.set(String(item["call_id"]), { responsesProgram: item });
    if (KEPT.test(type)) return this.#emit({ type: "reasoning-part", part: { type: "block", block } });
    if (type === "reasoning" && id) {
      const { summary, content } = item; // `content`: the raw reasoning (gpt-oss's), which goes back
      const encryptedContent = nonEmptyString(item["encrypted_content"]);
      return this.#emit({
        type: "reasoning-part",
        part: {
          type: "item",
          id,
          ...(encryptedContent && { encryptedContent }),
          ...(Array.isArray(summary) && { summary }),
          ...(Array.isArray(content) && content.length > 0 && { content }),
        },
      });
    }
    if (ownValue(CALL_ITEMS, type) === undefined) return;
    if (!this.#calls.has(index!)) this.#onItemAdded(event);
    if (item["status"] !== "incomplete") this.#onArgumentsDone(event, item["arguments"] ?? item["input"]);
  }

  #onEnd(event: Payload, type: string): void {
    const response = isRecord(event["response"]) ? event["response"] : {};
    const output = type === "response.completed" ? response["output"] : undefined;
    for (const [at, item] of arrayOf(output).entries()) // by its item id, else its place (a server that renames a streamed call's ids keeps it)
      if (isRecord(item) && ownValue(CALL_ITEMS, String(item["type"])) !== undefined)
        this.#onItemDone({ item, output_index: this.#itemIndex.get(item["id"] as string) ?? at });
      else if (isRecord(item) && item["type"] === "message") this.#final.item(item, at, this.#emit);
    this.#refusal();
    const usage = readUsage(response["usage"], ["input_tokens"], ["output_tokens"], ["total_tokens"], {
      cacheRead: ["input_tokens_details.cached_tokens"],
      cacheWrite: ["input_tokens_details.cache_write_tokens"],
      reasoning: ["output_tokens_details.reasoning_tokens"],
    });
    if (usage) this.#emit({ type: "usage", usage });
    const moderation = response["moderation"]; // OpenAI's moderated completions: the input's and the output's results
    if (isRecord(moderation)) this.#emit({ type: "moderation", moderation });
    if (type === "response.failed" && isRecord(response["error"]))
      this.#emit(providerError(response["error"], "The provider reported that the response failed."));
    const status = nonEmptyString(response["status"]) ?? type.slice("response.".length);
    const why = nonEmptyString((response["incomplete_details"] as Payload | null)?.["reason"]) ?? status; // an incomplete one's raw reason (one not in the table is `other`)
    const reason = ownValue(RESPONSES_FINISH_REASONS, why) ?? "other";
    this.#emit({ type: "finish", rawReason: why, reason });
    this.#emit({ type: "done" });
  }
}
