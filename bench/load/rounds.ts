// Two trees' Workers compared in interleaved rounds, for a cut too small for `npm run bench:load`'s
// steps on a loaded machine (there one step of a few hundred requests moves by 15 to 50 % from the
// next): the pass-through, this tree's Worker and LOAD_BEFORE's, each served by Miniflare in a
// workerd of its own (bench/load/harness.ts), then ROUNDS rounds of ROUNDS_N requests at
// concurrency ROUNDS_C on each in turn, the order reversed every round, workerd CPU per request
// from its threads' schedstat. Prints the mean and the median over the rounds, and after / pass,
// before / pass and after / before. Every answer is checked as in the bench.
//   LOAD_BEFORE=<another copy of the repository> ROUNDS_WORKLOADS=responses,messages node bench/load/rounds.ts
//   (ROUNDS 10, ROUNDS_N 100, ROUNDS_C 10 by default; a workload beside the one a cut touches is its control)
import { loadavg } from "node:os";
import { buildWorkers, cpuMs, load, quantile, type Served, serve, startProviders, workloads } from "./harness.ts";

const NAMES = (process.env["ROUNDS_WORKLOADS"] ?? "chat-stream").split(",");
const ROUNDS = Number(process.env["ROUNDS"] ?? 10);
const PER_ROUND = Number(process.env["ROUNDS_N"] ?? 100);
const CONCURRENCY = Number(process.env["ROUNDS_C"] ?? 10);
const BEFORE = process.env["LOAD_BEFORE"];

const f3 = (x: number): string => x.toFixed(3);
const median = (xs: readonly number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const load1 = (): string =>
  loadavg()
    .map((x) => x.toFixed(1))
    .join(" ");

async function main(): Promise<void> {
  if (!BEFORE) throw new Error("LOAD_BEFORE=<another copy of the repository> names the tree to compare with");
  const all = workloads();
  const providers = await startProviders();
  const targets: { served: Served; kind: "worker" | "pass" }[] = [];
  try {
    const built = await buildWorkers(BEFORE);
    const first = all[NAMES[0]!]!;
    targets.push({ served: await serve("pass-through", built.pass, "pass", providers.origin, first), kind: "pass" });
    targets.push({ served: await serve("after", built.worker, "worker", providers.origin, first), kind: "worker" });
    targets.push({ served: await serve("before", built.before!, "worker", providers.origin, first), kind: "worker" });
    built.remove();
    console.log(`bench/load/rounds.ts, ${new Date().toISOString()}, load average ${load1()}`);
    for (const name of NAMES) {
      const workload = all[name]!;
      for (const { served, kind } of targets) await load(served, workload, kind, providers.origin, CONCURRENCY, 50);
      const perRound: number[][] = targets.map(() => []);
      // Wall time and latencies too: a cut of a wait (the stored responses' commit) shows there, not in CPU.
      const wall = targets.map(() => 0);
      const totals: number[][] = targets.map(() => []);
      for (let round = 0; round < ROUNDS; round++) {
        const order = round % 2 === 0 ? [0, 1, 2] : [2, 1, 0];
        for (const i of order) {
          const { served, kind } = targets[i]!;
          const before = cpuMs(served.pids);
          const { samples, wallMs } = await load(served, workload, kind, providers.origin, CONCURRENCY, PER_ROUND);
          wall[i]! += wallMs;
          for (const sample of samples) totals[i]!.push(sample.totalMs);
          const failed = samples.find((sample) => !sample.ok);
          if (failed) throw new Error(`${served.name} ${name}: ${failed.error ?? "a malformed answer"}`);
          perRound[i]!.push((cpuMs(served.pids) - before) / PER_ROUND);
        }
      }
      const mean = perRound.map((xs) => xs.reduce((sum, x) => sum + x, 0) / xs.length);
      const med = perRound.map(median);
      const [pass, after, before] = [0, 1, 2].map((i) => `${f3(mean[i]!)} (median ${f3(med[i]!)})`);
      console.log(
        `${name} c=${CONCURRENCY}, ${ROUNDS} rounds of ${PER_ROUND}: workerd CPU ms per request pass-through ${pass}, after ${after}, before ${before}; ` +
          `after / pass ${(mean[1]! / mean[0]!).toFixed(2)}, before / pass ${(mean[2]! / mean[0]!).toFixed(2)}, ` +
          `after / before ${f3(mean[1]! / mean[2]!)} (median of rounds ${f3(med[1]! / med[2]!)})`,
      );
      const rate = wall.map((ms) => (ROUNDS * PER_ROUND * 1000) / ms);
      const p = (q: number): string[] => totals.map((xs) => quantile(xs, q).toFixed(2));
      console.log(
        `  req/s pass-through ${rate[0]!.toFixed(0)}, after ${rate[1]!.toFixed(0)}, before ${rate[2]!.toFixed(0)} (after / before ${f3(rate[1]! / rate[2]!)}); ` +
          `p50 / p99 ms pass-through ${p(0.5)[0]} / ${p(0.99)[0]}, after ${p(0.5)[1]} / ${p(0.99)[1]}, before ${p(0.5)[2]} / ${p(0.99)[2]}`,
      );
    }
    console.log(`load average at the end ${load1()}`);
  } finally {
    for (const { served } of targets) await served.mf.dispose();
    providers.child.kill("SIGTERM");
  }
}

await main();
