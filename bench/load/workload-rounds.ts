// One tree's workloads compared with one another, for a question of the kind "is /v1/responses
// dearer than streamed chat": `npm run bench:load` and bench/load/rounds.ts run one workload's
// requests after another's, so a load that other work on the machine puts on or takes off between
// them counts as a difference of the workloads (BENCHMARKS.md, "/v1/responses against the other
// small answers"). Here the built Worker and the pass-through are each served by Miniflare in a
// workerd of their own, then ROUNDS rounds in which every workload gets ROUNDS_N requests at
// concurrency ROUNDS_C on each target, the order of the workloads and of the targets reversed
// every round. Prints each workload's workerd CPU per request (mean and median of the rounds), the
// Worker's as a multiple of the pass-through's, and req/s. Every answer is checked as in the bench.
//   ROUNDS_WORKLOADS=chat-stream,messages,responses-no-store,responses node bench/load/workload-rounds.ts
//   (ROUNDS 12, ROUNDS_N 100, ROUNDS_C 10 by default)
import { loadavg } from "node:os";
import { buildWorkers, cpuMs, load, type Served, serve, startProviders, workloads } from "./harness.ts";

const NAMES = (process.env["ROUNDS_WORKLOADS"] ?? "chat-stream,responses-no-store").split(",");
const ROUNDS = Number(process.env["ROUNDS"] ?? 12);
const PER_ROUND = Number(process.env["ROUNDS_N"] ?? 100);
const CONCURRENCY = Number(process.env["ROUNDS_C"] ?? 10);

const median = (xs: readonly number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const mean = (xs: readonly number[]): number => xs.reduce((sum, x) => sum + x, 0) / xs.length;
const load1 = (): string =>
  loadavg()
    .map((x) => x.toFixed(1))
    .join(" ");

/** A target's figures for one workload over the rounds. */
interface Tally {
  cpu: number[];
  wallMs: number;
}

async function main(): Promise<void> {
  const all = workloads();
  const unknown = NAMES.filter((name) => !all[name]);
  if (unknown.length > 0) throw new Error(`no workload ${unknown.join(", ")}`);
  const providers = await startProviders();
  const targets: { served: Served; kind: "worker" | "pass" }[] = [];
  try {
    const built = await buildWorkers();
    const first = all[NAMES[0]!]!;
    targets.push({ served: await serve("Worker", built.worker, "worker", providers.origin, first), kind: "worker" });
    targets.push({ served: await serve("pass-through", built.pass, "pass", providers.origin, first), kind: "pass" });
    built.remove();
    console.log(`bench/load/workload-rounds.ts, ${new Date().toISOString()}, load average ${load1()}`);
    const tallies = new Map<string, Tally>();
    const tally = (name: string, kind: string): Tally => {
      const key = `${name} ${kind}`;
      if (!tallies.has(key)) tallies.set(key, { cpu: [], wallMs: 0 });
      return tallies.get(key)!;
    };
    for (const name of NAMES)
      for (const { served, kind } of targets) await load(served, all[name]!, kind, providers.origin, CONCURRENCY, 50);
    for (let round = 0; round < ROUNDS; round++) {
      const names = round % 2 === 0 ? NAMES : [...NAMES].reverse();
      for (const name of names)
        for (const { served, kind } of round % 2 === 0 ? targets : [...targets].reverse()) {
          const before = cpuMs(served.pids);
          const { samples, wallMs } = await load(served, all[name]!, kind, providers.origin, CONCURRENCY, PER_ROUND);
          const failed = samples.find((sample) => !sample.ok);
          if (failed) throw new Error(`${served.name} ${name}: ${failed.error ?? "a malformed answer"}`);
          const figures = tally(name, kind);
          figures.cpu.push((cpuMs(served.pids) - before) / PER_ROUND);
          figures.wallMs += wallMs;
        }
    }
    const rate = (figures: Tally): string => ((ROUNDS * PER_ROUND * 1000) / figures.wallMs).toFixed(0);
    for (const name of NAMES) {
      const [worker, pass] = [tally(name, "worker"), tally(name, "pass")];
      console.log(
        `${name} c=${CONCURRENCY}, ${ROUNDS} rounds of ${PER_ROUND}: workerd CPU ms per request Worker ` +
          `${mean(worker.cpu).toFixed(3)} (median ${median(worker.cpu).toFixed(3)}), pass-through ` +
          `${mean(pass.cpu).toFixed(3)} (median ${median(pass.cpu).toFixed(3)}), Worker / pass ` +
          `${(mean(worker.cpu) / mean(pass.cpu)).toFixed(2)}; req/s Worker ${rate(worker)}, pass-through ${rate(pass)}`,
      );
    }
    console.log(`load average at the end ${load1()}`);
  } finally {
    for (const { served } of targets) await served.mf.dispose();
    providers.child.kill("SIGTERM");
  }
}

await main();
