// streamToolCalls given @google/genai's own `interactions.create({ stream: true })` stream of a decode it continued by
// itself (`automatic_continuation`, its default): the real SDK (the on-demand set's version) asks a local server for
// each hop, the second with the first's `continuation_token`, and yields both hops' events back to back, the first
// hop's `interaction.completed` (`requires_continuation`) included. The library reads them as one answer: both hops'
// text and calls (each hop counts its steps from 0), the usage of both (test/providers/gemini-interactions/
// gemini-interactions-sdk-hops.cases.ts has the rules on hand-built events).
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, expect, it } from "vitest";
import { onDemandImport } from "../../scripts/on-demand.mjs";
import { streamToolCalls } from "../../src/index.ts";
import { collect } from "../support/streams.ts";
import type { GenAISdk } from "./on-demand-sdks.ts";

const { GoogleGenAI } = await onDemandImport<GenAISdk>("@google/genai");

const sse = (payloads: Record<string, unknown>[]): string =>
  `${payloads.map((p) => `event: ${String(p["event_type"])}\ndata: ${JSON.stringify(p)}\n\n`).join("")}event: done\ndata: [DONE]\n\n`;

/** One hop: its text at step 0, one call at step 1, then its completion. */
const hop = (id: string, text: string, call: string, status: string, token?: string): string =>
  sse([
    { event_type: "interaction.created", interaction: { id, status: "in_progress" } },
    { event_type: "step.start", index: 0, step: { type: "model_output" } },
    { event_type: "step.delta", index: 0, delta: { type: "text", text } },
    { event_type: "step.stop", index: 0 },
    { event_type: "step.start", index: 1, step: { type: "function_call", id: call, name: "save", arguments: {} } },
    { event_type: "step.delta", index: 1, delta: { type: "arguments_delta", arguments: `{"part":"${call}"}` } },
    { event_type: "step.stop", index: 1 },
    {
      event_type: "interaction.completed",
      interaction: {
        id,
        status,
        ...(token && { continuation_token: token }),
        usage: { total_input_tokens: 5, total_output_tokens: 2, total_tokens: 7 },
      },
    },
  ]);

const requests: string[] = [];
let server: Server;
let baseUrl = "";

beforeAll(async () => {
  server = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk: Buffer) => (body += chunk.toString()));
    request.on("end", () => {
      requests.push(body);
      response.writeHead(200, { "content-type": "text/event-stream" });
      response.end(
        requests.length === 1
          ? hop("v1_one", "Part one. ", "c1", "requires_continuation", "aG9wMQ==")
          : hop("v1_two", "Part two.", "c2", "requires_action"),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => {
  server.closeAllConnections();
  server.close();
});

it("@google/genai's continued interactions stream is one answer: both hops' text, calls and usage", async () => {
  const stream = await new GoogleGenAI({ apiKey: "test", httpOptions: { baseUrl } }).interactions.create({
    model: "gemini-3-flash-preview",
    input: "hi",
    stream: true,
  });
  const events = await collect(streamToolCalls(stream, { provider: "gemini-interactions" }));
  expect(requests.length, "the SDK asked for the second hop").toBe(2);
  expect(requests[1]).toContain('"continuation_token":"aG9wMQ=="');
  const finish = events.at(-1);
  expect(finish?.type).toBe("finish");
  if (finish?.type !== "finish") return;
  expect([finish.reason, finish.text]).toEqual(["tool-calls", "Part one. Part two."]);
  expect(finish.toolCalls.map((c) => [c.id, c.arguments])).toEqual([
    ["c1", { part: "c1" }],
    ["c2", { part: "c2" }],
  ]);
  expect([finish.usage?.inputTokens, finish.usage?.totalTokens]).toEqual([10, 14]);
});

/**
 * @google/genai's stream of a hop whose connection drops after `dropped` (the first hop's bytes written before the drop,
 * made from that hop's whole body), the next hop answering whole: the requests the SDK made and what the library read.
 */
async function resumedAfterDrop(dropped: (first: string) => string) {
  const seen: string[] = [];
  const dropping = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk: Buffer) => (body += chunk.toString()));
    request.on("end", () => {
      seen.push(body);
      response.writeHead(200, { "content-type": "text/event-stream" });
      if (seen.length > 1) return response.end(hop("v1_resumed", "Part two.", "c2", "requires_action"));
      response.write(dropped(hop("v1_dropped", "Part one. ", "c1", "completed")), () => response.socket?.destroy());
    });
  });
  await new Promise<void>((resolve) => dropping.listen(0, "127.0.0.1", resolve));
  try {
    const url = `http://127.0.0.1:${(dropping.address() as AddressInfo).port}`;
    const stream = await new GoogleGenAI({ apiKey: "test", httpOptions: { baseUrl: url } }).interactions.create({
      model: "gemini-3-flash-preview",
      input: "hi",
      stream: true,
    });
    const events = await collect(streamToolCalls(stream, { provider: "gemini-interactions" }));
    const finish = events.at(-1);
    if (finish?.type !== "finish") throw new Error("no finish");
    return { seen, finish };
  } finally {
    dropping.closeAllConnections();
    dropping.close();
  }
}

/** A checkpoint of the dropped hop (an `interaction.status_update` with a `continuation_token`), as SSE. */
const checkpoint = (extra: Record<string, unknown> = {}): string =>
  `event: interaction.status_update\ndata: ${JSON.stringify({
    event_type: "interaction.status_update",
    interaction_id: "v1_dropped",
    status: "in_progress",
    continuation_token: "Y2hrMQ==",
    ...extra,
  })}\n\n`;

// @google/genai's stream also resumes a hop whose connection dropped after a checkpoint (an `interaction.status_update`
// with a `continuation_token`, no output since): it opens the next hop from that token and yields its events after the
// dropped hop's, with no `interaction.completed` between them (dist/index.mjs, `StreamContinuation.endHop`).
it("@google/genai's stream resumed from a checkpoint after a drop is one answer: both hops' calls, the usage of both", async () => {
  const usage = { total_input_tokens: 5, total_output_tokens: 2, total_tokens: 7 };
  // The dropped hop's steps and its checkpoint, then the connection ends mid-stream.
  const { seen, finish } = await resumedAfterDrop(
    (first) => first.slice(0, first.indexOf("event: interaction.completed")) + checkpoint({ usage }),
  );
  expect(seen.length, "the SDK opened the next hop").toBe(2);
  expect(seen[1]).toContain('"continuation_token":"Y2hrMQ=="');
  expect([finish.reason, finish.text]).toEqual(["tool-calls", "Part one. Part two."]);
  expect(finish.toolCalls.map((c) => [c.id, c.arguments])).toEqual([
    ["c1", { part: "c1" }],
    ["c2", { part: "c2" }],
  ]);
  expect([finish.usage?.inputTokens, finish.usage?.totalTokens]).toEqual([10, 14]);
});

// The same drop with the dropped hop's call still open at its checkpoint (its `step.stop` never came): the SDK resumes
// from the checkpoint, which re-generates what came after it, so that call was cut. It is withdrawn, never run.
it("@google/genai's stream resumed after a drop: a call the dropped hop left open is withdrawn, not completed", async () => {
  const { seen, finish } = await resumedAfterDrop(
    (first) =>
      first.slice(0, first.indexOf('event: step.stop\ndata: {"event_type":"step.stop","index":1}')) + checkpoint(),
  );
  expect(seen.length, "the SDK opened the next hop").toBe(2);
  expect(finish.toolCalls.map((c) => [c.id, c.arguments])).toEqual([["c2", { part: "c2" }]]);
  expect((finish.withdrawnToolCalls ?? []).map((c) => [c.id, c.error.code])).toEqual([["c1", "withdrawn"]]);
});

// A hop whose last event is a terminal status update, with no `interaction.completed`: the SDK's stream ends there, no
// error and no next hop (`completed` is no status it resumes). The library ends the answer there too.
it("@google/genai's stream that ends on a terminal status update is one finished answer", async () => {
  const { seen, finish } = await resumedAfterDrop((first) =>
    first.replace(/event: interaction\.completed\n[^\n]*\n\n/, checkpoint({ status: "requires_action" })),
  );
  expect(seen.length, "no next hop").toBe(1);
  expect([finish.reason, finish.rawReason, finish.text]).toEqual(["tool-calls", "requires_action", "Part one. "]);
  expect(finish.toolCalls.map((c) => c.id)).toEqual(["c1"]);
});
