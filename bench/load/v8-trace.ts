// What V8 compiles and throws away in a warm Worker: the built Worker served by Miniflare as
// `npm run bench:load` serves it (bench/load/harness.ts), its workerd run with V8's tracing flags
// (`MINIFLARE_WORKERD_V8_FLAGS`, which Miniflare passes to workerd) and its output written to a
// file (Miniflare reads workerd's stdout only for its structured logs, so a wrapper redirects it).
// After TRACE_WARM requests of a workload (split over the concurrencies), TRACE_REPS rounds of N
// requests at each concurrency of TRACE_C, each between two marks in the log; then, per window, the
// full collections (Mark-Compact), the optimized code a collection invalidated ("embedded weak
// objects cleared"), the other deoptimizations by reason, and the Maglev, Turbofan and OSR compiles;
// from `--trace-gc-nvp`, the scavenges of the Worker's isolate (the one that allocated most in the
// window), the bytes they found alive (what outlived a scavenge) and those they promoted to old
// space, per request, and the share of the allocation that outlived a scavenge.
//   node bench/load/v8-trace.ts 300   (TRACE_WORKLOADS=tool-args-10k,chat-stream TRACE_C=1,10
//   TRACE_WARM=1000 TRACE_REPS=2; TRACE_FLAGS: other V8 flags; TRACE_LOG: where the log goes;
//   TRACE_TREE=<another copy of the repository>: its Worker served instead of this tree's)
import { appendFileSync, chmodSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { buildWorkers, load, serve, startProviders, workloads } from "./harness.ts";

const N = Number(process.argv[2] ?? 300);
const WARM = Number(process.env["TRACE_WARM"] ?? 1000);
const REPS = Number(process.env["TRACE_REPS"] ?? 2);
const CONCURRENCIES = (process.env["TRACE_C"] ?? "1,10").split(",").map(Number);
const NAMES = (process.env["TRACE_WORKLOADS"] ?? "tool-args-10k,chat-stream").split(",");
const dir = mkdtempSync(join(tmpdir(), "v8-trace-"));
const LOG = process.env["TRACE_LOG"] ?? join(dir, "trace.log");
const TREE = process.env["TRACE_TREE"];
const SCRIPT = process.env["TRACE_SCRIPT"];
const WORKERD = join(import.meta.dirname, "../../node_modules/@cloudflare/workerd-linux-64/bin/workerd");

// Line-buffered (`stdbuf`), so that a mark falls between the lines of the requests before and after it.
writeFileSync(join(dir, "workerd.sh"), `#!/bin/sh\nexec stdbuf -oL -eL '${WORKERD}' "$@" >>'${LOG}' 2>&1\n`);
chmodSync(join(dir, "workerd.sh"), 0o755);
process.env["MINIFLARE_WORKERD_PATH"] = join(dir, "workerd.sh");
process.env["MINIFLARE_WORKERD_V8_FLAGS"] =
  `--trace-opt --trace-deopt --trace-gc-nvp ${process.env["TRACE_FLAGS"] ?? ""}`.trim();
const mark = (text: string): void => appendFileSync(LOG, `\n@@ ${text}\n`);

const providers = await startProviders();
const all = workloads();
const built = await buildWorkers(TREE);
const script = SCRIPT ?? (TREE ? built.before! : built.worker);
try {
  for (const name of NAMES) {
    const served = await serve("Worker", script, "worker", providers.origin, all[name]!);
    try {
      for (const c of CONCURRENCIES)
        await load(served, all[name]!, "worker", providers.origin, c, Math.round(WARM / CONCURRENCIES.length));
      for (let rep = 1; rep <= REPS; rep++)
        for (const c of CONCURRENCIES) {
          await sleep(500); // the compiles the last window started end before the mark
          mark(`begin ${name} c=${c} #${rep}`);
          const { samples } = await load(served, all[name]!, "worker", providers.origin, c, N);
          await sleep(500);
          mark("end");
          const failed = samples.filter((sample) => !sample.ok).length;
          if (failed > 0) console.log(`${name} c=${c} #${rep}: ${failed} failed`);
        }
    } finally {
      await served.mf.dispose();
    }
  }
} finally {
  built.remove();
  providers.child.kill("SIGTERM");
}

/** Each window's lines of the log. */
const windows = new Map<string, string[]>();
let current: string[] | undefined;
for (const line of readFileSync(LOG, "utf8").split("\n")) {
  const begin = /^@@ begin (.*)$/.exec(line);
  if (begin) windows.set(begin[1]!, (current = []));
  else if (line === "@@ end") current = undefined;
  else current?.push(line);
}
/** A collection of `--trace-gc-nvp`: its isolate, kind (`s`, `mc`, ...) and the bytes it promoted. */
interface Collection {
  isolate: string;
  gc: string;
  promoted: number;
  allocated: number;
  new_space_survived: number;
}
const collection = (line: string): Collection | undefined => {
  const match = /^\[\d+:(0x[0-9a-f]+):\d+\]\s+\d+ ms: GC: (\{.*\})\s*$/.exec(line);
  if (!match) return undefined;
  const { gc, promoted = 0, allocated = 0, new_space_survived = 0 } = JSON.parse(match[2]!) as Partial<Collection>;
  return { isolate: match[1]!, gc: gc ?? "", promoted, allocated, new_space_survived };
};
console.log(`${N} requests a window after ${WARM} of warm-up; the log: ${LOG}`);
console.log(
  "| window | Mark-Compacts | scavenges | outlived a scavenge / promoted, KB a request (share of allocation) | code a collection invalidated | other deoptimizations | Maglev | Turbofan | OSR |\n| --- |" +
    " ---: |".repeat(8),
);
for (const [name, lines] of windows) {
  const count = (test: (line: string) => boolean): number => lines.filter(test).length;
  const compiled = (line: string): boolean => line.startsWith("[completed compiling");
  const reasons = new Map<string, number>();
  for (const line of lines) {
    const reason = /^\[bailout \(kind: [^,]+, reason: (.*?)\): begin/.exec(line)?.[1];
    if (reason) reasons.set(reason, (reasons.get(reason) ?? 0) + 1);
  }
  const other = [...reasons].map(([reason, n]) => `${n} ${reason}`).join(", ") || "0";
  const all = lines.map(collection).filter((gc) => gc !== undefined);
  const allocatedBy = new Map<string, number>();
  for (const gc of all) allocatedBy.set(gc.isolate, (allocatedBy.get(gc.isolate) ?? 0) + gc.allocated);
  const worker = [...allocatedBy].sort((a, b) => b[1] - a[1])[0]?.[0];
  const gcs = all.filter((gc) => gc.isolate === worker);
  const marks = gcs.filter((gc) => gc.gc === "mc").length + count((line) => line.includes("Mark-Compact"));
  const scavenges = gcs.filter((gc) => gc.gc === "s").length;
  const sum = (bytes: (gc: Collection) => number): number =>
    gcs.reduce((total, gc) => total + (gc.gc === "s" ? bytes(gc) : 0), 0);
  const perRequest = (bytes: (gc: Collection) => number): string => (sum(bytes) / N / 1000).toFixed(1);
  const share = (100 * sum((gc) => gc.new_space_survived)) / sum((gc) => gc.allocated);
  const promoted = `${perRequest((gc) => gc.new_space_survived)} / ${perRequest((gc) => gc.promoted)} (${share.toFixed(1)} %)`;
  console.log(
    `| ${name} | ${marks} | ${scavenges} | ${promoted} | ${count((line) => line.includes("embedded weak objects cleared"))} | ${other} | ${count((line) => compiled(line) && line.includes("MAGLEV"))} | ${count((line) => compiled(line) && line.includes("TURBOFAN"))} | ${count((line) => compiled(line) && line.includes(" OSR"))} |`,
  );
}
