import type { FramedMessage, SSEMessage } from "../framing/framing.ts";
import { ownText } from "../shared/kept-text.ts";
import { isRecord } from "../shared/values.ts";
import { messageLines } from "./openai-chat/openai-chat-delta-stream.ts";
import { ProviderDecoderStream, type DecoderLimits, type Emit, type ProviderDecoder } from "./provider-decoder.ts";
import { decoderLimits } from "./decoder-limits.ts";
import { createProviderDecoder, PROVIDERS, providerProtocol, type Provider } from "./registry.ts";
import { parseJsonText } from "../shared/long-member-name.ts";

/** Anthropic's event types; `ping` is sent only by Anthropic. */
const ANTHROPIC_EVENTS = new Set([
  "message_start",
  "content_block_start",
  "content_block_delta",
  "content_block_stop",
  "message_delta",
  "message_stop",
  "ping",
]);
/** Cohere v2's event types (kebab-case, unlike every other protocol's). */
const COHERE_EVENTS = new Set([
  "message-start",
  "content-start",
  "content-delta",
  "content-end",
  "tool-plan-delta",
  "tool-call-start",
  "tool-call-delta",
  "tool-call-end",
  "citation-start",
  "citation-end",
  "message-end",
]);

/**
 * At most this many messages that cannot tell the protocol (error events) wait for its decoder;
 * past it they go to the lenient fallback at once, so a stream of them is never buffered whole.
 */
const MAX_HELD = 64;

/** OpenAI Responses' `keepalive`, which carries nothing: never held. */
function isKeepalive(message: FramedMessage): boolean {
  if (!message.data.includes("keepalive")) return false;
  try {
    const payload: unknown = message.value ?? parseJsonText(message.data);
    return isRecord(payload) && payload["type"] === "keepalive";
  } catch {
    return false;
  }
}

/**
 * Tells the protocol from one framed message: `undefined` when this message cannot tell (an error
 * event, whose shape several providers share, or a `keepalive`), `null` when it is no known protocol. A message of
 * the AWS event stream (it has `headers`) is Bedrock's; an NDJSON line with `message` and `done`
 * is Ollama's; Cohere's events have kebab-case types.
 *
 * @example
 * ```ts
 * detectProvider({ event: "message_start", data: '{"type":"message_start","message":{}}' }); // "anthropic"
 * detectProvider({ data: "[DONE]" }); // "openai"
 * detectProvider({ data: '{"model":"llama3.2","message":{"role":"assistant","content":""},"done":false}' }); // "ollama"
 * detectProvider({ event: "interaction.created", data: '{"event_type":"interaction.created","interaction":{"id":"v1_1"}}' }); // "gemini-interactions"
 * ```
 */
export function detectProvider(message: FramedMessage): Provider | null | undefined {
  if (message.headers) return "bedrock";
  if (message.data.trim() === "[DONE]") return "openai";
  // An object already parsed (the main entry's events of a whole response) tells as its text would.
  let payload: unknown = message.value;
  if (payload === undefined)
    try {
      payload = parseJsonText(message.data);
    } catch {
      // Chunks joined by single newlines (GLM and Kimi behind some gateways; the Chat stage splits
      // them back): the first line tells.
      const [first] = messageLines(message);
      if (first && first.data !== message.data) return detectProvider(first);
      // Not JSON: no protocol sends that; a final event cut short is reported by the decoder instead.
      return message.truncated ? undefined : null;
    }
  if (!isRecord(payload)) return null;
  const type = message.event ?? (typeof payload["type"] === "string" ? payload["type"] : undefined);
  // An error, or OpenAI Responses' `keepalive` (a stream resumed after `starting_after` can open
  // with one): either could come before any protocol's events, so the next message tells.
  if (
    type === "error" ||
    type === "keepalive" ||
    (type === undefined && Object.keys(payload).length === 1 && "error" in payload)
  )
    return undefined;
  if (type !== undefined && ANTHROPIC_EVENTS.has(type)) return "anthropic";
  if (type !== undefined && COHERE_EVENTS.has(type)) return "cohere";
  if (type?.startsWith("response.")) return "openai-responses";
  // Gemini Interactions names each event in `event_type` (`interaction.created`, `step.delta`, the legacy `content.delta`).
  if (typeof payload["event_type"] === "string" && /^(?:interaction|step|content)\./.test(payload["event_type"]))
    return "gemini-interactions";
  if ("candidates" in payload || "promptFeedback" in payload || "usageMetadata" in payload) return "gemini";
  if ("choices" in payload || String(payload["object"]).startsWith("chat.completion")) return "openai";
  if (isRecord(payload["message"]) && typeof payload["done"] === "boolean") return "ollama";
  return null;
}

/**
 * The provider stage when the protocol is not known in advance: it tells it from the first
 * message that can tell, then decodes every message with that provider's decoder. Error events
 * before that (their shape is shared) are held and decoded once the protocol is known (past 64,
 * by the Chat Completions decoder at once, the most lenient); keepalives before it are dropped. A stream it
 * cannot recognize gets one `error` of code `unknown-provider` naming the `provider` option, and
 * its messages are dropped: the accumulator then ends with `abort`, never a hang.
 *
 * @example
 * ```ts
 * const events = response.body!
 *   .pipeThrough(new SSEDecoderStream())
 *   .pipeThrough(new ProviderDetectStream())
 *   .pipeThrough(new ToolCallAccumulatorStream());
 * ```
 */
export class ProviderDetectStream extends ProviderDecoderStream {
  /**
   * Creates the stage; `limits` go to the decoder of the protocol detected, as its own stage takes
   * them. A name that is none of them is a `TypeError`.
   */
  constructor(limits: DecoderLimits = {}) {
    decoderLimits(limits);
    super((emit) => new DetectingDecoder(emit, limits));
  }
}

/** The synchronous core of {@link ProviderDetectStream}, a {@link ProviderDecoder} for any protocol. */
export class DetectingDecoder implements ProviderDecoder {
  readonly #emit: Emit;
  readonly #limits: DecoderLimits | undefined;
  readonly #held: SSEMessage[] = [];
  #decoder: ProviderDecoder | undefined;
  /** Decodes what cannot tell the protocol once too much of it came, and at the end. */
  #fallback: ProviderDecoder | undefined;
  #failed = false;
  /** The protocol once told. */
  provider: Provider | undefined;

  /**
   * Creates a decoder that reports through `emit`; the one it picks gets `limits` (the accumulator's,
   * as a named protocol's does). A name in `limits` that is no limit is a `TypeError`.
   */
  constructor(emit: Emit, limits?: DecoderLimits) {
    if (limits) decoderLimits(limits);
    this.#emit = emit;
    this.#limits = limits;
  }

  /** Decodes one SSE message, telling the protocol first if it is not known yet. */
  decode(message: SSEMessage): void {
    if (this.#decoder) return this.#decoder.decode(message);
    if (this.#failed) return;
    const provider = detectProvider(message);
    if (provider === undefined) {
      if (isKeepalive(message)) return;
      // Once past the bound, each later one goes at once: never held again in another batch.
      // Held past its read: its data and id strings of their own, not slices that keep the whole read's text.
      if (this.#held.length < MAX_HELD && !this.#fallback)
        return void this.#held.push({
          ...message,
          data: ownText(message.data),
          ...(message.id && { id: ownText(message.id) }),
        });
      this.#fallback ??= createProviderDecoder("openai", this.#emit);
      for (const each of [...this.#held.splice(0), message]) this.#fallback.decode(each);
      return;
    }
    if (provider === null) {
      this.#failed = true;
      return this.#emit({
        type: "error",
        error: {
          code: "unknown-provider",
          message: `Cannot tell the provider from the stream; pass the provider option (${PROVIDERS.join(", ")}).`,
        },
      });
    }
    this.provider = provider;
    this.#decoder = providerProtocol(provider).createDecoder(this.#emit, this.#limits);
    for (const each of [...this.#held.splice(0), message]) this.#decoder.decode(each);
  }

  /** The input ended (or failed: `fault`, as {@link ProviderDecoder.end} takes it). */
  end(fault?: unknown): void {
    if (this.#decoder) return this.#decoder.end(fault);
    // Only error events came: any protocol reads them; the Chat Completions one is the most lenient.
    // An event-stream exception is never held (its headers tell), so nothing held is Bedrock's.
    const fallback = (this.#fallback ??= createProviderDecoder("openai", this.#emit));
    for (const message of this.#held) fallback.decode(message);
  }
}
