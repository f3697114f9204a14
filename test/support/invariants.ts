import type { ToolCallEvent } from "../../src/index.ts";
import { assert, assertEquals } from "./harness.ts";

/**
 * Checks what must hold for any event sequence: exactly one terminal event (`finish` or
 * `abort`) and it is last; each call starts once, before its deltas; each call ends at most once
 * and no call is both complete and discarded; deltas concatenate to the raw arguments (unless
 * `deltasMatchArguments` is false); the
 * finish lists exactly the calls that completed.
 */
export function assertEventInvariants(events: readonly ToolCallEvent[], deltasMatchArguments = true): void {
  const terminal = events.filter((e) => e.type === "finish" || e.type === "abort");
  assertEquals(terminal.length, 1, "exactly one finish or abort");
  assert(events[events.length - 1] === terminal[0], "the finish or abort is the last event");
  const started = new Set<number>();
  const ended = new Set<number>();
  const streamed = new Map<number, string>();
  for (const event of events) {
    if (event.type === "tool-call-start") {
      assert(!started.has(event.index), `call ${event.index} started twice`);
      started.add(event.index);
    }
    if (event.type === "tool-call-delta") {
      assert(started.has(event.index), `delta of call ${event.index} before its start`);
      streamed.set(event.index, (streamed.get(event.index) ?? "") + event.argumentsDelta);
    }
    if (event.type === "tool-call" || event.type === "invalid-tool-call") {
      assert(!ended.has(event.index), `call ${event.index} completed twice`);
      ended.add(event.index);
      // Off only for providers whose final arguments may replace what streamed (Responses `.done`).
      if (deltasMatchArguments && started.has(event.index)) {
        assertEquals(streamed.get(event.index) ?? "", event.rawArguments, `deltas of call ${event.index} concatenate to its arguments`);
      }
    }
    if (event.type === "abort") {
      for (const call of event.discarded) assert(!ended.has(call.index), `call ${call.index} both complete and discarded`);
    }
    if (event.type === "finish") {
      const completed = events.filter((e) => e.type === "tool-call").map((e) => (e as { index: number }).index).sort((a, b) => a - b);
      assertEquals(event.toolCalls.map((c) => c.index), completed, "finish lists every complete call in index order");
    }
  }
}
