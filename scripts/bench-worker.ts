// `npm run bench:worker`: the Worker's CPU per response against the chain alone and a
// pass-through, each in local workerd (`wrangler dev` on loopback), on event-dense provider bodies
// served by a local upstream (a Node HTTP server on 127.0.0.1, bench/worker/upstream.ts) at three
// paces: at full speed (the whole body in one write), one SSE event per write (token by token, as
// fast as the upstream writes), and a few events per write at a fast model's rate.
//
// The `wrangler dev`, each its own workerd:
//   worker     the real Worker (worker/index.ts, wrangler.toml): /v1/stream is resumable (the
//              RESPONSES Durable Object runs each response, in the same workerd);
//   plain      the real Worker without the Durable Object binding (bench/worker/wrangler.plain.toml):
//              /v1/stream streams straight from the route;
//   reference  bench/worker/bench-worker.ts: /chain/... runs `streamToolCalls` on the upstream body
//              and counts the events, /batches/... the same with `streamToolCallBatches` (one read
//              per array of events: the cheaper floor the Worker itself builds on), /pass/...
//              answers the upstream bytes unchanged, /sse/ and /idle/ the Worker's encoding (and
//              idle timeout) alone, /read/ and /parse/ the floors under the chain in workerd (the
//              body read in JavaScript; and its payloads JSON.parse-d);
//   pass       a second reference, for the pass-through of the `tokens` pace (below);
//   messages, responses  the real Worker without the Durable Object again, each its own workerd:
//              the agent endpoints POST /v1/messages (Claude Code's protocol) and /v1/responses
//              (Codex's) in front of the same provider body (`model` "<provider>/bench-model").
// The real Worker reaches the local upstream through its ordinary settings (OPENAI_BASE_URL,
// ANTHROPIC_BASE_URL and keys passed with `--var` for this run only; no code path of its own).
//
// CPU: utime + stime of each workerd (/proc/<pid>/stat fields 14 and 15, summed over the workerd
// processes under that wrangler) before and after a batch of responses of one body from one target;
// per response = the difference / the batch's size; per event = per response / the body's SSE
// events. A figure is the median over rounds, a ratio the median of the per-round ratios.
//   full    BENCH_N (20) responses a batch, one at a time, BENCH_ROUNDS (5) rounds interleaving
//           every target; TTFB from sending the request to the first body byte, median, beside the
//           upstream's own;
//   event   BENCH_PACED_N (6) responses a batch, BENCH_PACED_ROUNDS (3) rounds, as above, on the
//           four targets of the issue (plain, resumable, chain alone, pass-through) and the two
//           agent endpoints;
//   tokens  the same six at once (each its own workerd, each one response at a time): the paced
//           upstream leaves them idle most of the time, and load from elsewhere falls on all six.
//
// Linux only (/proc). Usage: npm run bench:worker
//   BENCH_PACE=full,event,tokens BENCH_BODIES=openai,anthropic,responses (or tiny, alone)
//   BENCH_RESUMABLE=0 (leave the resumable Worker out) PACE_EVENTS=3 PACE_MS=5 (the tokens pace)
//   BENCH_RUNS=resumable,pass: only these of the six (plain, resumable, chain, pass, messages,
//   responses), the others' wrangler not started (a ratio to one left out shows as -)
//   BENCH_DETAIL=1: the reference routes between the chain and the Worker at the paced paces too
//   BENCH_BEFORE=<another copy of the repository>: its targets too, alternating with this tree's
//   in every round, and the after / before ratios per target (what a change gained, in one run)
import { readFileSync } from "node:fs";
import {
  agentInit,
  type BenchBody,
  benchBodies,
  type Count,
  cpuTicks,
  median,
  request,
  startWrangler,
  stopWrangler,
  streamInit,
  type Target,
  workerdPids,
  workerVars,
} from "../bench/worker/harness.ts";
import { PACE_EVENTS, PACE_MS, type Pace, sseEvents, startUpstream } from "../bench/worker/upstream.ts";

const RESUMABLE = process.env["BENCH_RESUMABLE"] !== "0";
/** The six runs of the issue by the names BENCH_RUNS picks them by, in their order. */
const RUN_NAMES = ["plain", "resumable", "chain", "pass", "messages", "responses"] as const;
const ONLY = process.env["BENCH_RUNS"]?.split(",");
/** Whether the `k`th run of the six is measured (BENCH_RUNS, BENCH_RESUMABLE). */
const measured = (k: number): boolean => (ONLY?.includes(RUN_NAMES[k]!) ?? true) && (k !== 1 || RESUMABLE);
/** BENCH_DETAIL=1: the paced paces measure the reference routes between the chain and the Worker too (as the full pace does). */
const DETAIL = process.env["BENCH_DETAIL"] === "1";
/** Another copy of the repository (the tree before a change): its targets are measured too, alternating with this tree's. */
const BEFORE = process.env["BENCH_BEFORE"];
const PACES = (process.env["BENCH_PACE"] ?? "full,event,tokens").split(",") as Pace[];
const TICK_MS = 1000 / Number(process.env["CLK_TCK"] ?? 100);
const SIZES: Record<Pace, { n: number; rounds: number }> = {
  full: { n: Number(process.env["BENCH_N"] ?? 20), rounds: Number(process.env["BENCH_ROUNDS"] ?? 5) },
  // Token by token a response of the openai body costs the pass-through about 35 ms of CPU, a few
  // of /proc's 10 ms ticks: six responses a batch to tell 10 % apart.
  event: {
    n: Number(process.env["BENCH_PACED_N"] ?? 6),
    rounds: Number(process.env["BENCH_PACED_ROUNDS"] ?? 3),
  },
  tokens: {
    n: Number(process.env["BENCH_PACED_N"] ?? 2),
    rounds: Number(process.env["BENCH_PACED_ROUNDS"] ?? 3),
  },
};
const PACE_NAMES: Record<Pace, string> = {
  full: "full speed (the body in one write)",
  event: "one SSE event per write, a turn of the upstream's event loop between writes",
  tokens: `${PACE_EVENTS} SSE events per write, one write every ${PACE_MS} ms`,
};

interface Run {
  name: string;
  target: Target;
  url: string;
  init: RequestInit;
  count: Count;
}

interface Targets {
  worker: Target;
  plain: Target;
  reference: Target;
  pass: Target | undefined;
  messages: Target;
  responses: Target;
}

/**
 * The runs of one body at one pace: plain, resumable, chain alone, pass-through (issue 29's four),
 * then the two agent endpoints (each its own workerd, so that at the `tokens` pace all six run at once).
 */
const ISSUE_RUNS = 6;

function runsOf(body: BenchBody, pace: Pace, targets: Targets, origin: string): Run[] {
  const { worker, plain, reference } = targets;
  const ref = (name: string, route: string, count: Count, target = reference): Run => ({
    name,
    target,
    url: `http://127.0.0.1:${target.port}/${route}/v1/${body.path}`,
    init: {},
    count,
  });
  const stream = (name: string, target: Target): Run => ({
    name,
    target,
    url: `http://127.0.0.1:${target.port}/v1/stream`,
    init: streamInit(body),
    count: "frames",
  });
  const runs = [
    stream("Worker /v1/stream plain", plain),
    stream("Worker /v1/stream resumable", worker),
    ref("chain alone", "chain", "number"),
    ref("pass-through", "pass", "bytes", pace === "tokens" && targets.pass ? targets.pass : reference),
    ...(["messages", "responses"] as const).map((endpoint) => ({
      name: `Worker /v1/${endpoint} (agents)`,
      target: targets[endpoint],
      url: `http://127.0.0.1:${targets[endpoint].port}/v1/${endpoint}`,
      init: agentInit(body, endpoint),
      count: "frames" as const,
    })),
  ];
  for (const [k, run] of runs.entries())
    if (!measured(k)) runs[k] = { ...run, name: `(${RUN_NAMES[k]} not measured)`, url: "" };
  if (pace !== "full" && !DETAIL) return runs;
  return [
    ...runs,
    ref("chain alone, batched", "batches", "number"),
    ref("floor: JS reads of the body", "read", "number"),
    ref("floor: reads + JSON.parse", "parse", "number"),
    ref("chain + SSE encoding (bare)", "sse", "frames"),
    ref("... + idle timeout (bare)", "idle", "frames"),
    ref("... + provider-data strip", "strip", "frames"),
    ref("... + write window (25 ms)", "window", "frames"),
    {
      name: "upstream direct",
      target: reference,
      url: `${origin}/v1/${body.path}`,
      init: { method: "POST" },
      count: "bytes",
    },
  ];
}

/** One batch of `n` responses of a run, one at a time: CPU ms per response, TTFBs. */
async function batch(run: Run, n: number, ttfb: number[]): Promise<number> {
  const pids = workerdPids(run.target);
  const before = cpuTicks(pids);
  for (let i = 0; i < n; i++) ttfb.push((await request(run.url, run.init, run.count)).ttfbMs);
  return ((cpuTicks(pids) - before) * TICK_MS) / n;
}

/** A tree's targets: this worktree ("after"), or BENCH_BEFORE's copy ("before"). */
interface Tree {
  label: string;
  targets: Targets;
}

/** The figures of one body at one pace: per tree, per run, per round. */
interface Result {
  body: BenchBody;
  pace: Pace;
  labels: string[];
  runs: Run[][];
  cpu: number[][][];
}

async function measure(body: BenchBody, pace: Pace, trees: readonly Tree[], origin: string): Promise<Result> {
  const { n, rounds } = SIZES[pace];
  const runs = trees.map((tree) => runsOf(body, pace, tree.targets, origin));
  const cpu = runs.map((list) => list.map(() => [] as number[]));
  const ttfb = runs.map((list) => list.map(() => [] as number[]));
  const events = runs.map((list) => list.map(() => 0));
  for (const [t, list] of runs.entries())
    for (const [k, run] of list.entries())
      if (run.url) events[t]![k] = (await request(run.url, run.init, run.count)).events; // warm up
  for (let round = 0; round < rounds; round++) {
    // Each target of each tree, the trees alternating (their order turned round by round).
    const order = round % 2 === 0 ? [...trees.keys()] : [...trees.keys()].reverse();
    const live = runs[0]!.flatMap((_, k) => order.map((t) => [t, k] as const)).filter(([t, k]) => runs[t]![k]!.url);
    // At the tokens pace the four targets of the issue and the two agent endpoints (each its own workerd) run at once; the
    // reference routes (BENCH_DETAIL) share the reference workerd, so they run one after another.
    const together = pace === "tokens" ? live.filter(([, k]) => k < ISSUE_RUNS) : [];
    const figures = await Promise.all(together.map(([t, k]) => batch(runs[t]![k]!, n, ttfb[t]![k]!)));
    together.forEach(([t, k], i) => cpu[t]![k]!.push(figures[i]!));
    for (const [t, k] of live) {
      if (pace === "tokens" && k < ISSUE_RUNS) continue;
      const figure = await batch(runs[t]![k]!, n, ttfb[t]![k]!);
      if (runs[t]![k]!.name !== "upstream direct") cpu[t]![k]!.push(figure);
    }
  }
  const result: Result = { body, pace, labels: trees.map((tree) => tree.label), runs, cpu };
  const upstreamEvents = sseEvents(body.bytes).length;
  for (const [t, list] of runs.entries()) {
    console.log(
      `\n${trees.length > 1 ? `[${trees[t]!.label}] ` : ""}${body.name}, ${PACE_NAMES[pace]} (${(body.bytes.length / 1024).toFixed(0)} KiB, ${upstreamEvents} upstream events, ${measured(2) ? events[t]![2] : "-"} events from the chain, ${events[t]![measured(0) ? 0 : 1]} SSE frames from the Worker)`,
    );
    for (const [k, run] of list.entries()) {
      if (!run.url) continue;
      const values = cpu[t]![k]!;
      const figure = values.length
        ? `CPU ${median(values).toFixed(1)} ms/response (rounds ${Math.min(...values).toFixed(1)} to ${Math.max(...values).toFixed(1)}), ${((1000 * median(values)) / upstreamEvents).toFixed(1)} us/event, `
        : "";
      console.log(`  ${run.name.padEnd(28)} ${figure}TTFB median ${median(ttfb[t]![k]!).toFixed(1)} ms`);
    }
    for (const k of [0, 1, 4, 5].filter(measured))
      console.log(
        `  ${list[k]!.name}: x${ratio(cpu[t]![k]!, cpu[t]![2]!)} the chain, x${ratio(cpu[t]![k]!, cpu[t]![3]!)} the pass-through${list.length > ISSUE_RUNS ? `, x${ratio(cpu[t]![k]!, cpu[t]![ISSUE_RUNS]!)} the batched chain` : ""}`,
      );
    const floors =
      list.length > ISSUE_RUNS
        ? `, x${ratio(cpu[t]![2]!, cpu[t]![ISSUE_RUNS + 1]!)} the JS reads, x${ratio(cpu[t]![2]!, cpu[t]![ISSUE_RUNS + 2]!)} the reads + JSON.parse`
        : "";
    console.log(`  chain alone: x${ratio(cpu[t]![2]!, cpu[t]![3]!)} the pass-through${floors}`);
  }
  return result;
}

/** The median of the per-round ratios (each round measures the targets back to back, or at once). */
function ratio(values: readonly number[], of: readonly number[]): string {
  if (values.length === 0 || of.length === 0) return "-";
  return median(values.map((value, round) => value / of[round]!)).toFixed(2);
}

function summary(results: readonly Result[]): void {
  console.log(
    "\nSide by side (CPU ms per response, medians; ratios: medians of the per-round ratios)\n" +
      "| pace | body | tree | plain | resumable | chain alone | pass-through | plain / chain | resumable / chain | chain / pass | /v1/messages / chain | /v1/responses / chain |\n" +
      "| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
  );
  for (const { body, pace, labels, cpu } of results)
    for (const [t, label] of labels.entries()) {
      const c = cpu[t]!;
      const ms = (k: number): string => (c[k]!.length ? median(c[k]!).toFixed(1) : "-");
      console.log(
        `| ${pace} | ${body.name.split(":")[0]} | ${label} | ${ms(0)} | ${ms(1)} | ${ms(2)} | ${ms(3)} | ${ratio(c[0]!, c[2]!)} | ${ratio(c[1]!, c[2]!)} | ${ratio(c[2]!, c[3]!)} | ${ratio(c[4]!, c[2]!)} | ${ratio(c[5]!, c[2]!)} |`,
      );
    }
  if (results[0]?.labels.length !== 2) return;
  console.log(
    "\nAfter / before (the median of the per-round ratios of CPU per response)\n" +
      "| pace | body | plain | resumable | chain alone | pass-through | /v1/messages | /v1/responses |\n| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |",
  );
  for (const { body, pace, cpu } of results) {
    const [after, before] = cpu as [number[][], number[][]];
    // Each with its rounds' spread: what one tree against itself moves by, under the machine's load.
    const cells = [0, 1, 2, 3, 4, 5].map((k) => {
      const rounds = after[k]!.map((value, round) => value / before[k]![round]!);
      const spread = rounds.length ? ` (${Math.min(...rounds).toFixed(2)} to ${Math.max(...rounds).toFixed(2)})` : "";
      return `${ratio(after[k]!, before[k]!)}${spread}`;
    });
    console.log(`| ${pace} | ${body.name.split(":")[0]} | ${cells.join(" | ")} |`);
  }
}

async function startTree(label: string, cwd: string, origin: string, started: Target[]): Promise<Tree> {
  const start = async (name: string, config: string, vars: Record<string, string>): Promise<Target> => {
    const target = await startWrangler(`${label}-${name}`, config, vars, cwd);
    started.push(target);
    return target;
  };
  // One at a time: several bundlers at once on a small machine start slowly. A Worker whose runs
  // BENCH_RUNS leaves out is not started: the reference stands in for it (its runs have no URL).
  const reference = await start("reference", "bench/worker/wrangler.toml", { UPSTREAM: origin });
  const real = async (k: number, name: string, config: string): Promise<Target> =>
    measured(k) ? await start(name, config, workerVars(origin)) : reference;
  return {
    label,
    targets: {
      worker: await real(1, "worker", "wrangler.toml"),
      plain: await real(0, "plain", "bench/worker/wrangler.plain.toml"),
      reference,
      pass: PACES.includes("tokens")
        ? await start("pass", "bench/worker/wrangler.toml", { UPSTREAM: origin })
        : undefined,
      messages: await real(4, "messages", "bench/worker/wrangler.plain.toml"),
      responses: await real(5, "responses", "bench/worker/wrangler.plain.toml"),
    },
  };
}

async function main(): Promise<void> {
  const list = benchBodies(process.env["BENCH_BODIES"]?.split(","));
  const upstream = await startUpstream(list);
  const started: Target[] = [];
  try {
    const trees = [await startTree(BEFORE ? "after" : "this tree", ".", upstream.origin, started)];
    if (BEFORE) trees.push(await startTree("before", BEFORE, upstream.origin, started));
    const cores = readFileSync("/proc/cpuinfo", "utf8")
      .split("\n")
      .filter((line) => line.startsWith("processor")).length;
    console.log(`bench:worker  paces ${PACES.join(", ")}, node ${process.version}, ${cores} cores`);
    if (BEFORE) console.log(`  after: this tree; before: ${BEFORE}; measured alternately`);
    for (const pace of PACES)
      console.log(`  ${pace}: ${SIZES[pace].n} responses a batch, ${SIZES[pace].rounds} rounds`);
    const results: Result[] = [];
    for (const pace of PACES) {
      upstream.pace = pace;
      for (const body of list) results.push(await measure(body, pace, trees, upstream.origin));
    }
    summary(results);
  } finally {
    for (const target of started) await stopWrangler(target);
    upstream.server.close();
  }
}

await main();
