// `npm run bench:load`: the Worker under load, measured the way gateways are compared (latency
// overhead, throughput, memory, cold start at fixed concurrencies), beside a pass-through Worker
// on the same setup, in one run:
//   - the scripted providers (bench/load/providers.ts) in a Node process of their own, replaying
//     recorded bodies (bench/load/bodies.ts) of OpenAI Chat, Anthropic Messages and OpenAI
//     Responses at full speed;
//   - the built Worker (`wrangler deploy --dry-run`: the bundle a deploy uploads, with its
//     Durable Object) served by Miniflare, one workerd; the pass-through (bench/load/pass-through.ts)
//     served the same way, in a workerd of its own; two floors (LOAD_FLOORS=0: none), each in a
//     workerd of its own, built and served as the pass-through is, sent the Worker's client body
//     and answering the upstream's events: js-relay (bench/load/floor-js-relay.ts: the client's
//     JSON parsed and serialized again, the upstream's body read with a JavaScript reader and each
//     chunk enqueued into the JavaScript stream it answers with: the least a gateway that sees its
//     stream does) and reencode (bench/load/floor-reencode.ts: also each SSE event decoded,
//     `JSON.parse`d, `JSON.stringify`d and encoded back: a translating gateway's one pass, no
//     accumulation); the non-streamed chat workload's floors read the upstream whole; with
//     LOAD_BEFORE=<another copy of the repository>, that tree's Worker too;
//   - workloads (LOAD_WORKLOADS): chat-stream, chat (not streamed), messages, responses (small
//     answers: a little text and one tool call), responses-no-store (`store: false`) and
//     tool-args-10k (one call of 10 KB arguments in 1-6 character fragments, streamed chat);
//   - concurrency (LOAD_CONCURRENCY) 1, 10 and 50, LOAD_N requests at each (default 200, 400,
//     500), the direct request to the upstream first, then each workerd, the requests in as many
//     blocks as targets, the order turned at each (A B C, B C A, C A B: each target in each place
//     once), each block opened by requests of its own target that are not measured.
// Per target and step: req/s, p50 / p99 of the total time and of the time to first content
// (the first text or tool-call delta), the p50 overhead over the direct request, workerd CPU per
// request (the run time of its threads, /proc/<pid>/task/*/schedstat, before and after each of its
// blocks, over the requests; each block opens with LOAD_LEAD requests, default 2, not measured:
// bench/load/step.ts; LOAD_TRACE=1 prints each block's), and every answer's tool calls compared
// with the recorded ones
// (lost: no complete HTTP 200 answer; malformed: the wrong calls, or no proper ending; a floor's
// answer, the upstream's events, is read as the pass-through's). Side by side: each target's CPU,
// req/s and p50 overhead / the pass-through's in the same step, and the Worker's CPU / each
// floor's (issue 37's targets, 1.5 and 2 times the pass-through, read against what the floors
// reach). Memory:
// RSS idle after warm-up, its peak during c=50 (per concurrent stream) and its growth over the
// run; then a long run (LOAD_LONG requests of the first workload per target, default 3,000) with
// RSS after each sixth, whose second half tells growth that goes on from what settles. Cold start:
// from the Miniflare constructor to the first answer read whole.
// CPU per request does not depend on other load on the machine; wall times (req/s, latency) do.
// LOAD_ACCEPT_ENCODING=identity: the client asks for no compression, which Miniflare otherwise
// does for a JSON answer (the not-streamed chat's) in the measured workerd, as Cloudflare's front
// line does outside the Worker (bench/load/harness.ts, `send`).
//   npm run bench:load
//   LOAD_WORKLOADS=chat-stream,messages LOAD_CONCURRENCY=10 LOAD_N=300 LOAD_WARM=50 LOAD_BEFORE=../main npm run bench:load
import { loadavg } from "node:os";
import {
  buildWorkers,
  FLOORS,
  type Kind,
  load,
  quantile,
  rssMiB,
  type Sample,
  type Served,
  serve,
  startProviders,
  type Workload,
  workloads,
} from "./harness.ts";
import { runStep } from "./step.ts";

const ALL = workloads();
const NAMES = (
  process.env["LOAD_WORKLOADS"] ?? "chat-stream,chat,messages,responses,responses-no-store,tool-args-10k"
).split(",");
const LEVELS = (process.env["LOAD_CONCURRENCY"] ?? "1,10,50").split(",").map(Number);
const DEFAULT_N: Record<number, number> = { 1: 200, 10: 400, 50: 500 };
const countAt = (c: number): number => Number(process.env["LOAD_N"] ?? DEFAULT_N[c] ?? 20 * c);
const BEFORE = process.env["LOAD_BEFORE"];
/** The floors served beside the pass-through (on by default: issue 37's targets are read against them). */
const WITH_FLOORS = process.env["LOAD_FLOORS"] !== "0";
/**
 * Warm-up requests of each workload on each target before the steps. 300, not the 50 of stop 60
 * and before: counted in instructions (bench/load/stored-callgrind.ts), V8 was still compiling the
 * stored Responses path after 300 requests (129 compilations over the next 400), so a c=1 step
 * right after 50 measured warm-up as much as steady cost.
 */
const WARM = Number(process.env["LOAD_WARM"] ?? 300);
/** Requests of the long run that measures memory growth (0: none). */
const LONG = Number(process.env["LOAD_LONG"] ?? 3000);

interface Row {
  workload: string;
  c: number;
  target: string;
  n: number;
  reqPerS: number;
  p50: number;
  p99: number;
  ttfc50: number;
  ttfc99: number;
  overhead50: number;
  cpuMs: number;
  lost: number;
  malformed: number;
  peakRss: number;
}

function summarize(
  workload: string,
  c: number,
  target: string,
  samples: Sample[],
  wallMs: number,
  direct: number,
): Omit<Row, "cpuMs" | "peakRss"> {
  const good = samples.filter((s) => s.ok);
  const p50 = quantile(
    good.map((s) => s.totalMs),
    0.5,
  );
  return {
    workload,
    c,
    target,
    n: samples.length,
    reqPerS: (samples.length * 1000) / wallMs,
    p50,
    p99: quantile(
      good.map((s) => s.totalMs),
      0.99,
    ),
    ttfc50: quantile(
      good.map((s) => s.firstContentMs),
      0.5,
    ),
    ttfc99: quantile(
      good.map((s) => s.firstContentMs),
      0.99,
    ),
    overhead50: p50 - direct,
    lost: samples.filter((s) => !s.ok && !s.malformed).length,
    malformed: samples.filter((s) => s.malformed).length,
  };
}

const f1 = (x: number): string => (Number.isFinite(x) ? x.toFixed(1) : "-");
const f2 = (x: number): string => (Number.isFinite(x) ? x.toFixed(2) : "-");

async function main(): Promise<void> {
  console.log(`bench:load, ${new Date().toISOString()}, load average ${loadavg().map(f2).join(" ")}`);
  const providers = await startProviders();
  const built = await buildWorkers(BEFORE);
  const origin = providers.origin;
  const served: { served: Served; kind: Kind }[] = [];
  try {
    const first = ALL[NAMES[0]!]!;
    served.push({ served: await serve("pass-through", built.pass, "pass", origin, first), kind: "pass" });
    if (WITH_FLOORS)
      for (const floor of FLOORS)
        served.push({ served: await serve(floor, built.floors[floor], "floor", origin, first), kind: "floor" });
    served.push({ served: await serve("Worker", built.worker, "worker", origin, first), kind: "worker" });
    if (built.before)
      served.push({ served: await serve("Worker before", built.before, "worker", origin, first), kind: "worker" });
    for (const { served: s } of served)
      console.log(`cold start ${s.name}: ${f1(s.coldStartMs)} ms (workerd pids ${s.pids.join(", ")})`);
    // Warm up: every workload on every target, WARM requests each (a quarter for the 10 KB call's).
    for (const name of NAMES)
      for (const { served: s, kind } of served)
        await load(
          s,
          ALL[name]!,
          kind,
          origin,
          5,
          Math.max(20, Math.round(WARM / (ALL[name]!.size === "big" ? 4 : 1))),
        );
    const idle = served.map(({ served: s }) => rssMiB(s.pids));
    const rows: Row[] = [];
    let served0 = 0;
    for (const name of NAMES) {
      const workload: Workload = ALL[name]!;
      for (const c of LEVELS) {
        // The 10 KB call's bodies are about a megabyte each: a quarter of the requests.
        const n = Math.max(20, Math.round(countAt(c) / (workload.size === "big" ? 4 : 1)));
        const direct = await load("direct", workload, "pass", origin, c, n);
        const directP50 = quantile(
          direct.samples.filter((s) => s.ok).map((s) => s.totalMs),
          0.5,
        );
        rows.push({
          ...summarize(name, c, "direct", direct.samples, direct.wallMs, directP50),
          cpuMs: Number.NaN,
          peakRss: Number.NaN,
        });
        // Each target's requests in blocks whose order turns, each opened by requests of its own
        // (bench/load/step.ts). With one order a place's own cost (measured right after another
        // target, or first after the direct request) went to the same target at every step of a
        // concurrency: stop 71 served two copies of one tree side by side at c=50, at 2.59 and 2.48
        // times the pass-through's CPU.
        const order = served;
        const measured = await runStep(order, workload, origin, c, n);
        for (const { served: s } of order) {
          const { samples, wallMs, cpu, peak } = measured.get(s)!;
          served0 += samples.length;
          rows.push({
            ...summarize(name, c, s.name, samples, wallMs, directP50),
            cpuMs: cpu / samples.length,
            peakRss: peak,
          });
          const failed = samples.find((x) => !x.ok);
          if (failed) console.log(`  ${s.name} ${name} c=${c}: first failure: ${failed.error ?? "malformed answer"}`);
        }
      }
      printWorkload(
        rows.filter((row) => row.workload === name),
        workload,
      );
    }
    printRatios(
      rows,
      served.map(({ served: s }) => s.name),
      served.filter(({ kind }) => kind === "floor").map(({ served: s }) => s.name),
    );
    console.log(
      "\nMemory (workerd RSS, MiB)\n| target | idle after warm-up | peak at c=50 | per concurrent stream at c=50 | after the run | growth per 1,000 requests |\n| --- | ---: | ---: | ---: | ---: | ---: |",
    );
    const perTarget = served0 / served.length;
    for (const [i, { served: s }] of served.entries()) {
      const at50 = rows.filter((row) => row.target === s.name && row.c === 50).map((row) => row.peakRss);
      const peak = at50.length ? Math.max(...at50) : Number.NaN;
      const after = rssMiB(s.pids);
      console.log(
        `| ${s.name} | ${f1(idle[i]!)} | ${f1(peak)} | ${f2((peak - idle[i]!) / 50)} | ${f1(after)} | ${f2(((after - idle[i]!) * 1000) / perTarget)} |`,
      );
    }
    if (LONG > 0) await longRun(served, ALL[NAMES[0]!]!, origin);
    const lost = rows.reduce((sum, row) => sum + row.lost, 0);
    const malformed = rows.reduce((sum, row) => sum + row.malformed, 0);
    const total = rows.reduce((sum, row) => sum + row.n, 0);
    console.log(
      `\nLost ${lost}, malformed ${malformed}, of ${total} answers (direct requests included). Load average at the end ${loadavg().map(f2).join(" ")}.`,
    );
    if (lost + malformed > 0) process.exitCode = 1;
  } finally {
    for (const { served: s } of served) await s.mf.dispose();
    providers.child.kill("SIGTERM");
    built.remove();
  }
}

/**
 * Memory over a long run: LOAD_LONG more requests of the first workload at c=10 on each target,
 * in six blocks taken in turn, RSS after each; growth per 1,000 requests over the second half,
 * when what the isolate keeps has had the first half to settle (a leak keeps growing there).
 */
async function longRun(served: { served: Served; kind: Kind }[], workload: Workload, origin: string) {
  const block = Math.round(LONG / 6);
  const rss = served.map(({ served: s }) => [rssMiB(s.pids)]);
  let failed = 0;
  for (let b = 0; b < 6; b++)
    for (const [i, { served: s, kind }] of served.entries()) {
      const { samples } = await load(s, workload, kind, origin, 10, block);
      failed += samples.filter((x) => !x.ok).length;
      rss[i]!.push(rssMiB(s.pids));
    }
  console.log(
    `\nMemory over a long run: ${6 * block} more requests of ${workload.name} at c=10 per target, workerd RSS (MiB) before and after each sixth (${failed} lost or malformed)\n| target | RSS | growth per 1,000 requests, second half |\n| --- | --- | ---: |`,
  );
  for (const [i, { served: s }] of served.entries()) {
    const series = rss[i]!;
    console.log(
      `| ${s.name} | ${series.map(f1).join(", ")} | ${f2(((series[6]! - series[3]!) * 1000) / (3 * block))} |`,
    );
  }
}

function printWorkload(rows: readonly Row[], workload: Workload): void {
  console.log(
    `\n${workload.name}: POST ${workload.path}, the ${workload.size} ${workload.provider} body\n| c | target | req/s | p50 ms | p99 ms | first content p50 | p99 | overhead p50 ms | workerd CPU ms/req | lost | malformed |\n| ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |`,
  );
  for (const r of rows)
    console.log(
      `| ${r.c} | ${r.target} | ${r.reqPerS.toFixed(0)} | ${f1(r.p50)} | ${f1(r.p99)} | ${f1(r.ttfc50)} | ${f1(r.ttfc99)} | ${r.target === "direct" ? "-" : f1(r.overhead50)} | ${f2(r.cpuMs)} | ${r.lost} | ${r.malformed} |`,
    );
}

/**
 * Each target / the pass-through, side by side: CPU per request, req/s, p50 overhead; then each
 * Worker's CPU / each floor's.
 */
function printRatios(rows: readonly Row[], names: readonly string[], floors: readonly string[]): void {
  const others = names.filter((name) => name !== "pass-through");
  const workers = others.filter((name) => !floors.includes(name));
  const perFloor = workers.flatMap((name) => floors.map((floor) => [name, floor] as const));
  const head = [
    ...others.map((name) => `${name} CPU / pass | ${name} req/s / pass | ${name} overhead p50 / pass`),
    ...perFloor.map(([name, floor]) => `${name} CPU / ${floor}`),
  ].join(" | ");
  console.log(
    `\nSide by side (ratios to the pass-through in the same step, then the Worker's CPU to each floor's)\n| workload | c | ${head} |\n| --- | ---: |${" ---: | ---: | ---: |".repeat(others.length)}${" ---: |".repeat(perFloor.length)}`,
  );
  const keys = [...new Set(rows.map((row) => `${row.workload}\u0000${row.c}`))];
  for (const key of keys) {
    const [workload, c] = key.split("\u0000");
    const at = (target: string): Row | undefined =>
      rows.find((r) => r.workload === workload && String(r.c) === c && r.target === target);
    const pass = at("pass-through")!;
    const cells = others.map((name) => {
      const row = at(name)!;
      return `${f2(row.cpuMs / pass.cpuMs)} | ${f2(row.reqPerS / pass.reqPerS)} | ${f2(row.overhead50 / pass.overhead50)}`;
    });
    for (const [name, floor] of perFloor) cells.push(f2(at(name)!.cpuMs / at(floor)!.cpuMs));
    console.log(`| ${workload} | ${c} | ${cells.join(" | ")} |`);
  }
}

await main();
