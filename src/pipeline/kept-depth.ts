import type { DecoderLimits, Emit, ProviderProtocol } from "../providers/provider-decoder.ts";

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
 * A decoder's `emit` that bounds by `maxDepth` (64 by default) what the accumulator keeps whole for
 * the next turn: a reasoning part (a server tool's result block, a Gemini part, an OpenAI Responses
 * item, a Converse `toolResult`, `reasoning_details`; its block, field value or item the first
 * level, as a call's arguments object is theirs), a call's `providerMetadata` (a built-in tool's
 * item or step) and an approval request. One nested deeper becomes an `error` of code `too-deep`
 * naming what it was, never its data (a call keeps its fragment, without that metadata), and the
 * stream goes on: `JSON.parse` reads a body nested 100,000 deep, and whoever wrote such a part
 * (`JSON.stringify` of the next turn, an encoder, the Worker) overflowed the stack. Not exported by
 * the package.
 */
export function keptDepth(emit: Emit, maxDepth = 64): Emit {
  const dropped = (value: object, what: string): boolean => {
    if (!nestsDeeper(value, maxDepth)) return false;
    emit({ type: "error", error: { code: "too-deep", message: `The turn's ${what} nests deeper than maxDepth.` } });
    return true;
  };
  return (delta) => {
    if (delta.type === "reasoning-part" && dropped(delta.part, `${delta.part.type} part`)) return;
    if (delta.type === "approval-request" && dropped(delta.request, "approval request")) return;
    if (
      delta.type === "tool-call-chunk" &&
      delta.providerMetadata &&
      dropped(delta.providerMetadata, "providerMetadata")
    ) {
      const { providerMetadata: _dropped, ...chunk } = delta;
      return emit(chunk);
    }
    emit(delta);
  };
}

/**
 * `protocol` with its decoder's `emit` bounded by {@link keptDepth} (the chain gives the decoder the
 * accumulator's options, `maxDepth` with them): what the main entry's `streamToolCalls` reads with.
 * The provider subpaths' `streamToolCalls` and the bare stages do not carry it (their bundles'
 * budgets). Not exported by the package.
 */
export const withKeptDepth = (protocol: ProviderProtocol): ProviderProtocol => ({
  ...protocol,
  createDecoder: (emit, limits?: DecoderLimits & { maxDepth?: number | undefined }) =>
    protocol.createDecoder(keptDepth(emit, limits?.maxDepth), limits),
});
