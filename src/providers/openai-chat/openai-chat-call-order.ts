import { withChoice } from "../../shared/values.ts";
import type { Emit } from "../provider-decoder.ts";
import { heldFinish } from "./openai-chat-held-finish.ts";

/**
 * The Chat decoder's emit: a finish after calls held until it proves final ({@link heldFinish}),
 * and the order of each choice's calls watched, so that a stream cut before the choice's finish
 * ends each call a later index followed. OpenAI streams parallel calls one index after another, so
 * a call whose successor began was sent whole: it is given its `tool-call-end` (parsed as any call
 * the provider ended: repaired, never closed as a value cut short) and only the call still
 * streaming is discarded. Nothing ends early in a stream that goes on: some compatible servers go
 * back to an earlier index (fragments interleaved, which openai-node's early `arguments.done` would
 * cut), or begin a call before the one before it has any argument text (Kimi: every header first),
 * and such a choice ends nothing at a cut either. The calls end at `[DONE]` (after a
 * provider error the accumulator discards what is open) and at `end`, which first gives what is
 * held unless the input failed (nothing proved it final).
 *
 * @example
 * ```ts
 * const [emit, end] = chatEmit((delta) => deltas.push(delta));
 * emit({ type: "tool-call-chunk", index: 0, id: "call_1", name: "a", argumentsDelta: "{}" });
 * emit({ type: "tool-call-chunk", index: 1, id: "call_2", name: "b", argumentsDelta: '{"x' });
 * end(new TypeError("network connection lost")); // deltas end with { type: "tool-call-end", index: 0 }
 * ```
 */
export function chatEmit(emit: Emit): [emit: Emit, end: (fault?: unknown) => void] {
  // Per choice, its call indexes in the order they began; false once it finished, went back to one,
  // or began a call before the one before it had any argument text (Kimi sends every call's header
  // first, then their arguments: a later index proves nothing there).
  const orders = new Map<number, number[] | false>();
  const argued = new Map<number, boolean>();
  const cut = (): void => {
    orders.forEach((order, choice) => {
      if (order) for (const index of order.slice(0, -1)) emit(withChoice({ type: "tool-call-end", index }, choice));
    });
    orders.clear();
    argued.clear();
  };
  // Inside the held finish: a finish it drops (a later fragment of its choice came) finished nothing.
  const [held, release] = heldFinish((delta) => {
    const choice = (delta as { choice?: number }).choice ?? 0;
    let order = orders.get(choice);
    if (delta.type === "done") cut();
    else if (delta.type === "finish") orders.set(choice, false);
    else if (delta.type === "tool-call-chunk" && delta.index !== undefined && order !== false) {
      if (!order) orders.set(choice, (order = []));
      // `includes` runs only when the index changes: once per call in a sequential stream (calls are at most `maxToolCalls`).
      if (order.at(-1) !== delta.index)
        order.includes(delta.index) || (order.length && !argued.get(choice))
          ? orders.set(choice, false)
          : order.push(delta.index) && argued.set(choice, false);
      if (delta.argumentsDelta) argued.set(choice, true);
    }
    emit(delta);
  });
  return [
    held,
    (fault) => {
      if (!fault) release();
      cut();
    },
  ];
}
