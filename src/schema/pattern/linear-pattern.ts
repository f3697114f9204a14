import { compileProgram, type Program } from "./pattern-program.ts";
import { type PatternNode, PatternRefusal, parsePattern } from "./pattern-syntax.ts";
import { runProgram, type StepBudget } from "./pattern-vm.ts";

/**
 * A JSON Schema pattern run in linear time: what `compilePattern` builds for `pattern` and
 * `patternProperties` instead of a backtracking `RegExp`.
 *
 * @module
 */

/** A pattern that runs in time linear in the string, its work counted. */
export class LinearPattern {
  /** The pattern as the schema wrote it. */
  readonly source: string;
  /** The instructions it compiles to (at most `MAX_INSTRUCTIONS`): the work per code point is at most about twice this. */
  readonly size: number;
  readonly #tree: PatternNode;
  #program: Program | undefined;

  constructor(source: string, tree: PatternNode) {
    this.source = source;
    this.#tree = tree;
    this.size = tree.size + 1;
  }

  /**
   * Whether the pattern matches somewhere in `text`, as `new RegExp(source, "u").test(text)`;
   * `false` as soon as `budget.steps` falls below zero (the caller then cannot tell). The program
   * is built at the first test, its instructions charged to that test's budget: the memory a
   * pattern holds (12 bytes an instruction, beside the matcher's one shared working memory) is
   * paid for in steps by the call that first needs it.
   */
  test(text: string, budget: StepBudget): boolean {
    if (!this.#program) {
      budget.steps -= this.size;
      if (budget.steps < 0) return false;
      this.#program = compileProgram(this.#tree);
    }
    return runProgram(this.#program, text, budget);
  }
}

/** A pattern read for the linear matcher, or why it is refused. */
export type LinearPatternResult =
  | { readonly type: "pattern"; readonly pattern: LinearPattern }
  | { readonly type: "refused"; readonly reason: string };

/** Reads a pattern (ECMAScript, `u` flag) for the linear matcher. */
export function linearPattern(source: string): LinearPatternResult {
  const tree = parsePattern(source);
  if (tree instanceof PatternRefusal) return { type: "refused", reason: tree.reason };
  return { type: "pattern", pattern: new LinearPattern(source, tree) };
}
