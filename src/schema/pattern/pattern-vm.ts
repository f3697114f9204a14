import { isWordCode } from "./code-sets.ts";
import { ASSERT, CODE, JUMP, MATCH, type Program, SET, SPLIT } from "./pattern-program.ts";
import { BOUNDARY, END, NOT_BOUNDARY, START } from "./pattern-syntax.ts";

/**
 * The matcher: a Pike VM that reads the string once, code point by code point, holding each
 * instruction at most once per position, so its work is at most (code points + 1) x (about
 * twice the instructions), whatever the pattern and the string. Every instruction it follows
 * and every thread it moves is a step taken from the caller's budget.
 *
 * @module
 */

/** The work a check may still do, counted down by whoever does it. */
export interface StepBudget {
  /** Steps left; below zero, the work stopped unfinished. */
  steps: number;
  /**
   * Where work done once for a request's schema (building a pattern's program) is charged while
   * it has the steps, rather than to the call that first needs it: a response's pool.
   */
  builds?: StepBudget | undefined;
  /** The code point that stopped a pattern, its Unicode properties differing between the runtimes' Unicode versions. */
  unsettled?: number | undefined;
}

const EXHAUSTED = -1;
const MATCHED = 1;

/**
 * The matcher's working memory, shared by every program (a test never runs inside another: the
 * only calls out are to a set's native `RegExp`), grown to the largest program run.
 */
interface Scratch {
  /** The threads at the current and at the next code point. */
  readonly lists: readonly [Int32Array, Int32Array];
  /** The generation an instruction was last put in a list at, so it is put there once per code point. */
  readonly marks: Int32Array;
  /** The instructions still to follow in one closure. */
  readonly stack: Int32Array;
  generation: number;
}
let shared: Scratch | undefined;

function scratchFor(length: number): Scratch {
  if (shared && shared.marks.length >= length && shared.generation < 0x3fff_ffff) return shared;
  const size = Math.max(length, shared?.marks.length ?? 0);
  const array = (): Int32Array => new Int32Array(size);
  shared = { lists: [array(), array()], marks: array(), stack: array(), generation: 0 };
  return shared;
}

/** One test's moving parts, on one object so the closure below is a plain function. */
interface Run {
  readonly program: Program;
  readonly scratch: Scratch;
  readonly text: string;
  steps: number;
  generation: number;
  /** Threads in the list being filled. */
  count: number;
}

/** Whether the program matches somewhere in `text` (search, as `RegExp.prototype.test`); `false` when the budget ran out. */
export function runProgram(program: Program, text: string, budget: StepBudget): boolean {
  const { op, arg, sets, anchored } = program;
  const scratch = scratchFor(op.length);
  let [current, next] = scratch.lists;
  const run: Run = { program, scratch, text, steps: budget.steps, generation: ++scratch.generation, count: 0 };
  let before = -1;
  for (let at = 0; ; ) {
    const code = at < text.length ? text.codePointAt(at)! : -1;
    if (at === 0 || !anchored) {
      const found = close(run, current, 0, at, before, code);
      if (found !== 0) return finish(budget, run, found);
    }
    if (code < 0 || (run.count === 0 && anchored)) return finish(budget, run, 0);
    const width = code > 0xffff ? 2 : 1;
    const after = at + width < text.length ? text.codePointAt(at + width)! : -1;
    const threads = run.count;
    run.count = 0;
    run.generation = ++scratch.generation;
    for (let i = 0; i < threads; i++) {
      const pc = current[i]!;
      if (--run.steps < 0) return finish(budget, run, EXHAUSTED);
      const kind = op[pc];
      if (kind === CODE ? arg[pc] !== code : kind === SET && !sets[arg[pc]!]!.has(code)) continue;
      const found = close(run, next, pc + 1, at + width, code, after);
      if (found !== 0) return finish(budget, run, found);
    }
    const swap = current;
    current = next;
    next = swap;
    before = code;
    at += width;
  }
}

/**
 * Adds to `list` the instructions that read a code point reachable from `pc` without reading
 * one, at position `at` between the code points `before` and `after` (-1: none); `MATCHED` as
 * soon as the match is reachable, `EXHAUSTED` when the steps run out.
 */
function close(run: Run, list: Int32Array, pc: number, at: number, before: number, after: number): number {
  const { op, arg, alt } = run.program;
  const { marks, stack } = run.scratch;
  const generation = run.generation;
  if (marks[pc] === generation) return 0;
  marks[pc] = generation;
  stack[0] = pc;
  let top = 1;
  let steps = run.steps;
  let count = run.count;
  let found = 0;
  while (top > 0) {
    const from = stack[--top]!;
    if (--steps < 0) {
      found = EXHAUSTED;
      break;
    }
    let to = -1;
    switch (op[from]) {
      case MATCH:
        found = MATCHED;
        top = 0;
        continue;
      case JUMP:
        to = arg[from]!;
        break;
      case SPLIT: {
        to = arg[from]!;
        const also = alt[from]!;
        if (marks[also] !== generation) {
          marks[also] = generation;
          stack[top++] = also;
        }
        break;
      }
      case ASSERT:
        if (holds(arg[from]!, at, run.text.length, before, after)) to = from + 1;
        break;
      default:
        list[count++] = from;
    }
    if (to >= 0 && marks[to] !== generation) {
      marks[to] = generation;
      stack[top++] = to;
    }
  }
  run.steps = steps;
  run.count = count;
  return found;
}

function finish(budget: StepBudget, run: Run, found: number): boolean {
  budget.steps = run.steps;
  return found === MATCHED;
}
function holds(kind: number, at: number, length: number, before: number, after: number): boolean {
  switch (kind) {
    case START:
      return at === 0;
    case END:
      return at === length;
    case BOUNDARY:
      return isWordCode(before) !== isWordCode(after);
    case NOT_BOUNDARY:
      return isWordCode(before) === isWordCode(after);
    default:
      return false;
  }
}
