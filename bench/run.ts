// Benchmark: tool-call-stream beside a floor and its peers, in one run, as ratios to the floor.
// Run: npm run bench   (BENCH_QUICK=1 for a short run; BENCH_BUDGET_MS caps each measurement;
// BENCH_CLOCK=cpu times each run by the process's CPU time instead of the wall clock; BENCH_PEERS=0 skips the peers)
//
// The floor and tool-call-stream are measured in interleaved rounds (each round runs each of them
// once, in rotating order) and their ratio is the median of the per-round ratios, so that load
// from other processes falls on all of them alike. Peers, far slower, are measured after, on
// their own, and their ratio is their median over the floor's median.
import type { Body } from "./bodies.ts";
import {
  aiSdk,
  anthropicSdk,
  floor,
  floorOfArray,
  openaiNode,
  ours,
  oursBatched,
  oursForAwait,
  oursChain,
  oursCores,
  type Contender,
} from "./contenders.ts";
import { benchScenarios, scenarioChunks, type Scenario } from "./scenarios.ts";

const quick = process.env["BENCH_QUICK"] === "1";
/** `cpu`: each run timed by this process's CPU time (user + system), which a machine shared with other work does not stretch. */
const cpuClock = process.env["BENCH_CLOCK"] === "cpu";
const clock = (): number => {
  if (!cpuClock) return performance.now();
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};
const budgetMs = Number(process.env["BENCH_BUDGET_MS"] ?? (quick ? 300 : 1500));
/** A contender slower than this on one run is not run on larger inputs of the scenario family (quadratic peers). */
const giveUpMs = 8000;

type Mode = "off" | "on" | "-";

/** Measured in interleaved rounds with the floor (the first entry). */
const interleaved: [string, Contender, Mode][] = [
  ["floor", floor, "-"],
  ["floor without the body stream", floorOfArray, "-"],
  ["for await over streamToolCalls", oursForAwait, "off"],
  ["tool-call-stream", ours(false), "off"],
  ["tool-call-stream (partial)", ours(true), "on"],
  ["tool-call-stream (early validation)", ours(false, true), "off"],
  ["tool-call-stream (early + partial)", ours(true, true), "on"],
  ["streamToolCallBatches", oursBatched, "off"],
  ["the core (ToolCallChain)", oursChain, "off"],
  ["the cores wired by hand", oursCores, "off"],
];

function peers(framing: Body["framing"]): [string, Contender, Mode][] {
  const list: [string, Contender, Mode][] = [
    ["ai-sdk doStream", aiSdk(false), "off"],
    ["ai-sdk + parsePartialJson", aiSdk(true), "on"],
  ];
  if (framing !== "anthropic") list.push(["openai-node stream", openaiNode, "off"]);
  if (framing === "anthropic") list.push(["anthropic-sdk MessageStream", anthropicSdk, "on"]);
  return list;
}

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function timed(
  contender: Contender,
  chunks: Uint8Array[],
  framing: Body["framing"],
  expected: number,
): Promise<number> {
  const start = clock();
  const calls = await contender(chunks, framing);
  const ms = clock() - start;
  if (calls !== expected) throw new Error(`saw ${calls} calls, expected ${expected}`);
  return ms;
}

/** Median milliseconds and median ratio to the first contender, over interleaved rounds after a warm-up round. */
async function measureInterleaved(
  list: Contender[],
  chunks: Uint8Array[],
  framing: Body["framing"],
  expected: number,
): Promise<{ ms: number; ratio: number }[]> {
  for (const contender of list) await timed(contender, chunks, framing, expected);
  const times = list.map(() => [] as number[]);
  const until = performance.now() + budgetMs * list.length;
  for (let round = 0; round < 5 || (performance.now() < until && round < 60); round++) {
    for (let k = 0; k < list.length; k++) {
      const which = (k + round) % list.length;
      times[which]!.push(await timed(list[which]!, chunks, framing, expected));
    }
  }
  return times.map((own) => ({ ms: median(own), ratio: median(own.map((ms, round) => ms / times[0]![round]!)) }));
}

/** Median milliseconds of one contender on its own, after a warm-up, running for about the budget. */
async function measure(
  contender: Contender,
  chunks: Uint8Array[],
  framing: Body["framing"],
  expected: number,
): Promise<number> {
  const once = await timed(contender, chunks, framing, expected);
  if (once > giveUpMs) return once;
  const times: number[] = [];
  const until = performance.now() + budgetMs;
  while (times.length < 3 || (performance.now() < until && times.length < 50))
    times.push(await timed(contender, chunks, framing, expected));
  return median(times);
}

interface Result {
  scenario: Scenario;
  name: string;
  mode: Mode;
  ms: number | undefined;
  ratio?: number;
  note?: string;
}

const results: Result[] = [];
const gaveUp = new Set<string>();
for (const scenario of benchScenarios(quick)) {
  const { framing } = scenario.body;
  const chunks = scenarioChunks(scenario);
  const expected = await floorOfArray(chunks, framing);
  const measured = await measureInterleaved(
    interleaved.map(([, contender]) => contender),
    chunks,
    framing,
    expected,
  );
  interleaved.forEach(([name, , mode], i) =>
    results.push({ scenario, name, mode, ms: measured[i]!.ms, ratio: measured[i]!.ratio }),
  );
  const floorMs = measured[0]!.ms;
  if (process.env["BENCH_PEERS"] !== "0") {
    for (const [name, contender, mode] of peers(framing)) {
      const key = `${scenario.family}/${name}`;
      if (gaveUp.has(key)) {
        results.push({
          scenario,
          name,
          mode,
          ms: undefined,
          note: `not run: over ${giveUpMs / 1000} s at a smaller size`,
        });
        continue;
      }
      try {
        const ms = await measure(contender, chunks, framing, expected);
        if (ms > giveUpMs) gaveUp.add(key);
        results.push({ scenario, name, mode, ms, ratio: ms / floorMs });
      } catch (error) {
        results.push({ scenario, name, mode, ms: undefined, note: `failed: ${(error as Error).message.slice(0, 80)}` });
      }
    }
  }
  process.stderr.write(`measured: ${scenario.name}\n`);
}

const lines: string[] = [];

// The targets at a glance: tool-call-stream's ratio to the floor on every scenario.
lines.push(
  "\n### Summary: tool-call-stream as a multiple of the floor\n\n| scenario | for await | reader, partial off | partial on | early validation | early + partial | batches | the core | cores by hand | floor ms | floor without the body stream, x floor |\n| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
);
for (const scenario of new Set(results.map((r) => r.scenario))) {
  const row = (name: string): Result => results.find((r) => r.scenario === scenario && r.name === name)!;
  const ratios = [
    "for await over streamToolCalls",
    "tool-call-stream",
    "tool-call-stream (partial)",
    "tool-call-stream (early validation)",
    "tool-call-stream (early + partial)",
    "streamToolCallBatches",
    "the core (ToolCallChain)",
    "the cores wired by hand",
  ].map((name) => row(name).ratio!.toFixed(2));
  lines.push(
    `| ${scenario.name} | ${ratios.join(" | ")} | ${row("floor").ms!.toFixed(2)} | ${row("floor without the body stream").ratio!.toFixed(2)} |`,
  );
}
// Issue 37's target: `for await` over streamToolCalls (the provider option alone) at most 1.5 x the
// floor on the event-dense bodies: many small text deltas, 8 parallel calls (sequential and
// interleaved), one call of 10 KB to 1 MB in each framing.
const TARGET_FAMILIES = ["text", "parallel", "parallel-interleaved"];
const targeted = results.filter(
  (r) =>
    r.name === "for await over streamToolCalls" &&
    (TARGET_FAMILIES.includes(r.scenario.family) || r.scenario.family.startsWith("one-call-")),
);
const worst = targeted.reduce((a, b) => (b.ratio! > a.ratio! ? b : a));
lines.push(
  `\nfor await over streamToolCalls: at most ${worst.ratio!.toFixed(2)} x the floor (${worst.scenario.name}) over ${targeted.length} scenarios; target 1.5`,
);

// One table per scenario, ratios to that scenario's floor.
for (const scenario of new Set(results.map((r) => r.scenario))) {
  const rows = results.filter((r) => r.scenario === scenario);
  lines.push(
    `\n### ${scenario.name}\n\n| implementation | partial arguments | median ms | x floor |\n| --- | --- | ---: | ---: |`,
  );
  for (const row of rows)
    lines.push(
      `| ${row.name} | ${row.mode} | ${row.ms === undefined ? "-" : row.ms.toFixed(2)} | ${row.ratio === undefined ? row.note : row.ratio.toFixed(2)} |`,
    );
}

// Growth of time with argument size: slope of log(time) on log(size). The slope of the ratio to
// the floor (from the interleaved rounds) is also given: load that changes while the sizes are
// measured one after another bends the first, much less the second.
const slope = (xs: number[], ys: number[]): number => {
  const mx = xs.reduce((a, b) => a + b) / xs.length;
  const my = ys.reduce((a, b) => a + b) / ys.length;
  return xs.reduce((sum, x, i) => sum + (x - mx) * (ys[i]! - my), 0) / xs.reduce((sum, x) => sum + (x - mx) ** 2, 0);
};
lines.push(
  "\n### Fitted exponent, 10 KB to 1 MB (time ~ size^k)\n\n| implementation | framing | k | k of the ratio to the floor |\n| --- | --- | ---: | ---: |",
);
for (const framing of ["openai", "anthropic", "openai-responses"]) {
  for (const name of [
    "floor",
    "for await over streamToolCalls",
    "tool-call-stream",
    "tool-call-stream (partial)",
    "tool-call-stream (early validation)",
    "tool-call-stream (early + partial)",
  ]) {
    const points = results.filter(
      (r) => r.scenario.family === `one-call-${framing}` && r.name === name && r.ms !== undefined,
    );
    if (points.length < 2) continue;
    const xs = points.map((p) => Math.log(p.scenario.size!));
    const k = slope(
      xs,
      points.map((p) => Math.log(p.ms!)),
    );
    const relative = slope(
      xs,
      points.map((p) => Math.log(p.ratio!)),
    );
    lines.push(`| ${name} | ${framing} | ${k.toFixed(3)} | ${name === "floor" ? "-" : relative.toFixed(3)} |`);
  }
}
console.log(
  `Node ${process.version}, ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC${quick ? " (quick run)" : ""}${cpuClock ? ", CPU time" : ""}\n${lines.join("\n")}`,
);
