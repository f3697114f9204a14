// Focused comparison of tool-call-stream with the floor only, with interleaved repetitions: each
// round runs every contender once on the same input, in rotating order, so that load from other
// processes falls on all of them alike; the figure is the median of the per-round ratios.
// Run: node bench/focus.ts [scenario-substring]   (BENCH_ROUNDS=n, default 15)
import {
  floor,
  floorOfArray,
  ours,
  oursBatched,
  oursChain,
  oursCores,
  oursForAwait,
  type Contender,
} from "./contenders.ts";
import { benchScenarios, scenarioChunks } from "./scenarios.ts";

const rounds = Number(process.env["BENCH_ROUNDS"] ?? 15);
const filter = process.argv[2] ?? "";
const contenders: [string, Contender][] = [
  ["floor", floor],
  ["floor without the body stream", floorOfArray],
  ["tool-call-stream", ours(false)],
  ["for await over streamToolCalls", oursForAwait],
  ["streamToolCallBatches", oursBatched],
  ["the core (ToolCallChain)", oursChain],
  ["pure cores with callbacks", oursCores],
  ["tool-call-stream (partial)", ours(true)],
  ["tool-call-stream (early validation)", ours(false, true)],
  ["tool-call-stream (early + partial)", ours(true, true)],
];

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

for (const scenario of benchScenarios(false)) {
  if (!scenario.name.includes(filter)) continue;
  const chunks = scenarioChunks(scenario);
  const expected = await floor(chunks, scenario.body.framing);
  const times = contenders.map(() => [] as number[]);
  for (const [, contender] of contenders) {
    if ((await contender(chunks, scenario.body.framing)) !== expected) throw new Error("wrong call count");
  }
  for (let round = 0; round < rounds; round++) {
    for (let k = 0; k < contenders.length; k++) {
      const which = (k + round) % contenders.length;
      const start = performance.now();
      await contenders[which]![1](chunks, scenario.body.framing);
      times[which]!.push(performance.now() - start);
    }
  }
  const row = contenders.map(([name], which) => {
    const ratios = times[which]!.map((ms, round) => ms / times[0]![round]!);
    return `${name} ${median(times[which]!).toFixed(2)} ms x${median(ratios).toFixed(2)}`;
  });
  console.log(`${scenario.name}\n  ${row.join("\n  ")}`);
}
