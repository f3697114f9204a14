// More cases of bench/hostile-keywords.ts (stop 50): what the keywords of one schema do to one
// another, where a request's work could multiply rather than add: `$ref` diamonds, `anyOf` branches
// that walk a big subtree each, long patterns near the instruction cap, `$ref` chains past the
// in-place bound, many keys through propertyNames, patternProperties and additionalProperties at
// once, `contains` with maxContains over costly items, a value nested as deep as a client may, and
// a `const` whose message wrote its whole value out for each item that failed it; and `$ref`s into
// one another's targets, each of which compiled its part again.
import type { Case, Schema } from "./hostile-keyword-cases.ts";

const range = (n: number) => Array.from({ length: n }, (_, i) => i);

export const requestCases: Case[] = [
  {
    name: "pattern: n distinct sets of one costly \\p escape each (within the 64), each set run on a non-ASCII value",
    n: 16,
    fresh: true,
    make: (n, salt = 0) => ({
      schema: {
        type: "object",
        properties: Object.fromEntries(
          range(n).map((i) => [`k${i}`, { type: "string", pattern: `^[\\p{Script_Extensions=Latin}${i}]+x${salt}$` }]),
        ),
      },
      args: Object.fromEntries(range(n).map((i) => [`k${i}`, "éé"])),
    }),
  },
  {
    name: "const: a value of n/4 objects (the message lists it), failed by 10n items",
    n: 500,
    make: (n) => {
      const big = range(n / 4).map((i) => ({ key: `value number ${i}`, list: [i, i + 1, i + 2] }));
      return { schema: { type: "array", items: { const: big } }, args: range(10 * n) };
    },
  },
  {
    name: "$ref diamond: allOf of two $refs to the next level, 30 levels (2^30 paths), n objects",
    n: 200,
    make: (n) => {
      const defs: Record<string, Schema> = {};
      for (let i = 0; i < 30; i++)
        defs[`d${i}`] = { allOf: [{ $ref: `#/$defs/d${i + 1}` }, { $ref: `#/$defs/d${i + 1}` }] };
      defs["d30"] = { type: "object", required: ["id"] };
      return {
        schema: {
          type: "object",
          properties: { items: { type: "array", items: { $ref: "#/$defs/d0" } } },
          $defs: defs,
        },
        args: { items: range(n).map((i) => ({ id: i, name: `item ${i}` })) },
      };
    },
  },
  {
    name: "anyOf of n/10 branches each walking all n items, failing at the last",
    n: 400,
    make: (n) => ({
      schema: {
        type: "object",
        properties: {
          items: {
            anyOf: range(n / 10).map((b) => ({
              type: "array",
              items: { type: "object", properties: { v: { type: "integer", maximum: n - 2 } } },
              minItems: b,
            })),
          },
        },
      },
      args: { items: range(n).map((i) => ({ v: i, w: "x".repeat(8) })) },
    }),
  },
  {
    name: "pattern: n/10 distinct patterns of 950 characters of 12,500 instructions, 200-character values",
    n: 100,
    fresh: true,
    make: (n, salt = 0) => ({
      schema: {
        type: "object",
        properties: Object.fromEntries(
          range(n / 10).map((i) => {
            const body = `(?:${range(24)
              .map((j) => String.fromCharCode(97 + ((i + j) % 26)) + String.fromCharCode(97 + (j % 26)))
              .join("|")})`;
            // 11 x (24 alternatives of 2, {0,12}): about 950 characters and 12,500 instructions.
            return [`k${i}`, { type: "string", pattern: `^${`${body}{0,12}`.repeat(11)}${i}x${salt}$` }];
          }),
        ),
      },
      args: Object.fromEntries(range(n / 10).map((i) => [`k${i}`, "ab".repeat(100)])),
    }),
  },
  {
    name: "$ref chain: n $defs each a $ref to the next (refused past 64 in place)",
    n: 200,
    make: (n) => {
      const defs: Record<string, Schema> = {};
      for (let i = 0; i < n; i++) defs[`d${i}`] = { $ref: `#/$defs/d${i + 1}`, description: `step ${i}` };
      defs[`d${n}`] = { type: "integer" };
      return { schema: { type: "object", properties: { a: { $ref: "#/$defs/d0" } }, $defs: defs }, args: { a: 1 } };
    },
  },
  {
    name: "n keys through propertyNames, 8 patternProperties and additionalProperties ($ref to anyOf of 8)",
    n: 500,
    make: (n) => ({
      schema: {
        type: "object",
        propertyNames: { pattern: "^[a-z][a-z0-9_]{0,63}$", maxLength: 64 },
        patternProperties: Object.fromEntries(range(8).map((i) => [`^k${i}[0-9]+$`, { type: "integer" }])),
        additionalProperties: { $ref: "#/$defs/value" },
        $defs: { value: { anyOf: range(8).map((i) => ({ type: "string", minLength: i, pattern: `^v${i}` })) } },
      },
      args: Object.fromEntries(range(n).map((i) => (i % 2 ? [`k${i % 8}${i}`, i] : [`x${i}`, `v7${"y".repeat(10)}`]))),
    }),
  },
  {
    name: "contains (an anyOf of 8 deep objects) with minContains n/2 and maxContains n/2, n items",
    n: 400,
    make: (n) => ({
      schema: {
        type: "array",
        contains: {
          anyOf: range(8).map((b) => ({
            type: "object",
            properties: { a: { type: "object", properties: { b: { type: "object", required: [`c${b}`] } } } },
            required: ["a"],
          })),
        },
        minContains: n / 2,
        maxContains: n / 2,
      },
      args: range(n).map((i) => ({ a: { b: { [`c${i % 16}`]: i } } })),
    }),
  },
  {
    name: "a value 60 levels deep n times over against a recursive $ref of anyOf 4",
    n: 40,
    make: (n) => {
      let value: unknown = 1;
      for (let i = 0; i < 60; i++) value = [value];
      return {
        schema: {
          $ref: "#/$defs/node",
          $defs: {
            node: {
              anyOf: [
                { type: "integer" },
                { type: "string" },
                { type: "null" },
                { type: "array", items: { $ref: "#/$defs/node" } },
              ],
            },
          },
        },
        args: range(n).map(() => value),
      };
    },
  },
  {
    name: "$refs to each of 60 nested levels (and into them) over an enum of n values",
    n: 10_000,
    make: (n) => {
      let leaf: Schema = { enum: range(n) };
      for (let i = 0; i < 60; i++) leaf = { items: leaf };
      const properties = Object.fromEntries(
        range(61).map((i) => [`p${i}`, { $ref: `#/$defs/l${"/items".repeat(i)}` }]),
      );
      return { schema: { type: "object", properties, $defs: { l: leaf } }, args: { p60: 7 } };
    },
  },
  // Stop 70's hostile pass (the brief's list not above): structure hashed for uniqueItems, bounds
  // and numbers at a double's ends, long keys through n x 8 patterns.
  {
    name: "uniqueItems: n objects of 32 keys, each in another order, all different at one value",
    n: 200,
    make: (n) => ({
      schema: { type: "array", uniqueItems: true },
      args: range(n).map((i) =>
        Object.fromEntries(range(32).map((k) => [`key${(k * 7 + i) % 32}`, k === i % 32 ? i : k])),
      ),
    }),
  },
  {
    name: "bounds of 1e308 (minLength, maxItems, minProperties), multipleOf 5e-324, n numbers 1e308 and -0",
    n: 2000,
    make: (n) => ({
      schema: {
        type: "object",
        properties: {
          s: { type: "string", maxLength: 1e308, minLength: 0 },
          a: {
            type: "array",
            maxItems: 1e308,
            items: { multipleOf: 5e-324, maximum: Number.MAX_VALUE, minimum: -1e308 },
          },
        },
        minProperties: 1,
        maxProperties: 1e308,
      },
      args: { s: "x".repeat(n), a: range(n).map((i) => (i % 2 ? 1.7976931348623157e308 : -0)) },
    }),
  },
  {
    name: "n keys of 2,000 characters through propertyNames and 8 patternProperties",
    n: 50,
    make: (n) => {
      const patterns = range(8).map((i) => `^${"[a-z]".repeat(i + 1)}.*${i}$`);
      const names = { pattern: "^[a-z]+[0-9]*$", maxLength: 4000 };
      const keys = range(n).map((i) => `${"k".repeat(2000)}${i}`);
      return {
        schema: { patternProperties: Object.fromEntries(patterns.map((p) => [p, {}])), propertyNames: names },
        args: Object.fromEntries(keys.map((key, i) => [key, i])),
      };
    },
  },
];
