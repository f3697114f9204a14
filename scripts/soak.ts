// Soak test of resumable responses (not part of `npm test`): starts the Worker with `wrangler dev`
// on 127.0.0.1 with the replay upstream, runs CLIENTS concurrent clients that each stream
// RESPONSES responses, disconnect at seeded random points and resume with Last-Event-ID, and
// reports events delivered, duplicates and gaps (both must be 0) and workerd's peak memory.
//   npm run soak                       (CLIENTS=20 RESPONSES=5 SEED=1 DEADLINE_S=180 to change)
import { readdirSync, readFileSync } from "node:fs";
import { createParser, type EventSourceMessage } from "eventsource-parser";
import { startWorker } from "../test/e2e/worker-server.ts";

const clients = Number(process.env["CLIENTS"] ?? 20);
const perClient = Number(process.env["RESPONSES"] ?? 5);
const deadline = Date.now() + Number(process.env["DEADLINE_S"] ?? 180) * 1000;
let seed = Number(process.env["SEED"] ?? 1);
const random = (): number => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
const providers = ["openai", "anthropic", "gemini", "openai-responses"];

const server = await startWorker({ REPLAY_DELAY_MS: "5" }, 120_000);
const peak = watchWorkerdMemory();
const totals = { responses: 0, events: 0, duplicates: 0, gaps: 0, resumes: 0, failures: 0 };
const expected = new Map<string, number>();
const started = Date.now();

/** Reads SSE messages; stops after `limit` of them (a disconnect) or at the end. */
async function read(response: Response, limit: number): Promise<{ messages: EventSourceMessage[]; ended: boolean }> {
  const messages: EventSourceMessage[] = [];
  const parser = createParser({ onEvent: (message) => messages.push(message) });
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  while (messages.length < limit) {
    const { done, value } = await reader.read();
    if (done) return { messages, ended: true };
    parser.feed(decoder.decode(value, { stream: true }));
  }
  await reader.cancel();
  return { messages: messages.slice(0, limit), ended: false };
}

const body = (provider: string): string =>
  JSON.stringify({ provider, model: "m", messages: [{ role: "user", content: "What is the weather in Paris?" }] });

async function oneResponse(provider: string): Promise<void> {
  const first = await fetch(`${server.url}/v1/stream`, { method: "POST", headers: { "content-type": "application/json" }, body: body(provider) });
  if (!first.ok) throw new Error(`POST answered ${first.status}`);
  const id = first.headers.get("x-response-id")!;
  const received: EventSourceMessage[] = [];
  let part = await read(first, Math.floor(random() * 40));
  received.push(...part.messages);
  while (!part.ended && Date.now() < deadline) {
    totals.resumes++;
    const last = received.at(-1)?.id ?? "-1";
    const again = await fetch(`${server.url}/v1/stream/${id}`, { headers: { "last-event-id": last } });
    if (!again.ok) throw new Error(`resume answered ${again.status}`);
    part = await read(again, random() < 0.5 ? Number.POSITIVE_INFINITY : Math.floor(random() * 40));
    received.push(...part.messages);
  }
  const ids = received.map((m) => Number(m.id));
  totals.duplicates += ids.length - new Set(ids).size;
  const total = Math.max(...ids) + 1;
  totals.gaps += total - new Set(ids).size;
  const known = expected.get(provider);
  if (known === undefined) expected.set(provider, total);
  else if (known !== total) totals.gaps += Math.abs(known - total);
  totals.events += received.length;
  totals.responses++;
}

try {
  await Promise.all(
    Array.from({ length: clients }, async (_, client) => {
      for (let i = 0; i < perClient && Date.now() < deadline; i++) {
        try {
          await oneResponse(providers[(client + i) % providers.length]!);
        } catch (error) {
          totals.failures++;
          console.error(`client ${client}: ${(error as Error).message}`);
        }
      }
    }),
  );
} finally {
  peak.stop();
  await server.stop();
}
console.log(
  `${totals.responses} responses by ${clients} clients in ${((Date.now() - started) / 1000).toFixed(1)} s: ` +
    `${totals.events} events delivered, ${totals.resumes} resumes, ${totals.duplicates} duplicates, ${totals.gaps} gaps, ` +
    `${totals.failures} failures; workerd peak RSS ${(peak.maxKiB() / 1024).toFixed(1)} MiB`,
);
process.exit(totals.duplicates + totals.gaps + totals.failures === 0 ? 0 : 1);

/** Samples the resident memory of every workerd process (Linux /proc), keeping the peak. */
function watchWorkerdMemory(): { stop: () => void; maxKiB: () => number } {
  let max = 0;
  const sample = (): void => {
    let total = 0;
    for (const pid of readdirSync("/proc").filter((name) => /^\d+$/.test(name))) {
      try {
        if (!readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("workerd")) continue;
        total += Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0);
      } catch {
        // the process ended between the listing and the read
      }
    }
    max = Math.max(max, total);
  };
  const timer = setInterval(sample, 200);
  return { stop: () => clearInterval(timer), maxKiB: () => max };
}
