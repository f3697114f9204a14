// The patterns of issue 33 that pinned a check for seconds, through both schema checks (the final
// `checkToolArguments` and the early `SchemaWatcher` on the incremental parser), as cost per byte
// of arguments, beside an ordinary pattern on ordinary arguments; with BENCH_BEFORE, the same
// cases through another copy of the repository in the same process (the backtracking RegExp
// before the linear matcher), so a figure is a ratio of one run, never a timed assertion.
// Run: [BENCH_BEFORE=/path/to/other/copy] node bench/hostile-patterns.ts   (BENCH_ROUNDS=n, default 7)
import * as current from "../src/index.ts";
import { SchemaWatcher } from "../src/schema/schema-watcher.ts";

type Library = {
  checkToolArguments: typeof current.checkToolArguments;
  IncrementalJsonParser: typeof current.IncrementalJsonParser;
  SchemaWatcher: typeof SchemaWatcher;
};
const before = process.env["BENCH_BEFORE"];
const libraries: [string, Library][] = [["after", { ...current, SchemaWatcher }]];
if (before) {
  const index = (await import(`${before}/src/index.ts`)) as typeof current;
  const watcher = (await import(`${before}/src/schema/schema-watcher.ts`)) as { SchemaWatcher: typeof SchemaWatcher };
  libraries.unshift(["before", { ...index, SchemaWatcher: watcher.SchemaWatcher }]);
}

interface Case {
  name: string;
  schema: current.ToolSchema;
  args: current.JsonValue;
}
const redos = (n: number): Case => ({
  name: `pattern ^(a+)+$, ${n} a's and a !`,
  schema: { type: "object", properties: { code: { type: "string", pattern: "^(a+)+$" } } },
  args: { code: `${"a".repeat(n)}!` },
});
const optional = (k: number): Case => ({
  name: `patternProperties ^(?:.?){${k}}(?:.?){${k}}$x, key country`,
  schema: { type: "object", patternProperties: { [`^(?:.?){${k}}(?:.?){${k}}$x`]: { type: "string" } } },
  args: { country: "Japan" },
});
const cases: Case[] = [
  redos(16),
  redos(20),
  redos(22),
  redos(10_000),
  optional(8),
  optional(10),
  optional(12),
  {
    name: "ordinary: ^[a-z0-9_]{1,64}$ and \\p{L} on 20 short strings",
    schema: {
      type: "object",
      properties: {
        items: {
          type: "array",
          items: {
            type: "object",
            properties: { id: { pattern: "^[a-z0-9_]{1,64}$" }, city: { pattern: "^\\p{L}[\\p{L} '-]*$" } },
          },
        },
      },
    },
    args: { items: Array.from({ length: 20 }, (_, i) => ({ id: `user_${i}_name`, city: "São Paulo" })) },
  },
];

/** Both checks of one call: the final one, and the early one fed the whole text. */
function check(library: Library, c: Case, text: string): void {
  library.checkToolArguments(c.args, c.schema);
  const watcher = new library.SchemaWatcher(c.schema);
  new library.IncrementalJsonParser({ listener: watcher }).feed(text);
}

const rounds = Number(process.env["BENCH_ROUNDS"] ?? 7);
const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const header = libraries.map(([name]) => `${name}, µs per byte`).join(" | ");
console.log(
  `| case | bytes | ${header} |${before ? " before / after |" : ""}\n| --- | ---: |${libraries.map(() => " ---: |").join("")}${before ? " ---: |" : ""}`,
);
for (const c of cases) {
  const text = JSON.stringify(c.args);
  const times = libraries.map(() => [] as number[]);
  // The backtracking engine doubles with each byte: past 22 a's, one round of it takes seconds.
  const skip = (name: string): boolean => name === "before" && /10000 a's|10,000/.test(c.name);
  for (const [name, library] of libraries) if (!skip(name)) check(library, c, text); // compiled, warmed
  for (let round = 0; round < rounds; round++)
    for (const [k, [name, library]] of libraries.entries()) {
      if (skip(name)) continue;
      const start = performance.now();
      check(library, c, text);
      times[k]!.push(performance.now() - start);
    }
  const perByte = times.map((list) => (list.length ? (median(list) * 1000) / text.length : Number.NaN));
  const cells = perByte.map((us) => (Number.isNaN(us) ? "(not run)" : us.toFixed(3))).join(" | ");
  const ratio = before ? ` ${Number.isNaN(perByte[0]!) ? "-" : (perByte[0]! / perByte[1]!).toFixed(1)} |` : "";
  console.log(`| ${c.name} | ${text.length} | ${cells} |${ratio}`);
}
