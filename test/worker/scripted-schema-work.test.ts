// The scripted model's work on a client's schema is bounded by the schema's size, not by the
// number of paths through it: `allOf` parts and required properties that name one `$def` several
// times, nested, are each read a bounded number of times. Counted as `$ref`s followed.
import { afterEach, describe, expect, it, vi } from "vitest";
import { promptFits } from "../../worker/upstream/replay/scripted/arguments/prompt-fit.ts";
import { readValues } from "../../worker/upstream/replay/scripted/arguments/prompt-values.ts";
import { Filler } from "../../worker/upstream/replay/scripted/arguments/schema-fill.ts";
import {
  MAX_TURN_STEPS,
  SchemaReader,
  turnBudget,
} from "../../worker/upstream/replay/scripted/arguments/schema-parts.ts";
import { CheckBudget, type JsonValue } from "../../src/index.ts";
import { scriptedTurn } from "../../worker/upstream/replay/scripted/scripted-model.ts";
import { planCalls } from "../../worker/upstream/replay/scripted/tool-plan.ts";

afterEach(() => vi.restoreAllMocks());

describe("scripted model: work on a schema's repeated $refs", () => {
  it("resolves an allOf whose parts name their own $def once per allOf, not once per path", () => {
    const pointer = vi.spyOn(SchemaReader.prototype, "pointer");
    const parts = [{ $ref: "#/$defs/a" }, { $ref: "#/$defs/a" }];
    const root = { $defs: { a: { type: "object", allOf: parts } }, $ref: "#/$defs/a" };
    const resolved = new SchemaReader(root).resolve(root);
    expect(resolved["type"]).toBe("object");
    // 2^17 before (and 3^17, a minute of CPU, with a third part).
    expect(pointer.mock.calls.length).toBeLessThan(20);
  });

  it("reads a bounded number of required properties whose $refs repeat one object", () => {
    const pointer = vi.spyOn(SchemaReader.prototype, "pointer");
    const required = Array.from({ length: 12 }, (_, i) => `p${i}`);
    const properties = Object.fromEntries(required.map((key) => [key, { $ref: "#/$defs/a" }]));
    const a = { type: "object", required, properties };
    expect(promptFits({ ...a, $defs: { a } }, readValues("hello world"))).toBe(false);
    // 12^5 paths before.
    expect(pointer.mock.calls.length).toBeLessThan(1000);
  });

  it("still finds a fit nested in a $ref", () => {
    const a = { type: "object", required: ["code"], properties: { code: { type: "string", pattern: "^ORD-\\d+$" } } };
    const parameters = {
      type: "object",
      required: ["order"],
      properties: { order: { $ref: "#/$defs/a" } },
      $defs: { a },
    };
    expect(promptFits(parameters, readValues("Where is ORD-1234?"))).toBe(true);
  });

  it("writes each tool's arguments once when a call is required and none could be written", () => {
    const value = vi.spyOn(Filler.prototype, "value");
    // Named by the prompt, so picked first, then tried again by the required call: its two
    // strings' bounds leave nothing to write.
    const impossible = {
      name: "lookup_order",
      parameters: {
        type: "object",
        properties: { x: { type: "string", minLength: 5, maxLength: 2 } },
        required: ["x"],
      },
    };
    expect(planCalls("Look up my order", [impossible], { type: "required" })).toEqual([]);
    // Two tries (from the prompt, then from the schema alone), each starting at the root; 6 before.
    expect(value.mock.calls.filter(([, key, depth]) => key === undefined && depth === 0)).toHaveLength(2);
  });
});

describe("scripted model: one work budget per turn", () => {
  /** A required email whose `$def` is a string of `branches` anyOf branches: a check of each branch's value. */
  const branchy = (branches: number) => ({
    type: "object",
    properties: { email: { $ref: "#/$defs/d" } },
    required: ["email"],
    $defs: {
      d: { type: "string", format: "email", anyOf: Array.from({ length: branches }, (_, i) => ({ minLength: i % 3 })) },
    },
  });
  /** The work of a turn, as the checker counts it (compilations included), without the turn's cap. */
  const work = (parameters: JsonValue, prompt = "mail_tool to a@b.co"): number => {
    const budget = new CheckBudget(Number.POSITIVE_INFINITY, 1e12);
    planCalls(prompt, [{ name: "mail_tool", parameters }], { type: "auto" }, 0, budget);
    return budget.spent;
  };

  it("checks the values of an anyOf's branches against it in work linear in its branches", () => {
    // Each value was checked against a fresh copy of the schema, compiled again: 4 times the work
    // for twice the branches (88 s of CPU for 4,000 branches).
    const small = work(branchy(250));
    const large = work(branchy(500));
    expect(large / small).toBeLessThan(2.5);
  });

  it("stops a schema that costs more than the turn's budget, and says so", () => {
    const budget = turnBudget();
    expect(
      planCalls("mail_tool to a@b.co", [{ name: "mail_tool", parameters: branchy(4_000) }], undefined, 0, budget),
    ).toEqual([]);
    expect(budget.exhausted).toBe(true);
    const body = {
      messages: [{ role: "user", content: "mail_tool to a@b.co" }],
      tools: [{ type: "function", function: { name: "mail_tool", parameters: branchy(4_000) } }],
    };
    const turn = scriptedTurn("openai", body, "m", 10, 0);
    expect(turn.calls).toEqual([]);
    expect(turn.text).toContain(`${MAX_TURN_STEPS.toLocaleString("en-US")} steps of work`);
  });

  it("reads a bounded number of enum options for properties that share one large enum", () => {
    const reads = vi.spyOn(SchemaReader.prototype, "readsEnum");
    const properties = Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`p${i}`, { $ref: "#/$defs/e" }]));
    const e = { enum: Array.from({ length: 2_000 }, (_, i) => `v${i}`) };
    const parameters = { type: "object", properties, required: Object.keys(properties), $defs: { e } };
    expect(planCalls("fill_tool please", [{ name: "fill_tool", parameters }], { type: "required" })).toEqual([]);
    // 200 properties of 2,000 options each, read per property and per try: 800,000 options and more before.
    const read = reads.mock.results.filter((result) => result.value === true).length * e.enum.length;
    expect(read).toBeLessThanOrEqual(MAX_TURN_STEPS / 8);
  });

  it("writes many properties for minProperties without comparing each with every other", () => {
    const includes = vi.spyOn(Array.prototype, "includes");
    const properties = Object.fromEntries(Array.from({ length: 3_000 }, (_, i) => [`p${i}`, {}]));
    planCalls(
      "fill_tool please",
      [{ name: "fill_tool", parameters: { type: "object", properties, minProperties: 3_000 } }],
      {
        type: "required",
      },
    );
    // 3,000 x 3,000 / 2 comparisons before.
    const compared = includes.mock.contexts.reduce((sum: number, list) => sum + (list as unknown[]).length, 0);
    expect(compared).toBeLessThan(1_000_000);
  });
});
