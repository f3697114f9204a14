// Issue 37's small answers in one Node process: what a stream costs once (its chain, streams,
// readers, encoder) against what each event costs. The load bench's small bodies (bench/load/
// bodies.ts: OpenAI Chat, Anthropic, OpenAI Responses, about 30 events, each in one chunk as the
// scripted providers write it), their first event alone, and an empty body, each read by: the
// one-pass floor (bench/contenders.ts), `for await` over `streamToolCalls`, `batchReader` over
// `streamToolCallBatches`, and the Worker's answer (the chain as worker/services/model-call.ts opens
// it, the watch, the provider data's strip, the protocol's encoder by encodeBatches, the heartbeat).
// CPU microseconds per body (process.cpuUsage over N bodies), the median of 4 rounds after one of
// warm-up; "per event" is (whole - first event) / (events - 1).
//   node bench/small-fixed.ts [N]     (N bodies per cell, default 2000)
import { floor } from "./contenders.ts";
import {
  batchReader,
  jsonSchema,
  type ToolCallEvent,
  streamToolCallBatches,
  streamToolCalls,
  OpenAIChatEncoder,
  AnthropicMessagesEncoder,
  OpenAIResponsesEncoder,
} from "../src/index.ts";
import { loadBodies } from "./load/bodies.ts";
import { readProtocol } from "../worker/services/fragment-runs.ts";
import { ResponseWatch } from "../worker/upstream/response-watch.ts";
import { failureEvents } from "../worker/upstream/watched-body.ts";
import { withoutProviderDataInBatches } from "../worker/services/without-provider-data.ts";
import { encodeBatches } from "../worker/http/encode-batches.ts";
import { withHeartbeat } from "../worker/http/heartbeat.ts";
import { platformRuntime } from "../worker/runtime.ts";

const N = Number(process.argv[2] ?? 2000);
const bodies = loadBodies();
const timers = platformRuntime.timers;
// A body of one chunk, a byte stream as a fetch body is (the chain reads it with a BYOB reader).
const responseOf = (chunks: Uint8Array[], type: string): Response =>
  new Response(chunks[0] ?? new Uint8Array(0), { headers: { "content-type": type } });
type Case = {
  name: string;
  provider: "openai" | "anthropic" | "openai-responses";
  chunks: Uint8Array[];
  type: string;
  events: number;
};
const enc = new TextEncoder();
const cases: Case[] = [];
for (const provider of ["openai", "anthropic", "openai-responses"] as const) {
  const body = bodies[provider].small;
  const text = new TextDecoder().decode(body.bytes);
  const events = text.split(/\n\n/).filter((e) => e.trim() !== "");
  cases.push({
    name: `${provider} full`,
    provider,
    chunks: [body.bytes],
    type: body.contentType,
    events: events.length,
  });
  cases.push({
    name: `${provider} one`,
    provider,
    chunks: [enc.encode(`${events[0]}\n\n`)],
    type: body.contentType,
    events: 1,
  });
  cases.push({ name: `${provider} empty`, provider, chunks: [], type: body.contentType, events: 0 });
}
const floorName = { openai: "openai", anthropic: "anthropic", "openai-responses": "openai-responses" } as const;
const encoders = {
  openai: () => new OpenAIChatEncoder({ model: "small" }),
  anthropic: () => new AnthropicMessagesEncoder({ model: "small" }),
  "openai-responses": () => new OpenAIResponsesEncoder({ model: "small" }),
};
const variants: Record<string, (c: Case) => Promise<unknown>> = {
  floor: (c) => floor(c.chunks, floorName[c.provider] as never),
  forAwait: async (c) => {
    let n = 0;
    for await (const _ of streamToolCalls(responseOf(c.chunks, c.type), { provider: c.provider })) n++;
    return n;
  },
  batches: async (c) => {
    const r = batchReader(streamToolCallBatches(responseOf(c.chunks, c.type), { provider: c.provider }));
    let n = 0;
    for (let x = await r.read(); !x.done; x = await r.read()) n += x.value.length;
    return n;
  },
  worker: async (c) => {
    const watch = new ResponseWatch({ timers, idleTimeoutMs: 120_000, maxResponseMs: 600_000 });
    const chain = streamToolCallBatches(responseOf(c.chunks, c.type), {
      provider: readProtocol(c.provider, false),
      maxToolCalls: 128,
      maxArgumentsLength: 1 << 20,
      maxEventLength: 1 << 22,
      jsonSchema,
      tools: [{ name: "write_file" }],
      batchWindowMs: 25,
      timers,
    });
    const batches = withoutProviderDataInBatches(
      watch.events(chain as ReadableStream<ToolCallEvent[]>, (e) => [failureEvents(e)]),
    );
    const body = withHeartbeat(encodeBatches(batches, encoders[c.provider]()), timers);
    const r = body.getReader();
    let n = 0;
    for (let x = await r.read(); !x.done; x = await r.read()) n += x.value.length;
    return n;
  },
};
const cpu = () => {
  const u = process.cpuUsage();
  return u.user + u.system;
};
const results: Record<string, Record<string, number[]>> = {};
for (let round = 0; round < 5; round++) {
  for (const c of cases)
    for (const [v, run] of Object.entries(variants)) {
      const t0 = cpu();
      for (let i = 0; i < N; i++) await run(c);
      const us = (cpu() - t0) / N;
      if (round > 0) ((results[c.name] ??= {})[v] ??= []).push(us);
    }
}
const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
console.log("case\tevents\t" + Object.keys(variants).join("\t") + "\t(us per body, median of 4 rounds)");
for (const c of cases)
  console.log(
    `${c.name}\t${c.events}\t` +
      Object.keys(variants)
        .map((v) => med(results[c.name]![v]!).toFixed(2))
        .join("\t"),
  );
for (const p of ["openai", "anthropic", "openai-responses"]) {
  const full = cases.find((c) => c.name === `${p} full`)!;
  const line = Object.keys(variants).map((v) => {
    const f = med(results[`${p} full`]![v]!),
      o = med(results[`${p} one`]![v]!),
      e = med(results[`${p} empty`]![v]!);
    return `${v}: empty ${e.toFixed(1)} one ${o.toFixed(1)} per-event ${((f - o) / (full.events - 1)).toFixed(3)} fixed-share ${((o / f) * 100).toFixed(0)}%`;
  });
  console.log(p, "\n  " + line.join("\n  "));
}
