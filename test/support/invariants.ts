import type { FinishEvent, RequestMessage, ToolCallEvent } from "../../src/index.ts";
import { assert, assertEquals } from "./harness.ts";

/**
 * Checks what must hold for any event sequence: exactly one terminal event (`finish` or
 * `abort`) and it is last; each call starts once, before its deltas; each call ends at most once
 * and no call is both complete and discarded; a call has at most one `tool-call-violation`, after
 * one of its deltas, and does not then complete as valid; deltas concatenate to the raw arguments (unless
 * `deltasMatchArguments` is false); the
 * finish lists exactly the calls that completed.
 */
export function assertEventInvariants(events: readonly ToolCallEvent[], deltasMatchArguments = true): void {
  const terminal = events.filter((e) => e.type === "finish" || e.type === "abort");
  assertEquals(terminal.length, 1, "exactly one finish or abort");
  assert(events[events.length - 1] === terminal[0], "the finish or abort is the last event");
  const started = new Set<string>();
  const ended = new Set<string>();
  const streamed = new Map<string, string>();
  const violated = new Set<string>();
  const key = (e: { index: number; choice?: number }): string => `${e.choice ?? 0}:${e.index}`;
  for (const event of events) {
    if (event.type === "tool-call-start") {
      assert(!started.has(key(event)), `call ${event.index} started twice`);
      started.add(key(event));
    }
    if (event.type === "tool-call-delta") {
      assert(started.has(key(event)), `delta of call ${event.index} before its start`);
      streamed.set(key(event), (streamed.get(key(event)) ?? "") + event.argumentsDelta);
    }
    if (event.type === "tool-call-violation") {
      assert(
        streamed.has(key(event)) && !ended.has(key(event)),
        `violation of call ${event.index} after a delta and before its end`,
      );
      assert(!violated.has(key(event)), `call ${event.index} violated twice`);
      violated.add(key(event));
    }
    if (event.type === "tool-call" || event.type === "invalid-tool-call") {
      assert(!ended.has(key(event)), `call ${event.index} completed twice`);
      assert(
        !(violated.has(key(event)) && event.type === "tool-call"),
        `call ${event.index} violated its schema, yet completed valid`,
      );
      ended.add(key(event));
      // Off where a test's calls are cut or resent by a stage (a final text never replaces what streamed: it is reported).
      if (deltasMatchArguments && started.has(key(event))) {
        assertEquals(
          streamed.get(key(event)) ?? "",
          event.rawArguments,
          `deltas of call ${event.index} concatenate to its arguments`,
        );
      }
    }
    if (event.type === "abort") {
      for (const call of event.discarded)
        assert(!ended.has(key(call)), `call ${call.index} both complete and discarded`);
    }
    if (event.type === "finish") {
      const order = (a: { index: number; choice?: number }, b: { index: number; choice?: number }): number =>
        (a.choice ?? 0) - (b.choice ?? 0) || a.index - b.index;
      const completed = events
        .flatMap((e) => (e.type === "tool-call" ? [e] : []))
        .sort(order)
        .map(key);
      assertEquals(event.toolCalls.map(key), completed, "finish lists every complete call in index order");
    }
  }
}

/** Checks the events' invariants ({@link assertEventInvariants}) and that they end with a `finish`, which it returns. */
export function assertFinished(events: readonly ToolCallEvent[], deltasMatchArguments = true): FinishEvent {
  assertEventInvariants(events, deltasMatchArguments);
  const finish = events.at(-1);
  assert(finish?.type === "finish", "the response finishes");
  return finish;
}

/** The request kit's assistant message of a finish, as an application or the Worker passes the turn on. */
export const asRequestMessage = (finish: FinishEvent): RequestMessage => ({
  role: "assistant",
  content: finish.text,
  toolCalls: finish.toolCalls,
  reasoningParts: finish.reasoningParts,
  order: finish.order,
});
