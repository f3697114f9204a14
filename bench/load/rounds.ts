// Two trees' Workers compared in interleaved rounds, for a cut too small for `npm run bench:load`'s
// steps on a loaded machine (there one step of a few hundred requests moves by 15 to 50 % from the
// next): the pass-through, this tree's Worker and LOAD_BEFORE's, each served by Miniflare in a
// workerd of its own (bench/load/harness.ts), then ROUNDS rounds of ROUNDS_N requests at
// concurrency ROUNDS_C on each in turn, the order reversed every round, each opened by LOAD_LEAD
// (default 2) requests of its own target not measured, workerd CPU per request
// from its threads' schedstat. Prints the mean and the median over the rounds, and after / pass,
// before / pass and after / before. Every answer is checked as in the bench.
//   LOAD_BEFORE=<another copy of the repository> ROUNDS_WORKLOADS=responses,messages node bench/load/rounds.ts
//   (ROUNDS 10, ROUNDS_N 100, ROUNDS_C 10 by default; a workload beside the one a cut touches is its control)
// ROUNDS_TARGETS: other targets than pass-through,worker,before (the Worker is "after" in the
// output), each one of serveTarget's names: a floor, or a variant of bench/load/fetch-step.ts:
//   ROUNDS_TARGETS=pass-through,fetch-step:proxy,fetch-step:array-buffer,js-relay node bench/load/rounds.ts
import { loadavg } from "node:os";
import {
  buildWorkers,
  cpuMs,
  type Kind,
  load,
  quantile,
  type Served,
  serveTarget,
  startProviders,
  workloads,
} from "./harness.ts";
import { LEAD } from "./step.ts";

const NAMES = (process.env["ROUNDS_WORKLOADS"] ?? "chat-stream").split(",");
const ROUNDS = Number(process.env["ROUNDS"] ?? 10);
const PER_ROUND = Number(process.env["ROUNDS_N"] ?? 100);
const CONCURRENCY = Number(process.env["ROUNDS_C"] ?? 10);
const BEFORE = process.env["LOAD_BEFORE"];
/** The targets, the first the one the others are divided by (bench/load/harness.ts, serveTarget). */
const TARGETS = (process.env["ROUNDS_TARGETS"] ?? "pass-through,worker,before").split(",");

const f3 = (x: number): string => x.toFixed(3);
const median = (xs: readonly number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const load1 = (): string =>
  loadavg()
    .map((x) => x.toFixed(1))
    .join(" ");

async function main(): Promise<void> {
  if (!BEFORE && TARGETS.includes("before"))
    throw new Error("LOAD_BEFORE=<another copy of the repository> names the tree to compare with");
  const all = workloads();
  const providers = await startProviders();
  const targets: { served: Served; kind: Kind }[] = [];
  try {
    const built = await buildWorkers(
      BEFORE,
      TARGETS.some((spec) => spec.startsWith("fetch-step:")) ? ["fetch-step"] : [],
    );
    const first = all[NAMES[0]!]!;
    for (const spec of TARGETS) targets.push(await serveTarget(spec, built, providers.origin, first));
    built.remove();
    const names = TARGETS.map((spec) => (spec === "worker" ? "after" : spec));
    console.log(`bench/load/rounds.ts, ${new Date().toISOString()}, load average ${load1()}`);
    for (const name of NAMES) {
      const workload = all[name]!;
      for (const { served, kind } of targets) await load(served, workload, kind, providers.origin, CONCURRENCY, 50);
      const perRound: number[][] = targets.map(() => []);
      // Wall time and latencies too: a cut of a wait (the stored responses' commit) shows there, not in CPU.
      const wall = targets.map(() => 0);
      const totals: number[][] = targets.map(() => []);
      const forward = targets.map((_, i) => i);
      for (let round = 0; round < ROUNDS; round++) {
        for (const i of round % 2 === 0 ? forward : [...forward].reverse()) {
          const { served, kind } = targets[i]!;
          // Requests of its own first, not measured, as bench:load's blocks (bench/load/step.ts): with
          // the order reversed each round, "before" followed a Worker (or itself) in every round and
          // "after" the pass-through in half of them.
          if (LEAD > 0) await load(served, workload, kind, providers.origin, 1, LEAD);
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
      const cpu = names.map((target, i) => `${target} ${f3(mean[i]!)} (median ${f3(med[i]!)})`).join(", ");
      const ratios = names
        .slice(1)
        .map((target, i) => `${target} / ${names[0]} ${(mean[i + 1]! / mean[0]!).toFixed(2)}`)
        .join(", ");
      const [after, before] = [names.indexOf("after"), names.indexOf("before")];
      const pair =
        after >= 0 && before >= 0
          ? `; after / before ${f3(mean[after]! / mean[before]!)} (median of rounds ${f3(med[after]! / med[before]!)})`
          : "";
      console.log(
        `${name} c=${CONCURRENCY}, ${ROUNDS} rounds of ${PER_ROUND}: workerd CPU ms per request ${cpu}; ${ratios}${pair}`,
      );
      const rate = wall.map((ms) => (ROUNDS * PER_ROUND * 1000) / ms);
      const p = (q: number, i: number): string => quantile(totals[i]!, q).toFixed(2);
      console.log(
        `  req/s ${names.map((target, i) => `${target} ${rate[i]!.toFixed(0)}`).join(", ")}; ` +
          `p50 / p99 ms ${names.map((target, i) => `${target} ${p(0.5, i)} / ${p(0.99, i)}`).join(", ")}`,
      );
    }
    console.log(`load average at the end ${load1()}`);
  } finally {
    for (const { served } of targets) await served.mf.dispose();
    providers.child.kill("SIGTERM");
  }
}

await main();
