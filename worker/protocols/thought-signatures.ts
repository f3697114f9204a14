/**
 * Gemini's thought signatures across the agent protocols. Gemini signs the function calls of a
 * thinking model and refuses the next turn unless each signature comes back on its call; a
 * Messages or Responses client never sends a signature back on its own, but it does echo every
 * call id. So a Gemini call's id carries its signature (`call_<token>__ts_<base64url>`), and an id
 * of that shape coming back restores it as the call's `providerMetadata`. Gemini calls have no ids
 * of their own, so nothing of the provider's is replaced.
 *
 * @module
 */
import type { EncodableEvent, JsonValue } from "../../src/index.ts";

const MARK = "__ts_";

/** The id of a call that carries `signature`: a fresh token, then the signature in base64url. */
export function idWithSignature(signature: string): string {
  let binary = "";
  for (const byte of new TextEncoder().encode(signature)) binary += String.fromCharCode(byte);
  const encoded = btoa(binary).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
  return `call_${crypto.randomUUID().replaceAll("-", "")}${MARK}${encoded}`;
}

/** The `providerMetadata` a call id carries back, if it is one of {@link idWithSignature}'s. */
export function signatureOfId(id: string): { providerMetadata?: { [key: string]: JsonValue } } {
  const at = id.indexOf(MARK);
  if (!id.startsWith("call_") || at < 0) return {};
  const encoded = id
    .slice(at + MARK.length)
    .replaceAll("-", "+")
    .replaceAll("_", "/");
  try {
    const binary = atob(encoded + "=".repeat((4 - (encoded.length % 4)) % 4));
    const signature = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(
      Uint8Array.from(binary, (c) => c.charCodeAt(0)),
    );
    return { providerMetadata: { thoughtSignature: signature } };
  } catch {
    // Not one of ours after all (a client's own id that happens to hold the mark): an id like any other.
    return {};
  }
}

const keyOf = (event: { index: number; choice?: number }): string => `${event.choice ?? 0}:${event.index}`;

/**
 * Gemini's events with each signed call's id set to one that carries its signature. The id goes
 * out when the call starts and the signature comes with its end, so from a call's start to its end
 * the events wait (Gemini sends a call whole, in one chunk: in practice nothing waits).
 */
export function carrySignatures(
  batches: ReadableStream<readonly EncodableEvent[]>,
): ReadableStream<readonly EncodableEvent[]> {
  let held: EncodableEvent[] | undefined;
  const open = new Set<string>();
  const release = (out: EncodableEvent[]): void => {
    if (held) out.push(...held);
    held = undefined;
    open.clear();
  };
  return batches.pipeThrough(
    new TransformStream<readonly EncodableEvent[], readonly EncodableEvent[]>({
      transform(batch, controller) {
        const out: EncodableEvent[] = [];
        for (let event of batch) {
          if (event.type === "tool-call-start" && event.id === null) open.add(keyOf(event));
          else if ((event.type === "tool-call" || event.type === "invalid-tool-call") && open.has(keyOf(event))) {
            open.delete(keyOf(event));
            const signature = event.providerMetadata?.["thoughtSignature"];
            if (typeof signature === "string" && held) {
              const id = idWithSignature(signature);
              const key = keyOf(event);
              held = held.map((e) => (e.type === "tool-call-start" && keyOf(e) === key ? { ...e, id } : e));
              event = { ...event, id };
            }
          }
          if (open.size > 0 || held) (held ??= []).push(event);
          else out.push(event);
          if (open.size === 0 || event.type === "finish" || event.type === "abort") release(out);
        }
        if (out.length > 0) controller.enqueue(out);
      },
      flush(controller) {
        const out: EncodableEvent[] = [];
        release(out);
        if (out.length > 0) controller.enqueue(out);
      },
    }),
  );
}

/** One event at a time as batches of one, for the answers read whole (`stream: false`). */
export function batchesOfOne(events: ReadableStream<EncodableEvent>): ReadableStream<readonly EncodableEvent[]> {
  return events.pipeThrough(
    new TransformStream<EncodableEvent, readonly EncodableEvent[]>({
      transform: (event, controller) => controller.enqueue([event]),
    }),
  );
}

/** The events of `provider` with what the agent protocols need on top: Gemini's signatures carried in call ids. */
export function agentBatches(
  provider: string,
  batches: ReadableStream<readonly EncodableEvent[]>,
): ReadableStream<readonly EncodableEvent[]> {
  return provider === "gemini" ? carrySignatures(batches) : batches;
}
