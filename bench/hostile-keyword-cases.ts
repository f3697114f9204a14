// The cases of bench/hostile-keywords.ts: a hostile reviewer's schema and arguments per 2020-12
// keyword family, each made at a size n, beside an ordinary tool schema.

export type Schema = Record<string, unknown>;
export interface Case {
  name: string;
  /** The schema and the arguments at size `n`; `salt` differs per request where `fresh`. */
  make: (n: number, salt?: number) => { schema: Schema; args: unknown };
  /** Each request a schema of its own (a runtime reads one pattern source once, then keeps it). */
  fresh?: boolean;
  n: number;
  assertFormats?: boolean;
}

const range = (n: number) => Array.from({ length: n }, (_, i) => i);
const deep = (depth: number, leaf: unknown): unknown => {
  let value = leaf;
  for (let i = 0; i < depth; i++) value = { k: value, [`v${i}`]: [i, `${i}`] };
  return value;
};
const nestAll = (depth: number, key: "allOf" | "anyOf" | "oneOf", leaf: Schema): Schema => {
  let schema = leaf;
  for (let i = 0; i < depth; i++) schema = { [key]: [schema, { properties: { [`p${i}`]: { type: "integer" } } }] };
  return schema;
};
/** A tool's parameters that take a list of `item`s. */
const listOf = (item: Schema): Schema => ({ type: "object", properties: { items: { type: "array", items: item } } });
const props = ["L", "Lu", "Ll", "N", "Alphabetic", "Assigned", "ID_Continue", "Grapheme_Base"];

export const cases: Case[] = [
  {
    name: "ordinary: a typical tool schema, n objects",
    n: 200,
    make: (n) => ({
      schema: listOf({
        type: "object",
        properties: {
          id: { type: "string", maxLength: 64, pattern: "^[a-z0-9_]+$" },
          unit: { enum: ["celsius", "fahrenheit"] },
          days: { type: "integer", minimum: 1, maximum: 14 },
        },
        required: ["id", "unit"],
        additionalProperties: false,
      }),
      args: { items: range(n).map((i) => ({ id: `city_${i}`, unit: "celsius", days: 3 })) },
    }),
  },
  {
    name: "pattern: n/10 patterns of 16 distinct \\p{...} escapes (refused past 64)",
    n: 600,
    fresh: true,
    make: (n, salt = 0) => ({
      schema: {
        type: "object",
        properties: Object.fromEntries(
          range(n / 10).map((i) => [
            `k${i}`,
            {
              pattern: `^${range(16)
                .map((j) => `[^\\p{${props[j % 8]}}\\P{${props[(i + j) % 8]}}]`)
                .join("")}${i}x${salt}`,
            },
          ]),
        ),
      },
      args: {},
    }),
  },
  {
    name: "pattern: n patterns of 100 distinct classes, a 2-character value each",
    n: 50,
    fresh: true,
    make: (n, salt = 0) => ({
      schema: {
        type: "object",
        properties: Object.fromEntries(
          range(n).map((i) => [
            `k${i}`,
            {
              pattern: range(100)
                .map((j) => `[${(salt * 1e6 + i * 100 + j).toString(36)}]`)
                .join("|"),
            },
          ]),
        ),
      },
      args: Object.fromEntries(range(n).map((i) => [`k${i}`, "éé"])),
    }),
  },
  {
    name: "patternProperties: n patterns x n keys",
    n: 100,
    make: (n) => ({
      schema: {
        type: "object",
        patternProperties: Object.fromEntries(range(n).map((i) => [`^k${i}[a-z]*$`, { type: "integer" }])),
      },
      args: Object.fromEntries(range(n).map((i) => [`k${i}abcdefgh`, i])),
    }),
  },
  {
    name: "propertyNames: a pattern and maxLength under anyOf of 8, n keys",
    n: 500,
    make: (n) => ({
      schema: {
        type: "object",
        propertyNames: { anyOf: range(8).map((i) => ({ pattern: `^[a-z]{1,40}${i}$`, maxLength: 64 })) },
      },
      args: Object.fromEntries(range(n).map((i) => [`key${"x".repeat(20)}${i % 10}`.slice(0, 60) + i, i])),
    }),
  },
  {
    name: "unevaluatedProperties:false under allOf/anyOf/oneOf 30 deep, n keys",
    n: 500,
    make: (n) => ({
      schema: {
        type: "object",
        allOf: [nestAll(10, "allOf", {}), nestAll(10, "anyOf", {}), nestAll(10, "oneOf", {})],
        unevaluatedProperties: false,
      },
      args: Object.fromEntries(range(n).map((i) => [`p${i % 10}x${i}`, i])),
    }),
  },
  {
    name: "unevaluatedItems:false under oneOf of 64 prefixItems, n items",
    n: 500,
    make: (n) => ({
      schema: {
        type: "array",
        oneOf: range(64).map((i) => ({ prefixItems: range(1 + (i % 8)).map(() => ({})) })),
        unevaluatedItems: false,
      },
      args: range(n),
    }),
  },
  {
    name: "dependentRequired/dependentSchemas: n triggers each needing n/10 keys, n/10 objects with all",
    n: 200,
    make: (n) => {
      const keys = range(n).map((i) => `k${i}`);
      return {
        schema: {
          type: "array",
          items: {
            type: "object",
            dependentRequired: Object.fromEntries(keys.map((k, i) => [k, keys.slice(i % 10, (i % 10) + n / 10)])),
            dependentSchemas: Object.fromEntries(
              keys.slice(0, n / 10).map((k) => [k, { required: keys.slice(0, 10) }]),
            ),
          },
        },
        args: range(n / 10).map(() => Object.fromEntries(keys.map((k) => [k, 1]))),
      };
    },
  },
  {
    name: "contains in contains in contains, minContains, arrays n x 8 x 8",
    n: 50,
    make: (n) => ({
      schema: {
        type: "array",
        contains: { contains: { contains: { const: 7 }, minContains: 2 }, minContains: 2 },
        minContains: n,
      },
      args: range(n).map(() => range(8).map(() => range(8))),
    }),
  },
  {
    name: "$dynamicRef/$dynamicAnchor/$anchor recursion, a tree of n nodes",
    n: 500,
    make: (n) => ({
      schema: {
        $dynamicAnchor: "node",
        $anchor: "top",
        type: "object",
        properties: { children: { type: "array", items: { $dynamicRef: "#node" } } },
      },
      args: { children: range(n).map(() => ({ children: [{ children: [] }] })) },
    }),
  },
  {
    name: "if/then/else chain: allOf of n/4 ifs, n/4 objects",
    n: 400,
    make: (n) => ({
      schema: {
        type: "array",
        items: {
          allOf: range(n / 4).map((i) => ({
            if: { properties: { kind: { const: `k${i}` } } },
            then: { required: ["a"] },
            else: { properties: { b: { type: "integer" } } },
          })),
        },
      },
      args: range(n / 4).map((i) => ({ kind: `k${i}`, a: 1, b: 2 })),
    }),
  },
  {
    name: "$ref: n refs of a 100-segment pointer into $defs",
    n: 500,
    make: (n) => {
      let target: Schema = { type: "string" };
      for (let i = 0; i < 100; i++) target = { x: target };
      const ref = `#/$defs/root${"/x".repeat(100)}`;
      return {
        schema: {
          $defs: { root: target },
          properties: Object.fromEntries(range(n).map((i) => [`p${i}`, { $ref: ref }])),
        },
        args: Object.fromEntries(range(n).map((i) => [`p${i}`, `${i}`])),
      };
    },
  },
  {
    name: "const/enum: a value 30 deep (n/10 wide) against n/10 items, enum of 4 near copies",
    n: 100,
    make: (n) => {
      const big = range(n / 10).map((i) => deep(30, i));
      return {
        schema: { type: "array", items: { anyOf: [{ const: big }, { enum: range(4).map((i) => [...big, i]) }] } },
        args: range(n / 10).map(() => big),
      };
    },
  },
  {
    name: "uniqueItems: n nested arrays 20 deep, all different at the bottom, under anyOf of 8",
    n: 300,
    make: (n) => ({
      schema: { anyOf: range(8).map((i) => ({ type: "array", uniqueItems: true, minItems: i })) },
      args: range(n).map((i) => deep(20, i)),
    }),
  },
  {
    name: "format (asserted): uri, date-time, email, ipv6 on n long or near-miss strings",
    n: 200,
    assertFormats: true,
    make: (n) => ({
      schema: {
        type: "array",
        items: { anyOf: ["uri", "date-time", "email", "ipv6", "uuid", "ipv4"].map((format) => ({ format })) },
      },
      args: range(n).map((i) => `${"a".repeat(200)}${i}@${"b".repeat(60)}.${"c".repeat(30)}!`),
    }),
  },
  {
    name: "multipleOf: allOf of n/2 decimal factors, n huge and tiny numbers",
    n: 200,
    make: (n) => ({
      schema: { type: "array", items: { allOf: range(n / 2).map((i) => ({ multipleOf: 1e-300 * (1 + i / 1000) })) } },
      args: range(n).map((i) => (i % 2 ? 1.7976931348623157e308 / (i + 1) : 5e-324 * (i + 1))),
    }),
  },
  {
    name: "minLength/maxLength in code points: n KB of astral text under anyOf of 32",
    n: 20,
    make: (n) => ({
      schema: { anyOf: range(32).map((i) => ({ type: "string", minLength: 1024 * n + i, maxLength: 1 })) },
      args: "😀".repeat(512 * n),
    }),
  },
  {
    name: "oneOf of n overlapping branches (an unknown keyword each), n/10 items",
    n: 300,
    make: (n) => ({
      schema: { type: "array", items: { oneOf: range(n).map((i) => ({ type: "object", "x-note": i })) } },
      args: range(n / 10).map(() => ({ a: 1 })),
    }),
  },
  {
    name: "prefixItems: n schemas, an array of 2n",
    n: 1000,
    make: (n) => ({
      schema: {
        type: "array",
        prefixItems: range(n).map((i) => ({ type: "integer", minimum: i })),
        items: { type: "string" },
      },
      args: [...range(n), ...range(n).map(String)],
    }),
  },
];

/** checkToolSchema as the Worker runs it, then one call's checks; what came of it. */
