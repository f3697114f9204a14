import fc from "fast-check";
import {
  joinDeltas,
  ProtocolEncoderStream,
  SSEDecoderStream,
  streamToolCallBatches,
  ToolCallEventDecoderStream,
  ToolCallEventEncoderStream,
  type EncodableEvent,
  type ToolCallEvent,
} from "../../src/index.ts";
import { ENCODERS } from "../support/encoders.ts";
import { sseRecordings, supportedProvider } from "../support/fixture-provider.ts";
import { assert, assertEquals, group } from "../support/harness.ts";
import { readAGUIEvents, readChatChunks, readUIChunks } from "../support/protocol-readers.ts";
import { collect, fromChunks, splitAt, textOf } from "../support/streams.ts";

/** A few recordings of each protocol the library reads as SSE, with tool calls and text. */
const recordings = sseRecordings();

const delta = (argumentsDelta: string, extra: Partial<ToolCallEvent> = {}): ToolCallEvent =>
  ({ type: "tool-call-delta", index: 0, id: "call_1", argumentsDelta, closed: false, ...extra }) as ToolCallEvent;

/** The same batches' events read back from the SSE frames the encoder writes, with or without joining. */
async function framesOf(
  batches: readonly ToolCallEvent[][],
  join: boolean,
): Promise<{ frames: number; events: ToolCallEvent[] }> {
  const bytes = await collect(fromChunks(batches).pipeThrough(new ToolCallEventEncoderStream({ joinDeltas: join })));
  const events = (await collect(
    fromChunks(bytes).pipeThrough(new SSEDecoderStream()).pipeThrough(new ToolCallEventDecoderStream()),
  )) as ToolCallEvent[];
  return { frames: events.length, events };
}

/** What a reader of the events builds: the text of each stream, in the order of everything else. */
function reading(events: readonly EncodableEvent[]): unknown[] {
  return joinDeltas(events).map((event) =>
    event.type === "tool-call-delta" ? { ...event, closed: undefined } : event,
  );
}

group("joinDeltas", (test) => {
  test("a call's fragments become one delta, the later one's with the text concatenated; the input is untouched", () => {
    const input = [delta('{"ci'), delta('ty":"Pa'), delta('ris"}', { closed: true })];
    const copy = structuredClone(input);
    const joined = joinDeltas(input);
    assertEquals(joined, [delta('{"city":"Paris"}', { closed: true })]);
    assertEquals(input, copy, "the input is not changed");
    // The joined event keeps the accumulator's key order, so it takes the encoder's fast path.
    assertEquals(Object.keys(joined[0]!), ["type", "index", "id", "argumentsDelta", "closed"]);
  });

  test("fragments of different calls, choices or steps, or with another event between them, stay apart", () => {
    const text = (t: string, choice?: number): ToolCallEvent => ({
      type: "text-delta",
      text: t,
      ...(choice === undefined ? {} : { choice }),
    });
    const events: EncodableEvent[] = [
      text("Hel"),
      text("lo"),
      text("!", 1),
      { type: "reasoning-delta", text: "hm" },
      delta("{", { index: 0 }),
      delta("{", { index: 1, id: "call_2" }),
      delta('"a"', { index: 1, id: "call_2" }),
      delta(":1", { index: 1, id: "call_2", choice: 1 }),
      { type: "tool-call-start", index: 2, id: "call_3", name: "f" },
      delta("{}", { index: 2, id: "call_3" }),
      { ...delta("[", { index: 3, id: "call_4" }), step: 0 } as EncodableEvent,
      { ...delta("]", { index: 3, id: "call_4" }), step: 1 } as EncodableEvent,
    ];
    const joined = joinDeltas(events);
    assertEquals(joined.length, events.length - 2);
    assertEquals(joined[0], text("Hello"));
    assertEquals(joined[4], delta('{"a"', { index: 1, id: "call_2" }));
    // Nothing to join: the same array comes back.
    const apart = [text("a"), text("b", 1)];
    assert(joinDeltas(apart) === apart, "no copy without a join");
    assertEquals(joinDeltas([]), []);
  });

  test("partial arguments: only fragments that both carry them join, and the later value stands", () => {
    const a = delta('{"a":', { partialArguments: {} });
    const b = delta("1}", { partialArguments: { a: 1 }, closed: true });
    assertEquals(joinDeltas([a, b]), [delta('{"a":1}', { partialArguments: { a: 1 }, closed: true })]);
    assertEquals(joinDeltas([delta("{"), b]).length, 2, "one without partial arguments does not join one with");
  });

  test("any events: two fragments join exactly when they have the same type, a text, and the same value of every other field", () => {
    // The rule spelled out pair by pair, against the first fragment of the run.
    const continues = (a: Record<string, unknown>, b: Record<string, unknown>, key: string): boolean => {
      if (a["type"] !== b["type"] || typeof a[key] !== "string" || typeof b[key] !== "string") return false;
      const names = Object.keys(a);
      if (names.length !== Object.keys(b).length) return false;
      return names.every((name) => {
        if (name === key || name === "closed" || name === "partialArguments") return true;
        const value = a[name];
        return Object.hasOwn(b, name) && value === b[name] && (typeof value !== "object" || value === null);
      });
    };
    const expected = (events: Record<string, unknown>[]): unknown[] => {
      const out: unknown[] = [];
      for (let at = 0; at < events.length; at++) {
        const type = events[at]!["type"];
        const key =
          type === "tool-call-delta"
            ? "argumentsDelta"
            : type === "text-delta" || type === "reasoning-delta"
              ? "text"
              : "";
        let end = at + 1;
        while (key && end < events.length && continues(events[at]!, events[end]!, key)) end++;
        if (end === at + 1) out.push(events[at]);
        else
          out.push({
            ...events[end - 1],
            [key]: events
              .slice(at, end)
              .map((e) => e[key])
              .join(""),
          });
        at = end - 1;
      }
      return out;
    };
    // Events that differ from one base in a field or two (a value changed, a field added or left
    // out), so that nearly equal neighbours are common.
    const FIELDS = [
      "type",
      "index",
      "id",
      "argumentsDelta",
      "text",
      "closed",
      "partialArguments",
      "choice",
      "step",
      "other",
    ];
    const value = fc.constantFrom<unknown>(
      0,
      1,
      "a",
      "{",
      undefined,
      null,
      true,
      { o: 1 },
      "tool-call-delta",
      "text-delta",
    );
    const change = fc.tuple(fc.constantFrom(...FIELDS), fc.oneof(value, fc.constant("delete")));
    // A field holding an object ends a run even when the neighbour holds the very same one.
    const SHARED = { o: 1 };
    const base: Record<string, unknown> = {
      type: "tool-call-delta",
      index: 0,
      id: "call_1",
      argumentsDelta: "{",
      closed: false,
    };
    const events = fc
      .array(
        fc.tuple(
          fc.constantFrom(
            base,
            { ...base, providerMetadata: SHARED },
            { type: "text-delta", text: "x" },
            { type: "reasoning-delta", text: "y", choice: 1 },
          ),
          fc.array(change, { maxLength: 2 }),
        ),
        { maxLength: 12 },
      )
      .map((list) =>
        list.map(([from, changes]) => {
          const event: Record<string, unknown> = { ...from };
          for (const [name, to] of changes) {
            if (to === "delete") delete event[name];
            else event[name] = to;
          }
          return event;
        }),
      );
    fc.assert(
      fc.property(events, (list) => {
        assertEquals(joinDeltas(list as unknown as EncodableEvent[]), expected(list));
      }),
      { seed: 37, numRuns: 2000 },
    );
  });

  test("any batching of a recording: joined frames read back to the same text, calls and order of everything else", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.nat({ max: recordings.length - 1 }),
        fc.array(fc.nat(), { maxLength: 30 }),
        async (which, offsets) => {
          const fixture = recordings[which]!;
          const provider = supportedProvider(fixture)!;
          const cuts = offsets.map((offset) => offset % fixture.body.length);
          const batches = await collect(streamToolCallBatches(fromChunks(splitAt(fixture.body, cuts)), { provider }));
          const all = batches.flat();
          const plain = await framesOf(batches, false);
          const joined = await framesOf(batches, true);
          assertEquals(plain.events, all, fixture.name);
          assert(joined.frames <= plain.frames, "never more frames");
          // Joining the joined events once more over the whole response gives the whole response joined.
          assertEquals(reading(joined.events), reading(all), fixture.name);
          // Every event of a batch that is not a fragment is still there, in its place.
          assertEquals(
            joined.events.filter((e) => !e.type.endsWith("-delta")),
            all.filter((e) => !e.type.endsWith("-delta")),
          );
        },
      ),
      { seed: 24, numRuns: 40 },
    );
  }).needs("recordings");

  test("the client protocols: what each strict reader builds from joined batches is what it builds from every fragment", async () => {
    const readers = { openai: readChatChunks, ui: (t: string) => readUIChunks(t), "ag-ui": readAGUIEvents } as const;
    for (const fixture of recordings) {
      const provider = supportedProvider(fixture)!;
      const batches = await collect(
        streamToolCallBatches(fromChunks(splitAt(fixture.body, [fixture.body.length >> 1])), { provider }),
      );
      for (const [name, encoder] of Object.entries(ENCODERS)) {
        const read = readers[name as keyof typeof readers];
        const encode = async (join: boolean) =>
          textOf(
            await collect(
              fromChunks<readonly EncodableEvent[]>(batches).pipeThrough(
                new ProtocolEncoderStream(encoder(), { joinDeltas: join }),
              ),
            ),
          );
        let expected: unknown;
        try {
          expected = read(await encode(false));
        } catch {
          continue; // a recording this protocol's strict reader refuses either way (a provider failure)
        }
        assertEquals(read(await encode(true)), expected, `${name}: ${fixture.name}`);
      }
    }
  });
});
