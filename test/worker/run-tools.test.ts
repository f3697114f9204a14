// The demo tools of POST /v1/run, under workerd (whose Intl has the time zone data the Worker uses).
import { describe, expect, it } from "vitest";
import { ToolHandlerError, type JsonValue, type RunnableTool, type ToolCall } from "../../src/index.ts";
import {
  ArithmeticError,
  evaluate,
  MAX_DEPTH,
  MAX_EXPRESSION_LENGTH,
  tokenize,
} from "../../worker/demo-tools/arithmetic.ts";
import { calculator } from "../../worker/demo-tools/calculator.ts";
import { createCurrentTimeTool } from "../../worker/demo-tools/current-time.ts";
import { DEMO_TOOL_NAMES, demoTools } from "../../worker/demo-tools/index.ts";
import { unitConverter } from "../../worker/demo-tools/unit-converter.ts";
import { createUnitTableTool, MAX_ROWS } from "../../worker/demo-tools/unit-table.ts";
import { ManualTimers } from "./support.ts";

const context = {
  signal: new AbortController().signal,
  call: { index: 0, id: "call_1", name: "t", arguments: {}, rawArguments: "{}" } as ToolCall,
};
const run = (tool: RunnableTool, args: JsonValue) => tool.run(args, context);

/** The message of the ToolHandlerError `fn` throws (the model reads it). */
function handlerError(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(ToolHandlerError);
    return (error as Error).message;
  }
  throw new Error("expected a ToolHandlerError");
}

function arithmeticError(text: string): ArithmeticError {
  try {
    evaluate(text);
  } catch (error) {
    expect(error).toBeInstanceOf(ArithmeticError);
    return error as ArithmeticError;
  }
  throw new Error(`expected ${JSON.stringify(text)} to fail`);
}

describe("the arithmetic evaluator", () => {
  it("follows the usual precedence and associativity", () => {
    expect(evaluate("1 + 2 * 3")).toBe(7);
    expect(evaluate("(1 + 2) * 3")).toBe(9);
    expect(evaluate("10 - 4 - 3")).toBe(3);
    expect(evaluate("100 / 10 / 5")).toBe(2);
    expect(evaluate("2 ^ 3 ^ 2")).toBe(512);
    expect(evaluate("2 ** 10")).toBe(1024);
    expect(evaluate("-2 ^ 2")).toBe(-4);
    expect(evaluate("2 ^ -1")).toBe(0.5);
    expect(evaluate("--3")).toBe(3);
    expect(evaluate("7 % 4")).toBe(3);
    expect(evaluate("6 × 7 ÷ 2")).toBe(21);
  });

  it("reads decimals, exponents and digit separators", () => {
    expect(evaluate(".5 + 1.25")).toBe(1.75);
    expect(evaluate("1e3 + 2.5E-1")).toBe(1000.25);
    expect(evaluate("1_000_000 / 4")).toBe(250_000);
  });

  it("knows constants and functions, case-insensitively", () => {
    expect(evaluate("PI")).toBe(Math.PI);
    expect(evaluate("sqrt(16) + abs(-2) + max(1, 7, 3) + min(4, 2)")).toBe(15);
    expect(evaluate("round(2.5) + floor(-1.5) + ceil(1.2) + trunc(-1.7)")).toBe(2);
    expect(evaluate("ln(e) + log10(1000) + log2(8)")).toBe(7);
    expect(evaluate("hypot(3, 4)")).toBe(5);
    expect(evaluate("cos(0) + sin(0)")).toBe(1);
  });

  it("says where an expression is wrong, without repeating it", () => {
    expect(arithmeticError("1 + ").message).toBe('Expected a number, a name or "(" at the end.');
    expect(arithmeticError("2 * (3 + 4").message).toBe('The "(" at position 5 is never closed.');
    expect(arithmeticError("2 + 3)").message).toBe('Unmatched ")" at position 6.');
    expect(arithmeticError("2 3").message).toBe("Expected an operator at position 3.");
    const unknown = arithmeticError("2 + secret_name(1)");
    expect(unknown.position).toBe(4);
    expect(unknown.message).toMatch(
      /^Unknown name at position 5; the known names are constants pi, e, tau; functions sqrt, /,
    );
    expect(unknown.message).not.toContain("secret_name");
    expect(arithmeticError("2 $ 3").message).toMatch(/^Unexpected character at position 3; use numbers/);
    expect(arithmeticError("sqrt 4").message).toBe("A function at position 1 needs its arguments in parentheses.");
    expect(arithmeticError("sqrt(1, 2)").message).toBe("The function at position 1 takes at most 1 argument(s).");
  });

  it("refuses division by zero and results that are not finite real numbers", () => {
    expect(arithmeticError("1 / (2 - 2)").message).toBe("Division by zero at position 3.");
    expect(arithmeticError("5 % 0").message).toBe("Division by zero at position 3.");
    expect(arithmeticError("sqrt(-1)").message).toBe("The result at position 1 is not a real number.");
    expect(arithmeticError("10 ^ 400").message).toBe("The result at position 4 is too large.");
    expect(arithmeticError("1e999").message).toBe("The number at position 1 is too large.");
  });

  it("bounds the input: length, nesting depth and number length", () => {
    expect(arithmeticError("1+".repeat(MAX_EXPRESSION_LENGTH)).message).toBe(
      `The expression is longer than ${MAX_EXPRESSION_LENGTH} characters.`,
    );
    expect(evaluate(`${"(".repeat(MAX_DEPTH - 1)}1${")".repeat(MAX_DEPTH - 1)}`)).toBe(1);
    expect(arithmeticError(`${"(".repeat(MAX_DEPTH + 1)}1${")".repeat(MAX_DEPTH + 1)}`).message).toBe(
      `The expression nests deeper than ${MAX_DEPTH} levels.`,
    );
    expect(arithmeticError(`${"-".repeat(MAX_DEPTH + 1)}1`).message).toBe(
      `The expression nests deeper than ${MAX_DEPTH} levels.`,
    );
    expect(arithmeticError("1".repeat(40)).message).toBe("The number at position 1 has more than 32 characters.");
  });

  it("never evaluates code: names that would mean something to JavaScript are unknown names", () => {
    for (const text of ["constructor", "this", "globalThis", "toString(1)", "__proto__", "eval(1)"]) {
      expect(arithmeticError(text).message, text).toMatch(/^Unknown name at position 1/);
    }
    expect(arithmeticError("constructor.name").message).toMatch(/^Unexpected character at position 12/); // no property access
    expect(tokenize("pi*2").map((t) => t.kind)).toEqual(["name", "op", "number", "end"]);
  });
});

describe("calculate", () => {
  it("returns the value, rounded to 15 significant digits", async () => {
    expect(await run(calculator, { expression: "0.1 + 0.2" })).toEqual({ result: 0.3 });
    expect(await run(calculator, { expression: "(1200 * 0.07) / 12" })).toEqual({ result: 7 });
  });

  it("turns a bad expression into an error the model can act on", () => {
    expect(handlerError(() => run(calculator, { expression: "1/0" }))).toBe("Division by zero at position 2.");
    expect(handlerError(() => run(calculator, { expression: "  " }))).toBe(
      'Pass `expression`, a non-empty string such as "2 * (3 + 4)".',
    );
    expect(handlerError(() => run(calculator, { formula: "1" }))).toMatch(/^Pass `expression`/);
  });
});

describe("current_time", () => {
  const at = (iso: string) => createCurrentTimeTool({ now: () => Date.parse(iso) });

  it("gives the date, time, weekday and offset in the zone, on the injected clock", async () => {
    const tool = at("2026-11-22T23:30:00Z");
    expect(await run(tool, { time_zone: "Asia/Tokyo" })).toEqual({
      time_zone: "Asia/Tokyo",
      date: "2026-11-23",
      time: "08:30:00",
      weekday: "Monday",
      utc_offset: "+09:00",
      utc: "2026-11-22T23:30:00.000Z",
    });
    expect(await run(tool, { time_zone: "Asia/Kolkata" })).toMatchObject({ time: "05:00:00", utc_offset: "+05:30" });
    expect(await run(tool, { time_zone: "UTC" })).toMatchObject({
      date: "2026-11-22",
      time: "23:30:00",
      weekday: "Sunday",
      utc_offset: "+00:00",
    });
  });

  it("follows daylight saving time", async () => {
    expect(await run(at("2026-07-01T12:00:00Z"), { time_zone: "America/New_York" })).toMatchObject({
      time: "08:00:00",
      utc_offset: "-04:00",
    });
    expect(await run(at("2026-01-01T12:00:00Z"), { time_zone: "America/New_York" })).toMatchObject({
      time: "07:00:00",
      utc_offset: "-05:00",
    });
  });

  it("an unknown or malformed zone is an error that shows what a zone name looks like, without repeating it", () => {
    const tool = at("2026-11-22T23:30:00Z");
    for (const zone of ["Mars/Olympus_Mons", "Europe/../../etc", "", "x".repeat(100)]) {
      const message = handlerError(() => run(tool, { time_zone: zone }));
      expect(message).toBe(
        'That is not a known IANA time zone. Pass a name such as "Europe/Paris", "America/New_York", "Asia/Tokyo" or "UTC".',
      );
    }
    expect(handlerError(() => run(tool, { zone: "UTC" }))).toMatch(/^That is not a known IANA time zone/);
  });
});

describe("convert_units", () => {
  it("converts within a kind of unit", async () => {
    expect(await run(unitConverter, { value: 1, from: "mi", to: "km" })).toEqual({
      value: 1.609344,
      unit: "km",
      category: "length",
    });
    expect(await run(unitConverter, { value: 10, from: "lb", to: "kg" })).toEqual({
      value: 4.5359237,
      unit: "kg",
      category: "mass",
    });
    expect(await run(unitConverter, { value: 1, from: "gal", to: "l" })).toEqual({
      value: 3.785411784,
      unit: "l",
      category: "volume",
    });
    expect(await run(unitConverter, { value: 36, from: "km/h", to: "m/s" })).toEqual({
      value: 10,
      unit: "m/s",
      category: "speed",
    });
    expect(await run(unitConverter, { value: 2, from: "h", to: "min" })).toEqual({
      value: 120,
      unit: "min",
      category: "time",
    });
  });

  it("converts temperatures through their offsets", async () => {
    expect(await run(unitConverter, { value: 100, from: "C", to: "F" })).toMatchObject({ value: 212 });
    expect(await run(unitConverter, { value: -40, from: "F", to: "C" })).toMatchObject({ value: -40 });
    expect(await run(unitConverter, { value: 0, from: "K", to: "C" })).toMatchObject({ value: -273.15 });
    expect(await run(unitConverter, { value: 100, from: "F", to: "C" })).toMatchObject({ value: 37.7777777778 });
  });

  it("refuses other kinds, unknown units and values it cannot convert, saying what is expected", () => {
    expect(handlerError(() => run(unitConverter, { value: 1, from: "kg", to: "m" }))).toBe(
      "Cannot convert mass to length; `from` and `to` must be units of the same kind.",
    );
    expect(handlerError(() => run(unitConverter, { value: 1, from: "furlong", to: "m" }))).toMatch(
      /^`from` is not a known unit\. Use one of: mm, cm, m, km, /,
    );
    expect(handlerError(() => run(unitConverter, { value: 1, from: "m", to: "toString" }))).toMatch(
      /^`to` is not a known unit/,
    );
    expect(handlerError(() => run(unitConverter, { value: "1", from: "m", to: "km" }))).toMatch(
      /^Pass `value` as a finite number/,
    );
    expect(handlerError(() => run(unitConverter, { value: 1e300, from: "m", to: "km" }))).toMatch(
      /^Pass `value` as a finite number/,
    );
  });
});

/** Every value a streaming handler yields, then the value it returns. */
async function drain(result: unknown): Promise<{ yielded: unknown[]; returned: unknown }> {
  const iterator = (result as AsyncIterable<unknown, unknown>)[Symbol.asyncIterator]();
  const yielded: unknown[] = [];
  for (;;) {
    const step = await iterator.next();
    if (step.done) return { yielded, returned: step.value };
    yielded.push(step.value);
  }
}

describe("unit_table", () => {
  it("streams the table: each yielded value has one more row, and the whole table is returned", async () => {
    const { yielded, returned } = await drain(
      run(createUnitTableTool(), { from: "km", to: "mi", values: [1, 5, 42.195] }),
    );
    expect(yielded).toEqual([
      { from: "km", to: "mi", rows: [[1, 0.621371192237]] },
      {
        from: "km",
        to: "mi",
        rows: [
          [1, 0.621371192237],
          [5, 3.10685596119],
        ],
      },
      {
        from: "km",
        to: "mi",
        rows: [
          [1, 0.621371192237],
          [5, 3.10685596119],
          [42.195, 26.2187574565],
        ],
      },
    ]);
    expect(returned).toEqual(yielded.at(-1));
    const { yielded: defaults } = await drain(run(createUnitTableTool(), { from: "C", to: "F" }));
    expect((defaults.at(-1) as { rows: unknown[] }).rows).toHaveLength(10);
  });

  it("paces the rows on the injected timers and stops between rows when its signal is aborted", async () => {
    const timers = new ManualTimers();
    const controller = new AbortController();
    const tool = createUnitTableTool({ timers, rowDelayMs: 200 });
    const iterator = (
      tool.run(
        { from: "kg", to: "lb", values: [1, 2, 3] },
        { ...context, signal: controller.signal },
      ) as AsyncGenerator<JsonValue, JsonValue>
    )[Symbol.asyncIterator]();
    expect((await iterator.next()).value).toMatchObject({ rows: [[1, 2.20462262185]] });
    const second = iterator.next();
    expect(timers.pendingDelays).toEqual([200]); // the generator runs to its pause at once
    timers.fireWhere((ms) => ms === 200);
    expect((await second).value).toMatchObject({
      rows: [
        [1, 2.20462262185],
        [2, 4.4092452437],
      ],
    });
    const third = iterator.next();
    expect(timers.pendingDelays).toEqual([200]);
    controller.abort(new Error("cancelled"));
    await expect(third).rejects.toThrow("cancelled");
    expect(timers.pending).toBe(0);
  });

  it("checks every value and both units before the first row", async () => {
    const first = async (args: JsonValue): Promise<unknown> =>
      (run(createUnitTableTool(), args) as AsyncGenerator<JsonValue>)[Symbol.asyncIterator]().next();
    await expect(first({ from: "km", to: "kg", values: [1] })).rejects.toThrow("Cannot convert length to mass");
    await expect(first({ from: "km", to: "mi", values: [1, "2"] })).rejects.toThrow(/^Pass `value` as a finite number/);
    await expect(
      first({ from: "km", to: "mi", values: Array.from({ length: MAX_ROWS + 1 }, (_, i) => i) }),
    ).rejects.toThrow(ToolHandlerError);
    await expect(first({ from: "km", to: "mi", values: [] })).rejects.toThrow(
      /^Pass `values` as a list of 1 to 12 numbers/,
    );
  });
});

describe("the demo tool set", () => {
  it("offers current_time, calculate, convert_units and unit_table, each with a description and a JSON Schema", () => {
    expect(DEMO_TOOL_NAMES).toEqual(["current_time", "calculate", "convert_units", "unit_table"]);
    for (const [name, tool] of Object.entries(demoTools())) {
      expect(tool.description, name).toMatch(/\S/);
      expect(tool.parameters, name).toMatchObject({
        type: "object",
        required: expect.any(Array),
        additionalProperties: false,
      });
      expect(tool.needsApproval, name).toBeUndefined(); // none writes anything
    }
  });
});
