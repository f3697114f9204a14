/**
 * The reasoning a provider needs back, carried through whichever agent protocol the client speaks.
 * Each protocol has one opaque field its clients echo unchanged: a Messages thinking block's
 * `signature`, a Responses reasoning item's `encrypted_content` and an AG-UI reasoning message's
 * `encryptedValue`. Anthropic's signature goes in
 * a thinking block as it is; everything else goes sealed, `tcs1.` and the part as base64url JSON:
 * an Anthropic signed or redacted block, or an OpenAI reasoning item with its id (to which OpenAI
 * binds its encrypted content; the encoder gives the item an id of its own), as a Responses item's
 * `encrypted_content`, and an OpenAI reasoning item as a thinking block's `signature`; a Chat
 * Completions thinking model's reasoning field (DeepSeek's `reasoning_content`, which it refuses a
 * tool loop without) and Cohere's thinking item go sealed in either. Coming back, a sealed value is opened
 * into the part it was, and each provider's request takes only its own kind
 * (src/providers/reasoning.ts, the kits' request bodies).
 *
 * A seal is not a secret or a guarantee: a client could forge one, and the provider that receives
 * the part checks it as it checks its own (Anthropic verifies its signatures).
 *
 * @module
 */
import type { JsonValue, ReasoningPart } from "../../src/index.ts";
import { longMemberName } from "../../src/core.ts";
import { reasoningPartAt } from "../request/parse-reasoning.ts";
import { isOpenAIStateItem } from "../request/kept-blocks.ts";
import { isObject, own } from "../request/json-fields.ts";

const MARK = "tcs1.";

/** A part sealed into one opaque string. */
export function sealPart(part: ReasoningPart): string {
  let binary = "";
  for (const byte of new TextEncoder().encode(JSON.stringify(part))) binary += String.fromCharCode(byte);
  return MARK + btoa(binary).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

/** Where a client sent a sealed value back: the field's path in its request, and the provider it goes to. */
export interface SealedAt {
  path: string;
  provider: string;
}

/**
 * The part a sealed string holds, or undefined when it is not one (a provider's own value). Given
 * `at`, one of OpenAI's conversation-state items in it (`compaction_trigger`) is a 400 naming
 * `at.path`, the client's field, unless it goes to OpenAI Responses: the check `/v1/stream` makes
 * of its `reasoning_parts`, whose path in the translated body no client could find.
 */
export function unsealPart(value: string, at?: SealedAt): ReasoningPart | undefined {
  const part = opened(value);
  if (at && part?.type === "block") isOpenAIStateItem(part.block["type"], at.path, at.provider);
  return part;
}

function opened(value: string): ReasoningPart | undefined {
  if (!value.startsWith(MARK)) return undefined;
  const encoded = value.slice(MARK.length).replaceAll("-", "+").replaceAll("_", "/");
  try {
    const binary = atob(encoded + "=".repeat((4 - (encoded.length % 4)) % 4));
    const text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(
      Uint8Array.from(binary, (c) => c.charCodeAt(0)),
    );
    // A member name V8 would intern in quadratic time (src/shared/long-member-name.ts): no seal of ours.
    if (longMemberName(text) !== undefined) return undefined;
    return reasoningPartAt(JSON.parse(text), "");
  } catch {
    // Not a seal of ours after all (altered, or a provider's value that happens to start so): nothing to carry.
    return undefined;
  }
}

/**
 * The `signature` option of the Messages encoder: Anthropic's own, an OpenAI item sealed, the
 * reasoning field of a Chat Completions thinking model (DeepSeek's `reasoning_content`) sealed,
 * Cohere's thinking item sealed, and a Gemini Interactions built-in tool's step (a `block` part) sealed.
 */
export function messagesSignature(part: ReasoningPart): string | undefined {
  if (part.type === "signed") return part.signature;
  // A `field` part, Cohere's `thinking` part, and a `block` part the encoder writes as a thinking block
  // (a Gemini Interactions built-in tool's step; Anthropic's own blocks go whole and never come here).
  if (part.type === "field" || part.type === "thinking" || part.type === "block") return sealPart(part);
  return part.type === "item" && part.encryptedContent !== undefined ? sealPart(part) : undefined;
}

/**
 * The `encrypted_content` option of the Responses encoder: every part sealed, OpenAI's own items
 * too. OpenAI binds an item's encrypted content to the item's id, and the encoder gives the item
 * an id of its own (it opens the item before the provider's id is known): the seal keeps the
 * provider's id with its content.
 */
export function responsesEncryptedContent(part: ReasoningPart): string | undefined {
  return part.type === "item" && part.encryptedContent === undefined ? undefined : sealPart(part);
}

/**
 * The state of a reasoning block for AG-UI and the AI SDK's UI stream, whose clients keep it on
 * the reasoning message or part and send it back: the AG-UI encoder's `encryptedValue` option,
 * and the UI encoder's `reasoningMetadata` ({@link uiReasoningMetadata}). Every part sealed, as a
 * Responses item's content is, but a kept `block` (a Responses message's phase, a server tool's
 * block), which would be a reasoning message or part of no text in the client's history.
 */
export function sealedReasoning(part: ReasoningPart): string | undefined {
  return part.type === "block" ? undefined : responsesEncryptedContent(part);
}

/** The name of the Worker's entry in a UI reasoning part's `providerMetadata`. */
const UI_METADATA = "toolCallStream";

/** The UI encoder's `reasoningMetadata`: `{ toolCallStream: { state } }`, the block {@link sealedReasoning}. */
export function uiReasoningMetadata(part: ReasoningPart): Record<string, Record<string, JsonValue>> | undefined {
  const state = sealedReasoning(part);
  return state === undefined ? undefined : { [UI_METADATA]: { state } };
}

/** The part a UI reasoning part's `providerMetadata` carries back, if the Worker sealed one there. */
export function uiReasoningPart(metadata: unknown, at: SealedAt): ReasoningPart | undefined {
  const entry = isObject(metadata) ? own(metadata, UI_METADATA) : undefined;
  const state = isObject(entry) ? own(entry, "state") : undefined;
  const path = `${at.path}.${UI_METADATA}.state`;
  return typeof state === "string" ? unsealPart(state, { ...at, path }) : undefined;
}
/**
 * The part a Messages thinking block carries back: a sealed one opened, else a signed block of
 * Anthropic's (one without a signature, from a provider that signs nothing, carries nothing).
 */
export function thinkingPart(text: string, signature: string, at: SealedAt): ReasoningPart | undefined {
  if (signature === "") return undefined;
  return unsealPart(signature, at) ?? { type: "signed", text, signature };
}

/**
 * The part a Responses reasoning item carries back: a sealed one opened, else OpenAI's item with
 * its encrypted content (an item without one cannot be sent back: an id alone names a stored
 * response this Worker cannot know is there).
 */
export function reasoningItemPart(
  id: string,
  encrypted: string | undefined,
  summary: unknown,
  at: SealedAt,
): ReasoningPart | undefined {
  if (encrypted === undefined || encrypted === "") return undefined;
  const sealed = unsealPart(encrypted, at);
  if (sealed) return sealed;
  if (id === "") return undefined;
  return Array.isArray(summary)
    ? { type: "item", id, encryptedContent: encrypted, summary: summary as JsonValue[] }
    : { type: "item", id, encryptedContent: encrypted };
}

/**
 * A turn's reasoning text with one more block's `text` after it, a blank line between them (as a
 * Responses turn's summaries are joined), so that the one text Ollama (`thinking`) and Cohere
 * (`tool_plan`) take back keeps its blocks apart instead of running them together. Empty pieces add
 * nothing; undefined when there is no text at all.
 *
 * @example
 * ```ts
 * withReasoningText("The user asks about Paris.", "I will look it up."); // "The user asks about Paris.\n\nI will look it up."
 * ```
 */
export function withReasoningText(before: string | undefined, text: string): string | undefined {
  if (text === "") return before === "" ? undefined : before;
  return before === undefined || before === "" ? text : `${before}\n\n${text}`;
}
