import { ToolHandlerError, type JsonValue, type RunnableTool } from "../../src/index.ts";
import { ArithmeticError, evaluate, MAX_EXPRESSION_LENGTH } from "./arithmetic.ts";

/** Significant digits of a result: enough for any double that means something, few enough to drop 0.1 + 0.2 noise. */
const SIGNIFICANT_DIGITS = 15;

/**
 * `calculate`: evaluates an arithmetic expression with the Worker's own parser (never `eval`).
 * Errors say where the expression is wrong and what it may contain, without repeating it.
 */
export const calculator: RunnableTool = {
  description:
    'Evaluate an arithmetic expression exactly, e.g. "(1200 * 0.07) / 12" or "sqrt(2) ^ 3". Supports + - * / % ^, parentheses, pi, e, tau and sqrt, cbrt, abs, round, floor, ceil, trunc, ln, log10, log2, exp, sin, cos, tan, asin, acos, atan (radians), min, max, hypot.',
  parameters: {
    type: "object",
    properties: {
      expression: { type: "string", description: `The expression, at most ${MAX_EXPRESSION_LENGTH} characters.` },
    },
    required: ["expression"],
    additionalProperties: false,
  },
  run(args: JsonValue): JsonValue {
    const expression = isObject(args) ? args["expression"] : undefined;
    if (typeof expression !== "string" || expression.trim() === "")
      throw new ToolHandlerError('Pass `expression`, a non-empty string such as "2 * (3 + 4)".');
    try {
      return { result: Number(evaluate(expression).toPrecision(SIGNIFICANT_DIGITS)) };
    } catch (error) {
      if (error instanceof ArithmeticError) throw new ToolHandlerError(error.message);
      throw error;
    }
  },
};

function isObject(value: JsonValue): value is { [key: string]: JsonValue } {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
