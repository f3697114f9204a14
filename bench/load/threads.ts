// Where a Worker's workerd CPU runs, by thread: the pass-through and this tree's Worker, each
// served by Miniflare in a workerd of its own (bench/load/harness.ts), THREADS_WARM requests of
// warm-up and then THREADS_N counted at concurrency ROUNDS_C, the run time of each of their threads
// (/proc/<pid>/task/<tid>/schedstat) summed by the thread's name: workerd's own thread (the
// isolate, its I/O) against V8's worker threads ("V8 DefaultWorke": concurrent compiles and
// marking). Linux only, as the bench's CPU figures are.
//   ROUNDS_WORKLOADS=chat-stream,messages THREADS_N=2000 THREADS_WARM=2000 node bench/load/threads.ts
import { readdirSync, readFileSync } from "node:fs";
import { buildWorkers, type Kind, load, type Served, serveTarget, startProviders, workloads } from "./harness.ts";

const NAMES = (process.env["ROUNDS_WORKLOADS"] ?? "chat-stream").split(",");
const COUNTED = Number(process.env["THREADS_N"] ?? 2000);
const WARM = Number(process.env["THREADS_WARM"] ?? 2000);
const CONCURRENCY = Number(process.env["ROUNDS_C"] ?? 10);

/** Nanoseconds of run time of `pids`' threads, summed by thread name. */
function byThread(pids: readonly number[]): Map<string, number> {
  const total = new Map<string, number>();
  for (const pid of pids)
    for (const task of readdirSync(`/proc/${pid}/task`)) {
      const name = readFileSync(`/proc/${pid}/task/${task}/comm`, "utf8").trim();
      const ns = Number(readFileSync(`/proc/${pid}/task/${task}/schedstat`, "utf8").split(" ")[0]);
      total.set(name, (total.get(name) ?? 0) + ns);
    }
  return total;
}

const all = workloads();
const providers = await startProviders();
const targets: { served: Served; kind: Kind; spec: string }[] = [];
try {
  const built = await buildWorkers(undefined, []);
  for (const spec of ["pass-through", "worker"])
    targets.push({ ...(await serveTarget(spec, built, providers.origin, all[NAMES[0]!]!)), spec });
  built.remove();
  for (const name of NAMES) {
    const workload = all[name]!;
    for (const { served, kind, spec } of targets) {
      await load(served, workload, kind, providers.origin, CONCURRENCY, WARM);
      const before = byThread(served.pids);
      await load(served, workload, kind, providers.origin, CONCURRENCY, COUNTED);
      const rows = [...byThread(served.pids)]
        .map(([thread, ns]) => [thread, (ns - (before.get(thread) ?? 0)) / 1e6 / COUNTED] as const)
        .filter(([, ms]) => ms > 0.001);
      const total = rows.reduce((sum, [, ms]) => sum + ms, 0);
      const shares = rows.map(([thread, ms]) => `${thread} ${ms.toFixed(3)} (${((100 * ms) / total).toFixed(0)} %)`);
      console.log(`${name} ${spec} c=${CONCURRENCY}: ${total.toFixed(3)} ms a request; ${shares.join(", ")}`);
    }
  }
} finally {
  for (const { served } of targets) await served.mf.dispose();
  providers.child.kill("SIGTERM");
}
