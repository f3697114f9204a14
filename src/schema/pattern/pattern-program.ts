import type { CodeSet } from "./code-sets.ts";
import { type PatternNode, START } from "./pattern-syntax.ts";

/**
 * A pattern's tree compiled to the instructions of a Thompson NFA (Pike VM without captures:
 * `test` needs only whether a match exists, so greedy and lazy, and groups, are alike).
 * Counted repetitions are written out, which the tree's sizes have already bounded.
 *
 * @module
 */

/** Match one code point (`arg`: the code point). */
export const CODE = 0;
/** Match one code point of a set (`arg`: the set's index). */
export const SET = 1;
/** An assertion (`arg`: its kind, from `pattern-syntax.ts`). */
export const ASSERT = 2;
/** Go on at `arg` and at `alt`. */
export const SPLIT = 3;
/** Go on at `arg`. */
export const JUMP = 4;
/** The pattern matched. */
export const MATCH = 5;

/** The instructions, in parallel arrays (12 bytes an instruction). */
export interface Program {
  readonly op: Int32Array;
  readonly arg: Int32Array;
  readonly alt: Int32Array;
  readonly sets: readonly CodeSet[];
  /** Whether every match begins at the string's start (the pattern begins with `^`): one start thread only. */
  readonly anchored: boolean;
}

/** The program of a tree (its `size` instructions and a final `MATCH`). */
export function compileProgram(tree: PatternNode): Program {
  const length = tree.size + 1;
  const op = new Int32Array(length);
  const arg = new Int32Array(length);
  const alt = new Int32Array(length);
  const sets: CodeSet[] = [];
  let pc = 0;
  const put = (kind: number, a = 0, b = 0): number => {
    op[pc] = kind;
    arg[pc] = a;
    alt[pc] = b;
    return pc++;
  };
  const emit = (node: PatternNode): void => {
    switch (node.type) {
      case "code":
        put(CODE, node.code);
        return;
      case "set":
        put(SET, sets.push(node.set) - 1);
        return;
      case "assert":
        put(ASSERT, node.kind);
        return;
      case "sequence":
        for (const item of node.items) emit(item);
        return;
      case "choice": {
        const jumps: number[] = [];
        node.options.forEach((option, i) => {
          if (i === node.options.length - 1) return emit(option);
          const split = put(SPLIT, pc + 1);
          emit(option);
          jumps.push(put(JUMP));
          alt[split] = pc;
        });
        for (const jump of jumps) arg[jump] = pc;
        return;
      }
      case "repeat":
        return emitRepeat(node.body, node.min, node.max);
    }
  };
  const emitRepeat = (body: PatternNode, min: number, max: number): void => {
    if (body.size === 0) return; // an empty body repeated is empty
    for (let i = 0; i < min; i++) emit(body);
    if (max === Number.POSITIVE_INFINITY) {
      const loop = put(SPLIT, pc + 1);
      emit(body);
      put(JUMP, loop);
      alt[loop] = pc;
      return;
    }
    // Optional copies nest, (x(x(x)?)?)?: each one's split skips to after the last.
    const splits: number[] = [];
    for (let i = min; i < max; i++) {
      splits.push(put(SPLIT, pc + 1));
      emit(body);
    }
    for (const split of splits) alt[split] = pc;
  };
  emit(tree);
  put(MATCH);
  return { op, arg, alt, sets, anchored: startsAnchored(tree) };
}

/** Whether a match must begin at the string's start: the tree begins with `^` on every path. */
function startsAnchored(node: PatternNode): boolean {
  switch (node.type) {
    case "assert":
      return node.kind === START;
    case "sequence":
      return node.items.length > 0 && startsAnchored(node.items[0]!);
    case "choice":
      return node.options.every(startsAnchored);
    case "repeat":
      return node.min > 0 && startsAnchored(node.body);
    default:
      return false;
  }
}
