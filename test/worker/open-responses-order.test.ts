// The oracle of the Open Responses stream rules that no schema says (test/support/open-responses-order.ts:
// sequence numbers from 0 by one, created → in_progress → one terminal event, every part and
// item added closed, a response's status agreeing with its error, incomplete_details and usage),
// shown to catch each broken rule: a real /v1/responses stream of the Worker (text, then a call)
// passes, and each mutation of it that breaks one rule is found.
import { describe, expect, it } from "vitest";
import { readConformingResponse, readConformingStream } from "../support/open-responses.ts";
import { post } from "./client-support.ts";
import { AUTH, live, scripted, WEATHER } from "./open-responses-support.ts";
import { worker } from "./support.ts";

type Event = Record<string, unknown>;

/** The Worker's answer to a turn of text then a call, streamed or not. */
const answer = (stream: boolean) =>
  worker(
    scripted("anthropic", { text: "Let me look.", calls: [{ name: "get_weather", arguments: { location: "SF" } }] }),
  ).call(
    post("/v1/responses", { model: "anthropic/test-model", input: "Weather?", tools: [WEATHER], stream }, AUTH),
    live("anthropic"),
  );

/** Events as an SSE answer of the spec's form: `event:` and `data:` lines, then `[DONE]`. */
const sse = (events: readonly Event[]) =>
  new Response(
    `${events.map((event) => `event: ${event["type"]}\ndata: ${JSON.stringify(event)}\n\n`).join("")}data: [DONE]\n\n`,
    { headers: { "content-type": "text/event-stream" } },
  );

const without = (events: readonly Event[], type: string) => events.filter((event) => event["type"] !== type);
const renumbered = (events: readonly Event[]) => events.map((event, n) => ({ ...event, sequence_number: n }));
const terminal = (events: readonly Event[], change: Record<string, unknown>) =>
  events.map((event, n) =>
    n === events.length - 1 ? { ...event, response: { ...(event["response"] as Event), ...change } } : event,
  );

/** Each broken rule: how a conforming stream is broken, and what the oracle must say of it. */
const MUTATIONS: [string, (events: readonly Event[]) => Event[], RegExp][] = [
  [
    "sequence numbers from 1",
    (events) => events.map((e) => ({ ...e, sequence_number: (e["sequence_number"] as number) + 1 })),
    /0: sequence_number 1, not 0/,
  ],
  [
    "a sequence number skipped",
    (events) => events.map((e, n) => (n > 2 ? { ...e, sequence_number: n + 1 } : e)),
    /3: sequence_number 4, not 3/,
  ],
  [
    "no response.in_progress",
    (events) => renumbered(without(events, "response.in_progress")),
    /not response.in_progress/,
  ],
  [
    "a content part never closed",
    (events) => renumbered(without(events, "response.content_part.done")),
    /part 0:content:0 is not closed/,
  ],
  [
    "a part closed before its text's .done",
    (events) => renumbered(without(events, "response.output_text.done")),
    /closed when added/,
  ],
  [
    "a delta after the text's .done",
    (events) => {
      const done = events.findIndex((e) => e["type"] === "response.output_text.done");
      const delta = events.find((e) => e["type"] === "response.output_text.delta")!;
      return renumbered([...events.slice(0, done + 1), { ...delta, delta: "" }, ...events.slice(done + 1)]);
    },
    /a delta of part 0:content:0 text/,
  ],
  [
    "an item never done",
    (events) =>
      renumbered(events.filter((e) => !(e["type"] === "response.output_item.done" && e["output_index"] === 1))),
    /items 1 added and never done/,
  ],
  [
    // The spec's own stream validator (state-machines/typescript) keys items by id: DUPLICATE_ITEM.
    "two items with one id",
    (events) => {
      const id = (events.find((e) => e["type"] === "response.output_item.added")!["item"] as Event)["id"];
      const reuse = (e: Event) =>
        e["output_index"] === 1 ? { ...e, item_id: id, item: { ...(e["item"] as Event), id } } : e;
      return events.map((e) => ("item" in e || "item_id" in e ? reuse(e) : e));
    },
    /item id \S+ twice/,
  ],
  [
    "a second terminal event",
    (events) => renumbered([...events.slice(0, -1), events.at(-1)!, events.at(-1)!]),
    /terminal events at/,
  ],
  ["completed without usage", (events) => terminal(events, { usage: null }), /completed without usage/],
  [
    "completed with incomplete_details",
    (events) => terminal(events, { incomplete_details: { reason: "max_output_tokens" } }),
    /status completed with incomplete_details/,
  ],
  [
    "incomplete without incomplete_details",
    (events) =>
      terminal(events, { status: "incomplete" }).map((e, n, all) =>
        n === all.length - 1 ? { ...e, type: "response.incomplete" } : e,
      ),
    /status incomplete with incomplete_details null/,
  ],
];

describe("the oracle of the Open Responses stream rules", () => {
  it("a stream of the Worker passes, and so does its JSON answer", async () => {
    expect((await readConformingStream(await answer(true))).issues).toEqual([]);
    expect((await readConformingResponse(await answer(false))).issues).toEqual([]);
  });

  for (const [name, mutate, found] of MUTATIONS)
    it(`finds it: ${name}`, async () => {
      const { events } = await readConformingStream(await answer(true));
      const { issues } = await readConformingStream(sse(mutate(events)));
      expect(issues.join("\n")).toMatch(found);
    });

  it("finds a failed response without its error object, and a JSON answer whose status disagrees", async () => {
    const body = (await (await answer(false)).json()) as Event;
    const json = (change: Event) =>
      new Response(JSON.stringify({ ...body, ...change }), { headers: { "content-type": "application/json" } });
    expect((await readConformingResponse(json({ status: "failed" }))).issues.join("\n")).toMatch(
      /status failed with error null/,
    );
    expect((await readConformingResponse(json({ error: { code: "x", message: "y" } }))).issues.join("\n")).toMatch(
      /status completed with error/,
    );
  });
});
