import { withChoice } from "../../shared/values.ts";
import type { Emit } from "../provider-decoder.ts";
import { heldFinish } from "./openai-chat-held-finish.ts";

/**
 * The Chat decoder's emit: a finish after calls held until it proves final ({@link heldFinish}),
 * and the order of each choice's calls watched. OpenAI streams parallel calls one index after
 * another, so a call whose successor began was sent whole: it is marked so (`tool-call-whole`), and
 * should the response stop before the choice's finish (a cut, a failed read, a provider error, a
 * limit, a cancel), the accumulator completes it (parsed as any call the provider ended: repaired,
 * never closed as a value cut short) and discards only the call still streaming. Nothing ends
 * early in a stream that goes on: some compatible servers go back to an earlier index (fragments
 * interleaved, which openai-node's early `arguments.done` would cut), or begin a call before the
 * one before it has any argument text (Kimi: every header first); such a choice's marks are taken
 * back. `end` gives what is held unless the input failed (nothing proved it final).
 *
 * @example
 * ```ts
 * const [emit, end] = chatEmit((delta) => deltas.push(delta));
 * emit({ type: "tool-call-chunk", index: 0, id: "call_1", name: "a", argumentsDelta: "{}" });
 * emit({ type: "tool-call-chunk", index: 1, id: "call_2", name: "b", argumentsDelta: '{"x' });
 * // deltas: the first chunk, { type: "tool-call-whole", index: 0, whole: true }, the second
 * end(new TypeError("network connection lost"));
 * ```
 */
export function chatEmit(emit: Emit): [emit: Emit, end: (fault?: unknown) => void] {
  // Per choice, its call indexes in the order they began; false once it finished, went back to one,
  // or began a call before the one before it had any argument text (Kimi sends every call's header
  // first, then their arguments: a later index proves nothing there).
  const orders = new Map<number, number[] | false>();
  const argued = new Map<number, boolean>();
  // The choice last marked argued, whose mark stands until its next call begins: a stream's
  // fragments mark it once, not once each (a Map write per fragment).
  let arguedLast: number | undefined;
  /** The call of `arguedLast` that was argued: its next fragments (nearly every delta) change nothing here. */
  let arguedCall: number | undefined;
  const mark = (index: number, choice: number, whole: boolean): void =>
    emit(withChoice({ type: "tool-call-whole", index, whole }, choice));
  // Inside the held finish: a finish it drops (a later fragment of its choice came) finished nothing.
  const [held, release] = heldFinish((delta) => {
    const choice = (delta as { choice?: number }).choice ?? 0;
    if (delta.type === "tool-call-chunk" && choice === arguedLast && delta.index === arguedCall) return emit(delta);
    let order = orders.get(choice);
    if (delta.type === "finish") orders.set(choice, false);
    else if (delta.type === "tool-call-chunk" && delta.index !== undefined && order !== false) {
      if (!order) orders.set(choice, (order = []));
      const last = order.at(-1);
      // `includes` runs only when the index changes: once per call in a sequential stream (calls are at most `maxToolCalls`).
      if (last !== delta.index)
        if (order.includes(delta.index) || (last !== undefined && !argued.get(choice))) {
          orders.set(choice, false);
          for (const index of order.slice(0, -1)) mark(index, choice, false);
        } else {
          if (last !== undefined) mark(last, choice, true);
          order.push(delta.index);
          argued.set(choice, false);
          if (arguedLast === choice) arguedLast = undefined;
        }
      if (delta.argumentsDelta && arguedLast !== choice) {
        argued.set(choice, true);
        arguedLast = choice;
        arguedCall = delta.index;
      }
    }
    emit(delta);
  });
  return [held, (fault) => fault || release()];
}
