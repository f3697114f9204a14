// Gemini's Interactions API: a stream whose connection drops is resumed by the library after its
// last event_id (geminiInteractionsResumingBody), as @google/genai's
// interactions.get(id, { stream: true, last_event_id }) reads it again. A fake Interactions API
// serves the documented streams of test/recordings/gemini-interactions from after the event the
// resume names, cut anywhere (mid-event, between CR and LF, in a UTF-8 character), in any chunks.
import fc from "fast-check";
import {
  geminiInteractionsResumeUrl,
  geminiInteractionsResumingBody,
  type GeminiInteractionsBody,
  type GeminiInteractionsResumePoint,
} from "../../../src/gemini-interactions.ts";
import { streamToolCalls, type ToolCallEvent } from "../../../src/index.ts";
import { allFixtures } from "../../support/fixtures.ts";
import { assert, assertEquals, group } from "../../support/harness.ts";
import { assertEventInvariants } from "../../support/invariants.ts";
import { bytes, collect, fromChunks, splitAt } from "../../support/streams.ts";

/** The documented streams with event ids, each as its events' text. */
const STREAMS = [
  "sdk-calls-signed-after-start",
  "sdk-parallel-calls-chunked-arguments",
  "sdk-server-tool-steps",
  "legacy-content-function-call",
].map((name) => {
  const found = allFixtures.find((f) => f.provider === "gemini-interactions" && f.name === name);
  if (!found) throw new Error(`No documented stream gemini-interactions/${name}`);
  return { name, events: found.text.split(/(?<=\n\n)/) };
});

/** An event's own event_id: its data's top-level field. */
function idOf(event: string): string | undefined {
  const data = event.split(/\r\n|\r|\n/).find((line) => line.startsWith("data: "));
  try {
    return (JSON.parse(data?.slice(6) ?? "") as { event_id?: string }).event_id;
  } catch {
    return undefined;
  }
}

/** How one answer of the fake API ends: after `events` whole events, `part` (0..1) into the next, by an error or an early end. */
interface Cut {
  events: number;
  part: number;
  how: "error" | "end";
}

/**
 * A fake Interactions API: the first answer is the stream from its start, each reopening the
 * events after the one its point names (from the start without one); answer n is cut as `cuts[n]`
 * says (none: whole), and each comes in chunks split at `splits` (fractions of its bytes).
 */
function fakeApi(events: readonly string[], cuts: readonly Cut[], splits: readonly number[] = []) {
  const points: GeminiInteractionsResumePoint[] = [];
  let answers = 0;
  const answer = (from: number): ReadableStream<Uint8Array> => {
    const given = cuts[answers++];
    // Never past the interaction's end: after it nothing is resumed.
    const cut = given && { ...given, events: Math.min(given.events, lastCuttable(events) - from) };
    const served = events.slice(from, cut === undefined ? undefined : from + cut.events).join("");
    const next = cut === undefined ? "" : (events[from + cut.events] ?? "");
    const data = bytes(served + next);
    const length = bytes(served).length + Math.floor(bytes(next).length * (cut?.part ?? 0));
    const chunks = splitAt(
      data.subarray(0, length),
      splits.map((f) => Math.floor(f * length)),
    );
    let i = 0;
    return new ReadableStream<Uint8Array>({
      pull(controller) {
        if (i < chunks.length) return controller.enqueue(chunks[i++]!);
        if (cut?.how === "error") controller.error(new TypeError("network connection lost"));
        else controller.close();
      },
    });
  };
  const reopen = async (point: GeminiInteractionsResumePoint): Promise<GeminiInteractionsBody> => {
    points.push(point);
    const after = point.lastEventId === undefined ? -1 : events.findIndex((e) => idOf(e) === point.lastEventId);
    return new Response(answer(after + 1), { headers: { "content-type": "text/event-stream" } });
  };
  return { first: answer(0), reopen, points };
}

const read = async (body: GeminiInteractionsBody | AsyncIterable<Uint8Array>): Promise<ToolCallEvent[]> => {
  const events = await collect(
    streamToolCalls(body as ReadableStream<Uint8Array>, { provider: "gemini-interactions" }),
  );
  assertEventInvariants(events);
  return events;
};

const whole = (events: readonly string[]): Promise<ToolCallEvent[]> => read(fromChunks([bytes(events.join(""))]));

/** The events without some of their event_ids (a resumed stream sends those after the last id again). */
const withoutIds = (events: readonly string[], drop: readonly boolean[]): string[] =>
  events.map((event, i) => (drop[i % drop.length] ? event.replace(/,"event_id":"[^"]*"/, "") : event));

/** The last event that can be cut (the interaction's end: after it nothing is resumed). */
const lastCuttable = (events: readonly string[]): number =>
  events.findIndex((e) => /"event_type":"interaction\.complete/.test(e));

/** Up to `max` cuts (at least `min`), each after some whole events, part into the next, by an error or an early end. */
const cutsOf = (min: number, max: number): fc.Arbitrary<Cut[]> =>
  fc.array(
    fc.record({
      events: fc.nat({ max: 30 }),
      part: fc.double({ min: 0, max: 0.999, noNaN: true }),
      how: fc.constantFrom("error" as const, "end" as const),
    }),
    { minLength: min, maxLength: max },
  );

/** Where each answer is split into chunks, as fractions of its bytes. */
const SPLITS = fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 8 });

/** `events` served cut as `rawCuts` say, in chunks split at `splits`, read resumed: the events of the whole stream, one resume per cut. */
async function resumedWhole(
  events: readonly string[],
  rawCuts: readonly Cut[],
  splits: readonly number[],
  name: string,
) {
  const expected = await whole(events);
  // The first cut comes after the interaction's id (before it nothing can be resumed).
  const cuts = rawCuts.map((cut, n) => (n === 0 ? { ...cut, events: Math.max(1, cut.events) } : cut));
  const { first, reopen, points } = fakeApi(events, cuts, splits);
  const got = await read(geminiInteractionsResumingBody(first, { reopen }));
  assertEquals(got, expected, name);
  assertEquals(points.length, cuts.length, "one resume per cut");
}

group("Gemini Interactions resume after the last event_id", (test) => {
  test("any cuts (up to 3, mid-event, by an error or an early end) in any chunks: the events of the stream whole, each once (property)", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...STREAMS),
        fc.array(fc.boolean(), { minLength: 1, maxLength: 5 }),
        cutsOf(0, 3),
        SPLITS,
        (stream, drop, cuts, splits) => resumedWhole(withoutIds(stream.events, drop), cuts, splits, stream.name),
      ),
      { seed: 3401, numRuns: 120 },
    );
  });

  test("CR, LF and CRLF line ends, mixed, a CRLF split across chunks: each event passed on whole, resumed the same (property)", async () => {
    const EOLS = ["\n", "\r", "\r\n"];
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...STREAMS),
        fc.array(fc.nat({ max: 2 }), { minLength: 1, maxLength: 5 }),
        cutsOf(1, 2),
        SPLITS,
        (stream, eols, cuts, splits) => {
          const events = stream.events.map((event, i) => event.replaceAll("\n", EOLS[eols[i % eols.length]!]!));
          return resumedWhole(events, cuts, splits, stream.name);
        },
      ),
      { seed: 3407, numRuns: 80 },
    );
    // An event whose lines end with CR alone is passed on when its blank line comes, not held for more.
    const events = STREAMS[0]!.events.map((event) => event.replaceAll("\n", "\r"));
    const reader = geminiInteractionsResumingBody(
      new ReadableStream<Uint8Array>({ start: (controller) => controller.enqueue(bytes(events[0]!)) }),
      { reopen: () => Promise.reject(new Error("no")) },
    );
    const next = await reader.next();
    assertEquals(next.done ? undefined : new TextDecoder().decode(next.value), events[0]);
  });

  test("the resume point is the interaction's id and the last event_id passed on; events after it without one are not passed twice", async () => {
    const events = STREAMS[0]!.events.map((e, i) => (i === 5 ? e.replace(/,"event_id":"[^"]*"/, "") : e));
    // Cut inside the 7th event (after the 6th, which has no id: the resume after evt_005 sends it again).
    const { first, reopen, points } = fakeApi(events, [{ events: 6, part: 0.5, how: "error" }]);
    const got = await read(geminiInteractionsResumingBody(first, { reopen }));
    assertEquals(points, [{ interactionId: "v1_late", lastEventId: "evt_005" }]);
    assertEquals(got, await whole(events));
    const finish = got.at(-1);
    assert(finish?.type === "finish", "a finish");
    assertEquals(
      finish.toolCalls.map((c) => [c.id, c.rawArguments]),
      [
        ["fc_a1", '{"location":"Paris"}'],
        ["fc_b2", '{"location":"Oslo"}'],
      ],
    );
  });

  test("a connection that keeps dropping: at most maxResumes (3) resumes, then the drop's error after what came, the cut call discarded", async () => {
    const events = STREAMS[0]!.events;
    const drop: Cut = { events: 0, part: 0.5, how: "error" };
    const { first, reopen, points } = fakeApi(events, [{ events: 6, part: 0.5, how: "error" }, drop, drop, drop, drop]);
    const got = await read(geminiInteractionsResumingBody(first, { reopen }));
    assertEquals(points.length, 3);
    const abort = got.at(-1);
    assert(abort?.type === "abort", `an abort, not ${abort?.type}`);
    assertEquals(
      abort.discarded.map((call) => call.id),
      ["fc_a1"],
    );
    assertEquals(got.flatMap((e) => (e.type === "text-delta" ? [e.text] : [])).join(""), "Checking both cities.");
    // maxResumes: 0 turns resuming off.
    const off = fakeApi(events, [{ events: 6, part: 0.5, how: "end" }]);
    const cut = await read(geminiInteractionsResumingBody(off.first, { reopen: off.reopen, maxResumes: 0 }));
    assertEquals([off.points.length, cut.at(-1)?.type], [0, "abort"]);
  });

  test("a reopening refused (an interaction not stored, store: false) or failing ends the body as the drop did", async () => {
    const events = STREAMS[0]!.events;
    for (const answer of [
      () => Promise.resolve(new Response('{"error":{"code":404}}', { status: 404 })),
      () => Promise.reject(new TypeError("fetch failed")),
    ]) {
      const { first } = fakeApi(events, [{ events: 7, part: 0.3, how: "error" }]);
      let asked = 0;
      const got = await read(geminiInteractionsResumingBody(first, { reopen: () => (asked++, answer()) }));
      assertEquals([asked, got.at(-1)?.type], [1, "abort"]);
    }
  });

  test("the reader's own abort or timeout is never resumed; nor is a stream cut before its interaction's id", async () => {
    const events = STREAMS[0]!.events;
    for (const name of ["AbortError", "TimeoutError"]) {
      let sent = false;
      const first = new ReadableStream<Uint8Array>({
        pull(controller) {
          if (sent) return controller.error(new DOMException("stopped", name));
          sent = true;
          controller.enqueue(bytes(events.slice(0, 3).join("")));
        },
      });
      let asked = 0;
      const got = await read(
        geminiInteractionsResumingBody(first, { reopen: async () => (asked++, new Response("")) }),
      );
      assertEquals([name, asked, got.at(-1)?.type], [name, 0, "abort"]);
    }
    const early = fakeApi(events, [{ events: 0, part: 0.5, how: "error" }]);
    await read(geminiInteractionsResumingBody(early.first, { reopen: early.reopen }));
    assertEquals(early.points, []);
  });

  test("a first response that is not a 2xx is the chain's http-error with the provider's error object; the reader's cancel cancels the body", async () => {
    const body = '{"error":{"code":429,"message":"Resource has been exhausted","status":"RESOURCE_EXHAUSTED"}}';
    const refused = () => new Response(body, { status: 429, headers: { "content-type": "application/json" } });
    const got = await read(
      geminiInteractionsResumingBody(refused(), { reopen: () => Promise.reject(new Error("no")) }),
    );
    // The same events as the response given to streamToolCalls itself: the error, with the body's object, then the abort.
    assertEquals(got, await read(refused()));
    const error = got.find((e) => e.type === "error");
    assertEquals(error?.type === "error" ? [error.error.code, error.error.data] : undefined, [
      "http-error",
      JSON.parse(body),
    ]);
    assertEquals(got.at(-1)?.type, "abort");
    let cancelled: unknown;
    const stream = new ReadableStream<Uint8Array>({ cancel: (reason) => void (cancelled = reason) });
    const resuming = geminiInteractionsResumingBody(new Response(stream), {
      reopen: () => Promise.reject(new Error("no")),
    });
    await resuming.return?.("stop");
    assertEquals(cancelled, "stop");
  });

  test("geminiInteractionsResumeUrl: GET {base}/interactions/{id}?stream=true&last_event_id=..., from the start without one", () => {
    const base = "https://generativelanguage.googleapis.com/v1beta/";
    assertEquals(
      geminiInteractionsResumeUrl(base, { interactionId: "v1_a/b", lastEventId: "evt 5" }),
      "https://generativelanguage.googleapis.com/v1beta/interactions/v1_a%2Fb?stream=true&last_event_id=evt%205",
    );
    assertEquals(
      geminiInteractionsResumeUrl(base, { interactionId: "v1_a", lastEventId: undefined }),
      "https://generativelanguage.googleapis.com/v1beta/interactions/v1_a?stream=true",
    );
    // Every trailing slash goes (a loop, not a backtracking pattern, so a long run costs its length).
    assertEquals(
      geminiInteractionsResumeUrl(`${base}///`, { interactionId: "v1_a", lastEventId: undefined }),
      "https://generativelanguage.googleapis.com/v1beta/interactions/v1_a?stream=true",
    );
  });
});
