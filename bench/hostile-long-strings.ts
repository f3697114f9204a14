// Strings past 16,383 characters, which V8 (Node, Deno, workerd, Chromium) hashes by their length
// alone, so that a Set of n of them of one length compares each with all the others: each check
// that kept a client's or a model's strings in a Set (`enum`, `required`, `dependentRequired`,
// `uniqueItems`) at n strings of 16,400 characters alike but their ends, n and 4n, in ms of CPU
// (user + system, the best of 3) and the steps the check charged; BENCH_BEFORE=<another copy of
// the repository> beside. Linear work keeps "ms at 4n / ms at n" near 4. A ratio of one run,
// never a timed assertion. Run: node bench/hostile-long-strings.ts   (BENCH_N=n, default 100)
import * as current from "../src/index.ts";
import { pushCall } from "./push-call.ts";

const before = process.env["BENCH_BEFORE"];
const trees: [string, typeof current][] = [["after", current]];
if (before) trees.push(["before", (await import(`${before}/src/index.ts`)) as typeof current]);

const long = (i: number): string => "a".repeat(16_394) + String(i).padStart(6, "0");
const range = (n: number): number[] => Array.from({ length: n }, (_, i) => i);
const copy = (value: unknown): unknown => JSON.parse(JSON.stringify(value));
const cpu = (): number => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

interface Row {
  name: string;
  /** What is checked at size n: a schema alone (checkToolSchema) or arguments against one. */
  make: (n: number) => { schema: unknown; args?: unknown };
  /** The arguments through the early check as they stream (the accumulator with earlySchemaValidator), not checkToolArguments. */
  early?: boolean;
}
const rows: Row[] = [
  { name: "checkToolSchema: enum of n", make: (n) => ({ schema: { enum: range(n).map(long) } }) },
  { name: "checkToolSchema: required of n", make: (n) => ({ schema: { required: range(n).map(long) } }) },
  {
    name: "checkToolSchema: dependentRequired of n",
    make: (n) => ({ schema: { dependentRequired: { a: range(n).map(long) } } }),
  },
  {
    name: "checkToolArguments: n items, uniqueItems",
    make: (n) => ({ schema: { uniqueItems: true }, args: range(n).map(long) }),
  },
  {
    name: "checkToolArguments: n objects, uniqueItems",
    make: (n) => ({ schema: { uniqueItems: true }, args: range(n).map((i) => ({ s: long(i) })) }),
  },
  {
    name: "checkToolArguments: n items, each in an enum of n others",
    make: (n) => ({ schema: { items: { enum: range(n).map((i) => long(n + i)) } }, args: range(n).map(long) }),
  },
  {
    name: "earlySchemaValidator: 15 keys, each under an anyOf of 48 objects of n properties",
    early: true,
    make: (n) => ({
      schema: {
        anyOf: range(48).map(() => ({ $ref: "#/$defs/o" })),
        $defs: { o: { type: "object", properties: Object.fromEntries(range(n).map((i) => [long(i), {}])) } },
      },
      args: Object.fromEntries(range(15).map((i) => [long(n + i), 1])),
    }),
  },
];

/** One call's arguments through the early check, in fragments of 4,096 characters. */
function early(lib: typeof current, parameters: unknown, args: unknown): void {
  const tools = [{ type: "function", function: { name: "t", parameters } }] as current.ToolDefinition[];
  const accumulator = new lib.ToolCallAccumulator(() => {}, { earlyValidator: lib.earlySchemaValidator(tools) });
  pushCall(accumulator, JSON.stringify(args));
}

/** The best of 3 runs' CPU ms, and the steps charged (arguments) or the issues (a schema). */
function measure(lib: typeof current, row: Row, n: number): [ms: number, steps: number] {
  const { schema, args } = row.make(n);
  let [best, steps] = [Number.POSITIVE_INFINITY, 0];
  for (let k = 0; k < 3; k++) {
    const [s, a] = [copy(schema), copy(args ?? null)]; // parsed, as a request's are
    const budget = new lib.CheckBudget(1e9);
    const start = cpu();
    if (row.early) early(lib, s, args);
    else if (args === undefined) lib.checkToolSchema(s, "p", { patterns: new lib.PatternBudget() });
    else lib.checkToolArguments(a as current.JsonValue, s as current.ToolSchema, { budget });
    best = Math.min(best, cpu() - start);
    steps = budget.spent;
  }
  return [best, steps];
}

const n = Number(process.env["BENCH_N"] ?? 100);
console.log("| check | tree | MB at n | ms at n | ms at 4n | 4n / n | steps at 4n |");
console.log("| --- | --- | ---: | ---: | ---: | ---: | ---: |");
for (const row of rows)
  for (const [tree, lib] of trees) {
    const [[small], [large, steps]] = [measure(lib, row, n), measure(lib, row, 4 * n)];
    const mb = (JSON.stringify(row.make(n)).length / 1e6).toFixed(1);
    const cells = [mb, small.toFixed(1), large.toFixed(1), (large / small).toFixed(1), steps || "-"];
    console.log(`| ${row.name} | ${tree} | ${cells.join(" | ")} |`);
  }
