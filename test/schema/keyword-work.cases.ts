// What a hostile schema's keywords cost is charged to the call's budget as what it costs
// (bench/hostile-keywords.ts measures each 2020-12 keyword family): `multipleOf` on numbers that are
// not safe integers is exact decimal arithmetic on big integers (0.7 to 6.4 µs in V8, where a step
// of a check is some 30 to 200 ns), once charged a single step, so that an `allOf` of multipleOf
// branches held a call for 50 times its budget's worth. Compared in steps, never a time. And JSON's
// `1e400`, which JSON.parse reads as Infinity, threw from both checks.
import {
  CheckBudget,
  checkToolArguments,
  earlySchemaValidator,
  IncrementalJsonParser,
  ToolCallAccumulator,
  type ToolSchema,
  toolSchemaValidator,
} from "../../src/index.ts";
import {
  budgetKey,
  CHECK_STEPS_BASE,
  CHECK_STEPS_PER_CHARACTER,
  MAX_RESPONSE_BASE_STEPS,
  responseBudgets,
} from "../../src/schema/check-budget.ts";
import { SchemaWatcher } from "../../src/schema/schema-watcher.ts";
import { assert, assertEquals, group } from "../support/harness.ts";

/** The steps one check of `value` against `schema` takes. */
function steps(value: number, schema: ToolSchema): number {
  const budget = new CheckBudget(1_000);
  checkToolArguments(value, schema, { budget });
  return budget.spent;
}

group("Keyword work charged as it costs", (test) => {
  test("multipleOf on numbers that are not safe integers is charged its big-integer work", () => {
    const cheap = steps(12, { multipleOf: 3 });
    assert(steps(1.5, { multipleOf: 0.0001 }) >= cheap + 16, "a decimal multipleOf costs more than a step");
    assert(steps(1.7976931348623157e308, { multipleOf: 5e-324 }) >= cheap + 90, "632 digits apart cost more still");
    // 300 branches against 2,000 numbers: 600,000 exact checks, which took 600,000 steps of a
    // 607,000-step budget (1.5 s in V8) and now run it out.
    const schema = {
      type: "array",
      items: { allOf: Array.from({ length: 300 }, (_, i) => ({ multipleOf: 1e-300 * (1 + i / 1000) })) },
    };
    const args = Array.from({ length: 2_000 }, (_, i) => 1.7976931348623157e308 / (1 + i / 7));
    const budget = new CheckBudget(JSON.stringify(args).length);
    const issues = checkToolArguments(args, schema as ToolSchema, { budget });
    assert(budget.exhausted, `${budget.spent} steps of ${budget.granted}`);
    assertEquals(issues, [
      `$ could not be checked within its budget of ${budget.granted.toLocaleString("en-US")} steps`,
    ]);
  });

  test("1e400 (Infinity once parsed) is no multiple of anything, in both checks, never a throw", () => {
    const schema: ToolSchema = { type: "object", properties: { n: { multipleOf: 0.5 } } };
    assertEquals(checkToolArguments(JSON.parse('{"n": 1e400}'), schema), ["$.n must be a multiple of 0.5"]);
    assertEquals(checkToolArguments(JSON.parse("-1e400"), { multipleOf: 2 }), ["$ must be a multiple of 2"]);
    const watcher = new SchemaWatcher(schema);
    new IncrementalJsonParser({ listener: watcher }).feed('{"n": 1e400}');
    assertEquals(watcher.violation?.message, "Expected a multiple of 0.5.");
  });

  test("the calls of one response draw their budgets' base from one pool: past 100 calls, steps per character only", () => {
    // 1,024 calls of `{"a":1}` against a costly schema had 20,000 steps each for their early
    // checks, which no pool bounds: 20 million steps for 7 KB of arguments.
    const budgets = responseBudgets({});
    const calls = MAX_RESPONSE_BASE_STEPS / CHECK_STEPS_BASE;
    for (let i = 0; i < calls; i++) assertEquals(budgets.of(budgetKey(i)).granted, CHECK_STEPS_BASE);
    const late = budgets.of(budgetKey(calls));
    assertEquals(late.granted, 0);
    late.allow(7);
    assertEquals(late.granted, 7 * CHECK_STEPS_PER_CHARACTER);
    assertEquals(budgets.of(budgetKey(0, 1)).granted, 0, "another choice of the response, the same pool");
    assertEquals(new CheckBudget().granted, CHECK_STEPS_BASE, "a budget of its own keeps its base");
  });

  test("a call past a response's 100th, the first to need a pattern, builds it from the response's pool, not refused", () => {
    // Past the 100th call a call has only its 50 steps a character: `{"p120":"a"}`, 600 steps, too
    // few to build a pattern of 10 sets (1,280 steps), so such calls were validation-budget-exceeded.
    const sets = (i: number) =>
      `^(?:${Array.from({ length: 10 }, (_, j) => `[a${String.fromCharCode(0x100 + i * 10 + j)}]`).join("|")})$`;
    const properties = Object.fromEntries(Array.from({ length: 150 }, (_, i) => [`p${i}`, { pattern: sets(i) }]));
    const tools = [{ name: "f", parameters: { type: "object", properties } }];
    const codes: string[] = [];
    const accumulator = new ToolCallAccumulator(
      (event) => {
        if (event.type === "tool-call") codes.push("valid");
        else if (event.type === "invalid-tool-call") codes.push(event.error.code);
      },
      { validator: toolSchemaValidator(tools), earlyValidator: earlySchemaValidator(tools) },
    );
    for (let i = 0; i < 150; i++)
      accumulator.push({ type: "tool-call-chunk", index: i, id: `c${i}`, name: "f", argumentsDelta: `{"p${i}":"a"}` });
    accumulator.push({ type: "finish", rawReason: "tool_calls" });
    accumulator.end();
    assertEquals(codes, Array(150).fill("valid"));
  });

  test("a canonical form (enum, const, uniqueItems) is charged 8 steps an array or object beside its keys", () => {
    // 20,000 small objects cost some 3 times the steps a check against their schema takes.
    const items = Array.from({ length: 1_000 }, (_, i) => ({ a: i, b: [i] }));
    const budget = new CheckBudget(Number.POSITIVE_INFINITY);
    assertEquals(checkToolArguments(items, { uniqueItems: true }, { budget }), []);
    assert(budget.spent >= 1_000 * 2 * 8, `${budget.spent} steps for 1,000 objects of an array each`);
  });
});
