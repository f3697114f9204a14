/**
 * The ids that carry a call's Gemini signature back through a client (see
 * ../protocols/thought-signatures.ts, which reads them back), and a call's key: what the rules on
 * an answer's calls (./call-rules.ts) need to move a signature from a call left out to one kept.
 *
 * @module
 */
import { isObject } from "../request/json-fields.ts";

/** The mark of a Gemini call's id, of a Gemini Interactions call's, and of a call with `extra_content`. */
export const MARK = "__ts_";
export const STEP_MARK = "__is_";
export const EXTRA_MARK = "__xc_";

export const base64url = (text: string): string => {
  let binary = "";
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte);
  return btoa(binary).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
};

/** The id of a Gemini call that carries `signature`: a fresh token, then the signature in base64url. */
export function idWithSignature(signature: string): string {
  return `call_${crypto.randomUUID().replaceAll("-", "")}${MARK}${base64url(signature)}`;
}

/** The id of a Gemini Interactions call that carries `signature`: its own id, then the signature. */
export function stepIdWithSignature(id: string, signature: string): string {
  return `${id}${STEP_MARK}${base64url(signature)}`;
}

/**
 * What a call's `extra_content` carries back in its id (JSON text): only Gemini's signature, or
 * undefined when it has none.
 */
export function extraContentText(extra: unknown): string | undefined {
  const signed = signedExtra(extra);
  return signed && JSON.stringify(signed);
}

/** `extra_content` with Gemini's signature alone (`google.thought_signature`), if it has one. */
export function signedExtra(extra: unknown): { google: { thought_signature: string } } | undefined {
  const google = isObject(extra) ? extra["google"] : undefined;
  const signature = isObject(google) ? google["thought_signature"] : undefined;
  return typeof signature === "string" ? { google: { thought_signature: signature } } : undefined;
}

/** The id of a call that carries its `extra_content` (JSON text): its own id (else a fresh token), then the content. */
export function idWithExtraContent(id: string | null, extra: string): string {
  return `${id ?? `call_${crypto.randomUUID().replaceAll("-", "")}`}${EXTRA_MARK}${base64url(extra)}`;
}

/** A call's key in a response: its choice and index, as the accumulator gives them (the Worker's per-call records agree on it). */
export const callKey = (event: { index: number; choice?: number }): string => `${event.choice ?? 0}:${event.index}`;
