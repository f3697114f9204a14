// The Worker's chain joins a run of fragments decoded from one read into one delta
// (worker/services/fragment-runs.ts): whatever the split of the body, the events are those of the
// plain protocol once adjacent fragments of one call (and adjacent text) are joined, every provider's
// recordings included; a call resent whole is still dropped as the accumulator drops it, and what
// came before a fault is delivered before it.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type Provider, streamToolCallBatches, type ToolCallEvent } from "../../src/index.ts";
import { fragmentRuns } from "../../worker/services/fragment-runs.ts";
import { allFixtures, recordingsAvailable } from "../support/fixtures.ts";
import { supportedProvider } from "../support/fixture-provider.ts";
import { recordingSource } from "../support/sources.ts";
import { bytes, chatChunk, fromChunks, openAISSE, STOP_AFTER_EACH_FRAGMENT, splitAt } from "../support/streams.ts";

/** The events of `chunks` read as the Worker reads a body (arrays, flattened). */
async function eventsOf(
  chunks: readonly Uint8Array[],
  provider: Provider,
  runs: boolean,
  maxArgumentsLength?: number,
): Promise<ToolCallEvent[]> {
  const batches = streamToolCallBatches(fromChunks(chunks), {
    provider: runs ? fragmentRuns(provider) : provider,
    maxArgumentsLength,
  });
  const events: ToolCallEvent[] = [];
  for await (const batch of batches) events.push(...batch);
  return events;
}

/** Adjacent text deltas, and adjacent deltas of one call, as one (the last one's `closed`). */
function joined(events: readonly ToolCallEvent[]): ToolCallEvent[] {
  const out: ToolCallEvent[] = [];
  for (const event of events) {
    const last = out.at(-1);
    if (event.type === "text-delta" && last?.type === "text-delta" && last.choice === event.choice) {
      out[out.length - 1] = { ...last, text: last.text + event.text };
    } else if (
      event.type === "tool-call-delta" &&
      last?.type === "tool-call-delta" &&
      last.index === event.index &&
      last.choice === event.choice
    ) {
      out[out.length - 1] = { ...event, argumentsDelta: last.argumentsDelta + event.argumentsDelta };
    } else out.push(event);
  }
  return out;
}

const count = (events: readonly ToolCallEvent[], type: string): number => events.filter((e) => e.type === type).length;

/** One call whose arguments stream in `pieces`, after some text, in Chat Completions chunks. */
function chatBody(text: readonly string[], pieces: readonly string[], after: readonly string[] = []): Uint8Array {
  return bytes(
    openAISSE([
      ...text.map((content) => chatChunk({ content })),
      chatChunk({
        tool_calls: [{ index: 0, id: "call_1", type: "function", function: { name: "write", arguments: "" } }],
      }),
      ...[...pieces, ...after].map((args) => chatChunk({ tool_calls: [{ index: 0, function: { arguments: args } }] })),
      chatChunk({}, "tool_calls"),
    ]),
  );
}

describe("fragmentRuns", () => {
  it("any split of a body gives the plain protocol's events once joined, with a delta per read, not per fragment", async () => {
    const args = JSON.stringify({ path: "notes/a.md", content: 'line one\nline "two"\n'.repeat(30), n: [1, { b: 2 }] });
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: 1, max: 6 }), { minLength: 1, maxLength: 20 }),
        fc.array(fc.nat(), { maxLength: 12 }),
        async (sizes, cuts) => {
          const pieces: string[] = [];
          for (let at = 0, i = 0; at < args.length; i++) {
            const size = sizes[i % sizes.length]!;
            pieces.push(args.slice(at, at + size));
            at += size;
          }
          const body = chatBody(["Writ", "ing ", "it", "."], pieces);
          const chunks = splitAt(
            body,
            cuts.map((cut) => cut % body.length),
          );
          const plain = await eventsOf(chunks, "openai", false);
          const runs = await eventsOf(chunks, "openai", true);
          expect(joined(runs)).toEqual(joined(plain));
          expect(count(plain, "tool-call-delta")).toBe(pieces.length);
          // A run ends at a read's end and at a piece that begins with `{` or `[` (a possible resend).
          const bracketed = pieces.filter((piece) => /^\s*[[{]/.test(piece)).length;
          expect(count(runs, "tool-call-delta")).toBeLessThanOrEqual(chunks.length + 2 * bracketed + 1);
        },
      ),
      { seed: 20261202, numRuns: 40 },
    );
  });

  it("past maxArgumentsLength inside a read, the call discarded holds what it holds without runs, split anywhere", async () => {
    const pieces = ['{"content":"', ...Array.from({ length: 12 }, (_, i) => `${i}`.repeat(9)), '"}'];
    const body = chatBody(["Writing."], pieces);
    const length = pieces.join("").length;
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: length + 8 }),
        fc.array(fc.nat(), { maxLength: 6 }),
        async (max, cuts) => {
          const chunks = splitAt(
            body,
            cuts.map((cut) => cut % body.length),
          );
          const plain = await eventsOf(chunks, "openai", false, max);
          const runs = await eventsOf(chunks, "openai", true, max);
          expect(joined(runs)).toEqual(joined(plain));
          expect(plain.at(-1)?.type).toBe(max < length ? "abort" : "finish");
        },
      ),
      { seed: 20261202, numRuns: 60 },
    );
    // The whole body in one read, past the limit midway: the plain protocol's call, not one read short.
    const abort = (await eventsOf([body], "openai", true, 50)).at(-1);
    expect(abort).toMatchObject({
      reason: "limit-exceeded",
      discarded: [{ rawArguments: pieces.slice(0, 5).join("") }],
    });
  });

  it("a call resent whole as its last fragments, in the same read, is dropped as the plain protocol drops it", async () => {
    // `{"a":` and `{"a":1}` begin with `{`: each is passed alone, so no run holds the resend.
    const body = chatBody([], ['{"a":', " 1", "}"], ['{"a": 1}']);
    const plain = await eventsOf([body], "openai", false);
    const runs = await eventsOf([body], "openai", true);
    expect(joined(runs)).toEqual(joined(plain));
    const call = runs.find((event) => event.type === "tool-call");
    expect(call).toMatchObject({ rawArguments: '{"a": 1}', arguments: { a: 1 } });
  });

  it("fragments before a message that cannot be read, in the same read, are delivered before its error", async () => {
    const fragments = ['{"path":', '"a', "b", 'c"'].map((args) =>
      chatChunk({ tool_calls: [{ index: 0, function: { arguments: args } }] }),
    );
    const start = chatChunk({
      tool_calls: [{ index: 0, id: "call_1", type: "function", function: { name: "write", arguments: "" } }],
    });
    // One read: the call, its fragments, then a chunk that is not JSON (the body ends there).
    const body = bytes(`${openAISSE([start, ...fragments], false)}data: {"choices":[{\n\n`);
    const plain = await eventsOf([body], "openai", false);
    const runs = await eventsOf([body], "openai", true);
    expect(joined(runs)).toEqual(joined(plain));
    const abort = runs.find((event) => event.type === "abort");
    expect(abort).toMatchObject({ discarded: [{ rawArguments: '{"path":"abc"' }] });
  });

  it("a read fault reaches the protocol's decoder: a finish held after a call is dropped, the call discarded, at any byte", async () => {
    // A gateway's `stop` after each fragment: on a failed read nothing proved it final (c05f3c9).
    const body = bytes(STOP_AFTER_EACH_FRAGMENT);
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: body.length }), async (at) => {
        const source = recordingSource([body.slice(0, at)], new TypeError("network connection lost"));
        const events: ToolCallEvent[] = [];
        for await (const batch of streamToolCallBatches(source.stream, { provider: fragmentRuns("openai") }))
          events.push(...batch);
        expect(events.filter((e) => e.type === "tool-call" || e.type === "invalid-tool-call")).toEqual([]);
        const last = events.at(-1);
        expect(last).toMatchObject({ type: "abort", reason: "stream-failed" });
        const started = events.some((e) => e.type === "tool-call-start");
        expect(last?.type === "abort" && last.discarded.length).toBe(started ? 1 : 0);
      }),
      { seed: 34, numRuns: 30, examples: [[body.length]] },
    );
  });

  it("a read's run goes out with that read: nothing waits for the next one", async () => {
    let controller!: ReadableStreamDefaultController<Uint8Array>;
    const body = new ReadableStream<Uint8Array>({ start: (c) => void (controller = c) });
    const reader = streamToolCallBatches(body, { provider: fragmentRuns("openai") }).getReader();
    const start = chatChunk({
      tool_calls: [{ index: 0, id: "call_1", type: "function", function: { name: "write", arguments: "" } }],
    });
    const pieces = ['{"path":', '"a', "b", 'c"'].map((args) =>
      chatChunk({ tool_calls: [{ index: 0, function: { arguments: args } }] }),
    );
    controller.enqueue(bytes(openAISSE([start, ...pieces], false)));
    const seen: ToolCallEvent[] = [];
    while (!seen.some((event) => event.type === "tool-call-delta" && event.argumentsDelta.endsWith('"abc"'))) {
      const { done, value } = await reader.read();
      expect(done).toBe(false);
      seen.push(...value!);
    }
    expect(seen.map((event) => event.type)).toEqual(["tool-call-start", "tool-call-delta", "tool-call-delta"]);
    await reader.cancel();
  });

  it.skipIf(!recordingsAvailable)(
    "every provider's recordings, split anywhere: the plain protocol's events once joined",
    async () => {
      const fixtures = allFixtures.filter((fixture) => supportedProvider(fixture) !== undefined);
      expect(fixtures.length).toBeGreaterThan(40);
      await fc.assert(
        fc.asyncProperty(fc.constantFrom(...fixtures), fc.array(fc.nat(), { maxLength: 8 }), async (fixture, cuts) => {
          const provider = supportedProvider(fixture)!;
          const chunks = splitAt(
            fixture.body,
            cuts.map((cut) => cut % fixture.body.length),
          );
          expect(joined(await eventsOf(chunks, provider, true))).toEqual(
            joined(await eventsOf(chunks, provider, false)),
          );
        }),
        { seed: 20261202, numRuns: 150 },
      );
    },
  );
});
