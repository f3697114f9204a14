// The 10 KB call's body stage by stage in workerd: where the Worker's CPU and memory per request go
// beyond a pass-through's, measured as bench:load measures them (one workerd under Miniflare, the
// scripted providers in a process of their own, workerd CPU from its threads' schedstat, RSS from
// /proc). The probe Worker (bench/load/stages-worker.ts) reads the body up to one stage per path:
// the pass-through, the body's reads, their decoding, the SSE framing, the OpenAI Chat decoder, the
// Worker's fragment runs, those through the accumulator in the read's turn, the whole chain. Each
// row is a multiple of the pass-through's in the same rounds; a stage's cost is its difference from
// the row before it.
//   - CPU: ROUNDS rounds (default 6) of N requests (default 100) at each concurrency of STAGES_C
//     (default 10,50), every stage in turn, the order reversed every round; mean and median per request.
//   - With STAGES_RSS=1, memory instead: each stage in a workerd of its own, warmed up, then 250
//     requests at c=50, RSS sampled every 50 ms: its peak over idle, per concurrent stream.
//   node bench/load/stages.ts
//   STAGES_RSS=1 STAGES=pass,read,chain node bench/load/stages.ts
import { mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { build } from "esbuild";
import { convertV4MiniflareOptions, Miniflare } from "miniflare";
import { cpuMs, rssMiB, startProviders, workerdProcesses } from "./harness.ts";

const STAGES = (process.env["STAGES"] ?? "pass,read,decode,frame,decoder,runs,accumulated,chain").split(",");
const LEVELS = (process.env["STAGES_C"] ?? "10,50").split(",").map(Number);
const ROUNDS = Number(process.env["ROUNDS"] ?? 6);
const N = Number(process.env["N"] ?? 100);

const f2 = (x: number): string => x.toFixed(2);
const median = (xs: readonly number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** The probe Worker served by Miniflare in a workerd of its own: its URL and processes. */
async function serveProbe(script: string, dir: string, upstream: string) {
  const before = workerdProcesses();
  const mf = new Miniflare(
    convertV4MiniflareOptions({
      host: "127.0.0.1",
      port: 0,
      workers: [
        {
          name: "stages",
          modules: true,
          modulesRoot: dir,
          scriptPath: script,
          compatibilityDate: "2026-11-01",
          bindings: { UPSTREAM: upstream },
        },
      ],
    }),
  );
  const url = (await mf.ready).href.replace(/\/$/, "");
  const first = await fetch(`${url}/chain`);
  if ((await first.text()) === "0") throw new Error("the probe's chain read no events");
  return { mf, url, pids: [...workerdProcesses()].filter((pid) => !before.has(pid)) };
}

/** `n` requests of one stage, `concurrency` at a time; every answer must be a 200. Returns the mean of the counts answered. */
async function load(url: string, stage: string, concurrency: number, n: number): Promise<number> {
  let next = 0;
  let counted = 0;
  const client = async (): Promise<void> => {
    while (next < n) {
      next++;
      const response = await fetch(`${url}/${stage}`);
      const text = await response.text();
      if (!response.ok) throw new Error(`${stage}: HTTP ${response.status}`);
      if (stage !== "pass") counted += Number(text);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, client));
  return counted / n;
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "bench-stages-"));
  const script = join(dir, "index.js");
  await build({
    entryPoints: [resolve(import.meta.dirname, "stages-worker.ts")],
    outfile: script,
    bundle: true,
    format: "esm",
    target: "es2022",
    logLevel: "warning",
  });
  const providers = await startProviders();
  console.log(`bench/load/stages.ts, ${new Date().toISOString()}, load average ${loadavg().map(f2).join(" ")}`);
  try {
    if (process.env["STAGES_RSS"]) {
      console.log("| stage | RSS idle MiB | peak at c=50 | per concurrent stream MiB |\n| --- | ---: | ---: | ---: |");
      for (const stage of STAGES) {
        const probe = await serveProbe(script, dir, providers.origin);
        await load(probe.url, stage, 5, 20);
        const idle = rssMiB(probe.pids);
        let peak = idle;
        const sampler = setInterval(() => (peak = Math.max(peak, rssMiB(probe.pids))), 50);
        await load(probe.url, stage, 50, 250);
        clearInterval(sampler);
        peak = Math.max(peak, rssMiB(probe.pids));
        console.log(`| ${stage} | ${idle.toFixed(1)} | ${peak.toFixed(1)} | ${f2((peak - idle) / 50)} |`);
        await probe.mf.dispose();
      }
      return;
    }
    const probe = await serveProbe(script, dir, providers.origin);
    try {
      for (const c of LEVELS) {
        for (const stage of STAGES) await load(probe.url, stage, c, 20);
        const perRound = new Map<string, number[]>(STAGES.map((stage) => [stage, []]));
        let reads = Number.NaN;
        for (let round = 0; round < ROUNDS; round++) {
          for (const stage of round % 2 === 0 ? STAGES : [...STAGES].reverse()) {
            const before = cpuMs(probe.pids);
            const counted = await load(probe.url, stage, c, N);
            perRound.get(stage)!.push((cpuMs(probe.pids) - before) / N);
            if (stage === "read") reads = counted;
          }
        }
        const mean = (stage: string): number => perRound.get(stage)!.reduce((sum, x) => sum + x, 0) / ROUNDS;
        const pass = mean("pass");
        console.log(
          `\nc=${c}, ${ROUNDS} rounds of ${N}: workerd CPU ms per request (the body in ${reads.toFixed(1)} reads)\n| stage | mean | median | x pass-through |\n| --- | ---: | ---: | ---: |`,
        );
        for (const stage of STAGES)
          console.log(
            `| ${stage} | ${f2(mean(stage))} | ${f2(median(perRound.get(stage)!))} | ${f2(mean(stage) / pass)} |`,
          );
      }
    } finally {
      await probe.mf.dispose();
    }
    console.log(`\nload average at the end ${loadavg().map(f2).join(" ")}`);
  } finally {
    providers.child.kill("SIGTERM");
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
