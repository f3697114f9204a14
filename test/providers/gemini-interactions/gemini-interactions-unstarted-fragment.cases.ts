// A Gemini Interactions argument fragment (`step.delta` of `arguments_delta`, @google/genai 3.3.0's
// `ArgumentsDelta`) that comes before its step's `step.start` (events out of order: a proxy that
// reorders, a resumed stream that replays from the wrong event) is passed on by its index, as
// Anthropic's and Bedrock's are (test/providers/anthropic/anthropic-unstarted-input.cases.ts): the
// start that comes later names the call, and its arguments are the fragments. Before, the start
// took its call for one whose arguments never streamed and added `{}` at the stop: `{"city":"Oslo"}{}`,
// an `invalid-tool-call` of code `trailing-data` where the call was whole. Without a start the
// fragment is a call of no name (`missing-name`), and a stream cut before the end lists it as
// discarded. Built by hand in the SDK's event shapes.
import { streamToolCalls, type ToolCallEvent } from "../../../src/index.ts";
import { assertEquals, group } from "../../support/harness.ts";
import { assertEventInvariants } from "../../support/invariants.ts";
import { bytes, collect, fromChunks } from "../../support/streams.ts";

const sse = (payloads: Record<string, unknown>[]): string =>
  payloads.map((p) => `event: ${String(p["event_type"])}\ndata: ${JSON.stringify(p)}\n\n`).join("");

/** The calls and what became of them. */
async function read(payloads: Record<string, unknown>[]): Promise<unknown[]> {
  const events: ToolCallEvent[] = await collect(
    streamToolCalls(fromChunks([bytes(sse(payloads))]), { provider: "gemini-interactions" }),
  );
  assertEventInvariants(events, false);
  return events.flatMap((event) => {
    if (event.type === "tool-call") return [["call", event.id, event.arguments]];
    if (event.type === "invalid-tool-call") return [["invalid", event.rawArguments, event.error.code]];
    if (event.type === "abort") return [["abort", event.reason, event.discarded.map((call) => call.rawArguments)]];
    if (event.type === "finish") return [["finish", event.reason]];
    return [];
  });
}

const created = { event_type: "interaction.created", interaction: { id: "v1_u", status: "in_progress" } };
const fragment = (text: string) => ({
  event_type: "step.delta",
  index: 0,
  delta: { type: "arguments_delta", arguments: text },
});
const start = {
  event_type: "step.start",
  index: 0,
  step: { type: "function_call", id: "call_1", name: "weather", arguments: {} },
};
const stop = { event_type: "step.stop", index: 0 };
const completed = { event_type: "interaction.completed", interaction: { id: "v1_u", status: "requires_action" } };

group("Gemini Interactions: an argument fragment before its step's start is passed on", (test) => {
  test("the fragments before the start are the call's arguments, with no `{}` after them", async () => {
    const parts = [fragment('{"city":'), fragment('"Oslo"}')];
    assertEquals(await read([created, ...parts, start, stop, completed]), [
      ["call", "call_1", { city: "Oslo" }],
      ["finish", "tool-calls"],
    ]);
    // One before the start, the rest after it.
    assertEquals(await read([created, parts[0]!, start, parts[1]!, stop, completed]), [
      ["call", "call_1", { city: "Oslo" }],
      ["finish", "tool-calls"],
    ]);
  });

  test("a fragment no step starts is a call of no name; cut before the end, it is discarded", async () => {
    assertEquals(await read([created, fragment('{"city":"Oslo"}'), stop, completed]), [
      ["invalid", '{"city":"Oslo"}', "missing-name"],
      ["finish", "other"],
    ]);
    assertEquals(await read([created, fragment('{"city":'), start]), [["abort", "input-ended", ['{"city":']]]);
  });
});
