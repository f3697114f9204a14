// Benchmark: tool-call-stream beside a floor and its peers, in one run, as ratios to the floor.
// Run: npm run bench   (BENCH_QUICK=1 for a short run; BENCH_BUDGET_MS caps each measurement)
import { anthropic, argumentsOf, fragments, networkChunks, openAIChat, responses, type Body } from "./bodies.ts";
import { aiSdk, anthropicSdk, floor, openaiNode, ours, type Contender } from "./contenders.ts";

const quick = process.env["BENCH_QUICK"] === "1";
const budgetMs = Number(process.env["BENCH_BUDGET_MS"] ?? (quick ? 300 : 1500));
/** A contender slower than this on one run is not run on larger inputs of the scenario family (quadratic peers). */
const giveUpMs = 8000;

interface Scenario {
  name: string;
  body: Body;
  chunkSize: number;
  family: string;
  size?: number;
}

const encoder = new TextEncoder();

function scenarios(): Scenario[] {
  const list: Scenario[] = [];
  const text = fragments("The quick brown fox jumps over the lazy dog. 杭州 ".repeat(quick ? 400 : 2000), 4);
  list.push({ name: "many small text deltas", family: "text", chunkSize: 1024, body: { framing: "openai", sse: openAIChat(text, []) } });
  const eight = Array.from({ length: 8 }, () => fragments(argumentsOf(2048), 6));
  const sequential = eight.flatMap((pieces, index) => pieces.map((piece) => [index, piece] as [number, string]));
  const interleaved: [number, string][] = [];
  for (let i = 0; i < Math.max(...eight.map((p) => p.length)); i++) eight.forEach((pieces, index) => pieces[i] !== undefined && interleaved.push([index, pieces[i]!]));
  list.push({ name: "8 parallel calls x 2 KB, 6-char fragments", family: "parallel", chunkSize: 1024, body: { framing: "openai", sse: openAIChat([], sequential) } });
  list.push({ name: "8 parallel calls x 2 KB, interleaved", family: "parallel-interleaved", chunkSize: 1024, body: { framing: "openai", sse: openAIChat([], interleaved) } });
  const sizes = quick ? [10_240, 51_200] : [10_240, 51_200, 204_800, 1_048_576];
  for (const framing of ["openai", "anthropic", "openai-responses"] as const) {
    for (const size of sizes) {
      const pieces = fragments(argumentsOf(size), 4);
      const sse = framing === "openai" ? openAIChat([], pieces.map((p) => [0, p])) : framing === "anthropic" ? anthropic([pieces]) : responses([pieces]);
      list.push({ name: `1 call, ${size / 1024} KB, 4-char fragments (${framing})`, family: `one-call-${framing}`, size, chunkSize: 1024, body: { framing, sse } });
    }
  }
  const utf8 = fragments(argumentsOf(51_200), 4);
  list.push({ name: "1 call, 50 KB, 7-byte network chunks splitting UTF-8", family: "utf8", chunkSize: 7, body: { framing: "openai", sse: openAIChat([], utf8.map((p) => [0, p])) } });
  return list;
}

function contenders(framing: Body["framing"]): [string, Contender, "off" | "on"][] {
  const list: [string, Contender, "off" | "on"][] = [
    ["tool-call-stream", ours(false), "off"],
    ["tool-call-stream (partial)", ours(true), "on"],
    ["ai-sdk doStream", aiSdk(false), "off"],
    ["ai-sdk + parsePartialJson", aiSdk(true), "on"],
  ];
  if (framing !== "anthropic") list.push(["openai-node stream", openaiNode, "off"]);
  if (framing === "anthropic") list.push(["anthropic-sdk MessageStream", anthropicSdk, "on"]);
  return list;
}

/** Median milliseconds of one run, after a warm-up, running for about the budget. */
async function measure(contender: Contender, chunks: Uint8Array[], framing: Body["framing"], expected: number): Promise<number> {
  const first = performance.now();
  const calls = await contender(chunks, framing);
  const once = performance.now() - first;
  if (calls !== expected) throw new Error(`saw ${calls} calls, expected ${expected}`);
  if (once > giveUpMs) return once;
  const times: number[] = [];
  const until = performance.now() + budgetMs;
  while (times.length < 3 || (performance.now() < until && times.length < 50)) {
    const start = performance.now();
    await contender(chunks, framing);
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)]!;
}

const results: { scenario: Scenario; name: string; mode: string; ms: number | undefined; note?: string }[] = [];
const gaveUp = new Set<string>();
for (const scenario of scenarios()) {
  const chunks = networkChunks(encoder.encode(scenario.body.sse), scenario.chunkSize);
  const expected = await floor(chunks, scenario.body.framing);
  const floorMs = await measure(floor, chunks, scenario.body.framing, expected);
  results.push({ scenario, name: "floor", mode: "-", ms: floorMs });
  for (const [name, contender, mode] of contenders(scenario.body.framing)) {
    const key = `${scenario.family}/${name}`;
    if (gaveUp.has(key)) {
      results.push({ scenario, name, mode, ms: undefined, note: `not run: over ${giveUpMs / 1000} s at a smaller size` });
      continue;
    }
    try {
      const ms = await measure(contender, chunks, scenario.body.framing, expected);
      if (ms > giveUpMs) gaveUp.add(key);
      results.push({ scenario, name, mode, ms });
    } catch (error) {
      results.push({ scenario, name, mode, ms: undefined, note: `failed: ${(error as Error).message.slice(0, 80)}` });
    }
  }
  process.stderr.write(`measured: ${scenario.name}\n`);
}

// One table per scenario, ratios to that scenario's floor.
const lines: string[] = [];
for (const scenario of new Set(results.map((r) => r.scenario))) {
  const rows = results.filter((r) => r.scenario === scenario);
  const floorMs = rows.find((r) => r.name === "floor")!.ms!;
  lines.push(`\n### ${scenario.name}\n\n| implementation | partial arguments | median ms | x floor |\n| --- | --- | ---: | ---: |`);
  for (const row of rows) lines.push(`| ${row.name} | ${row.mode} | ${row.ms === undefined ? "-" : row.ms.toFixed(2)} | ${row.ms === undefined ? row.note : (row.ms / floorMs).toFixed(2)} |`);
}

// Growth of time with argument size, partial arguments on: slope of log(time) on log(size).
lines.push("\n### Fitted exponent, 10 KB to 1 MB (time ~ size^k)\n\n| implementation | framing | k |\n| --- | --- | ---: |");
for (const framing of ["openai", "anthropic", "openai-responses"]) {
  for (const name of ["floor", "tool-call-stream", "tool-call-stream (partial)"]) {
    const points = results.filter((r) => r.scenario.family === `one-call-${framing}` && r.name === name && r.ms !== undefined);
    if (points.length < 2) continue;
    const xs = points.map((p) => Math.log(p.scenario.size!));
    const ys = points.map((p) => Math.log(p.ms!));
    const mx = xs.reduce((a, b) => a + b) / xs.length;
    const my = ys.reduce((a, b) => a + b) / ys.length;
    const k = xs.reduce((sum, x, i) => sum + (x - mx) * (ys[i]! - my), 0) / xs.reduce((sum, x) => sum + (x - mx) ** 2, 0);
    lines.push(`| ${name} | ${framing} | ${k.toFixed(3)} |`);
  }
}
console.log(`Node ${process.version}, ${new Date().toISOString().slice(0, 10)}${quick ? " (quick run)" : ""}\n${lines.join("\n")}`);
