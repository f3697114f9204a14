// checkToolSchema alone on big hostile request bodies (0.3-0.9 MB of tool schemas): what the
// Worker does for every request before any provider is called. With BENCH_BEFORE, the same
// bodies through another copy of the repository in the same process, interleaved round by round;
// a figure is the best of the rounds and a ratio of one run, never a timed assertion.
// Run: [BENCH_BEFORE=/path/to/other/copy] node --expose-gc bench/hostile-tool-schemas.ts   (BENCH_ROUNDS=n, default 15; BENCH_ONLY=<part of a name>)
import * as current from "../src/index.ts";

type Schema = Record<string, unknown>;
const range = (n: number) => Array.from({ length: n }, (_, i) => i);

/** Each body: a list of tool schemas, each checked as the Worker checks a request's. */
const bodies: [string, () => Schema[]][] = [
  [
    "8,000 distinct $ids with $refs by URI",
    () => [
      {
        $id: "https://example.com/root.json",
        type: "object",
        properties: Object.fromEntries(range(8_000).map((i) => [`p${i}`, { $ref: `https://example.com/d/${i}.json` }])),
        $defs: Object.fromEntries(range(8_000).map((i) => [`d${i}`, { $id: `d/${i}.json`, type: "string" }])),
      },
    ],
  ],
  [
    "600 ordinary nested object tools",
    () =>
      range(600).map((t) => ({
        type: "object",
        properties: {
          city: { type: "string", description: `the city ${t}`, minLength: 1 },
          unit: { enum: ["celsius", "fahrenheit"] },
          when: { type: "object", properties: { day: { type: "integer", minimum: 0 }, hour: { type: "number" } } },
          tags: { type: "array", items: { type: "string", pattern: "^[a-z]+$" }, maxItems: 8 },
        },
        required: ["city"],
        additionalProperties: false,
      })),
  ],
  [
    "relative $ids with anchors, $refs by name",
    () => [
      {
        $id: "https://example.com/schemas/root.json",
        type: "object",
        properties: Object.fromEntries(range(4_000).map((i) => [`p${i}`, { $ref: `r${i}.json#a${i}` }])),
        $defs: Object.fromEntries(
          range(4_000).map((i) => [
            `d${i}`,
            { $id: `r${i}.json`, $defs: { x: { $anchor: `a${i}`, type: "integer" } } },
          ]),
        ),
      },
    ],
  ],
  [
    "20,000 small schemas, $schema 2020-12 declared",
    () =>
      range(4).map((t) => ({
        $schema: "https://json-schema.org/draft/2020-12/schema",
        type: "object",
        properties: Object.fromEntries(
          range(5_000).map((i) => [`p${i}`, { type: "integer", minimum: t, maximum: i, description: "x" }]),
        ),
      })),
  ],
  [
    "20,000 small schemas, no $schema",
    () =>
      range(4).map((t) => ({
        type: "object",
        properties: Object.fromEntries(
          range(5_000).map((i) => [`p${i}`, { type: "integer", minimum: t, maximum: i, description: "x" }]),
        ),
      })),
  ],
  [
    "draft 7: $refs by URI to $ids under a declared $schema",
    () => [
      {
        $schema: "http://json-schema.org/draft-07/schema#",
        $id: "https://example.com/root.json",
        type: "object",
        properties: Object.fromEntries(range(6_000).map((i) => [`p${i}`, { $ref: `d${i}.json` }])),
        definitions: Object.fromEntries(range(6_000).map((i) => [`d${i}`, { $id: `d${i}.json`, type: "string" }])),
      },
    ],
  ],
];

const before = process.env["BENCH_BEFORE"];
const libraries: [string, typeof current][] = [["after", current]];
if (before) libraries.unshift(["before", (await import(`${before}/src/index.ts`)) as typeof current]);
const rounds = Number(process.env["BENCH_ROUNDS"] ?? 15);
const only = process.env["BENCH_ONLY"];

/** One request: fresh copies of the schemas (the compiled forms are kept per object), each checked. */
function request(lib: typeof current, schemas: Schema[]): string {
  const patterns = new lib.PatternBudget();
  const issues = schemas.flatMap((schema, i) => lib.checkToolSchema(schema, `tools[${i}].parameters`, { patterns }));
  return issues.length ? `${issues.length} issues: ${issues[0]!.message.slice(0, 50)}` : "accepted";
}

const heads = libraries.map(([name]) => `${name} ms (best)`);
console.log(`| body | KB | ${heads.join(" | ")} |${before ? " after / before |" : ""} outcome |`);
console.log(`| --- | ---: | ${heads.map(() => "---:").join(" | ")} |${before ? " ---: |" : ""} --- |`);
for (const [name, make] of bodies.filter(([name]) => !only || name.includes(only))) {
  const kb = JSON.stringify(make()).length / 1024;
  const text = JSON.stringify(make());
  const best = libraries.map(() => Infinity);
  const outcomes = libraries.map(([, lib]) => request(lib, JSON.parse(text)));
  for (let round = 0; round < rounds; round++)
    for (let k = 0; k < libraries.length; k++) {
      const which = (k + round) % libraries.length;
      const schemas = JSON.parse(text) as Schema[];
      // A collection first, so that neither side pays for the other's garbage (node --expose-gc).
      (globalThis as { gc?: () => void }).gc?.();
      const start = performance.now();
      request(libraries[which]![1], schemas);
      best[which] = Math.min(best[which]!, performance.now() - start);
    }
  const ratio = before ? ` ${(best[1]! / best[0]!).toFixed(2)} |` : "";
  const same = outcomes.every((o) => o === outcomes[0]) ? outcomes[0] : outcomes.join(" / ");
  console.log(`| ${name} | ${kb.toFixed(0)} | ${best.map((ms) => ms.toFixed(1)).join(" | ")} |${ratio} ${same} |`);
}
