import type { EncodableEvent } from "../../src/index.ts";
import { HttpError } from "../response/json-error.ts";
import { mapChunks } from "../http/batch-map.ts";

/** What the model said: an answer built from none of these holds nothing the provider meant. */
const SAID = new Set(["text-delta", "reasoning-delta", "tool-call-start", "tool-call", "invalid-tool-call"]);

/**
 * A finish that ends an answer with nothing the provider meant: after payloads that were all
 * unreadable, or after no payload at all, the provider's own finish never seen (`rawReason` null:
 * a body of `data: [DONE]` alone, which a gateway that lost its upstream sends).
 */
const emptyFinish = (event: EncodableEvent, said: number, malformed: number): boolean =>
  event.type === "finish" && said === 0 && (malformed > 0 || event.rawReason === null);

/**
 * `batches` as they are, tallied: a non-streaming answer reads them all, then asks
 * {@link PayloadTally.unreadable}. A provider that sent only payloads the decoder could not read
 * (each an in-band `malformed-payload` error, the stream then finished), or no payload before its
 * `[DONE]`, must not become a `200` with an empty answer: the route answers 502 in its protocol's
 * shape ({@link noReadablePayload}).
 *
 * @example
 * ```ts
 * const tally = tallyPayloads(batches);
 * const result = await readOpenAIChatCompletion(tally.events, options);
 * if (tally.unreadable()) throw noReadablePayload();
 * ```
 */
export function tallyPayloads<E extends EncodableEvent>(batches: ReadableStream<readonly E[]>): PayloadTally<E> {
  let said = 0;
  let malformed = 0;
  let empty = false;
  const tallied = mapChunks(batches, (batch) => {
    for (const event of batch) {
      if (SAID.has(event.type)) said++;
      else if (event.type === "error" && (event as { error?: { code?: string } }).error?.code === "malformed-payload")
        malformed++;
      else if (emptyFinish(event, said, malformed)) empty = true;
    }
    return batch;
  });
  return { events: tallied, unreadable: () => said === 0 && (malformed > 0 || empty) };
}

/** The tallied events and what they held. */
export interface PayloadTally<E> {
  events: ReadableStream<readonly E[]>;
  /** True when the provider said nothing: its payloads all unreadable, or none before a finish of its own. */
  unreadable(): boolean;
}

/**
 * The 502 of an answer built from no readable payload.
 *
 * @example
 * ```ts
 * if (tally.unreadable()) throw noReadablePayload();
 * ```
 */
export function noReadablePayload(): HttpError {
  return new HttpError(502, {
    code: "upstream_error",
    message: "The provider answered, but none of its payloads could be read.",
  });
}

/**
 * `events` with a finish that follows only unreadable payloads turned into an `error` and an
 * `abort`: a streamed answer cannot become a 502 once its headers are out, so the protocol's own
 * in-band error (Messages' `event: error`, Responses' `response.failed`, AG-UI's `RUN_ERROR`, a
 * chat stream's error) says it, instead of an empty success that reads as "the model said
 * nothing". The criterion is {@link PayloadTally.unreadable}'s (a body of `[DONE]` alone too);
 * everything else passes unchanged.
 *
 * @example
 * ```ts
 * const answer = encodeAnswer(failUnreadable(batches), new AnthropicMessagesEncoder({ model }));
 * ```
 */
export function failUnreadable<E extends EncodableEvent>(
  batches: ReadableStream<readonly E[]>,
): ReadableStream<readonly (E | EncodableEvent)[]> {
  let said = 0;
  let malformed = 0;
  return mapChunks(batches, (batch): readonly (E | EncodableEvent)[] => {
    // A copy only for the array whose finish is replaced: the others (thousands of fragments) pass as they are.
    let out: (E | EncodableEvent)[] | undefined;
    for (let i = 0; i < batch.length; i++) {
      const event = batch[i]!;
      if (SAID.has(event.type)) said++;
      else if (event.type === "error" && (event as { error?: { code?: string } }).error?.code === "malformed-payload")
        malformed++;
      if (emptyFinish(event, said, malformed)) (out ??= batch.slice(0, i)).push(...UNREADABLE_END);
      else out?.push(event);
    }
    return out ?? batch;
  });
}

const UNREADABLE = {
  code: "malformed-payload",
  message: "The provider answered, but none of its payloads could be read.",
} as const;
const UNREADABLE_END: readonly EncodableEvent[] = [
  { type: "error", error: UNREADABLE },
  { type: "abort", reason: "provider-error", discarded: [], error: UNREADABLE },
];
