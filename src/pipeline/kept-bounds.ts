import { DEFAULT_MAX_TEXT_LENGTH } from "../accumulate/accumulator-options.ts";
import type { DecoderLimits, Emit, ProviderProtocol } from "../providers/provider-decoder.ts";
import type { Usage } from "../shared/deltas.ts";
import { ToolCallStreamError, type StreamErrorInfo } from "../shared/errors.ts";
import type { ChainProtocol } from "./framed-chain.ts";

/**
 * Whether `value` nests objects and arrays more than `max` levels below itself, read a level at a
 * time: linear in its members, with no recursion, so a value nested 100,000 deep (which
 * `JSON.parse` reads) is judged, not a stack overflow. Each level's objects and arrays alone are
 * kept for the next, an array's members read in place: a wide block of numbers and strings costs
 * no copy of them and no wrapper object per primitive (`Object(item)` made one).
 */
function nestsDeeper(value: object, max: number): boolean {
  for (let level: unknown[] = [value], next: unknown[]; level.length; level = next, max--) {
    if (max < 0) return true;
    next = [];
    for (const item of level)
      for (const member of Array.isArray(item) ? item : Object.values(item as object))
        if (typeof member === "object" && member) next.push(member);
  }
  return false;
}

/**
 * A decoder's `emit` that bounds what the turn keeps, and what its events carry of the provider's:
 *
 * - by `maxDepth` (64 by default), what the accumulator keeps whole for the next turn: a reasoning
 *   part (a server tool's result block, a Gemini part, an OpenAI Responses item, a Converse
 *   `toolResult`, `reasoning_details`; its block, field value or item the first level, as a call's
 *   arguments object is theirs), a call's `providerMetadata` (a built-in tool's item or step), an
 *   approval request; and the provider's objects an event carries: an error's `data`, the usage's
 *   `raw` object, the finish's `container` and `moderation` (each the first level of the error, usage or finish).
 *   Of the usage reports, the first (the `usage` event) and the last (the finish's, read once the
 *   finish is made: at `done` or the input's end) are read; those between reach no event (Gemini
 *   reports usage on every chunk) and are not read, a walk per chunk spared.
 *   One nested deeper becomes an `error` of code `too-deep` naming what it was, never its data (a
 *   call keeps its fragment without that metadata, an error, usage or finish goes on without that
 *   object), and the stream goes on: `JSON.parse` reads a body nested 100,000 deep, and whoever
 *   wrote such a value (`JSON.stringify` of the events or the next turn, an encoder, the Worker)
 *   overflowed the stack;
 * - by `maxTextLength` (`DEFAULT_MAX_TEXT_LENGTH` by default), the first choice's text and reasoning
 *   together (the finish's `text` and `reasoning`, and what a decoder keeps of them: cited text,
 *   reasoning fields): past it, it throws a `ToolCallStreamError` of code `text-too-large`, which
 *   ends the chain with that `error` and an `abort` (`limit-exceeded`, open calls discarded) and
 *   cancels the input, every delta before it given.
 *
 * `end`, after the decoder's, reads the last usage report, and bounds the error the input failed
 * with (an HTTP error's body), which reaches the events without passing the decoder. Not exported
 * by the package.
 */
export function keptBounds(
  emit: Emit,
  limits: DecoderLimits = {},
  maxDepth = 64,
): { emit: Emit; end: (fault: unknown) => void } {
  const maxText = limits.maxTextLength ?? DEFAULT_MAX_TEXT_LENGTH;
  let text = 0;
  /** Whether the first usage report (the event) came; then the latest one, not read yet. */
  let reported = false;
  let latest: Usage | undefined;
  const dropped = (value: object, what: string): boolean => {
    if (!nestsDeeper(value, maxDepth)) return false;
    emit({ type: "error", error: { code: "too-deep", message: `The turn's ${what} nests deeper than maxDepth.` } });
    return true;
  };
  /** An error without its `data` when that nests too deep. */
  const errorOf = (error: StreamErrorInfo): StreamErrorInfo => {
    if (!dropped(error, "error data")) return error;
    const { data: _dropped, ...rest } = error;
    return rest;
  };
  /** The finish is made now: its usage, the latest report, read (one too deep replaced without its `raw`). */
  const settle = (): void => {
    if (latest && dropped(latest, "usage")) emit({ type: "usage", usage: { ...latest, raw: undefined } });
    latest = undefined;
  };
  return {
    emit: (delta) => {
      switch (delta.type) {
        case "text-delta":
        case "reasoning-delta":
          if (!delta.choice && (text += delta.text.length) > maxText)
            throw new ToolCallStreamError({
              code: "text-too-large",
              message: `The turn's text and reasoning exceeded the limit of ${maxText} characters (maxTextLength).`,
            });
          break;
        case "reasoning-part":
          if (dropped(delta.part, `${delta.part.type} part`)) return;
          break;
        case "approval-request":
          if (dropped(delta.request, "approval request")) return;
          break;
        case "moderation":
          if (dropped(delta.moderation, "moderation")) return;
          break;
        case "tool-call-chunk":
          if (delta.providerMetadata && dropped(delta.providerMetadata, "providerMetadata")) {
            const { providerMetadata: _dropped, ...chunk } = delta;
            return emit(chunk);
          }
          break;
        case "error":
          return emit({ ...delta, error: errorOf(delta.error) });
        case "usage":
          if (reported) {
            latest = delta.usage;
            break;
          }
          reported = true;
          if (dropped(delta.usage, "usage")) return emit({ ...delta, usage: { ...delta.usage, raw: undefined } });
          break;
        case "done":
          settle();
          break;
        case "finish":
          if (delta.container && dropped(delta, "container")) {
            const { container: _dropped, ...finish } = delta;
            return emit(finish);
          }
      }
      emit(delta);
    },
    end: (fault) => {
      // A fault ends the chain with an `abort`, which carries no usage.
      if (!fault) return settle();
      // The chain passes the same object on to its `error` and `abort`: bounded here, in place.
      const error = fault as StreamErrorInfo;
      if (typeof error.data === "object" && error.data && dropped(error, "error data")) delete error.data;
    },
  };
}

/**
 * `protocol` with its decoder bounded by {@link keptBounds} (by the decoder's `maxTextLength` and
 * the chain's `maxDepth`, which the protocol's own decoder is not given): what the main entry's
 * `streamToolCalls` reads with. The provider subpaths' `streamToolCalls`, `ToolCallChain` and the
 * bare stages do not carry it (their bundles' budgets). Not exported by the package.
 */
export const withKeptBounds = (protocol: ProviderProtocol): ChainProtocol => ({
  ...protocol,
  createDecoder: (emit, limits, chain) => {
    const bounds = keptBounds(emit, limits, chain?.maxDepth);
    const decoder = protocol.createDecoder(bounds.emit, limits);
    return {
      decode: (message) => decoder.decode(message),
      end: (fault) => {
        decoder.end(fault);
        bounds.end(fault);
      },
    };
  },
});
