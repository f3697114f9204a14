import { UnsettledCode } from "./code-sets.ts";
import { compileProgram, type Program } from "./pattern-program.ts";
import { type ParsedPattern, type PatternNode, PatternRefusal, parsePattern } from "./pattern-syntax.ts";
import { runProgram, type StepBudget } from "./pattern-vm.ts";

/**
 * A JSON Schema pattern run in linear time: what `compilePattern` builds for `pattern` and
 * `patternProperties` instead of a backtracking `RegExp`.
 *
 * @module
 */

/**
 * What a set of a pattern (`[a-z]`, `\d`, `\u{...}`) costs in a check's steps when the program is
 * built: the runtime's `RegExp` of it, built and compiled at its first tests (4 to 26 µs in V8),
 * where a step of a check is some 30 to 200 ns. Without it, 230 patterns of 150 distinct sets
 * each held 230 one-key calls for 0.9 s of one request, 3.3 µs a charged step.
 */
export const SET_STEPS = 128;

/** A pattern that runs in time linear in the string, its work counted. */
export class LinearPattern {
  /** The pattern as the schema wrote it. */
  readonly source: string;
  /** The instructions it compiles to (at most `MAX_INSTRUCTIONS`): the work per code point is at most about twice this. */
  readonly size: number;
  /** Its distinct sets, each charged {@link SET_STEPS} when the program is built. */
  readonly sets: number;
  readonly #tree: PatternNode;
  /** What building its program and its sets costs, in steps. */
  readonly #cost: number;
  #program: Program | undefined;

  constructor(source: string, { tree, sets }: ParsedPattern) {
    this.source = source;
    this.#tree = tree;
    this.size = tree.size + 1;
    this.sets = sets;
    this.#cost = this.size + SET_STEPS * sets;
  }

  /**
   * Whether the pattern matches somewhere in `text`, as `new RegExp(source, "u").test(text)`;
   * `false` as soon as `budget.steps` falls below zero (the caller then cannot tell). The program
   * is built at the first test, its instructions and its sets charged to that test's budget: the
   * memory a pattern holds (12 bytes an instruction, beside the matcher's one shared working
   * memory) and the runtime's work on its sets are paid for in steps by the call that first needs
   * them, or by its response's pool of such work (`budget.builds`) while that has them: a call
   * past a response's 100th has only its steps per character, too few to build a pattern. A code
   * point whose Unicode properties the runtimes disagree on, met by a property escape, stops it
   * too (`budget.unsettled`).
   */
  test(text: string, budget: StepBudget): boolean {
    if (!this.#program) {
      const builds = budget.builds;
      (builds && builds.steps >= this.#cost ? builds : budget).steps -= this.#cost;
      if (budget.steps < 0) return false;
      this.#program = compileProgram(this.#tree);
    }
    try {
      return runProgram(this.#program, text, budget);
    } catch (error) {
      // A property escape met a code point the runtimes' Unicode versions disagree on: stopped as
      // when out of steps (same on every runtime: the code points read before it are settled).
      if (!(error instanceof UnsettledCode)) throw error;
      budget.unsettled = error.code;
      budget.steps = -1;
      return false;
    }
  }
}

/** A pattern read for the linear matcher, or why it is refused. */
export type LinearPatternResult =
  | { readonly type: "pattern"; readonly pattern: LinearPattern }
  | { readonly type: "refused"; readonly reason: string };

/** Reads a pattern (ECMAScript, `u` flag) for the linear matcher. */
export function linearPattern(source: string): LinearPatternResult {
  const read = parsePattern(source);
  if (read instanceof PatternRefusal) return { type: "refused", reason: read.reason };
  return { type: "pattern", pattern: new LinearPattern(source, read) };
}
