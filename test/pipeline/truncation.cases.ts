import fc from "fast-check";
import { DetectingFraming, streamToolCalls, type ToolCallEvent } from "../../src/index.ts";
import { supportedProvider } from "../support/fixture-provider.ts";
import { allFixtures } from "../support/fixtures.ts";
import { assert, assertEquals, group } from "../support/harness.ts";
import { bytes, collect, fromChunks } from "../support/streams.ts";

/**
 * A body cut at any byte: everything delivered before the cut is exactly what the whole body
 * delivers first (nothing invented, nothing lost), the stream still ends with one finish or
 * abort, and a call left open is listed as discarded and never parsed.
 */
function assertPrefixOfWhole(cut: ToolCallEvent[], whole: ToolCallEvent[], where: string): void {
  const last = cut.at(-1);
  assert(last?.type === "abort" || last?.type === "finish", `${where}: ends with finish or abort`);
  const body = cut.slice(0, -1);
  // OpenAI Chat ends at a cut each call a later index followed (sent whole): its event is the whole run's for it,
  // marked `stopped` (its turn failed: no runner runs it).
  const same = (e: ToolCallEvent): boolean =>
    (e.type !== "tool-call" || e.stopped === true) &&
    whole.some((w) => JSON.stringify(w) === JSON.stringify({ ...e, stopped: undefined }));
  while (/^(invalid-)?tool-call$/.test(body.at(-1)?.type ?? "") && last.type === "abort" && same(body.at(-1)!))
    body.pop();
  // A call whose arguments go out whole at its close (Gemini's streamed `partialArgs`) gives, cut,
  // what it had received: its start (which the whole run gives at the close, after events the cut
  // never read) and a delta whose text is a strict start of the whole run's delta for that call.
  const [start, received] = body.slice(-2);
  if (
    start?.type === "tool-call-start" &&
    received?.type === "tool-call-delta" &&
    received.index === start.index &&
    received.choice === start.choice &&
    whole.some((e) => JSON.stringify(e) === JSON.stringify(start)) &&
    whole.some(
      (e) =>
        e.type === "tool-call-delta" &&
        e.index === received.index &&
        e.choice === received.choice &&
        e.argumentsDelta.length > received.argumentsDelta.length &&
        e.argumentsDelta.startsWith(received.argumentsDelta),
    )
  )
    body.length -= 2;
  // The only events a cut may add: the report of the event it cut in half, and the parts of what the
  // decoder held until a later event, given at the input's end (OpenAI Chat's reasoning fields and
  // refusal, OpenAI Responses' refusal): each of a field the whole run gives, its text as far as it came.
  const added = (e: ToolCallEvent | undefined): boolean =>
    e?.type === "reasoning-part" || (e?.type === "error" && e.error.code === "truncated-event");
  while (added(body.at(-1))) {
    const event = body.pop()!;
    if (event.type !== "reasoning-part" || event.part.type !== "field") continue;
    const { field, value } = event.part;
    assert(
      whole.some(
        (e) =>
          e.type === "reasoning-part" &&
          e.part.type === "field" &&
          e.part.field === field &&
          (typeof value !== "string" || String(e.part.value).startsWith(value)),
      ),
      `${where}: the ${field} part given at the cut is the whole run's, as far as it came`,
    );
  }
  assertEquals(body, whole.slice(0, body.length), `${where}: events before the cut are the whole run's first events`);
  if (last.type === "abort") {
    const completed = new Set(
      body.flatMap((e) =>
        e.type === "tool-call" || e.type === "invalid-tool-call" ? [`${e.choice ?? 0}:${e.index}`] : [],
      ),
    );
    for (const call of last.discarded)
      assert(!completed.has(`${call.choice ?? 0}:${call.index}`), `${where}: a discarded call was not completed`);
  }
}

/** The byte offsets after which the body's framing has delivered one more message: every message boundary, in any framing. */
function messageBoundaries(body: Uint8Array): number[] {
  let delivered = 0;
  const boundaries: number[] = [];
  const framing = new DetectingFraming(() => delivered++);
  for (let at = 0; at < body.length; at++) {
    const before = delivered;
    framing.feed(body.subarray(at, at + 1));
    if (delivered > before) boundaries.push(at + 1);
  }
  return boundaries;
}

group("Truncated bodies (every recorded stream, every provider)", (test) => {
  for (const fixture of allFixtures) {
    const provider = supportedProvider(fixture);
    if (!provider) continue;
    test(`${fixture.provider}/${fixture.name}: cut at any byte, nothing before the cut is lost or invented`, async () => {
      const data = fixture.body;
      const run = async (body: Uint8Array): Promise<ToolCallEvent[]> =>
        collect(streamToolCalls(fromChunks([body]), { provider }));
      const whole = await run(data);
      // Every event boundary (SSE's blank lines; where a line or element ends), then byte offsets
      // anywhere: every one for the NDJSON and JSON array bodies, seeded ones for the others.
      const boundaries =
        fixture.format === "sse"
          ? [...fixture.text.matchAll(/\r?\n\r?\n|\r\r/g)].map(
              (m) => bytes(fixture.text.slice(0, m.index! + m[0].length)).length,
            )
          : messageBoundaries(data);
      for (const at of boundaries) assertPrefixOfWhole(await run(data.slice(0, at)), whole, `boundary ${at}`);
      if (fixture.format === "ndjson" || fixture.format === "json-array") {
        for (let at = 0; at < data.length; at++) assertPrefixOfWhole(await run(data.slice(0, at)), whole, `byte ${at}`);
      }
      await fc.assert(
        fc.asyncProperty(fc.integer({ min: 0, max: data.length - 1 }), async (at) => {
          assertPrefixOfWhole(await run(data.slice(0, at)), whole, `byte ${at}`);
        }),
        { seed: 6, numRuns: 12 },
      );
    });
  }
});
