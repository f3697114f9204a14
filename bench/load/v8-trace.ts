// What V8 compiles and throws away in a warm Worker: the built Worker served by Miniflare as
// `npm run bench:load` serves it (bench/load/harness.ts), its workerd run with V8's tracing flags
// (`MINIFLARE_WORKERD_V8_FLAGS`, which Miniflare passes to workerd) and its output written to a
// file (Miniflare reads workerd's stdout only for its structured logs, so a wrapper redirects it).
// After TRACE_WARM requests of a workload (split over the concurrencies), TRACE_REPS rounds of N
// requests at each concurrency of TRACE_C, each between two marks in the log; then, per window, the
// full collections (Mark-Compact), the optimized code a collection invalidated ("embedded weak
// objects cleared"), the other deoptimizations by reason, and the Maglev, Turbofan and OSR compiles.
//   node bench/load/v8-trace.ts 300   (TRACE_WORKLOADS=tool-args-10k,chat-stream TRACE_C=1,10
//   TRACE_WARM=1000 TRACE_REPS=2; TRACE_FLAGS: other V8 flags; TRACE_LOG: where the log goes)
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
const WORKERD = join(import.meta.dirname, "../../node_modules/@cloudflare/workerd-linux-64/bin/workerd");

// Line-buffered (`stdbuf`), so that a mark falls between the lines of the requests before and after it.
writeFileSync(join(dir, "workerd.sh"), `#!/bin/sh\nexec stdbuf -oL -eL '${WORKERD}' "$@" >>'${LOG}' 2>&1\n`);
chmodSync(join(dir, "workerd.sh"), 0o755);
process.env["MINIFLARE_WORKERD_PATH"] = join(dir, "workerd.sh");
process.env["MINIFLARE_WORKERD_V8_FLAGS"] =
  `--trace-opt --trace-deopt --trace-gc ${process.env["TRACE_FLAGS"] ?? ""}`.trim();
const mark = (text: string): void => appendFileSync(LOG, `\n@@ ${text}\n`);

const providers = await startProviders();
const all = workloads();
const built = await buildWorkers();
try {
  for (const name of NAMES) {
    const served = await serve("Worker", built.worker, "worker", providers.origin, all[name]!);
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
console.log(`${N} requests a window after ${WARM} of warm-up; the log: ${LOG}`);
console.log(
  "| window | Mark-Compacts | code a collection invalidated | other deoptimizations | Maglev | Turbofan | OSR |\n| --- |" +
    " ---: |".repeat(6),
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
  console.log(
    `| ${name} | ${count((line) => line.includes("Mark-Compact"))} | ${count((line) => line.includes("embedded weak objects cleared"))} | ${other} | ${count((line) => compiled(line) && line.includes("MAGLEV"))} | ${count((line) => compiled(line) && line.includes("TURBOFAN"))} | ${count((line) => compiled(line) && line.includes(" OSR"))} |`,
  );
}
