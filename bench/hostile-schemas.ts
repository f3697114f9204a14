// The schemas of issue 33 that hid quadratic or exponential work in a keyword (enum, the early
// check's string enum, uniqueItems under anyOf, $ref spellings, propertyNames under anyOf of a
// $ref tree, multipleOf), through one call's two checks as a stream gives them (the accumulator
// with earlySchemaValidator and toolSchemaValidator, arguments in fragments), as cost per byte of
// arguments, beside an ordinary schema; with BENCH_BEFORE, the same cases through another copy of
// the repository in the same process (the tree before the work budget), so a figure is a ratio of
// one run, never a timed assertion. Sizes are kept where the tree before takes about a second.
// Run: [BENCH_BEFORE=/path/to/other/copy] node bench/hostile-schemas.ts   (BENCH_ROUNDS=n, default 5)
import * as current from "../src/index.ts";

const before = process.env["BENCH_BEFORE"];
const libraries: [string, typeof current][] = [["after", current]];
if (before) libraries.unshift(["before", (await import(`${before}/src/index.ts`)) as typeof current]);

interface Case {
  name: string;
  schema: current.ToolSchema;
  text: string;
  /** Characters per fragment. */
  fragment: number;
}

const values = (n: number): string[] => Array.from({ length: n }, (_, i) => `value-${i}`);
const defs = (depth: number, leaf: current.ToolSchema): Record<string, current.ToolSchema> => {
  const out: Record<string, current.ToolSchema> = { [`n${depth}`]: leaf };
  for (let i = 0; i < depth; i++)
    out[`n${i}`] = { anyOf: [{ $ref: `#/$defs/n${i + 1}` }, { $ref: `#/$defs/n${i + 1}`, minLength: 0 }] };
  return out;
};
const spellings = (n: number): Record<string, current.ToolSchema> => {
  const name = "abcdefghijkl";
  return Object.fromEntries(
    Array.from({ length: n }, (_, mask) => {
      const spelled = [...name].map((c, i) => (mask & (1 << i) ? `%${c.charCodeAt(0).toString(16)}` : c)).join("");
      return [`p${mask}`, { $ref: `#/$defs/${spelled}` }];
    }),
  );
};

const cases: Case[] = [
  {
    name: "enum of 30,000 strings, 3,000 items (valid)",
    schema: { type: "object", properties: { v: { type: "array", items: { enum: values(30_000) } } } },
    text: JSON.stringify({ v: values(3_000) }),
    fragment: 16,
  },
  {
    name: "string enum of 2,000 sharing 100 characters, 2,000 items in 8-character fragments (valid)",
    schema: {
      type: "object",
      properties: {
        v: { type: "array", items: { enum: values(2_000).map((value) => `${"x".repeat(100)}${value}`) } },
      },
    },
    text: JSON.stringify({ v: values(2_000).map((value) => `${"x".repeat(100)}${value}`) }),
    fragment: 8,
  },
  {
    name: "uniqueItems under anyOf of 63 branches, 5,000 objects",
    schema: {
      type: "object",
      properties: {
        v: {
          anyOf: Array.from({ length: 63 }, () => ({ type: "array", uniqueItems: true, items: { type: "string" } })),
        },
      },
    } as current.ToolSchema,
    text: JSON.stringify({ v: Array.from({ length: 5_000 }, (_, n) => ({ n })) }),
    fragment: 64,
  },
  {
    name: "4,000 spellings of one $ref to a 2,000-value enum (valid)",
    schema: { type: "object", properties: spellings(4_000), $defs: { abcdefghijkl: { enum: values(2_000) } } },
    text: JSON.stringify({ p0: "value-7", p3999: "value-1999" }),
    fragment: 16,
  },
  {
    name: "propertyNames under anyOf of 8, a $ref tree 12 deep, 5 keys",
    schema: {
      type: "object",
      anyOf: Array.from({ length: 8 }, () => ({ propertyNames: { $ref: "#/$defs/n0" } })),
      $defs: defs(12, { pattern: "^z" }),
    },
    text: JSON.stringify({ city: "Tokyo", unit: "c", days: 3, lang: "ja", mode: "x" }),
    fragment: 8,
  },
  {
    name: "multipleOf 1e-300, 1e10 (valid)",
    schema: { type: "object", properties: { n: { multipleOf: 1e-300 } } },
    text: '{"n": 1e10}',
    fragment: 4,
  },
  {
    name: "ordinary: 20 objects of a typical tool schema",
    schema: {
      type: "object",
      properties: {
        items: {
          type: "array",
          items: {
            type: "object",
            properties: {
              id: { type: "string", maxLength: 64 },
              unit: { enum: ["celsius", "fahrenheit"] },
              days: { type: "integer", minimum: 1, maximum: 14 },
            },
            required: ["id", "unit"],
            additionalProperties: false,
          },
        },
      },
    },
    text: JSON.stringify({
      items: Array.from({ length: 20 }, (_, i) => ({ id: `city_${i}`, unit: "celsius", days: 3 })),
    }),
    fragment: 16,
  },
];

/**
 * One call through the accumulator with both checks, its arguments in fragments of `c.fragment`;
 * the schema a fresh copy, so that it is compiled as each request compiles it.
 */
function check(library: typeof current, c: Case): string {
  const parameters = structuredClone(c.schema);
  const tools = [{ type: "function", function: { name: "t", parameters } }] as current.ToolDefinition[];
  let outcome = "";
  const accumulator = new library.ToolCallAccumulator(
    (event) => {
      if (event.type === "tool-call") outcome = "valid";
      else if (event.type === "invalid-tool-call") outcome = event.error.code;
      else if (event.type === "tool-call-violation" && outcome === "") outcome = "violation, ";
    },
    { validator: library.toolSchemaValidator(tools), earlyValidator: library.earlySchemaValidator(tools) },
  );
  for (let at = 0; at < c.text.length; at += c.fragment)
    accumulator.push({
      type: "tool-call-chunk",
      index: 0,
      argumentsDelta: c.text.slice(at, at + c.fragment),
      ...(at === 0 ? { id: "c0", name: "t" } : {}),
    });
  accumulator.push({ type: "finish", rawReason: "tool_calls" });
  accumulator.end();
  return outcome;
}

const rounds = Number(process.env["BENCH_ROUNDS"] ?? 5);
const median = (list: number[]): number => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)]!;
const names = libraries.map(([name]) => name);
console.log(
  `| case | bytes | ${names.map((name) => `${name}, µs per byte`).join(" | ")} |${before ? " before / after |" : ""} ${names.map((name) => `${name}: outcome`).join(" | ")} |`,
);
console.log(
  `| --- | ---: |${names.map(() => " ---: |").join("")}${before ? " ---: |" : ""}${names.map(() => " --- |").join("")}`,
);
for (const c of cases) {
  const outcomes = libraries.map(([, library]) => check(library, c)); // warmed
  // Calls per sample: enough for about 30 ms of the faster runs, one for a call that takes longer.
  const reps = libraries.map(([, library]) => {
    const start = performance.now();
    check(library, c);
    return Math.max(1, Math.ceil(30 / Math.max(performance.now() - start, 0.01)));
  });
  const times = libraries.map(() => [] as number[]);
  for (let round = 0; round < rounds; round++)
    for (const [k, [, library]] of libraries.entries()) {
      const start = performance.now();
      for (let i = 0; i < reps[k]!; i++) check(library, c);
      times[k]!.push((performance.now() - start) / reps[k]!);
    }
  const perByte = times.map((list) => (median(list) * 1000) / c.text.length);
  const ratio = before ? ` ${(perByte[0]! / perByte[1]!).toFixed(1)} |` : "";
  console.log(
    `| ${c.name} | ${c.text.length} | ${perByte.map((us) => us.toFixed(3)).join(" | ")} |${ratio} ${outcomes.join(" | ")} |`,
  );
}
