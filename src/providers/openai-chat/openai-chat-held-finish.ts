import type { ErrorDelta, FinishDelta } from "../../shared/deltas.ts";
import type { Emit } from "../provider-decoder.ts";

/**
 * The decoder's emit with a finish held back: a choice's finish whose reason is not `tool-calls`
 * after the response streamed a call waits until it proves final. It goes out before the next
 * usage, `[DONE]`, error or other choice's delta, or at `release` (the end of the input); any other
 * delta of its choice (a later fragment of its text, reasoning or calls, its next finish) drops it;
 * a reasoning part (reasoning already read, flushed at `[DONE]`) goes out before it, leaving it held,
 * as does a `truncated-event` error (the body's end cut its last event in half). Some gateways (OpenWebUI in front of vLLM) send a
 * `finish_reason: "stop"` chunk after every chunk, between a call's argument fragments: taken at
 * its word, the finish completed the call with the fragments so far (a `bash` call run with `{}`)
 * and the next fragments became calls without a name. A `tool_calls` finish, and any finish of a
 * response without calls, goes out at once, so a call completes with its finish chunk.
 *
 * @example
 * ```ts
 * const [emit, release] = heldFinish((delta) => deltas.push(delta));
 * emit({ type: "tool-call-chunk", index: 0, id: "call_1", name: "bash" });
 * emit({ type: "finish", reason: "stop", rawReason: "stop" }); // held: a call streamed
 * emit({ type: "tool-call-chunk", index: 0, argumentsDelta: "{}" }); // the finish dropped
 * release(); // at the end: what is held goes out
 * ```
 */
export function heldFinish(emit: Emit): [emit: Emit, release: () => void] {
  let held: FinishDelta | undefined;
  let calls = false;
  const release = (): void => {
    if (held) emit(held);
    held = undefined;
  };
  return [
    (delta) => {
      if (delta.type === "tool-call-chunk") calls = true;
      // usage, done, error (or another choice's delta): the held finish was final. A reasoning part
      // is reasoning already read, flushed (at [DONE]): it goes out before the finish it leaves held,
      // as does the report of a last event the body's end cut in half (the cut, not the provider).
      if (held && delta.type !== "reasoning-part" && (delta as ErrorDelta).error?.code !== "truncated-event")
        /^[ude]/.test(delta.type) || (delta as { choice?: number }).choice !== held.choice
          ? release()
          : (held = undefined);
      if (delta.type === "finish" && calls && delta.reason !== "tool-calls") held = delta;
      else emit(delta);
    },
    release,
  ];
}
