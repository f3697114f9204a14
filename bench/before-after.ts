// streamToolCalls of this tree beside another copy of the repository's, in one process, in
// interleaved rounds with the floor and this tree's ToolCallChain: what a change gained, measured
// in the same conditions. Ratios are medians of the per-round ratios.
// Run: BENCH_BEFORE=/path/to/other/copy node bench/before-after.ts [scenario-substring]   (BENCH_ROUNDS=n, default 15)
import { floor, oursChain, type Contender } from "./contenders.ts";
import { benchScenarios, scenarioChunks } from "./scenarios.ts";
import { streamToolCalls } from "../src/index.ts";
import { streamOf } from "./stream-of.ts";

const before = process.env["BENCH_BEFORE"];
if (!before) throw new Error("BENCH_BEFORE=<another copy of the repository> is required");
const old = (await import(`${before}/src/index.ts`)) as { streamToolCalls: typeof streamToolCalls };

/** A streamToolCalls read to the end (the arguments limit by its name since the rename: the chain refuses an option it does not know). */
const reading =
  (run: typeof streamToolCalls): Contender =>
  async (chunks, framing) => {
    let calls = 0;
    const limits = { maxArgumentsLength: 64 * 1024 * 1024 };
    const reader = run(streamOf(chunks), { provider: framing, ...limits }).getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return calls;
      if (value.type === "tool-call") calls++;
    }
  };

const contenders: Contender[] = [floor, reading(old.streamToolCalls), reading(streamToolCalls), oursChain];
const rounds = Number(process.env["BENCH_ROUNDS"] ?? 15);
const filter = process.argv[2] ?? "";
const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

console.log(
  "| scenario | before, x floor | after, x floor | after / before | ToolCallChain, x floor | floor ms |\n| --- | ---: | ---: | ---: | ---: | ---: |",
);
for (const scenario of benchScenarios(true)) {
  // The 7-byte bodies take seconds a round: run them by name.
  if (!scenario.name.includes(filter) || (filter === "" && scenario.name.includes("7-byte"))) continue;
  const chunks = scenarioChunks(scenario);
  const times = contenders.map(() => [] as number[]);
  for (const contender of contenders) await contender(chunks, scenario.body.framing);
  for (let round = 0; round < rounds; round++)
    for (let k = 0; k < contenders.length; k++) {
      const which = (k + round) % contenders.length;
      const start = performance.now();
      await contenders[which]!(chunks, scenario.body.framing);
      times[which]!.push(performance.now() - start);
    }
  const ratio = (a: number, b: number): string => median(times[a]!.map((ms, r) => ms / times[b]![r]!)).toFixed(2);
  console.log(
    `| ${scenario.name} | ${ratio(1, 0)} | ${ratio(2, 0)} | ${ratio(2, 1)} | ${ratio(3, 0)} | ${median(times[0]!).toFixed(2)} |`,
  );
}
