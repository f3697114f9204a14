/**
 * Gemini's automatic continuation, as `@google/genai` (3.3.0) does it by default
 * (`config.automaticContinuation`): a response cut by the model's per-request decode limit ends
 * with `finishReason: "CONTINUATION"` and the candidate's `continuationToken`; the same request
 * sent again with that token as the body's `continuationToken` goes on with the answer. The Worker
 * reads every hop into the one chain of the client's answer: the decoder (one for all hops) holds
 * a hop's `CONTINUATION` finish back and notes its token ({@link continuingProtocol}), and the body
 * ({@link continuingBody}) opens the next hop where the last one ended, so the text goes on, the
 * calls keep their indexes and one finish, the last hop's, ends the answer.
 *
 * @module
 */
import {
  type JsonValue,
  type ProviderDelta,
  type ProviderProtocol,
  ToolCallStreamError,
  type Usage,
} from "../../src/index.ts";
import { HttpError } from "../response/json-error.ts";
import { holdGrounding } from "./gemini-hop-grounding.ts";
import { type OpenUpstreamOptions, openUpstream } from "./open-upstream.ts";
import type { ProviderHttpRequest } from "./providers/upstream-provider.ts";
import type { WatchedBody } from "./watched-body.ts";

/**
 * The most requests one answer makes (the first and its continuations). Each hop sends the
 * conversation and the output so far again, billed as input each time, and counts against the
 * Worker's subrequests; eight hops of a 2026 model's per-request decode limit are far longer than
 * any answer a client reads whole. Past it, the last hop's finish goes to the client as it came:
 * `length`, with its token (`/v1/stream`'s `finish.continuationToken`) to go on with.
 */
export const MAX_GEMINI_HOPS = 8;

/** What the decoder and the body of one answer share across its hops. */
export interface ContinuationState {
  /** Whether the answer being read is continued (its body is a {@link continuedGemini}'s): else its finish passes as it came. */
  on: boolean;
  /** The token the hop just ended with, held back from the client: the next hop is to be opened with it. */
  token?: string | undefined;
  /** Whether the hop's last chunk came (its token's finish, and the usage): the next hop opens without its body's close. */
  ended?: boolean;
  /** The token the current hop was opened with (a hop ending with it again would only repeat itself). */
  from?: string | undefined;
  /** The requests made so far. */
  hops: number;
  /** The usage of the hops before the current one, summed. */
  before?: Usage | undefined;
  /** The current hop's latest usage (Gemini's running total of the hop). */
  latest?: Usage | undefined;
}

/**
 * `protocol` (Gemini's) whose first choice's `finish` with a `continuationToken` is held back and
 * its token noted in `state` while fewer than {@link MAX_GEMINI_HOPS} requests were made, and
 * whose usage is the hops' usage summed: each hop is a request billed apart (the SDK sums its
 * hops' `usageMetadata` too), and whose grounding is each hop's merged ({@link holdGrounding}: the
 * decoder gives a hop's out at its `CONTINUATION` finish), given out at the answer's end. Nothing
 * else is touched: no payload is read here, only the deltas the decoder makes anyway.
 */
export function continuingProtocol(protocol: ProviderProtocol, state: ContinuationState): ProviderProtocol {
  return {
    ...protocol,
    createDecoder: (emit, limits) => {
      // The first choice's text so far, in UTF-8 bytes, and where the current hop's began: its grounding's offsets count from there.
      let bytes = 0;
      let from = 0;
      // Whether the message being decoded had the usage (Gemini's last chunk has it, or a trailing one).
      let usage = false;
      // Whether this hop's `CONTINUATION` finish opens no next hop (the last allowed, or its token again).
      let last = false;
      const held: { [key: string]: JsonValue } = {};
      const decoder = protocol.createDecoder((delta: ProviderDelta) => {
        if (delta.type === "usage") {
          usage = true;
          state.latest = delta.usage;
          if (state.before) return emit({ type: "usage", usage: summed(state.before, delta.usage) });
        } else if (delta.type === "text-delta" && !delta.choice && state.on) {
          bytes += utf8Bytes(delta.text);
        } else if (delta.type === "reasoning-part" && delta.part.type === "block" && state.on) {
          // Each hop's grounding, merged into the answer's, which goes out at its end (as the decoder's came).
          if (holdGrounding(held, delta.part.block, from)) return;
        } else if (delta.type === "finish" && !delta.continuationToken && !delta.choice) {
          // A hop's own finish after a token it noted (a malformed stream): the answer ends, no hop after it.
          state.token = undefined;
        } else if (delta.type === "finish" && delta.continuationToken && !delta.choice) {
          // The token a hop started with, again: no progress, the answer ends here (the SDK's rule).
          if (delta.continuationToken === state.from) {
            const { continuationToken: _, ...rest } = delta;
            last = true;
            return emit(rest);
          }
          if (state.on && state.hops < MAX_GEMINI_HOPS) {
            state.token = delta.continuationToken;
            from = bytes;
            return;
          }
          last = true; // no hop after this one: the answer ends with it
        }
        emit(delta);
      }, limits);
      return {
        decode: (message) => {
          usage = false;
          decoder.decode(message);
          // The hop's end as the decoder's own (a finish and the usage): a body a proxy holds open after it is not
          // waited on, whether a next hop opens or this one was the last (review 76).
          if (usage && (state.token !== undefined || last)) state.ended = true;
        },
        end: (fault) => {
          decoder.end(fault);
          for (const [key, value] of Object.entries(held))
            emit({ type: "reasoning-part", part: { type: "block", block: { [key]: value } } });
        },
      };
    },
  };
}

const UTF8 = new TextEncoder();
const NON_ASCII = /[^\0-\x7f]/;
/** Reused by {@link utf8Bytes}: a delta's bytes counted without a new array per delta. */
let scratch = new Uint8Array(1024);

/**
 * The UTF-8 length of a text delta: its length when it is ASCII (one native scan), else what
 * `encodeInto` writes into a reused buffer (grown up to 64 KiB; a longer delta is encoded whole).
 * Every delta of a streamed Gemini answer is counted, continued or not.
 */
function utf8Bytes(text: string): number {
  if (!NON_ASCII.test(text)) return text.length;
  const needed = text.length * 3;
  if (needed > 65_536) return UTF8.encode(text).length;
  if (scratch.length < needed) scratch = new Uint8Array(needed);
  return UTF8.encodeInto(text, scratch).written;
}

const COUNTS = [
  "inputTokens",
  "outputTokens",
  "totalTokens",
  "cacheReadTokens",
  "cacheWriteTokens",
  "reasoningTokens",
] as const;

/** Two hops' usage, each count summed (one that neither reported stays out); the later hop's `raw`. */
function summed(a: Usage, b: Usage): Usage {
  const usage: Usage = { raw: b.raw };
  for (const key of COUNTS)
    if (a[key] !== undefined || b[key] !== undefined) usage[key] = (a[key] ?? 0) + (b[key] ?? 0);
  return usage;
}

/**
 * The Gemini stream `first` (the answer to `http`) continued: `state` made fresh for it, each hop
 * `http` again with the token as the body's `continuationToken` (@google/genai's wire field),
 * opened with `options` (the same clocks, cancel and credentials). A later hop must be the stream:
 * a whole answer there is refused as one that is not (it could not be read as a continuation).
 */
export function continuedGemini(
  first: WatchedBody,
  http: ProviderHttpRequest,
  options: OpenUpstreamOptions,
  state: ContinuationState,
): WatchedBody {
  Object.assign(state, {
    on: true,
    hops: 1,
    token: undefined,
    ended: false,
    from: undefined,
    before: undefined,
    latest: undefined,
  });
  const { wholeType: _whole, ...stream } = http;
  const { onWhole: _onWhole, ...upstream } = options;
  const again = (token: string) =>
    openUpstream({ ...stream, body: { ...http.body, continuationToken: token } }, upstream);
  return continuingBody(first, state, again, options.signal, () => options.watch.failure);
}

/** Ends an SSE event a hop's body may have left open, so the next hop's first event starts on its own. */
const SEPARATOR = new TextEncoder().encode("\n\n");

/**
 * The hops' bodies read as one: when a body ends and its decoder noted a token (`state.token`),
 * `open` sends the request again with it and reading goes on in its body. Never after the reader
 * stopped (`return()`, the client went away) or `signal` aborted. A hop that cannot be opened
 * ends the body with a `ToolCallStreamError` (`http-error`, or the clock's own error when the
 * response's deadline or idle timeout ran out), which the chain reports after what came before.
 */
export function continuingBody(
  first: WatchedBody,
  state: ContinuationState,
  open: (token: string) => Promise<WatchedBody>,
  signal: AbortSignal | undefined,
  failure: () => ToolCallStreamError | undefined,
): WatchedBody {
  let current = first;
  let stopped = false;
  const iterator: WatchedBody = {
    next: async () => {
      // The hop's last chunk came: its body, which a proxy may hold open, is stopped rather than read to its close.
      const ended = state.ended === true;
      state.ended = false;
      if (ended) await current.return?.();
      const result: IteratorResult<Uint8Array> = ended ? { done: true, value: undefined } : await current.next();
      const token = state.token;
      if (!result.done || token === undefined || stopped || signal?.aborted) return result;
      state.token = undefined;
      state.from = token;
      state.hops++;
      if (state.latest) state.before = state.before ? summed(state.before, state.latest) : state.latest;
      state.latest = undefined;
      let next: WatchedBody;
      try {
        next = await open(token);
      } catch (error) {
        throw failure() ?? hopError(error, state.hops);
      }
      if (stopped) {
        await next.return?.();
        return { done: true, value: undefined };
      }
      current = next;
      return { done: false, value: SEPARATOR };
    },
    return: async (reason?: unknown) => {
      stopped = true;
      await current.return?.(reason);
      return { done: true, value: undefined };
    },
    [Symbol.asyncIterator]: () => iterator,
  };
  return iterator;
}

/** A continuation request that failed, as the chain reports it (never the provider's body). */
function hopError(error: unknown, hop: number): ToolCallStreamError {
  const why = error instanceof HttpError ? ` (${error.code}: ${error.message})` : "";
  return new ToolCallStreamError({
    code: error instanceof HttpError ? "http-error" : "stream-failed",
    message: `The provider failed the request that continues the answer (request ${hop} of at most ${MAX_GEMINI_HOPS})${why}.`,
    ...(error instanceof HttpError && { status: error.status }),
  });
}
