// Soak test of resumable responses (not part of `npm test`, see docs/soak.md): starts the Worker
// with `wrangler dev` on 127.0.0.1 with the replay upstream, runs CLIENTS concurrent clients that
// each stream RESPONSES responses, disconnect at seeded random points and resume with
// Last-Event-ID after a random pause of up to PAUSE_MS (the response runs on detached meanwhile;
// sometimes several times per response), and reports events delivered, duplicates,
// gaps and mismatches (all must be 0: every response must read, fragments joined, as the
// uninterrupted run of its recording) and the peak resident memory of the workerd processes it started.
//   npm run soak      (CLIENTS=20 RESPONSES=5 SEED=1 DELAY_MS=5 PAUSE_MS=100 DEADLINE_S=180 to change)
// `wrangler dev` reloads the Worker when a source file changes, which drops every in-flight
// response: do not edit the sources while a soak runs.
import { readdirSync, readFileSync } from "node:fs";
import { createParser, type EventSourceMessage } from "eventsource-parser";
import { joinDeltas } from "../src/index.ts";
import { startWorker } from "../test/e2e/worker-server.ts";

const clients = Number(process.env["CLIENTS"] ?? 20);
const perClient = Number(process.env["RESPONSES"] ?? 5);
const delayMs = String(process.env["DELAY_MS"] ?? 5);
const pauseMs = Number(process.env["PAUSE_MS"] ?? 100);
const deadline = Date.now() + Number(process.env["DEADLINE_S"] ?? 180) * 1000;
let seed = Number(process.env["SEED"] ?? 1);
const random = (): number => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
const providers = ["openai", "anthropic", "gemini", "openai-responses"];

const server = await startWorker({ REPLAY_DELAY_MS: delayMs }, 120_000);
const peak = watchMemory();
const totals = { responses: 0, events: 0, duplicates: 0, gaps: 0, mismatches: 0, disconnects: 0, failures: 0 };
/** The uninterrupted run of each provider's recording: `event` and `data` by id. */
const reference = new Map<string, string[]>();
/** Each provider's reference run as a reader puts it together: its events, each run of fragments joined. */
const readings = new Map<string, string>();
/** The events of `messages` (in order), each run of one call's (or the text's) fragments joined, as JSON. */
const reading = (messages: readonly EventSourceMessage[]): string =>
  JSON.stringify(
    joinDeltas(messages.map((m) => ({ ...(JSON.parse(m.data) as { type: string }), type: m.event ?? "" }))),
  );
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

/** Where to disconnect next: anywhere in the response (or never, one time in four). */
const cutPoint = (provider: string): number => {
  const length = reference.get(provider)!.length;
  return random() < 0.25 ? Number.POSITIVE_INFINITY : Math.floor(random() * (length + 1));
};

async function oneResponse(provider: string): Promise<void> {
  const first = await fetch(`${server.url}/v1/stream`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: body(provider),
  });
  if (!first.ok) throw new Error(`POST answered ${first.status}: ${(await first.text()).slice(0, 200)}`);
  const id = first.headers.get("x-response-id");
  if (id === null) throw new Error("POST answered without x-response-id");
  const received: EventSourceMessage[] = [];
  let part = await read(first, cutPoint(provider));
  received.push(...part.messages);
  while (!part.ended) {
    if (Date.now() > deadline) throw new Error("deadline passed mid-response");
    totals.disconnects++;
    await new Promise((resolve) => setTimeout(resolve, Math.floor(random() * pauseMs)));
    const last = received.at(-1)?.id ?? "-1";
    const again = await fetch(`${server.url}/v1/stream/${id}`, { headers: { "last-event-id": last } });
    if (!again.ok) throw new Error(`resume answered ${again.status}: ${(await again.text()).slice(0, 200)}`);
    part = await read(again, cutPoint(provider));
    received.push(...part.messages);
  }
  const ids = received.map((m) => Number(m.id));
  totals.duplicates += ids.length - new Set(ids).size;
  // Ids are this response's own (how fragments fall into frames depends on what each network
  // chunk held): every id from 0 to the last, once.
  const seen = new Set(ids);
  for (let index = 0; index <= Math.max(...ids); index++) if (!seen.has(index)) totals.gaps++;
  if (reading(received) !== readings.get(provider)) totals.mismatches++;
  totals.events += received.length;
  totals.responses++;
}

let exitCode = 1;
try {
  for (const provider of providers) {
    const whole = await fetch(`${server.url}/v1/stream`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: body(provider),
    });
    const { messages } = await read(whole, Number.POSITIVE_INFINITY);
    if (!whole.ok || messages.some((message, index) => message.id !== String(index)))
      throw new Error(`the reference run of ${provider} failed`);
    reference.set(
      provider,
      messages.map((m) => `${m.event}\n${m.data}`),
    );
    readings.set(provider, reading(messages));
  }
  await Promise.all(
    Array.from({ length: clients }, async (_, client) => {
      for (let i = 0; i < perClient && Date.now() < deadline; i++) {
        try {
          await oneResponse(providers[(client + i) % providers.length]!);
        } catch (error) {
          totals.failures++;
          console.error(`client ${client}: ${(error as Error).message} ${String((error as Error).cause ?? "")}`);
        }
      }
    }),
  );
  const seconds = (Date.now() - started) / 1000;
  console.log(
    `CLIENTS=${clients} RESPONSES=${perClient} DELAY_MS=${delayMs} PAUSE_MS=${pauseMs} SEED=${process.env["SEED"] ?? 1}: ${totals.responses} responses in ${seconds.toFixed(1)} s, ` +
      `${totals.events} events delivered, ${totals.disconnects} disconnects and resumes, ` +
      `${totals.duplicates} duplicates, ${totals.gaps} gaps, ${totals.mismatches} mismatches, ${totals.failures} failures; ` +
      `workerd peak RSS ${(peak.maxKiB() / 1024).toFixed(1)} MiB (idle ${(peak.firstKiB() / 1024).toFixed(1)} MiB, ` +
      `${(((peak.maxKiB() - peak.firstKiB()) / 1024 / Math.max(totals.responses, 1)) * 1000).toFixed(1)} MiB above idle per 1,000 responses)`,
  );
  const expectedResponses = clients * perClient;
  const clean =
    totals.duplicates + totals.gaps + totals.mismatches + totals.failures === 0 &&
    totals.responses === expectedResponses;
  if (totals.failures > 0) console.error(server.output().slice(-4000));
  exitCode = clean ? 0 : 1;
} finally {
  peak.stop();
  await server.stop();
}
process.exit(exitCode);

/** Samples the resident memory of the workerd processes this script started (Linux /proc). */
function watchMemory(): { stop: () => void; maxKiB: () => number; firstKiB: () => number } {
  let max = 0;
  let first = -1;
  const parentOf = (pid: string): string | undefined =>
    /^\d+ \(.*\) \S+ (\d+)/.exec(readFileSync(`/proc/${pid}/stat`, "utf8"))?.[1];
  const ours = (pid: string): boolean => {
    for (let current: string | undefined = pid, depth = 0; current && current !== "1" && depth < 16; depth++) {
      if (current === String(process.pid)) return true;
      current = parentOf(current);
    }
    return false;
  };
  const sample = (): void => {
    let total = 0;
    for (const pid of readdirSync("/proc").filter((name) => /^\d+$/.test(name))) {
      try {
        if (!readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("workerd") || !ours(pid)) continue;
        total += Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0);
      } catch {
        // the process ended between the listing and the read
      }
    }
    if (first < 0) first = total;
    max = Math.max(max, total);
  };
  sample();
  const timer = setInterval(sample, 200);
  return { stop: () => clearInterval(timer), maxKiB: () => max, firstKiB: () => first };
}
