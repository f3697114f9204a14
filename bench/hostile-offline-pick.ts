// The offline Worker's pick of a recording (worker/upstream/replay/recording.ts) on a hostile
// schema: every tool the providers' recordings call declared with `propertyNames` under an anyOf of
// 8, a $ref tree 30 deep (exponential in its depth), the prompt holding every recording's keywords,
// so that each recording with calls is a candidate whose calls are checked against it. Per provider,
// ms per pick and µs per byte of the tools and the prompt, medians of interleaved rounds; with
// BENCH_BEFORE, the same through another copy of the repository in the same process.
// Run: [BENCH_BEFORE=/path/to/other/copy] node bench/hostile-offline-pick.ts   (BENCH_ROUNDS=n, default 7)
import * as recording from "../worker/upstream/replay/recording.ts";
import * as providers from "../worker/upstream/providers/index.ts";

type Tree = { pickRecording: typeof recording.pickRecording; upstreamProviders: typeof providers.upstreamProviders };
const before = process.env["BENCH_BEFORE"];
const trees: [string, Tree][] = [["after", { ...recording, ...providers }]];
if (before) {
  const old = (await import(`${before}/worker/upstream/replay/recording.ts`)) as typeof recording;
  const oldProviders = (await import(`${before}/worker/upstream/providers/index.ts`)) as typeof providers;
  trees.unshift(["before", { ...old, ...oldProviders }]);
}

const costly = (): Record<string, unknown> => {
  const $defs: Record<string, unknown> = { n30: { pattern: "^z" } };
  for (let i = 0; i < 30; i++)
    $defs[`n${i}`] = { anyOf: [{ $ref: `#/$defs/n${i + 1}` }, { $ref: `#/$defs/n${i + 1}`, minLength: 0 }] };
  return { type: "object", anyOf: Array.from({ length: 8 }, () => ({ propertyNames: { $ref: "#/$defs/n0" } })), $defs };
};

/** One pick per provider; the time of all of them, and the bytes of their tools and prompts. */
async function picks(tree: Tree): Promise<{ ms: number; bytes: number }> {
  let ms = 0;
  let bytes = 0;
  for (const provider of Object.values(tree.upstreamProviders)) {
    const calling = provider.recordings.filter((r) => r.tools.length > 0);
    const tools = [...new Set(calling.flatMap((r) => r.tools))].map((name) => ({ name, parameters: costly() }));
    const prompt = calling.flatMap((r) => r.keywords).join(" ");
    bytes += JSON.stringify(tools).length + prompt.length;
    const start = performance.now();
    await tree.pickRecording(provider.recordings, prompt, tools, provider.protocol);
    ms += performance.now() - start;
  }
  return { ms, bytes };
}

const rounds = Number(process.env["BENCH_ROUNDS"] ?? 7);
const samples = trees.map(() => [] as number[]);
let bytes = 0;
for (const [, tree] of trees) await picks(tree); // warm: each isolate reads a recording's calls once
for (let round = 0; round < rounds; round++)
  for (const [k, [, tree]] of trees.entries()) {
    const run = await picks(tree);
    samples[k]!.push(run.ms);
    bytes = run.bytes;
  }
const count = Object.keys(providers.upstreamProviders).length;
console.log("| tree | ms per pick | µs per byte of tools and prompt |\n| --- | ---: | ---: |");
for (const [k, [name]] of trees.entries()) {
  const median = [...samples[k]!].sort((a, b) => a - b)[Math.floor(rounds / 2)]! / count;
  console.log(`| ${name} | ${median.toFixed(1)} | ${((median * 1000) / (bytes / count)).toFixed(2)} |`);
}
