// An event type a provider adds later never breaks a stream: each provider's real recording with
// one such event (or a new kind inside a known event) spliced into its middle gives the same text,
// calls, finish reason and usage through streamToolCalls as the recording alone. The added events
// follow each provider's own envelope (its SSE `event:` name, `type` field, event-stream headers);
// their names are made up on purpose, as a later one would be.
import { describe, expect, it } from "vitest";
import { type Provider, streamToolCalls, type ToolCallEvent } from "../../src/index.ts";
import { recordingsAvailable, summarize } from "../support/fixtures.ts";
import { collect, fromChunks } from "../support/streams.ts";
import { unknownEventCases, unknownKindCases } from "../support/unknown-events.ts";

/** The events a client acts on: the summary, the usage reported last, and no error. */
async function outcome(body: Uint8Array, provider: Provider) {
  const events: ToolCallEvent[] = await collect(streamToolCalls(fromChunks([body]), { provider }));
  const usage = events.filter((e) => e.type === "usage").at(-1);
  const errors = events.filter((e) => e.type === "error" || e.type === "tool-call-violation");
  return { ...summarize(events), usage: usage && { ...usage.usage, raw: undefined }, errors };
}

describe.skipIf(!recordingsAvailable)("streamToolCalls: events of no release inside a real stream", () => {
  for (const [name, provider, fixture, spliced] of [...unknownEventCases, ...unknownKindCases])
    it(name, async () => {
      const plain = await outcome(fixture.body, provider);
      expect(plain.toolCalls.length + plain.text.length).toBeGreaterThan(0);
      const body = spliced(fixture);
      expect(body.length).toBeGreaterThan(fixture.body.length);
      expect(await outcome(body, provider)).toEqual(plain);
    });
});
