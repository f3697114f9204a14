/**
 * The reasoning a provider needs back, carried through whichever agent protocol the client speaks.
 * Each protocol has one opaque field its clients echo unchanged: a Messages thinking block's
 * `signature` and a Responses reasoning item's `encrypted_content`. A provider's own state goes
 * in its own protocol's field as it is (Anthropic's signature, OpenAI's encrypted content); in
 * the other protocol it goes sealed, `tcs1.` and the part as base64url JSON: an Anthropic signed
 * or redacted block as a Responses item's `encrypted_content`, an OpenAI reasoning item (with
 * its encrypted content) as a thinking block's `signature`. Coming back, a sealed value is opened
 * into the part it was, and each provider's request takes only its own kind
 * (src/providers/reasoning.ts, the kits' request bodies).
 *
 * A seal is not a secret or a guarantee: a client could forge one, and the provider that receives
 * the part checks it as it checks its own (Anthropic verifies its signatures).
 *
 * @module
 */
import type { ReasoningPart } from "../../src/index.ts";
import { reasoningPartAt } from "../request/parse-reasoning.ts";

const MARK = "tcs1.";

/** A part sealed into one opaque string. */
export function sealPart(part: ReasoningPart): string {
  let binary = "";
  for (const byte of new TextEncoder().encode(JSON.stringify(part))) binary += String.fromCharCode(byte);
  return MARK + btoa(binary).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

/** The part a sealed string holds, or undefined when it is not one (a provider's own value). */
export function unsealPart(value: string): ReasoningPart | undefined {
  if (!value.startsWith(MARK)) return undefined;
  const encoded = value.slice(MARK.length).replaceAll("-", "+").replaceAll("_", "/");
  try {
    const binary = atob(encoded + "=".repeat((4 - (encoded.length % 4)) % 4));
    const text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(
      Uint8Array.from(binary, (c) => c.charCodeAt(0)),
    );
    return reasoningPartAt(JSON.parse(text), "");
  } catch {
    // Not a seal of ours after all (altered, or a provider's value that happens to start so): nothing to carry.
    return undefined;
  }
}

/** The `signature` option of the Messages encoder: Anthropic's own, an OpenAI item sealed. */
export function messagesSignature(part: ReasoningPart): string | undefined {
  if (part.type === "signed") return part.signature;
  return part.type === "item" && part.encryptedContent !== undefined ? sealPart(part) : undefined;
}

/** The `encrypted_content` option of the Responses encoder: OpenAI's own, an Anthropic block sealed. */
export function responsesEncryptedContent(part: ReasoningPart): string | undefined {
  return part.type === "item" ? part.encryptedContent : sealPart(part);
}
