// A hostile reviewer's schemas, one per 2020-12 keyword family, each at two sizes (n and 4n): the
// request's cost per byte (the tool's schema and the call's arguments) through what the Worker runs
// for it, checkToolSchema at the request (one PatternBudget for it, as the Worker's), then one
// call's two checks as a stream gives them (the accumulator with toolSchemaValidator and
// earlySchemaValidator, the schema a fresh copy, arguments in 64-character fragments or BENCH_FRAGMENT), beside an
// ordinary schema. Linear work keeps µs per byte flat from n to 4n ("4n / n" near 1); a case the
// call's budget stops says validation-budget-exceeded. A figure is a ratio of one run, never a
// timed assertion.
// Run: node bench/hostile-keywords.ts   (BENCH_ROUNDS=n, default 5; BENCH_ONLY=<part of a case name>)
import * as current from "../src/index.ts";
import { type Case, cases as keywordCases, type Schema } from "./hostile-keyword-cases.ts";
import { requestCases } from "./hostile-request-cases.ts";
import { pushCall } from "./push-call.ts";

const cases = [...keywordCases, ...requestCases];

// BENCH_BEFORE=<another copy of the repository>: its figures at 4n beside (the tree before the PatternBudget).
const before = process.env["BENCH_BEFORE"];
const libraries: (typeof current)[] = [current];
if (before) libraries.push((await import(`${before}/src/index.ts`)) as typeof current);

let salt = 0;
/** Characters per fragment of the arguments: BENCH_FRAGMENT, 64 by default (1: the early check's worst). */
const fragment = Number(process.env["BENCH_FRAGMENT"] ?? 64);
function request(c: Case, n: number, schema: Schema, text: string, lib = current): string {
  const parameters = c.fresh ? c.make(n, ++salt).schema : structuredClone(schema);
  const patterns = lib.PatternBudget ? { patterns: new lib.PatternBudget() } : {};
  const issues = lib.checkToolSchema(parameters, "tools[0].parameters", patterns);
  if (issues.length > 0) return `400 ${issues[0]!.message.slice(0, 40)}`;
  const tools = [{ type: "function", function: { name: "t", parameters } }] as current.ToolDefinition[];
  const options = { assertFormats: c.assertFormats };
  let outcome = "";
  const accumulator = new lib.ToolCallAccumulator(
    (event) => {
      if (event.type === "tool-call") outcome = "valid";
      else if (event.type === "invalid-tool-call") outcome = event.error.code;
    },
    { validator: lib.toolSchemaValidator(tools, options), earlyValidator: lib.earlySchemaValidator(tools, options) },
  );
  pushCall(accumulator, text, fragment);
  return outcome;
}

const rounds = Number(process.env["BENCH_ROUNDS"] ?? 5);
const only = process.env["BENCH_ONLY"];
const median = (list: number[]): number => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)]!;

/** µs per byte of one request, the median of `rounds` samples of about 30 ms each; and what came of it. */
function measure(c: Case, n: number, lib: typeof current): { bytes: number; perByte: number; outcome: string } {
  const { schema, args } = c.make(n);
  const text = JSON.stringify(args);
  const bytes = JSON.stringify(schema).length + text.length;
  const outcome = request(c, n, schema, text, lib); // warm
  const start = performance.now();
  request(c, n, schema, text, lib);
  const reps = Math.max(1, Math.ceil(30 / Math.max(performance.now() - start, 0.01)));
  const times: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const t = performance.now();
    for (let i = 0; i < reps; i++) request(c, n, schema, text, lib);
    times.push((performance.now() - t) / reps);
  }
  return { bytes, perByte: (median(times) * 1000) / bytes, outcome };
}

const extra = before ? " before, µs per byte at 4n | before: outcome |" : "";
console.log(
  `| case | bytes at n | µs per byte at n | bytes at 4n | µs per byte at 4n | 4n / n | outcome at 4n |${extra}`,
);
console.log(`| --- | ---: | ---: | ---: | ---: | ---: | --- |${before ? " ---: | --- |" : ""}`);
for (const c of cases.filter((c) => !only || c.name.includes(only))) {
  const [small, large] = [measure(c, c.n, current), measure(c, 4 * c.n, current)];
  const old = libraries[1] ? measure(c, 4 * c.n, libraries[1]) : undefined;
  const cells = [small.bytes, small.perByte.toFixed(3), large.bytes, large.perByte.toFixed(3)];
  const ratio = (large.perByte / small.perByte).toFixed(2);
  console.log(
    `| ${c.name} | ${cells.join(" | ")} | ${ratio} | ${large.outcome} |${old ? ` ${old.perByte.toFixed(3)} | ${old.outcome} |` : ""}`,
  );
}
