// What one `POST /v1/stream` response costs workerd in instructions, which the machine's other load
// does not move: the built Worker (as bench/load/stored-callgrind.ts builds and serves it: Miniflare,
// one workerd, its RESPONSES Durable Object) in front of bench:worker's local upstream
// (bench/worker/upstream.ts) serving one of its bodies, its workerd run under callgrind with
// instrumentation off; after CG_WARM responses at full speed (default 20: each is thousands of
// events, enough for V8 to compile the path), instrumentation on for N responses at CG_PACE, then a
// dump. Prints the instructions per response: the total, and without the collector and the
// compilers (which vary from run to run of the same code).
//   printf '#!/bin/sh\nexec valgrind --tool=callgrind --instr-atstart=no --smc-check=all-non-file --callgrind-out-file=/tmp/cg/cg.%%p.out %s "$@"\n' \
//     "$PWD/node_modules/@cloudflare/workerd-linux-64/bin/workerd" > /tmp/workerd-cg.sh && chmod +x /tmp/workerd-cg.sh && mkdir -p /tmp/cg
//   MINIFLARE_WORKERD_PATH=/tmp/workerd-cg.sh CG_OUT=/tmp/cg node bench/worker/stream-callgrind.ts 5
// CG_VARS="RESUME_WRITE_WINDOW_MS=0": the Worker's settings changed for the run (each read its own write: fewer
// timing-dependent windows). CG_BODY=openai|anthropic|responses|tiny (default openai); CG_PACE=full|event|tokens (default
// full; `tokens` with PACE_EVENTS=1 and a PACE_MS callgrind keeps up with reads each event on its
// own, as the `event` pace does natively); CG_ROUTE=resumable|plain (plain: the Worker without the
// Durable Object, /v1/stream straight from the route); CG_TREE=<another copy of the repository>:
// its Worker served instead of this tree's, so two trees are compared by two runs of this tool.
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { convertV4MiniflareOptions, Miniflare } from "miniflare";
import { buildWorkers, workerdProcesses, workerFlags } from "../load/harness.ts";
import { benchBodies, request, streamInit, TOKEN } from "./harness.ts";
import { type Pace, startUpstream } from "./upstream.ts";

const N = Number(process.argv[2] ?? 5);
const WARM = Number(process.env["CG_WARM"] ?? 20);
const OUT = process.env["CG_OUT"];
const TREE = process.env["CG_TREE"];
const PACE = (process.env["CG_PACE"] ?? "full") as Pace;
const ROUTE = process.env["CG_ROUTE"] ?? "resumable";
/** CG_VARS="RESUME_WRITE_WINDOW_MS=0,...": the Worker's settings changed for one run. */
const VARS = Object.fromEntries(
  (process.env["CG_VARS"] ?? "")
    .split(",")
    .filter((pair) => pair.includes("="))
    .map((pair) => [pair.slice(0, pair.indexOf("=")), pair.slice(pair.indexOf("=") + 1)]),
);
const body = benchBodies([process.env["CG_BODY"] ?? "openai"])[0]!;

/** The `[vars]` of a tree's wrangler.toml. */
function wranglerVars(root: string): Record<string, string> {
  const toml = readFileSync(join(root, "wrangler.toml"), "utf8");
  const section = toml.slice(toml.indexOf("\n[vars]") + 7).split(/\n\[/)[0] ?? "";
  return Object.fromEntries([...section.matchAll(/^([A-Z_]+) = "(.*)"$/gm)].map((match) => [match[1]!, match[2]!]));
}

/** The newest dump in `dir`. */
function newestDump(dir: string): string {
  const dumps = readdirSync(dir)
    .filter((file) => /\.out\.\d+$/.test(file))
    .map((file) => join(dir, file));
  return dumps.sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs)[0]!;
}

/** The total, the collector's and the compilers' instructions in `dump` (inclusive counts). */
function countsOf(dump: string): { total: number; runtime: number } {
  const text = execFileSync("callgrind_annotate", ["--inclusive=yes", "--threshold=100", dump], {
    maxBuffer: 1 << 28,
  }).toString();
  let total = 0;
  const runtime = new Map<RegExp, number>([
    [/^v8::internal::Heap::CollectGarbage\(v8::internal::AllocationSpace/, 0],
    [/^v8::internal::OptimizedCompilationJob::ExecuteJob\(/, 0],
    [/^v8::internal::maglev::MaglevCompiler::Compile\(/, 0],
  ]);
  for (const line of text.split("\n")) {
    const match = /^\s*([\d,]+) \([\s\d.]+%\)\s+(?:\?\?\?:)?(.*)$/.exec(line);
    if (!match) continue;
    const count = Number(match[1]!.replaceAll(",", ""));
    const name = match[2]!.trim();
    if (name.startsWith("PROGRAM TOTALS")) total = count;
    for (const [pattern, seen] of runtime) if (pattern.test(name)) runtime.set(pattern, Math.max(seen, count));
  }
  return { total, runtime: [...runtime.values()].reduce((a, b) => a + b, 0) };
}

const upstream = await startUpstream([body]);
upstream.pace = "full";
const built = await buildWorkers(TREE);
const script = TREE ? built.before! : built.worker;
const before = workerdProcesses();
const mf = new Miniflare(
  convertV4MiniflareOptions({
    host: "127.0.0.1",
    port: 0,
    workers: [
      {
        name: "worker",
        modules: true,
        modulesRoot: dirname(script),
        scriptPath: script,
        compatibilityDate: "2026-11-01",
        compatibilityFlags: workerFlags(script),
        bindings: {
          ...wranglerVars(resolve(TREE ?? ".")),
          CLIENT_TOKEN: TOKEN,
          OPENAI_API_KEY: "bench-key",
          ANTHROPIC_API_KEY: "bench-key",
          OPENAI_BASE_URL: `${upstream.origin}/v1`,
          ANTHROPIC_BASE_URL: `${upstream.origin}/v1`,
          ...VARS,
        },
        ...(ROUTE === "resumable"
          ? { durableObjects: { RESPONSES: { className: "ResponseBuffer", useSQLite: true } } }
          : {}),
      },
    ],
  }),
);
try {
  const url = `${(await mf.ready).href.replace(/\/$/, "")}/v1/stream`;
  const frames = (await request(url, streamInit(body), "frames")).events;
  const pids = [...workerdProcesses()].filter((pid) => !before.has(pid)).map(String);
  built.remove();
  for (let i = 1; i < WARM; i++) await request(url, streamInit(body), "frames");
  upstream.pace = PACE;
  for (const pid of pids) execFileSync("callgrind_control", ["-i", "on", pid], { stdio: "ignore" });
  const started = performance.now();
  for (let i = 0; i < N; i++) {
    const measured = await request(url, streamInit(body), "frames");
    if (measured.events !== frames) console.log(`response ${i}: ${measured.events} frames, not ${frames}`);
  }
  const seconds = (performance.now() - started) / 1000;
  for (const pid of pids) execFileSync("callgrind_control", ["-i", "off", pid], { stdio: "ignore" });
  for (const pid of pids) execFileSync("callgrind_control", ["-d", `stream-${ROUTE}`, pid], { stdio: "ignore" });
  const tree = TREE ?? "this tree";
  const vars = process.env["CG_VARS"] ? `, ${process.env["CG_VARS"]}` : "";
  console.log(`${tree}: ${ROUTE} /v1/stream, ${body.name.split(":")[0]} body (${frames} frames), ${PACE} pace${vars}`);
  console.log(`  ${N} responses after ${WARM} of warm-up, ${seconds.toFixed(1)} s under callgrind`);
  if (OUT) {
    const { total, runtime } = countsOf(newestDump(OUT));
    const per = (count: number): string => Math.round(count / N).toLocaleString("en");
    console.log(
      `  instructions per response: ${per(total)}; without the collector and the compilers ${per(total - runtime)}`,
    );
  }
} finally {
  await mf.dispose();
  upstream.server.close();
}
