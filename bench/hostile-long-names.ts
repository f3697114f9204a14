// Member names past 16,383 characters written by a model, call after call: V8 hashes such a name by
// its length alone and keeps every member name it parses (or sets on an object) interned in the
// isolate's one string table until a full collection, so each call's names are compared with all
// those of the calls before. N calls, each of 15 names of 16,400 characters alike but for their ends
// (240 KiB, within the Worker's MAX_ARGUMENTS_LENGTH), distinct across calls, through one
// accumulator each (as one Worker isolate serves request after request); the mean CPU ms of the
// first 10 and of the last 100 calls. Linear work keeps "last / first" near 1. A ratio of one run,
// never a timed assertion. Run: node bench/hostile-long-names.ts   (BENCH_N=calls, default 1600;
// BENCH_BEFORE=<another copy of the repository> beside); then one payload of many such names (below).
import * as current from "../src/index.ts";
import { pushCall } from "./push-call.ts";

const before = process.env["BENCH_BEFORE"];
const trees: [string, typeof current][] = [["after", current]];
if (before) trees.push(["before", (await import(`${before}/src/index.ts`)) as typeof current]);

const cpu = (): number => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};
let id = 0;
/** One call's arguments: 15 names never used before, alike but for their last ten characters. */
const text = (): string =>
  `{${Array.from({ length: 15 }, () => `"${"k".repeat(16_390)}${String(id++).padStart(10, "0")}":1`).join(",")}}`;

interface Row {
  name: string;
  /** One call through `lib`, its arguments `args`. */
  run: (lib: typeof current, args: string) => void;
}
const rows: Row[] = [
  {
    name: "ToolCallAccumulator (JSON.parse)",
    run: (lib, args) => pushCall(new lib.ToolCallAccumulator(() => {}), args),
  },
  {
    name: "ToolCallAccumulator (partialParser)",
    run: (lib, args) =>
      pushCall(new lib.ToolCallAccumulator(() => {}, { partialParser: lib.IncrementalJsonParser }), args),
  },
];

const n = Number(process.env["BENCH_N"] ?? 1600);
console.log("| calls | tree | ms, first 10 | ms, last 100 | last / first | s, all | ends as |");
console.log("| --- | --- | ---: | ---: | ---: | ---: | --- |");
for (const row of rows)
  for (const [tree, lib] of trees) {
    const times: number[] = [];
    let end = "";
    for (let i = 0; i < n; i++) {
      const args = text();
      const start = cpu();
      row.run(lib, args);
      times.push(cpu() - start);
    }
    const probe = new lib.ToolCallAccumulator((event) => {
      if (event.type === "tool-call" || event.type === "invalid-tool-call")
        end = event.type === "tool-call" ? "tool-call" : event.error.code;
    });
    pushCall(probe, text());
    const mean = (list: number[]): number => list.reduce((a, b) => a + b, 0) / list.length;
    const [first, last, all] = [mean(times.slice(0, 10)), mean(times.slice(-100)), times.reduce((a, b) => a + b, 0)];
    console.log(
      `| ${row.name}, ${n} | ${tree} | ${first.toFixed(2)} | ${last.toFixed(2)} | ${(last / first).toFixed(1)} | ${(all / 1000).toFixed(1)} | ${end} |`,
    );
  }

// One payload of m such names (a provider's, read by parseJsonText, which puts a name of its own in
// place of each): the CPU ms per MB at 4m over m, which linear work keeps near 1. Stop 70's scan
// searched each name's escapes in the rest of the text: 510 names (8.2 MB) took 127 ms against 3.4.
const { parseJsonText } = await import("../src/shared/long-member-name.ts");
const payload = (m: number): string =>
  JSON.stringify({ args: Object.fromEntries(Array.from({ length: m }, (_, i) => [`${"k".repeat(16_390)}${i}`, 1])) });
const perMb = (m: number): number => {
  const body = payload(m);
  parseJsonText(body);
  const start = cpu();
  for (let round = 0; round < 5; round++) parseJsonText(body);
  return (cpu() - start) / 5 / (body.length / 1e6);
};
const [small, large] = [perMb(128), perMb(512)];
console.log(`\n| parseJsonText, names | ms per MB at 128 | at 512 | 512 / 128 |\n| --- | ---: | ---: | ---: |`);
console.log(`| one payload | ${small.toFixed(2)} | ${large.toFixed(2)} | ${(large / small).toFixed(2)} |`);

// The scan every payload past 16,385 characters gets before JSON.parse, on an ordinary whole
// response (no such name): its CPU time against JSON.parse's. Stop 70's scan read every string
// (25 to 55 % of the parse); it now skims spans of 16,384 characters: a few percent at most.
const { longMemberName } = await import("../src/shared/long-member-name.ts");
const whole = JSON.stringify({
  content: Array.from({ length: 3_600 }, (_, i) =>
    i % 2
      ? { type: "text", text: `Row ${i}: "quoted" words\nand a line `.repeat(12) }
      : { type: "tool_use", id: `toolu_${i}`, name: "t", input: { rows: [{ k: i, v: "x" }] } },
  ),
});
const timed = (run: () => unknown): number => {
  run();
  const start = cpu();
  for (let round = 0; round < 50; round++) run();
  return (cpu() - start) / 50;
};
const [scan, parse] = [timed(() => longMemberName(whole)), timed(() => JSON.parse(whole))];
console.log(`\n| ordinary response, ${(whole.length / 1e6).toFixed(2)} MB | scan ms | JSON.parse ms | scan / parse |`);
console.log(
  `| --- | ---: | ---: | ---: |\n| longMemberName | ${scan.toFixed(3)} | ${parse.toFixed(2)} | ${((100 * scan) / parse).toFixed(1)} % |`,
);
