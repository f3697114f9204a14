// One work budget per call (issue 33): sized from the arguments, spent by the early check and
// granted whole again to the final check, every unit of real work charged to it, and what runs
// out is refused with its own code, never a hang. Each case asserts a count of charged steps, of reads, or a refusal;
// none asserts a time.
import {
  checkToolArguments,
  earlySchemaValidator,
  jsonSchema,
  type JsonValue,
  streamToolCalls,
  ToolCallAccumulator,
  type ToolCallEvent,
  type ToolDefinition,
  type ToolSchema,
  toolSchemaValidator,
} from "../../src/index.ts";
import {
  CheckBudget,
  CHECK_STEPS_BASE,
  CHECK_STEPS_PER_CHARACTER,
  MAX_CALL_CHECK_STEPS,
  MAX_RESPONSE_CHECK_STEPS,
  budgetKey,
  responseBudgets,
} from "../../src/schema/check-budget.ts";
import { assert, assertEquals, group } from "../support/harness.ts";
import { bytes, chatChunk, collect, fromChunks, openAISSE } from "../support/streams.ts";

interface Outcome {
  events: ToolCallEvent[];
  /** The budget of each call, as the final check left it (spent: by the final check). */
  budgets: CheckBudget[];
  /** The steps each early check took. */
  earlySteps: number[];
  /** Whether each early check ran out of steps. */
  earlyOut: boolean[];
  /** The steps each final check took. */
  finalSteps: number[];
}

/** Calls of one tool through the accumulator with both checks, each call's arguments in `fragments`. */
function run(schema: ToolSchema, calls: readonly (readonly string[])[], abortOnViolation = false): Outcome {
  const tools: ToolDefinition[] = [{ type: "function", function: { name: "t", parameters: schema } }];
  const inner = toolSchemaValidator(tools);
  const budgets: CheckBudget[] = [];
  const earlySteps: number[] = [];
  const finalSteps: number[] = [];
  const earlyOut: boolean[] = [];
  const events: ToolCallEvent[] = [];
  let pool = MAX_RESPONSE_CHECK_STEPS;
  const accumulator = new ToolCallAccumulator((event) => events.push(event), {
    earlyValidator: earlySchemaValidator(tools, { abortOnViolation }),
    validator: (name, value, call) => {
      const budget = responseBudgets(call!.response).of(budgetKey(call!.index, call!.choice));
      budgets.push(budget);
      earlySteps.push(budget.spent);
      earlyOut.push(budget.exhausted);
      const issues = inner(name, value, call);
      // What the final check started with: the call's whole budget, at most what the response had left.
      const before = Math.min(budget.granted, Math.max(0, pool));
      finalSteps.push(before - budget.steps);
      pool -= before - budget.steps;
      return issues;
    },
  });
  for (const [index, fragments] of calls.entries())
    for (const [i, argumentsDelta] of fragments.entries())
      accumulator.push({
        type: "tool-call-chunk",
        index,
        argumentsDelta,
        ...(i === 0 ? { id: `c${index}`, name: "t" } : {}),
      });
  accumulator.push({ type: "finish", rawReason: "tool_calls" });
  accumulator.end();
  return { events, budgets, earlySteps, earlyOut, finalSteps };
}

const chars = (text: string): string[] => [...text];
const only = (events: ToolCallEvent[], type: ToolCallEvent["type"]): ToolCallEvent[] =>
  events.filter((event) => event.type === type);
const codeOf = (events: ToolCallEvent[]): string | undefined => {
  const invalid = events.find((event) => event.type === "invalid-tool-call");
  return invalid?.type === "invalid-tool-call" ? invalid.error.code : undefined;
};

/**
 * `$defs` whose `n0` is an `anyOf` of `count` schemas, each a copy of `leaf`: distinct schemas,
 * each checked on its own (a tree of `$ref`s to the same schemas is checked once per value).
 */
function wideDefs(count: number, leaf: ToolSchema): Record<string, ToolSchema> {
  return { n0: { anyOf: Array.from({ length: count }, () => ({ ...(leaf as object) })) } };
}

/** Counts the reads of an object's (or array's) members: the work done on it, observed from outside. */
function counted<T extends object>(target: T, tally: { reads: number }): T {
  return new Proxy(target, {
    get(object, key, receiver) {
      tally.reads++;
      return Reflect.get(object, key, receiver);
    },
    ownKeys(object) {
      tally.reads++;
      return Reflect.ownKeys(object);
    },
  });
}

group("One work budget per call, charged by real work (issue 33)", (test) => {
  test("the budget: 20,000 steps plus 50 per character of arguments, at most 2,000,000, growing as they stream", () => {
    const budget = new CheckBudget();
    assertEquals(budget.steps, CHECK_STEPS_BASE);
    budget.allow(100);
    assertEquals(budget.granted, CHECK_STEPS_BASE + 100 * CHECK_STEPS_PER_CHARACTER);
    budget.allow(50); // never shrinks
    assertEquals(budget.granted, CHECK_STEPS_BASE + 100 * CHECK_STEPS_PER_CHARACTER);
    budget.allow(10_000_000);
    assertEquals(budget.granted, MAX_CALL_CHECK_STEPS);
    assert(!budget.exhausted, "not spent");
    budget.steps = -1;
    assert(budget.exhausted, "below 0: exhausted");
  });

  test("the early and the final check each have the call's budget: a valid value each fits alone is checked", () => {
    // The pattern reads 27 steps a character: some 1,080,000 steps a check on 40,000 characters,
    // 2,160,000 for both, past a call's 2,000,000 when they shared it ("could not be checked").
    const schema: ToolSchema = {
      type: "object",
      properties: { s: { type: "string", pattern: "^(a|b|c|d|e|f|g|h)*$" } },
    };
    const text = JSON.stringify({ s: "a".repeat(40_000) });
    const { events, earlySteps, earlyOut, finalSteps } = run(schema, [text.match(/.{1,100}/g)!]);
    assertEquals(codeOf(events), undefined);
    assertEquals(only(events, "tool-call").length, 1);
    assert(!earlyOut[0], "the early check fit");
    for (const steps of [earlySteps[0]!, finalSteps[0]!])
      assert(
        steps > 1_000_000 && steps <= MAX_CALL_CHECK_STEPS,
        `each check read the string: ${earlySteps}, ${finalSteps}`,
      );
    const bad = run(schema, [`${text.slice(0, -2)}z"}`.match(/.{1,100}/g)!]);
    assertEquals(only(bad.events, "tool-call-violation").length, 1, "an invalid one is still flagged early");
    assertEquals(codeOf(bad.events), "schema-mismatch");
    // The early check runs out (it tests each key against the names of 60 branches, the final check
    // stops at the first branch, which matches): the final check still judges the call, on a budget
    // of its own.
    const wide: ToolSchema = {
      type: "object",
      anyOf: Array.from({ length: 60 }, () => ({ propertyNames: { pattern: "^[a-z0-9_]*$" } })),
    };
    const keys = JSON.stringify(Object.fromEntries(Array.from({ length: 2_000 }, (_, i) => [`key_${i}`, 1])));
    const outcome = run(wide, [keys.match(/.{1,100}/g)!]);
    assert(outcome.earlyOut[0], "the early check ran out");
    assertEquals(codeOf(outcome.events), undefined);
    assertEquals(only(outcome.events, "tool-call").length, 1);
  });

  test("early propertyNames under anyOf of 63 branches: one budget for every key and branch, then a refusal, never a hang", () => {
    const schema: ToolSchema = {
      type: "object",
      anyOf: Array.from({ length: 63 }, () => ({ propertyNames: wideDefs(300, { pattern: "^z" }).n0! })),
    };
    // Split a character at a time, and 8 at a time with values after the budget ran out (the
    // budget grows with them, but once spent it stays spent: the watcher's state is not resumed).
    const text = '{"city":"Tokyo","unit":"c"}';
    const nested = '{"city":"Tokyo","unit":"c","days":[1,{"a":2}],"more":{"x":"y"}}';
    const splits: [string[], number][] = [
      [chars(text), text.length],
      [nested.match(/.{1,8}/g)!, nested.length],
    ];
    for (const [abortOnViolation, [fragments, length]] of [
      [false, splits[0]!],
      [true, splits[0]!],
      [false, splits[1]!],
    ] as const) {
      const { events, budgets } = run(schema, [fragments], abortOnViolation);
      // 300 patterns per branch and key, 63 branches: nothing finishes that within one call's budget.
      assertEquals(only(events, "tool-call-violation").length, 0, "the early check stops without a violation");
      assertEquals(only(events, "abort").length, 0, "and never aborts a call it could not judge");
      assertEquals(codeOf(events), "validation-budget-exceeded");
      const invalid = only(events, "invalid-tool-call")[0];
      assert(invalid?.type === "invalid-tool-call" && invalid.error.issues?.[0]?.includes("could not be checked"), "");
      assert(budgets[0]!.granted <= CHECK_STEPS_BASE + length * CHECK_STEPS_PER_CHARACTER, "sized by the arguments");
      assertEquals(events.at(-1)?.type, "finish");
    }
    // Smaller: each check fits the call's budget alone (some 19,000 steps of 22,950), not both: the
    // early check's violation is the final check's verdict too, no longer "could not be checked".
    const small: ToolSchema = {
      type: "object",
      anyOf: Array.from({ length: 16 }, () => ({ propertyNames: wideDefs(300, { pattern: "^z" }).n0! })),
    };
    const five = JSON.stringify({ city: "Tokyo", unit: "c", days: 3, lang: "ja", mode: "x" });
    const smaller = run(small, [five.match(/.{1,8}/g)!]);
    assertEquals(only(smaller.events, "tool-call-violation").length, 1);
    assertEquals(codeOf(smaller.events), "schema-mismatch");
    assert(smaller.earlySteps[0]! + smaller.finalSteps[0]! > smaller.budgets[0]!.granted, "more than one budget");
  });

  test("a 30,000-value enum: a valid call takes tens of steps per value, early and final (a set, and a sorted list by binary search)", () => {
    const values = Array.from({ length: 30_000 }, (_, i) => `value-${i}`);
    const one = run({ type: "object", properties: { v: { enum: values } } }, [chars('{"v":"value-29999"}')]);
    assertEquals(only(one.events, "tool-call").length, 1);
    assert(one.budgets[0]!.spent < 1_000, `one value streamed a character at a time: ${one.budgets[0]!.spent} steps`);
    const items = values.slice(0, 5_000);
    const text = JSON.stringify({ v: items });
    const many = run({ type: "object", properties: { v: { type: "array", items: { enum: values } } } }, [
      text.match(/.{1,7}/g)!,
    ]);
    assertEquals(only(many.events, "tool-call").length, 1);
    // Two binary searches per fragment (about 30 comparisons); a scan of the list per value would
    // take 15,000 steps.
    assert(many.budgets[0]!.spent < 150 * items.length, `5,000 values: ${many.budgets[0]!.spent} steps`);
  });

  test("object and array enum values are compared by canonical form: key order and 1.0 do not matter", () => {
    const schema: ToolSchema = { enum: [{ a: 1, b: [1, { c: null }] }, [1, 2], "x"] };
    assertEquals(checkToolArguments({ b: [1.0, { c: null }], a: 1 }, schema), []);
    assertEquals(checkToolArguments([1, 2], schema), []);
    assertEquals(checkToolArguments([2, 1], schema), ['$ must be one of {"a":1,"b":[1,{"c":null}]}, [1,2], "x"']);
    assertEquals(checkToolArguments("[1,2]", schema).length, 1);
    assertEquals(checkToolArguments({ a: 1, b: [1, { c: null }] }, { const: { b: [1, { c: null }], a: 1 } }), []);
  });

  test("uniqueItems under anyOf of 63 branches: each array's items are read once, not once per branch", () => {
    const schema: ToolSchema = {
      anyOf: Array.from({ length: 63 }, () => ({ type: "array", uniqueItems: true, items: { type: "string" } })),
    } as ToolSchema;
    const items = Array.from({ length: 10_000 }, (_, i) => ({ n: i }));
    const { events, budgets } = run(schema, [[JSON.stringify(items)]]);
    assertEquals(codeOf(events), "schema-mismatch", "checked, and rejected (the items are not strings)");
    // About 10 steps an item (its canonical form 8 a composite, beside its key): once, where 63
    // branches would each charge them again.
    assert(budgets[0]!.spent < 20 * items.length, `${budgets[0]!.spent} steps for ${items.length} items`);
    const tally = { reads: 0 };
    const value = counted(
      items.map((item) => counted(item, tally)),
      tally,
    );
    checkToolArguments(value as JsonValue, schema);
    // The array's length and items, each item's keys and member: a few reads each (sizing the
    // budget, canonical forms, the items' schema), where 63 branches each reading them would be 190.
    assert(tally.reads < 10 * items.length, `${tally.reads} reads of ${items.length} items`);
  });

  test("a const failed by 10,000 items is written out for its message once, not once per item", () => {
    // The message lists the allowed value (cut to a few characters, after writing it whole): a
    // 130 KB const failed by 20,000 items took 5.5 s, uncharged, quadratic in the request.
    const tally = { reads: 0 };
    const value = counted(
      Array.from({ length: 200 }, (_, i) => counted({ key: `value ${i}` }, tally)),
      tally,
    );
    const schema = { type: "array", items: { const: value } } as ToolSchema;
    assertEquals(checkToolArguments([1], schema).length, 1);
    const before = tally.reads;
    const issues = checkToolArguments(
      Array.from({ length: 10_000 }, (_, i) => i),
      schema,
    );
    assertEquals(issues.at(-1), "and 9,980 more");
    assert(tally.reads - before < 1_000, `${tally.reads - before} reads of the const for 10,000 failures`);
  });

  test("4,096 spellings of one $ref compile its schema once", () => {
    const tally = { reads: 0 };
    const name = "abcdefghijkl";
    const spell = (mask: number): string =>
      [...name].map((c, i) => (mask & (1 << i) ? `%${c.charCodeAt(0).toString(16)}` : c)).join("");
    const target = counted({ type: "string", enum: counted([...Array(1000).keys()].map(String), tally) }, tally);
    const properties = Object.fromEntries(
      Array.from({ length: 4096 }, (_, mask) => [`p${mask}`, { $ref: `#/$defs/${spell(mask)}` }]),
    );
    const schema = { type: "object", properties, $defs: { [name]: target } } as ToolSchema;
    assertEquals(checkToolArguments({ p0: "7", p4095: "999" }, schema), []);
    assertEquals(checkToolArguments({ p17: "x" }, schema), ["$.p17 must be one of the 1,000 allowed values"]);
    assert(tally.reads < 5_000, `the target and its 1,000-value enum: ${tally.reads} reads`);
  });

  test("a pattern over a 10 KB string in a $ref tree: charged per character read, then refused", () => {
    // 40 patterns that each read the whole string: some 800,000 steps, past the call's 520,100.
    const schema: ToolSchema = { $ref: "#/$defs/n0", $defs: wideDefs(40, { pattern: "b" }) };
    const text = JSON.stringify("a".repeat(10_000));
    const { events, budgets, finalSteps } = run(schema, [text.match(/.{1,100}/g)!]);
    assertEquals(codeOf(events), "validation-budget-exceeded");
    assertEquals(budgets[0]!.granted, CHECK_STEPS_BASE + text.length * CHECK_STEPS_PER_CHARACTER);
    // One pattern test past the budget at most: each reads at most 10,000 characters.
    assert(finalSteps[0]! <= budgets[0]!.granted + 10_002, `${finalSteps[0]} steps`);
  });

  test("a response's final checks draw from one pool: 8 costly calls take at most 8,000,000 steps together", () => {
    // 6 strings of 10,000 characters, 100 patterns that read each whole: some 12,000,000 steps a call.
    const schema: ToolSchema = { type: "array", items: { $ref: "#/$defs/n0" }, $defs: wideDefs(100, { pattern: "b" }) };
    const text = JSON.stringify(Array.from({ length: 6 }, () => "a".repeat(10_000))); // each call may take 2,000,000 steps
    const calls = Array.from({ length: 8 }, () => [text]);
    const { events, finalSteps } = run(schema, calls);
    assertEquals(only(events, "invalid-tool-call").length, 8);
    assert(
      only(events, "invalid-tool-call").every(
        (event) => event.type === "invalid-tool-call" && event.error.code === "validation-budget-exceeded",
      ),
      "all refused as unchecked",
    );
    const total = finalSteps.reduce((a, b) => a + b, 0);
    assert(total <= MAX_RESPONSE_CHECK_STEPS + 8 * 60_010, `${total} steps for 8 calls`);
    assert(
      finalSteps.slice(4).every((steps) => steps <= 60_010),
      `the pool is spent: ${finalSteps.join(", ")}`,
    );
    // Each message names the steps its check had: the call's budget, then what the pool had left (it
    // named the call's 2,000,000 where the pool had granted none).
    const messages = only(events, "invalid-tool-call").map((event) =>
      event.type === "invalid-tool-call" ? event.error.message : "",
    );
    assert(messages[0]!.endsWith("within its budget of 2,000,000 steps."), messages[0]!);
    assertEquals(
      messages.slice(4),
      Array(4).fill("The arguments of t could not be checked against its schema within its budget of 0 steps."),
    );
  });

  test("a key streamed a character at a time against 19,998 properties and additionalProperties: false", () => {
    // 19,998: with the root and `false`, the most schemas a schema holds (MAX_SCHEMA_NODES).
    const properties = Object.fromEntries(Array.from({ length: 19_998 }, (_, i) => [`property_${i}`, {}]));
    const schema: ToolSchema = { type: "object", properties, additionalProperties: false };
    const ok = run(schema, [chars('{"property_19997":1,"property_7":2}')]);
    assertEquals(only(ok.events, "tool-call").length, 1);
    assert(ok.budgets[0]!.spent < 1_500, `${ok.budgets[0]!.spent} steps`);
    const bad = run(schema, [chars('{"property_7":2,"propertx')]);
    assertEquals(only(bad.events, "tool-call-violation").length, 1, "an unknown key is still flagged early");
  });
});

group("multipleOf, exactly in decimal (issue 33)", (test) => {
  test("the numbers' decimal digits decide, where a division in floating point overflows or rounds", () => {
    const valid: [number, number][] = [
      [1e10, 1e-300],
      [0.0075, 0.0001],
      [0.3, 0.1],
      [4.5, 1.5],
      [-4.5, 1.5],
      [12391239123, 1e-8],
      [1e308, 1e300],
      [0, 0.7],
      [2.5e-320, 5e-324],
    ];
    for (const [value, factor] of valid)
      assertEquals(checkToolArguments(value, { multipleOf: factor }), [], `${value} of ${factor}`);
    const invalid: [number, number][] = [
      [0.00751, 0.0001],
      [1e308, 0.123456789],
      [35, 1.5],
      [1e-300, 1e10],
      [0.30000000000000004, 0.1],
    ];
    for (const [value, factor] of invalid)
      assertEquals(checkToolArguments(value, { multipleOf: factor }).length, 1, `${value} of ${factor}`);
  });

  test("the early check never cancels a valid call under abortOnViolation", async () => {
    const tools: ToolDefinition[] = [
      {
        type: "function",
        function: { name: "t", parameters: { type: "object", properties: { n: { multipleOf: 1e-300 } } } },
      },
    ];
    const body = openAISSE([
      chatChunk({ tool_calls: [{ index: 0, id: "c1", function: { name: "t", arguments: '{"n": 1e10}' } }] }),
      chatChunk({}, "tool_calls"),
    ]);
    const events = await collect(
      streamToolCalls(fromChunks([bytes(body)]), {
        provider: "openai",
        tools,
        jsonSchema,
        earlyValidation: true,
        abortOnViolation: true,
      }),
    );
    assertEquals(
      events.map((event) => event.type).filter((type) => type !== "tool-call-delta"),
      ["tool-call-start", "tool-call", "finish"],
    );
  });
});
