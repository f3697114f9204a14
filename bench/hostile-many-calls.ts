// A response of many tiny calls against a costly schema (`propertyNames` under an anyOf of 8, a
// $ref tree 30 deep: exponential in its depth), through the accumulator with both checks (the
// early one, which no response pool bounds, and the final one), each call `{"a":1}` in one
// fragment: ms per response and µs per byte of the calls' arguments, medians of interleaved
// rounds; with BENCH_BEFORE, the same through another copy of the repository in the same process.
// Run: [BENCH_BEFORE=/path/to/other/copy] node bench/hostile-many-calls.ts   (BENCH_ROUNDS=n, default 5)
import * as current from "../src/index.ts";

const before = process.env["BENCH_BEFORE"];
const trees: [string, typeof current][] = [["after", current]];
if (before) trees.unshift(["before", (await import(`${before}/src/index.ts`)) as typeof current]);

const $defs: Record<string, unknown> = { n30: { pattern: "^z" } };
for (let i = 0; i < 30; i++)
  $defs[`n${i}`] = { anyOf: [{ $ref: `#/$defs/n${i + 1}` }, { $ref: `#/$defs/n${i + 1}`, minLength: 0 }] };
const costly = {
  type: "object",
  anyOf: Array.from({ length: 8 }, () => ({ propertyNames: { $ref: "#/$defs/n0" } })),
  $defs,
};
const ARGS = '{"a":1}';

/** One response of `calls` calls; the time it took, and how its calls ended. */
function response(library: typeof current, calls: number): { ms: number; outcome: string } {
  const tools = [{ type: "function", function: { name: "t", parameters: structuredClone(costly) } }];
  const ends = new Map<string, number>();
  const end = (what: string) => ends.set(what, (ends.get(what) ?? 0) + 1);
  const accumulator = new library.ToolCallAccumulator(
    (event) => {
      if (event.type === "tool-call") end("valid");
      else if (event.type === "invalid-tool-call") end(event.error.code);
      else if (event.type === "error") end(event.error.code);
    },
    {
      validator: library.toolSchemaValidator(tools as current.ToolDefinition[]),
      earlyValidator: library.earlySchemaValidator(tools as current.ToolDefinition[]),
    },
  );
  const start = performance.now();
  for (let i = 0; i < calls; i++)
    accumulator.push({ type: "tool-call-chunk", index: i, id: `c${i}`, name: "t", argumentsDelta: ARGS });
  accumulator.push({ type: "finish", rawReason: "tool_calls" });
  accumulator.end();
  return { ms: performance.now() - start, outcome: [...ends].map(([what, n]) => `${n} ${what}`).join(", ") };
}

const rounds = Number(process.env["BENCH_ROUNDS"] ?? 5);
console.log("| calls | tree | ms per response | µs per byte of arguments | how the calls ended |");
console.log("| ---: | --- | ---: | ---: | --- |");
for (const calls of [100, 1_024]) {
  const samples = trees.map(() => [] as number[]);
  const outcomes = trees.map(([, library]) => response(library, calls).outcome); // warm
  for (let round = 0; round < rounds; round++)
    for (const [k, [, library]] of trees.entries()) samples[k]!.push(response(library, calls).ms);
  for (const [k, [name]] of trees.entries()) {
    const median = [...samples[k]!].sort((a, b) => a - b)[Math.floor(rounds / 2)]!;
    const perByte = (median * 1000) / (calls * ARGS.length);
    console.log(`| ${calls} | ${name} | ${median.toFixed(1)} | ${perByte.toFixed(2)} | ${outcomes[k]} |`);
  }
}
