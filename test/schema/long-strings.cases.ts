// V8 (Node, Deno, workerd, Chromium) hashes a string past 16,383 characters by its length alone,
// so a Set of such strings of one length is one chain: every string added or looked up is
// compared with all the others. The checks kept `enum` strings, `required` names and
// `uniqueItems`' canonical forms in Sets: 800 strings of 16,400 characters (13 MB) took 0.5 to
// 1.2 s per keyword, quadratic, for a handful of steps (bench/hostile-long-strings.ts). They
// now key a long string by its pieces; asserted here by what the checks ask their Sets and Maps,
// never by a time.
import {
  CheckBudget,
  checkToolArguments,
  checkToolSchema,
  earlySchemaValidator,
  ToolCallAccumulator,
  type ToolCallEvent,
  type ToolSchema,
  toolSchemaValidator,
} from "../../src/index.ts";
import { pushCall } from "../support/accumulator-runs.ts";
import { assert, assertEquals, group } from "../support/harness.ts";

/** The longest string V8 hashes by its content. */
const HASHED = 16_383;
/** Strings of one length past it, alike but for their last characters. */
const long = (i: number, length = HASHED + 17): string => "a".repeat(length - 6) + String(i).padStart(6, "0");
const longs = (from: number, n: number): string[] => Array.from({ length: n }, (_, i) => long(from + i));

/**
 * Runs `run` with the Set and Map methods named patched to call `see` with their collection and
 * key first (a Set or Map built from a list calls `add` or `set` for each item); restored after.
 */
function spying(
  names: { set: string[]; map: string[] },
  see: (on: Iterable<unknown>, key: unknown) => void,
  run: () => void,
): void {
  const saved: [object, string, (this: unknown, ...args: unknown[]) => unknown][] = [];
  for (const [proto, list] of [
    [Set.prototype, names.set],
    [Map.prototype, names.map],
  ] as const)
    for (const name of list) {
      const original = (proto as unknown as Record<string, (this: unknown, ...args: unknown[]) => unknown>)[name]!;
      saved.push([proto, name, original]);
      Object.defineProperty(proto, name, {
        configurable: true,
        writable: true,
        value(this: Set<unknown> | Map<unknown, unknown>, key: unknown, ...rest: unknown[]) {
          see(this.keys(), key);
          return original.call(this, key, ...rest);
        },
      });
    }
  try {
    run();
  } finally {
    for (const [proto, name, original] of saved)
      Object.defineProperty(proto, name, { configurable: true, writable: true, value: original });
  }
}

const isLong = (key: unknown): boolean => typeof key === "string" && key.length > HASHED;

group("Long strings in the schema checks", (test) => {
  // Long member names of the arguments are left: JSON.parse (V8's) keeps them by the same hash.
  test("enum, required and uniqueItems keep no string V8 hashes by its length alone in a Set or Map", () => {
    const schema = {
      type: "object",
      properties: {
        pick: { enum: longs(0, 8) },
        objects: { enum: longs(0, 8).map((s) => ({ s })) },
        list: { type: "array", uniqueItems: true },
      },
      required: ["pick", ...longs(100, 8)],
      dependentRequired: { pick: longs(200, 8) },
    };
    const args = { pick: long(3), objects: { s: long(5) }, list: [...longs(300, 8), ...longs(300, 8).map((s) => [s])] };
    const text = JSON.stringify(args);
    // What a Set or Map keeps makes the chain: looking a long string up is cheap while it holds none of its length.
    let longest = 0;
    const keep = { set: ["add"], map: ["set"] };
    spying(
      keep,
      (_, key) => void (longest = Math.max(longest, typeof key === "string" ? key.length : 0)),
      () => {
        assertEquals(checkToolSchema(structuredClone(schema), "tools[0].parameters"), []);
        const issues = checkToolArguments(args, structuredClone(schema) as ToolSchema, {
          budget: new CheckBudget(text.length),
        });
        assertEquals(issues.length, 16, "the 16 long names required are missing");
        const tools = [{ type: "function" as const, function: { name: "t", parameters: structuredClone(schema) } }];
        const events: ToolCallEvent[] = [];
        const accumulator = new ToolCallAccumulator((event) => events.push(event), {
          validator: toolSchemaValidator(tools),
          earlyValidator: earlySchemaValidator(tools),
        });
        pushCall(accumulator, text);
        assert(events.some((event) => event.type === "invalid-tool-call"));
      },
    );
    assert(longest <= HASHED, `a Set or Map was given a string of ${longest} characters`);
  });

  test("long strings are told apart and found as before", () => {
    const [a, b] = [long(1), long(2)];
    assertEquals(checkToolArguments(a, { enum: [b, a] }), []);
    assertEquals(checkToolArguments(long(3), { enum: [b, a] }).length, 1);
    assertEquals(checkToolArguments({ s: a }, { enum: [{ s: b }, { s: a }] }), []);
    assertEquals(checkToolArguments([a, b, a.slice(0)], { uniqueItems: true }), [
      "$ must have items that are all different",
    ]);
    assertEquals(checkToolArguments([a, b, long(1, HASHED + 18)], { uniqueItems: true }), []);
    assertEquals(checkToolArguments([{ s: a }, { s: `${a}` }], { uniqueItems: true }).length, 1);
    assertEquals(checkToolSchema({ required: [a, b, `${a}`] }, "p"), [
      { path: "p.required", message: "must be an array of strings, each once" },
    ]);
    assertEquals(checkToolSchema({ required: [a, b] }, "p"), []);
  });

  test("a string beginning with U+0000 is never taken for a long string's key", () => {
    const a = long(1);
    // A long string is keyed as U+0000 and its pieces' ids ("\u00000,1,"): no short string is.
    for (const key of ["\u00000,1,", "\u00000,", "\u0000", ""])
      assert(checkToolArguments(key, { enum: [a] }).length === 1, `${JSON.stringify(key)} is not the long string`);
    assertEquals(checkToolArguments("\u0000x", { enum: [a, "\u0000x"] }), []);
    assertEquals(checkToolArguments(["\u00000,1,", a], { uniqueItems: true }), []);
    assertEquals(checkToolArguments(["\u0000", "\u0000"], { uniqueItems: true }).length, 1);
    assertEquals(checkToolArguments("", { enum: ["", a] }), []);
  });

  test("the early check never looks a long key up among long property names, for each branch alive", () => {
    // 8 branches alive at each key; each looked the key up among the 8 long names of `properties`.
    const object = {
      type: "object",
      properties: Object.fromEntries(longs(0, 8).map((name) => [name, { type: "integer" }])),
    };
    const items = { anyOf: Array.from({ length: 8 }, () => ({ $ref: "#/$defs/o" })) };
    const parameters = { type: "object", properties: { list: { type: "array", items } }, $defs: { o: object } };
    // One long key per object: the early check's own set of an object's keys is not asked here.
    const args = JSON.stringify({ list: [{ [long(100)]: 1 }, { [long(3)]: 2 }, { [long(5)]: "x" }] });
    const events: ToolCallEvent[] = [];
    // Each look-up of a long key in a Set or Map holding a long string compares it with those of its length.
    let lookups = 0;
    const ask = { set: ["has"], map: ["get", "has"] };
    spying(
      ask,
      (on, key) => void (isLong(key) && [...on].some(isLong) && lookups++),
      () => {
        const accumulator = new ToolCallAccumulator((event) => events.push(event), {
          earlyValidator: earlySchemaValidator([{ type: "function", function: { name: "t", parameters } }]),
        });
        pushCall(accumulator, args);
      },
    );
    assertEquals(lookups, 0, "long keys looked up among long names");
    // The parser stops at the first such key, before the early check is told it: V8 would intern
    // the name set on the partial value (test/accumulate/long-member-names.cases.ts), so the call
    // ends `long-member-name`, never parsed.
    const end = events.find((event) => event.type === "invalid-tool-call");
    assert(end?.type === "invalid-tool-call", "the call is invalid");
    assertEquals(end.error.code, "long-member-name");
  });
});
