/**
 * A small arithmetic language, evaluated by its own tokenizer and recursive-descent parser:
 * never `eval` or `Function`, so an expression can compute and nothing else.
 *
 * ```text
 * expression := term (("+" | "-") term)*
 * term       := unary (("*" | "/" | "%") unary)*
 * unary      := ("+" | "-") unary | power
 * power      := primary (("^" | "**") unary)?        right-associative; -2^2 is -(2^2)
 * primary    := number | constant | function "(" expression ("," expression)* ")" | "(" expression ")"
 * ```
 *
 * Every input is bounded: its length, the nesting depth, the digits of a number, and every
 * intermediate value must stay finite.
 *
 * @module
 */

/** Longest expression, in characters. */
export const MAX_EXPRESSION_LENGTH = 500;
/** Deepest nesting of parentheses, signs and powers. */
export const MAX_DEPTH = 40;
/** Longest number literal, in characters. */
const MAX_NUMBER_LENGTH = 32;
/** Most arguments of one function call. */
const MAX_ARGUMENTS = 16;

const CONSTANTS: Readonly<Record<string, number>> = { pi: Math.PI, e: Math.E, tau: 2 * Math.PI };

/** The functions, by name, with how many arguments each takes ([min, max]). */
const FUNCTIONS: Readonly<Record<string, { arity: readonly [number, number]; apply: (...args: number[]) => number }>> =
  {
    sqrt: { arity: [1, 1], apply: Math.sqrt },
    cbrt: { arity: [1, 1], apply: Math.cbrt },
    abs: { arity: [1, 1], apply: Math.abs },
    round: { arity: [1, 1], apply: Math.round },
    floor: { arity: [1, 1], apply: Math.floor },
    ceil: { arity: [1, 1], apply: Math.ceil },
    trunc: { arity: [1, 1], apply: Math.trunc },
    ln: { arity: [1, 1], apply: Math.log },
    log10: { arity: [1, 1], apply: Math.log10 },
    log2: { arity: [1, 1], apply: Math.log2 },
    exp: { arity: [1, 1], apply: Math.exp },
    sin: { arity: [1, 1], apply: Math.sin },
    cos: { arity: [1, 1], apply: Math.cos },
    tan: { arity: [1, 1], apply: Math.tan },
    asin: { arity: [1, 1], apply: Math.asin },
    acos: { arity: [1, 1], apply: Math.acos },
    atan: { arity: [1, 1], apply: Math.atan },
    min: { arity: [1, MAX_ARGUMENTS], apply: Math.min },
    max: { arity: [1, MAX_ARGUMENTS], apply: Math.max },
    hypot: { arity: [1, MAX_ARGUMENTS], apply: Math.hypot },
  };

/** The names an expression may use, for error messages. */
export const KNOWN_NAMES: string = `constants ${Object.keys(CONSTANTS).join(", ")}; functions ${Object.keys(FUNCTIONS).join(", ")}`;

/** An expression that cannot be evaluated; `position` is the 0-based character offset at fault. */
export class ArithmeticError extends Error {
  /** Where in the expression the problem is (0-based). */
  readonly position: number;

  /** The message says what is wrong and what is expected; it never repeats the expression. */
  constructor(message: string, position: number) {
    super(message);
    this.name = "ArithmeticError";
    this.position = position;
  }
}

type Operator = "+" | "-" | "*" | "/" | "%" | "^" | "(" | ")" | ",";

/** One token of an expression; `at` is its 0-based character offset. */
export type Token =
  | { kind: "number"; value: number; at: number }
  | { kind: "name"; name: string; at: number }
  | { kind: "op"; op: Operator; at: number }
  | { kind: "end"; at: number };

/** Splits an expression into tokens; throws {@link ArithmeticError} at the first character that fits none. */
export function tokenize(text: string): Token[] {
  if (text.length > MAX_EXPRESSION_LENGTH)
    throw new ArithmeticError(
      `The expression is longer than ${MAX_EXPRESSION_LENGTH} characters.`,
      MAX_EXPRESSION_LENGTH,
    );
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (c === " " || c === "\t" || c === "\n" || c === "\r") {
      i++;
    } else if (isDigit(c) || (c === "." && isDigit(text[i + 1] ?? ""))) {
      i = readNumber(text, i, tokens);
    } else if (isLetter(c)) {
      const start = i;
      while (i < text.length && (isLetter(text[i]!) || isDigit(text[i]!))) i++;
      tokens.push({ kind: "name", name: text.slice(start, i).toLowerCase(), at: start });
    } else if (c === "*" && text[i + 1] === "*") {
      tokens.push({ kind: "op", op: "^", at: i });
      i += 2;
    } else if ("+-*/%^(),".includes(c)) {
      tokens.push({ kind: "op", op: c as Operator, at: i });
      i++;
    } else if (c === "×" || c === "÷") {
      tokens.push({ kind: "op", op: c === "×" ? "*" : "/", at: i });
      i++;
    } else {
      throw new ArithmeticError(
        `Unexpected character at position ${i + 1}; use numbers, + - * / % ^, parentheses, ${KNOWN_NAMES}.`,
        i,
      );
    }
  }
  tokens.push({ kind: "end", at: text.length });
  return tokens;
}

function readNumber(text: string, start: number, tokens: Token[]): number {
  const match = /^(?:\d+(?:_\d+)*)?(?:\.\d*)?(?:[eE][+-]?\d+)?/.exec(text.slice(start, start + MAX_NUMBER_LENGTH + 1));
  const literal = match?.[0] ?? "";
  if (literal.length > MAX_NUMBER_LENGTH)
    throw new ArithmeticError(
      `The number at position ${start + 1} has more than ${MAX_NUMBER_LENGTH} characters.`,
      start,
    );
  const value = Number(literal.replaceAll("_", ""));
  if (!Number.isFinite(value)) throw new ArithmeticError(`The number at position ${start + 1} is too large.`, start);
  tokens.push({ kind: "number", value, at: start });
  return start + literal.length;
}

/**
 * Evaluates an arithmetic expression.
 *
 * @example
 * ```ts
 * evaluate("2 * (3 + 4) ^ 2"); // 98
 * evaluate("sqrt(2) * max(1, 3)"); // 4.242640687119285
 * ```
 * @throws {ArithmeticError} for a syntax error, an unknown name, a division by zero, a result
 * that is not a finite real number, or an input over the bounds.
 */
export function evaluate(text: string): number {
  const parser = new Parser(tokenize(text));
  const value = parser.expression(0);
  parser.expectEnd();
  return value;
}

class Parser {
  readonly #tokens: Token[];
  #next = 0;

  constructor(tokens: Token[]) {
    this.#tokens = tokens;
  }

  expression(depth: number): number {
    let value = this.#term(depth);
    for (let op = this.#peekOp("+", "-"); op; op = this.#peekOp("+", "-")) {
      this.#next++;
      const right = this.#term(depth);
      value = finite(op.op === "+" ? value + right : value - right, op.at);
    }
    return value;
  }

  expectEnd(): void {
    const token = this.#peek();
    if (token.kind === "op" && token.op === ")")
      throw new ArithmeticError(`Unmatched ")" at position ${token.at + 1}.`, token.at);
    if (token.kind !== "end") throw new ArithmeticError(`Expected an operator at position ${token.at + 1}.`, token.at);
  }

  #term(depth: number): number {
    let value = this.#unary(depth);
    for (let op = this.#peekOp("*", "/", "%"); op; op = this.#peekOp("*", "/", "%")) {
      this.#next++;
      const right = this.#unary(depth);
      if (op.op !== "*" && right === 0) throw new ArithmeticError(`Division by zero at position ${op.at + 1}.`, op.at);
      value = finite(op.op === "*" ? value * right : op.op === "/" ? value / right : value % right, op.at);
    }
    return value;
  }

  #unary(depth: number): number {
    const op = this.#peekOp("+", "-");
    if (!op) return this.#power(depth);
    this.#next++;
    const value = this.#unary(deeper(depth, op.at));
    return op.op === "-" ? -value : value;
  }

  #power(depth: number): number {
    const base = this.#primary(depth);
    const op = this.#peekOp("^");
    if (!op) return base;
    this.#next++;
    return finite(base ** this.#unary(deeper(depth, op.at)), op.at);
  }

  #primary(depth: number): number {
    const token = this.#tokens[this.#next++]!;
    if (token.kind === "number") return token.value;
    if (token.kind === "name") return this.#name(token, depth);
    if (token.kind === "op" && token.op === "(") {
      const value = this.expression(deeper(depth, token.at));
      this.#close(token.at);
      return value;
    }
    const where = token.kind === "end" ? "at the end" : `at position ${token.at + 1}`;
    throw new ArithmeticError(`Expected a number, a name or "(" ${where}.`, token.at);
  }

  #name(token: Extract<Token, { kind: "name" }>, depth: number): number {
    const constant = Object.hasOwn(CONSTANTS, token.name) ? CONSTANTS[token.name] : undefined;
    if (constant !== undefined) return constant;
    const fn = Object.hasOwn(FUNCTIONS, token.name) ? FUNCTIONS[token.name] : undefined;
    if (!fn)
      throw new ArithmeticError(
        `Unknown name at position ${token.at + 1}; the known names are ${KNOWN_NAMES}.`,
        token.at,
      );
    const open = this.#peekOp("(");
    if (!open)
      throw new ArithmeticError(`A function at position ${token.at + 1} needs its arguments in parentheses.`, token.at);
    this.#next++;
    const args = [this.expression(deeper(depth, open.at))];
    while (this.#peekOp(",")) {
      this.#next++;
      if (args.length >= fn.arity[1])
        throw new ArithmeticError(
          `The function at position ${token.at + 1} takes at most ${fn.arity[1]} argument(s).`,
          token.at,
        );
      args.push(this.expression(deeper(depth, open.at)));
    }
    this.#close(open.at);
    if (args.length < fn.arity[0])
      throw new ArithmeticError(
        `The function at position ${token.at + 1} takes at least ${fn.arity[0]} argument(s).`,
        token.at,
      );
    return finite(fn.apply(...args), token.at);
  }

  #close(openedAt: number): void {
    if (this.#peekOp(")")) {
      this.#next++;
      return;
    }
    throw new ArithmeticError(`The "(" at position ${openedAt + 1} is never closed.`, openedAt);
  }

  #peek(): Token {
    return this.#tokens[this.#next]!;
  }

  #peekOp<O extends string>(...ops: O[]): { op: O; at: number } | undefined {
    const token = this.#peek();
    return token.kind === "op" && (ops as string[]).includes(token.op)
      ? { op: token.op as O, at: token.at }
      : undefined;
  }
}

function deeper(depth: number, at: number): number {
  if (depth + 1 > MAX_DEPTH) throw new ArithmeticError(`The expression nests deeper than ${MAX_DEPTH} levels.`, at);
  return depth + 1;
}

function finite(value: number, at: number): number {
  if (Number.isNaN(value)) throw new ArithmeticError(`The result at position ${at + 1} is not a real number.`, at);
  if (!Number.isFinite(value)) throw new ArithmeticError(`The result at position ${at + 1} is too large.`, at);
  return value;
}

function isDigit(c: string): boolean {
  return c >= "0" && c <= "9";
}

function isLetter(c: string): boolean {
  return (c >= "a" && c <= "z") || (c >= "A" && c <= "Z") || c === "_";
}
