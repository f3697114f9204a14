/**
 * Gemini's signatures across the agent protocols. Gemini signs the function calls of a thinking
 * model, and Gemini's Interactions API each `function_call` step, and both refuse the next turn
 * unless each signature comes back on its call; a Messages or Responses client never sends a
 * signature back on its own, but it does echo every call id. So a signed call's id carries its
 * signature, and an id of that shape coming back restores it as the call's `providerMetadata`:
 * a Gemini call (which has no id of its own, so nothing of the provider's is replaced) gets
 * `call_<token>__ts_<base64url>`, its `thoughtSignature`; an Interactions call keeps its own id in
 * front, `<id>__is_<base64url>`, and gets its id back with its `signature`. Gemini's
 * OpenAI-compatible endpoint (the `openai` provider pointed at it) puts a call's signature in the
 * call's `extra_content`: `<id>__xc_<base64url of {"google":{"thought_signature":...}}>`, and the
 * call gets its id back with that `extra_content`. A provider that sends none keeps its ids as they are.
 * The client writes the ids it sends back, so one carries no more than the feature needs: only the
 * signature (whatever else an `extra_content`'s JSON holds stays out), each mark read only for the
 * upstream given such ids (whose next turn takes the signature back: `__ts_` for `gemini`, `__is_`
 * for `gemini-interactions`, `__xc_` for `openai`; to any other the id is an id like any other), and
 * no more than {@link MAX_MARKED_LENGTH} characters after the mark, or a 400 naming the field.
 *
 * @module
 */
import type { EncodableEvent, JsonValue } from "../../src/index.ts";
import { longMemberName } from "../../src/core.ts";
import { mapChunks } from "../http/batch-map.ts";
import { invalidField } from "../response/json-error.ts";
import { interactionsStepParts } from "./interactions-steps.ts";
import {
  base64url,
  callKey,
  EXTRA_MARK,
  extraContentText,
  idWithExtraContent,
  idWithSignature,
  MARK,
  STEP_MARK,
  signedExtra,
  stepIdWithSignature,
} from "../services/signed-ids.ts";

/** The upstream that is given ids of each mark, and takes what they carry back. */
const MARKS: Readonly<Record<string, string>> = {
  gemini: MARK,
  "gemini-interactions": STEP_MARK,
  openai: EXTRA_MARK,
};

/**
 * The most characters an id carries back after its mark (base64url): 64 KiB, eleven times the
 * largest Gemini signature in the recordings (5.8 KB), and a quarter of the body limit
 * (`MAX_BODY_BYTES`, 256 KiB), so what an id makes the Worker decode and send upstream stays small.
 */
const MAX_MARKED_LENGTH = 65536;

/** The text a base64url string holds, or undefined when it is not one of UTF-8 text. */
function fromBase64url(encoded: string): string | undefined {
  try {
    const binary = atob(
      `${encoded.replaceAll("-", "+").replaceAll("_", "/")}${"=".repeat((4 - (encoded.length % 4)) % 4)}`,
    );
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(
      Uint8Array.from(binary, (c) => c.charCodeAt(0)),
    );
  } catch {
    // Not one of ours after all (a client's own id that happens to hold the mark): an id like any other.
    return undefined;
  }
}

/** What a call id a client echoed carries back: the id the provider knows, and the call's metadata. */
interface Carried {
  id: string;
  providerMetadata?: { [key: string]: JsonValue };
  /** The part after the mark is longer than an id may carry: not decoded. */
  tooLong?: true;
}

/**
 * What `id` carries back to `provider`, when it has the mark of the ids that upstream is given: a
 * Gemini call's id stays its id (Gemini has none of its own), the others give the provider's id
 * before the mark back. Anything that is no signature of ours leaves the id an id like any other.
 */
function carried(id: string, provider: string): Carried {
  const mark = Object.hasOwn(MARKS, provider) ? MARKS[provider] : undefined;
  if (mark === undefined) return { id };
  // A Gemini id is minted `call_<token>__ts_...`; the others keep the provider's id (which may hold the mark) in front.
  const at = mark !== MARK ? id.lastIndexOf(mark) : id.startsWith("call_") ? id.indexOf(MARK) : -1;
  if (at <= 0) return { id };
  const encoded = id.slice(at + mark.length);
  if (encoded.length > MAX_MARKED_LENGTH) return { id, tooLong: true };
  const text = fromBase64url(encoded);
  if (text === undefined) return { id };
  if (mark === MARK) return { id, providerMetadata: { thoughtSignature: text } };
  if (mark === STEP_MARK) return { id: id.slice(0, at), providerMetadata: { signature: text } };
  // A member name V8 would intern in quadratic time, for every request of the isolate (src/shared/long-member-name.ts): not ours.
  if (longMemberName(text) !== undefined) return { id };
  try {
    const extra = signedExtra(JSON.parse(text));
    return extra ? { id: id.slice(0, at), providerMetadata: { extra_content: extra } } : { id };
  } catch {
    // Not one of ours after all: an id like any other.
    return { id };
  }
}

/** The call id `provider` knows for an id a client echoed: the provider's own before a signature, else the id as it is. */
export function callIdOf(id: string, provider: string): string {
  return carried(id, provider).id;
}

/**
 * A call id a client echoed (its field `path`), read once: the id `provider` knows ({@link callIdOf})
 * and the `providerMetadata` it carries back, if it is one of {@link idWithSignature}'s,
 * {@link stepIdWithSignature}'s or an `extra_content` one and that upstream is given such ids; one
 * past {@link MAX_MARKED_LENGTH} is a 400 naming `path`.
 */
export function echoedCall(
  id: string,
  provider: string,
  path: string,
): { id: string; providerMetadata?: { [key: string]: JsonValue } } {
  const { id: known, providerMetadata, tooLong } = carried(id, provider);
  if (tooLong)
    throw invalidField(path, `\`${path}\` carries more than ${MAX_MARKED_LENGTH} characters of a signature.`);
  return providerMetadata ? { id: known, providerMetadata } : { id: known };
}

/** How one provider's calls carry their signatures: which calls wait for theirs, and the id that carries one. */
interface Carrier {
  /** A call that may be signed: its events wait from its start to its end. */
  holds(start: { id: string | null; providerExecuted?: true; providerMetadata?: Record<string, unknown> }): boolean;
  /** The signature at the call's end, if it has one. */
  signature(metadata: Record<string, unknown> | undefined): unknown;
  /** The id that carries it. */
  id(signature: string, id: string | null): string;
}

const CARRIERS: Readonly<Record<string, Carrier>> = {
  gemini: {
    holds: (start) => start.id === null,
    signature: (metadata) => metadata?.["thoughtSignature"],
    id: (signature) => idWithSignature(signature),
  },
  "gemini-interactions": {
    // Not a built-in tool's call the provider ran: no client sees it, so nothing waits for it.
    holds: (start) => start.id !== null && !start.providerExecuted,
    signature: (metadata) => metadata?.["signature"],
    id: (signature, id) => stepIdWithSignature(id!, signature),
  },
  // Gemini's OpenAI-compatible endpoint sends a call whole, `extra_content` with its first chunk:
  // only such a call is renamed, and no other OpenAI call waits for its end.
  openai: {
    holds: (start) => extraContentText(start.providerMetadata?.["extra_content"]) !== undefined,
    signature: (metadata) => extraContentText(metadata?.["extra_content"]),
    // A call the call rules gave a moved `extra_content` (../services/call-rules.ts) already carries it.
    id: (extra, id) => (id?.endsWith(EXTRA_MARK + base64url(extra)) ? id : idWithExtraContent(id, extra)),
  },
};

/**
 * A Gemini provider's events with each signed call's id set to one that carries its signature.
 * The id goes out when the call starts: a call signed by then (Gemini sends a call whole, in one
 * chunk, and an Interactions call's signature may come with its step's start) gets it at once;
 * otherwise (an Interactions signature on a later delta of the step, or its `thought_signature`
 * delta) no id of it goes out before its end: its events, and what follows them, wait until
 * then, so a client never sees the call under an id without the signature.
 */
export function carrySignatures(
  batches: ReadableStream<readonly EncodableEvent[]>,
  carrier: Carrier,
): ReadableStream<readonly EncodableEvent[]> {
  let held: EncodableEvent[] | undefined;
  const open = new Set<string>();
  const renamed = new Map<string, string>();
  const release = (out: EncodableEvent[]): void => {
    if (held) out.push(...held);
    held = undefined;
    open.clear();
  };
  // Steps of the answer's one stream (mapChunks): an array with nothing to pass on passes nothing.
  return mapChunks(
    batches,
    (batch): readonly EncodableEvent[] | undefined => {
      const out: EncodableEvent[] = [];
      for (let event of batch) {
        const early = event.type === "tool-call-start" ? carrier.signature(event.providerMetadata) : undefined;
        if (event.type === "tool-call-start" && carrier.holds(event) && typeof early === "string") {
          // Signed at its start: its id goes out at once, and its end gets the same.
          const id = carrier.id(early, event.id);
          renamed.set(callKey(event), id);
          event = { ...event, id };
        } else if (event.type === "tool-call-start" && carrier.holds(event)) open.add(callKey(event));
        else if ((event.type === "tool-call" || event.type === "invalid-tool-call") && renamed.has(callKey(event))) {
          event = { ...event, id: renamed.get(callKey(event))! };
          renamed.delete(callKey(event));
        } else if ((event.type === "tool-call" || event.type === "invalid-tool-call") && open.has(callKey(event))) {
          open.delete(callKey(event));
          const signature = carrier.signature(event.providerMetadata);
          if (typeof signature === "string" && held) {
            const id = carrier.id(signature, event.id);
            const key = callKey(event);
            // Every held event of the call that names it (its start, its deltas) gets the signed id.
            held = held.map((e) =>
              "index" in e && "id" in e && callKey(e) === key ? ({ ...e, id } as EncodableEvent) : e,
            );
            event = { ...event, id };
          }
        }
        if (open.size > 0 || held) (held ??= []).push(event);
        else out.push(event);
        if (open.size === 0 || event.type === "finish" || event.type === "abort") release(out);
      }
      return out.length > 0 ? out : undefined;
    },
    (): readonly EncodableEvent[] | undefined => {
      const out: EncodableEvent[] = [];
      release(out);
      return out.length > 0 ? out : undefined;
    },
  );
}

/**
 * The events of `provider` with what the agent protocols need on top: Gemini's signatures carried
 * in call ids, and Gemini Interactions' built-in tool steps as `block` parts (./interactions-steps.ts).
 */
export function agentBatches(
  provider: string,
  batches: ReadableStream<readonly EncodableEvent[]>,
): ReadableStream<readonly EncodableEvent[]> {
  const carried = signedCalls(provider, batches);
  return provider === "gemini-interactions" ? interactionsStepParts(carried) : carried;
}

/**
 * The events of `provider` with each signed call's id carrying its signature ({@link carrySignatures}),
 * where the provider signs its calls; the events as they are otherwise. What AG-UI and the AI SDK's
 * UI messages take: their clients echo a call's id on the next turn, and show no built-in step.
 */
export function signedCalls(
  provider: string,
  batches: ReadableStream<readonly EncodableEvent[]>,
): ReadableStream<readonly EncodableEvent[]> {
  const carrier = Object.hasOwn(CARRIERS, provider) ? CARRIERS[provider] : undefined;
  return carrier ? carrySignatures(batches, carrier) : batches;
}
