// The protocol wrapper that applies stop sequences in the Worker (worker/services/stop-sequences.ts),
// read through the library's chain: what comes before the stop is kept (calls included), reasoning
// is not cut, nothing after the stop is decoded, and the request is ended once.
import { describe, expect, it } from "vitest";
import { type ProviderDelta, type ProviderProtocol, streamToolCalls, type ToolCallEvent } from "../../src/index.ts";
import { withStopSequences } from "../../worker/services/stop-sequences.ts";

/** A protocol whose every SSE message is one delta, as JSON. */
const DELTAS: ProviderProtocol = {
  name: "deltas",
  createDecoder: (emit) => ({
    decode: (message) => emit(JSON.parse(message.data) as ProviderDelta),
    end: () => {},
  }),
};

async function read(deltas: readonly ProviderDelta[], stops: readonly string[]) {
  const ended: string[] = [];
  const body = deltas.map((delta) => `data: ${JSON.stringify(delta)}\n\n`).join("");
  const provider = withStopSequences(DELTAS, stops, (stop) => ended.push(stop));
  const events: ToolCallEvent[] = [];
  for await (const event of streamToolCalls(new Response(body), { provider })) events.push(event);
  const finish = events.at(-1);
  if (finish?.type !== "finish") throw new Error(`no finish: ${JSON.stringify(finish)}`);
  return { events, finish, ended };
}

const text = (value: string): ProviderDelta => ({ type: "text-delta", text: value });
const call = (index: number, args: string): ProviderDelta[] => [
  { type: "tool-call-chunk", index, id: `call_${index}`, name: "lookup", argumentsDelta: args },
  { type: "tool-call-end", index },
];
const END: ProviderDelta[] = [
  { type: "usage", usage: { inputTokens: 5, outputTokens: 9, raw: null } },
  { type: "finish", reason: "stop", rawReason: "completed" },
  { type: "done" },
];

describe("withStopSequences", () => {
  it("keeps a call complete before the stop, gives the held text before it, and drops what follows", async () => {
    const { events, finish, ended } = await read(
      [
        { type: "reasoning-delta", text: "The user says END</b" },
        text("Looking </"),
        ...call(0, '{"q":"a"}'),
        text("now</bl"),
        text("ock> tail"),
        ...call(1, '{"q":"b"}'),
        ...END,
      ],
      ["</block>"],
    );
    // The reasoning is not cut; "</" held until the call showed it begins no stop.
    expect(events.filter((event) => event.type !== "usage").map((event) => event.type)).toEqual([
      "reasoning-delta",
      "text-delta",
      "text-delta",
      "tool-call-start",
      "tool-call-delta",
      "tool-call",
      "text-delta",
      "finish",
    ]);
    expect([finish.text, finish.reasoning]).toEqual(["Looking </now", "The user says END</b"]);
    expect(finish.toolCalls.map((done) => done.arguments)).toEqual([{ q: "a" }]);
    expect([finish.reason, finish.rawReason]).toEqual(["tool-calls", "stop_sequence"]);
    expect(ended).toEqual(["</block>"]);
  });

  it("without a stop in the text, the response is as the provider gave it, the held text at its end", async () => {
    const { finish, ended } = await read([text("almost </bl"), text("oc"), ...END], ["</block>"]);
    expect([finish.text, finish.reason, finish.rawReason, finish.usage?.outputTokens]).toEqual([
      "almost </bloc",
      "stop",
      "completed",
      9,
    ]);
    expect(ended).toEqual([]);
  });

  it("a stop at the very start leaves no text, and the finish before the provider's", async () => {
    const { events, finish } = await read([text("END of it"), ...END], ["STOP", "END"]);
    expect(events.map((event) => event.type)).toEqual(["finish"]);
    expect([finish.text, finish.reason, finish.usage]).toEqual(["", "stop", undefined]);
  });
});
