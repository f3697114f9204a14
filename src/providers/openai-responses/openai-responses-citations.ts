import { heldCounter, keptCounter } from "../../shared/errors.ts";
import type { JsonValue } from "../../shared/json.ts";
import { isRecord, nonEmptyString } from "../../shared/values.ts";
import type { DecoderLimits, Emit } from "../provider-decoder.ts";
import { ResponsesBuiltInCalls } from "./openai-responses-built-in-calls.ts";

/**
 * {@link ResponsesBuiltInCalls} that also keeps the annotations of the text (`url_citation`,
 * `file_citation`, `container_file_citation`, `file_path`): an `output_text` part that has any
 * becomes, at its `response.content_part.done` (or its message's `output_item.done`, when that
 * came alone), a `block` reasoning part `{ type: "text", text, annotations, id }`: the part's whole
 * text, its annotations as OpenAI sent them (their `start_index` / `end_index` / `index` count in
 * that text) and the id of its `message` item, which the next turn sends back as that message
 * with its `output_text` part. Anthropic's cited text is the same `text` block with `citations`
 * instead, so the client-protocol encoders read either. The annotations of the done part win; those
 * announced by `response.output_text.annotation.added` stand for a part that came done without
 * them. They count against the accumulator's `maxToolCalls` (as Anthropic's citations do): past
 * it, a `ToolCallStreamError` of code `too-many-tool-calls` ends the stream.
 *
 * It also bounds the refusals the decoder holds until their `.done` (or their item's end): a
 * refusal streams no delta, so no other limit counts it, and an endless one grew until memory ran
 * out. The characters of their deltas, and of each item's id (the decoder keeps one per item),
 * count over the response against `maxTextLength` (4 Mi by default; the main entry's chain gives
 * it): past it, a `ToolCallStreamError` of code `text-too-large` ends the stream, every event
 * before it given. The items with a refusal count against `maxToolCalls` (`too-many-tool-calls`).
 *
 * It also keeps a `message` item's `phase` (`commentary` or `final_answer`, which gpt-5.3-codex and
 * later models send and need back): at its `output_item.added`, before its text, a `block`
 * reasoning part `{ type: "phase", phase }`; the next turn sends the message that follows it with
 * that `phase`, and the Responses encoder writes it on the message item it opens next (ending the
 * one it has open: two messages back to back stay two).
 *
 * It also reads a `custom_tool_call` of a tool the response does not declare (`response.created`'s
 * `tools`, when it lists any, names no tool so) as a call the server ran: xAI's Responses API
 * streams the sub-tools of its own `x_search` tool (`x_keyword_search`, `view_x_video`, ...) so,
 * in the turn that then answers. It is a `providerExecuted` call by its item's id, its input the
 * item's text, never one for the application (a turn of them alone finishes `stop`). A call with a
 * `namespace` (a tool a tool search loaded) stays the application's, and so does every custom call
 * of a response that declares `tool_search` (a client-run search loads tools it does not list).
 *
 * The decoder's `builtInCalls` plug-in: `openAIResponsesProtocol` (the main entry's
 * `streamToolCalls`) reads with it; `OpenAIResponsesDeltaStream` and `tool-call-stream/openai-
 * responses`' `streamToolCalls` take it as `builtInCalls`, so that a bundle that keeps no
 * annotation holds none of this.
 *
 * @example
 * ```ts
 * const events = response.body!
 *   .pipeThrough(new SSEDecoderStream())
 *   .pipeThrough(new OpenAIResponsesDeltaStream({ builtInCalls: ResponsesCitations }))
 *   .pipeThrough(new ToolCallAccumulatorStream());
 * ```
 */
export class ResponsesCitations extends ResponsesBuiltInCalls {
  readonly #emitPart: Emit;
  /** The annotations announced of each `output_text` part not done yet, by `item_id content_index`. */
  readonly #announced = new Map<string, JsonValue[]>();
  /** The parts done (kept or without annotations), so that the item's end does not keep one twice. */
  readonly #done = new Set<string>();
  readonly #counted: (added: number) => void;
  readonly #held: (added: number) => void;
  readonly #items: (added: number) => void;
  /** The ids of the message items whose refusal was counted (each once), as the decoder keys them. */
  readonly #refused = new Set<unknown>();
  /** The names of the tools the response declares, when it lists any. */
  #declared: Set<unknown> | undefined;
  /** The output indexes of the custom calls the server ran (of tools the response does not declare). */
  readonly #ran = new Set<number>();

  /** Reports through `emit`, bounded by the accumulator's `maxToolCalls` (1024 by default) and `maxTextLength` (4 Mi). */
  constructor(emit: Emit, limits: DecoderLimits = {}) {
    super(emit);
    this.#emitPart = emit;
    this.#counted = keptCounter("annotations", limits.maxToolCalls);
    this.#held = heldCounter("refusal", limits.maxTextLength);
    this.#items = keptCounter("refusals", limits.maxToolCalls);
  }

  /** An annotation announced, or an `output_text` part done; any other event is the built-in calls'. */
  override event(type: string, event: Record<string, unknown>, index: number): void {
    const tools = type === "response.created" && isRecord(event["response"]) ? event["response"]["tools"] : undefined;
    // A client-run tool search loads tools the response does not list: then every call is the application's.
    if (
      Array.isArray(tools) &&
      tools.length > 0 &&
      !tools.some((tool) => isRecord(tool) && tool["type"] === "tool_search")
    )
      this.#declared = new Set(tools.map((tool) => isRecord(tool) && tool["name"]));
    if (type === "response.refusal.delta") return this.#refusal(event["item_id"], event["delta"] ?? event["refusal"]);
    const key = `${event["item_id"]} ${event["content_index"]}`;
    if (type === "response.content_part.done") return this.#part(event["item_id"], key, event["part"]);
    if (type !== "response.output_text.annotation.added") return super.event(type, event, index);
    const annotation = event["annotation"];
    if (!isRecord(annotation) || this.#done.has(key)) return;
    this.#counted(1);
    const announced = this.#announced.get(key);
    if (announced) announced.push(annotation as JsonValue);
    else this.#announced.set(key, [annotation as JsonValue]);
  }

  /**
   * `output_item.added`: a message's `phase` is kept before its text; a custom call of a tool the
   * response does not declare opens as the server's; then the built-in calls'.
   */
  override added(item: Record<string, unknown>, index: number): boolean {
    const phase = item["type"] === "message" ? item["phase"] : undefined;
    if (typeof phase === "string")
      this.#emitPart({ type: "reasoning-part", part: { type: "block", block: { type: "phase", phase } } });
    const name = item["name"];
    if (item["type"] !== "custom_tool_call" || item["namespace"] !== undefined || this.#declared?.has(name) !== false)
      return super.added(item, index);
    this.#ran.add(index);
    const id = nonEmptyString(item["id"]) ?? nonEmptyString(item["call_id"]);
    this.#emitPart({
      type: "tool-call-chunk",
      index,
      ...(id && { id }),
      ...(typeof name === "string" && { name }),
      inputFormat: "text",
      providerExecuted: true,
    });
    return true;
  }

  /**
   * `output_item.done`: a message's `output_text` parts not kept yet are kept from it; a custom
   * call the server ran ends with its item's input (ignored once ended); then the built-in calls'.
   */
  override done(item: Record<string, unknown>, index: number): boolean {
    if (this.#ran.has(index)) {
      const input = item["input"];
      this.#emitPart({ type: "tool-call-end", index, ...(typeof input === "string" && { arguments: input }) });
      return true;
    }
    const content = item["type"] === "message" ? item["content"] : undefined;
    if (Array.isArray(content)) content.forEach((part, i) => this.#part(item["id"], `${item["id"]} ${i}`, part));
    return super.done(item, index);
  }

  /**
   * A refusal's delta, as the decoder keeps it: its text, by its item's id, counted with the id the
   * first time (with one for the entry; an id that is an object keys a new entry each time). Each
   * item counts against `maxToolCalls` too: the decoder looks among them at each `.done` and
   * message item's end, so their number bounds that work.
   */
  #refusal(id: unknown, text: unknown): void {
    if (typeof text !== "string" || text === "") return;
    let added = text.length;
    if (!this.#refused.has(id)) {
      this.#refused.add(id);
      this.#items(1);
      added += (typeof id === "string" ? id.length : 0) + 1;
    }
    this.#held(added);
  }

  #part(id: unknown, key: string, part: unknown): void {
    if (this.#done.has(key) || !isRecord(part) || part["type"] !== "output_text") return;
    const text = part["text"];
    if (typeof text !== "string") return;
    this.#done.add(key);
    const announced = this.#announced.get(key) ?? [];
    this.#announced.delete(key);
    const own = Array.isArray(part["annotations"])
      ? (part["annotations"].filter((annotation) => isRecord(annotation)) as JsonValue[])
      : [];
    const annotations = own.length > 0 ? own : announced;
    this.#counted(Math.max(0, annotations.length - announced.length));
    if (annotations.length > 0)
      this.#emitPart({
        type: "reasoning-part",
        part: { type: "block", block: { type: "text", text, annotations, ...(typeof id === "string" ? { id } : {}) } },
      });
  }
}
