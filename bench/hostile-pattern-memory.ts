// The memory a request's patterns keep: each `pattern` written in a schema is a program of its own
// (12 bytes an instruction, counted repetitions written out, up to 20,000 instructions), built at
// its first run and kept for the request. A schema of many `a{19999}` patterns (about 47 bytes of
// schema each) and calls that run each once: what the request's checks keep, in MB and in bytes
// per byte of the request, through what the Worker runs (checkToolSchema with one PatternBudget,
// then the accumulator with both checks). A figure is one run's, never a timed assertion.
// Run: node --expose-gc bench/hostile-pattern-memory.ts   (BENCH_BEFORE=<another copy of the repository>)
import * as current from "../src/index.ts";

const before = process.env["BENCH_BEFORE"];
const libraries: [string, typeof current][] = [["after", current]];
if (before) libraries.push(["before", (await import(`${before}/src/index.ts`)) as typeof current]);
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error("run with node --expose-gc");

function heap(): number {
  gc!();
  const usage = process.memoryUsage();
  return usage.heapUsed + usage.arrayBuffers;
}

/** A request of `patterns` patterns of 20,000 instructions, and `calls` calls each running 250 of them once. */
function run(lib: typeof current, patterns: number, calls: number): string {
  const properties = Object.fromEntries(
    Array.from({ length: patterns }, (_, i) => [`p${i}`, { type: "string", pattern: `a{${19990 + (i % 9)}}` }]),
  );
  const schema = { type: "object", properties };
  const issues = lib.checkToolSchema(schema, "tools[0].parameters", { patterns: new lib.PatternBudget() });
  const bytes = JSON.stringify(schema).length;
  if (issues.length > 0) return `${bytes} | 400 ${issues[0]!.message.slice(0, 48)}… | - | -`;
  const tools = [{ name: "t", parameters: schema }];
  const start = heap();
  const accumulator = new lib.ToolCallAccumulator(() => {}, {
    validator: lib.toolSchemaValidator(tools),
    earlyValidator: lib.earlySchemaValidator(tools),
  });
  let argumentBytes = 0;
  for (let c = 0; c < calls; c++) {
    const names = Array.from({ length: 250 }, (_, i) => [`p${(c * 250 + i) % patterns}`, "a"]);
    const text = JSON.stringify(Object.fromEntries(names));
    argumentBytes += text.length;
    accumulator.push({ type: "tool-call-chunk", index: c, id: `c${c}`, name: "t", argumentsDelta: text });
  }
  accumulator.push({ type: "finish", rawReason: "tool_calls" });
  accumulator.end();
  const kept = heap() - start;
  return `${bytes + argumentBytes} | checked | ${(kept / 1e6).toFixed(1)} | ${(kept / (bytes + argumentBytes)).toFixed(0)}`;
}

console.log("| tree | patterns | calls | bytes of schema and arguments | outcome | MB kept | bytes kept per byte |");
console.log("| --- | ---: | ---: | ---: | --- | ---: | ---: |");
for (const [tree, lib] of libraries)
  for (const [patterns, calls] of [
    [12, 20],
    [5_000, 20],
  ] as const)
    console.log(`| ${tree} | ${patterns} | ${calls} | ${run(lib, patterns, calls)} |`);
