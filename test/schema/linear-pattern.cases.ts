// The linear-time matcher of `pattern` and `patternProperties` (issue 33): it agrees with the
// runtime's own RegExp (`u` flag) on generated patterns and strings, its work is counted in
// steps and bounded by (instructions x code points) whatever the pattern, the ReDoS patterns of
// the issue finish in a bounded count of steps, a spent budget stops it, and what it cannot run
// in linear time is refused by checkToolSchema at the keyword's path. Never a time.
import fc from "fast-check";
import {
  CheckBudget,
  checkToolArguments,
  checkToolSchema,
  IncrementalJsonParser,
  type JsonValue,
} from "../../src/index.ts";
import { type LinearPattern, linearPattern, SET_STEPS } from "../../src/schema/pattern/linear-pattern.ts";
import type { StepBudget } from "../../src/schema/pattern/pattern-vm.ts";
import { SchemaWatcher } from "../../src/schema/schema-watcher.ts";
import { assert, assertEquals, group } from "../support/harness.ts";

const compiled = (source: string): LinearPattern => {
  const read = linearPattern(source);
  if (read.type !== "pattern") throw new Error(`${source} refused: ${read.reason}`);
  return read.pattern;
};

/** A test with an ample budget: its verdict and the steps it took. */
function run(pattern: LinearPattern, text: string): { matched: boolean; steps: number; unsettled?: number } {
  const budget: StepBudget = { steps: 1e9 };
  const matched = pattern.test(text, budget);
  // A code point the runtimes' Unicode versions disagree on stops a property escape (unicode-versions.cases.ts).
  if (budget.unsettled !== undefined) return { matched, steps: 0, unsettled: budget.unsettled };
  return { matched, steps: 1e9 - budget.steps };
}

/** The most steps a test may take: building the program and its sets, then per position its closure and its threads. */
const bound = (pattern: LinearPattern, text: string): number =>
  pattern.size + SET_STEPS * pattern.sets + 2 * pattern.size * ([...text].length + 1);

/**
 * ECMA-262's `test` from the runtime's matcher at each start it allows: code point boundaries
 * only (RegExpBuiltinExec advances `lastIndex` by AdvanceStringIndex). V8 also tries the middle
 * of a surrogate pair, where only an empty match can succeed (`\B` on "a😀a"): this oracle is
 * asked only when the matcher and V8's own `test` disagree.
 */
function specTest(source: string, text: string): boolean {
  const sticky = new RegExp(source, "uy");
  for (let at = 0; at <= text.length; at += (text.codePointAt(at) ?? 0) > 0xffff ? 2 : 1) {
    sticky.lastIndex = at;
    if (sticky.test(text)) return true;
  }
  return false;
}

/** Patterns of the kind tool schemas carry: addresses, identifiers, versions, dates, names. */
const REAL_PATTERNS = [
  "^[a-zA-Z0-9._%+-]+@[a-zA-Z0-9.-]+\\.[a-zA-Z]{2,}$",
  "^[0-9a-f]{8}-[0-9a-f]{4}-[1-5][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$",
  "^(0|[1-9]\\d*)\\.(0|[1-9]\\d*)\\.(0|[1-9]\\d*)(?:-((?:0|[1-9]\\d*|\\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\\.(?:0|[1-9]\\d*|\\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\\+([0-9a-zA-Z-]+(?:\\.[0-9a-zA-Z-]+)*))?$",
  "^\\+?[1-9]\\d{1,14}$",
  "^#(?:[0-9a-fA-F]{3}){1,2}$",
  "^[a-z0-9]+(?:-[a-z0-9]+)*$",
  "^https?://[^\\s/$.?#].[^\\s]*$",
  "^\\p{Lu}\\p{Ll}+(?: \\p{Lu}\\p{Ll}+)*$",
  "(?<area>\\d{3})[- ]?(?<number>\\d{4})",
  "^(?:[01]\\d|2[0-3]):[0-5]\\d$",
  "^[\\w.-]{1,64}\\b",
  "^\\S+$",
  "^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}(?::\\d{2}(?:\\.\\d+)?)?(?:Z|[+-]\\d{2}:\\d{2})$",
];

const ATOMS = [
  "a",
  "b",
  "1",
  "-",
  "😀",
  ".",
  "\\d",
  "\\D",
  "\\w",
  "\\W",
  "\\s",
  "\\S",
  "[a-c]",
  "[^a]",
  "[\\d_]",
  "[^\\s\\d]",
  "[😀-😂]",
  "[]",
  "[^]",
  "\\p{L}",
  "\\P{L}",
  "\\p{Lu}",
  "\\p{Script=Greek}",
  "\\u{1F600}",
  "\\uD83D\\uDE00",
  "\\uD83D",
  "\\uDE00",
  "\\x41",
  "\\n",
  "\\cJ",
  "\\/",
  "\\.",
  "\\$",
];
const ASSERTIONS = ["^", "$", "\\b", "\\B"];
const QUANTIFIERS = ["", "", "", "*", "+", "?", "{2}", "{0,2}", "{1,}", "{2,3}", "{0}"];

const patterns = fc.letrec((tie) => ({
  atom: fc.oneof(
    { maxDepth: 2, depthIdentifier: "group", withCrossShrink: true },
    fc.constantFrom(...ATOMS),
    tie("group") as fc.Arbitrary<string>,
  ),
  group: fc
    .tuple(fc.constantFrom("(", "(?:"), tie("choice") as fc.Arbitrary<string>)
    .map(([open, body]) => `${open}${body})`),
  piece: fc.oneof(
    fc
      .tuple(tie("atom") as fc.Arbitrary<string>, fc.constantFrom(...QUANTIFIERS), fc.constantFrom("", "?"))
      .map(([atom, quantifier, lazy]) => (quantifier === "" ? atom : `${atom}${quantifier}${lazy}`)),
    fc.constantFrom(...ASSERTIONS),
  ),
  sequence: fc.array(tie("piece") as fc.Arbitrary<string>, { maxLength: 3 }).map((pieces) => pieces.join("")),
  choice: fc
    .array(tie("sequence") as fc.Arbitrary<string>, { minLength: 1, maxLength: 3 })
    .map((options) => options.join("|")),
})).choice;

const CHARACTERS = ["a", "b", "c", "1", "_", " ", "\n", "\u2028", "-", "A", "é", "Ω", "😀", "\uD83D", "\uDE00", "."];
const texts = fc.array(fc.constantFrom(...CHARACTERS), { maxLength: 10 }).map((parts) => parts.join(""));

group("Linear-time patterns (issue 33)", (test) => {
  test("agrees with RegExp (u flag) on generated patterns and strings, in steps bounded by size x length", () => {
    let matches = 0;
    fc.assert(
      fc.property(patterns, fc.array(texts, { minLength: 1, maxLength: 6 }), (source, strings) => {
        let native: RegExp;
        try {
          native = new RegExp(source, "u");
        } catch {
          assertEquals(linearPattern(source).type, "refused", `${source} is not valid ECMAScript`);
          return;
        }
        const pattern = compiled(source);
        for (const text of strings) {
          const { matched, steps } = run(pattern, text);
          const expected = native.test(text) === matched ? matched : specTest(source, text);
          assertEquals(matched, expected, `${JSON.stringify(source)} on ${JSON.stringify(text)}`);
          assert(steps <= bound(pattern, text), `${source} on ${JSON.stringify(text)}: ${steps} steps`);
          if (matched) matches++;
        }
      }),
      { seed: 33, numRuns: 2000 },
    );
    assert(matches > 1500, `enough matches to prove something (${matches})`);
  });

  test("agrees with RegExp on patterns schemas use, on strings they match and near misses", () => {
    for (const [i, source] of REAL_PATTERNS.entries()) {
      const native = new RegExp(source, "u");
      const pattern = compiled(source);
      let matching: fc.Arbitrary<string>;
      try {
        matching = fc.stringMatching(native);
      } catch {
        matching = fc.string(); // a construct fast-check cannot generate from (\\b)
      }
      const nearMiss = fc
        .tuple(matching, fc.nat(), fc.constantFrom("", "a", "Z", "-", ".", " ", "😀", "\n", "9"))
        .map(([text, at, put]) => {
          const cut = at % (text.length + 1);
          return `${text.slice(0, cut)}${put}${text.slice(cut + 1)}`;
        });
      let matches = 0;
      fc.assert(
        fc.property(fc.oneof(matching, nearMiss, texts), (text) => {
          const { matched, steps, unsettled } = run(pattern, text);
          if (unsettled !== undefined) return;
          assertEquals(matched, native.test(text), `${source} on ${JSON.stringify(text)}`);
          assert(steps <= bound(pattern, text), `${source} on ${JSON.stringify(text)}: ${steps} steps`);
          if (matched) matches++;
        }),
        { seed: 330 + i, numRuns: 300 },
      );
      assert(matches >= 60, `${source}: enough matches (${matches})`);
    }
  });

  test("an empty match is tried at code point boundaries only, as ECMA-262 says (V8 also tries inside a pair)", () => {
    const pattern = compiled("\\B");
    assertEquals(run(pattern, "a😀a").matched, false);
    assertEquals(specTest("\\B", "a😀a"), false);
    assertEquals(run(pattern, "a😀😀").matched, true, "between the two 😀, a code point boundary");
  });

  test("u-mode meanings: code points, line terminators, property escapes, escapes, anchors at the string's ends", () => {
    const cases: [string, string, boolean][] = [
      ["^.$", "😀", true],
      ["^..$", "😀", false],
      ["^.$", "\n", false],
      ["^.$", "\u2029", false],
      ["^[^]$", "\n", true],
      ["^\\uD83D$", "\uD83D", true],
      ["\\uD83D", "😀", false], // a surrogate pair is one code point: its half is not in it
      ["^\\u{1F600}$", "😀", true],
      ["^\\p{Script=Greek}+$", "Ωμέγα", true],
      ["^\\p{Lu}", "élan", false],
      ["^\\s+$", "\t\u00a0\ufeff\u3000", true],
      ["^\\w+$", "é", false],
      ["\\bé", " é", false], // \b knows ASCII word characters only
      ["^a$", "a\nb", false], // no m flag: $ is the string's end only
      ["^\\/\\.\\*\\$$", "/.*$", true],
      ["^\\cJ\\x41\\0$", "\nA\0", true],
      ["", "", true],
      ["a{0}", "", true],
      ["^(?:a|b)*?c+?$", "abacc", true],
    ];
    for (const [source, text, expected] of cases) {
      assertEquals(run(compiled(source), text).matched, expected, `${source} on ${JSON.stringify(text)}`);
      assertEquals(expected, new RegExp(source, "u").test(text), `the case itself: ${source}`);
    }
  });

  test("the ReDoS patterns of the issue finish in a bounded count of steps", () => {
    const nested = compiled("^(a+)+$");
    for (const length of [28, 1_000, 10_000]) {
      const text = `${"a".repeat(length)}!`;
      const { matched, steps } = run(nested, text);
      assert(!matched && steps <= bound(nested, text), `^(a+)+$ on ${length} a's and a !: ${steps} steps`);
    }
    for (const k of [20, 2_000]) {
      const optional = compiled(`^(?:.?){${k}}(?:.?){${k}}$x`);
      const { matched, steps } = run(optional, "country");
      assert(!matched && steps <= bound(optional, "country"), `K=${k}: ${steps} steps`);
    }
    const alternatives = compiled("^(a|a)*$");
    const text = `${"a".repeat(5_000)}b`;
    assert(run(alternatives, text).steps <= bound(alternatives, text));
  });

  test("a pattern's sets are charged at its first test, each a RegExp of the runtime's: 128 steps a distinct set, once", () => {
    // 150 distinct classes: 150 RegExps built and compiled at the first tests (4 to 26 µs each),
    // once charged nothing beside the program's 450 instructions and the threads' steps.
    const source = Array.from({ length: 150 }, (_, i) => `[a${i.toString(36)}]`).join("|");
    const pattern = compiled(source);
    assertEquals(pattern.sets, 150);
    const first = run(pattern, "éé").steps;
    const second = run(pattern, "éé").steps;
    assert(first - second >= 150 * SET_STEPS, `first ${first}, then ${second} steps`);
    assertEquals(compiled("^[a-z]+[a-z]*\\d{3}\\d$").sets, 2, "a set written again is one");
  });

  test("a spent budget stops the test at once: false, and steps below zero", () => {
    const pattern = compiled("a{0,100}b");
    const budget = { steps: 500 };
    assertEquals(pattern.test("a".repeat(5_000), budget), false);
    assertEquals(budget.steps, -1, "it stops at the first step past the budget");
    const broke = { steps: 3 };
    assertEquals(compiled("(?:abc){50}").test("abc".repeat(50), broke), false);
    assert(broke.steps < 0, "building the program is charged too");
    const enough = { steps: 1e6 };
    assertEquals(pattern.test(`${"a".repeat(50)}b`, enough), true);
  });

  test("checkToolSchema refuses what cannot run in linear time, at the keyword's path", () => {
    const at = (schema: Record<string, unknown>) =>
      checkToolSchema({ type: "object", properties: { code: schema } }, "tools[0].parameters");
    const linear = "a linear-time matcher cannot run";
    assertEquals(at({ pattern: "^(a)\\1$" }), [
      { path: "tools[0].parameters.properties.code.pattern", message: `uses a backreference, which ${linear}` },
    ]);
    assertEquals(at({ pattern: "(?<x>a)\\k<x>" })[0]?.message, `uses a backreference, which ${linear}`);
    assertEquals(at({ pattern: "^(?!admin)" })[0]?.message, `uses a lookahead or lookbehind, which ${linear}`);
    assertEquals(at({ pattern: "(?<=\\$)\\d+" })[0]?.message, `uses a lookahead or lookbehind, which ${linear}`);
    assertEquals(at({ pattern: "(a{1000}){1000}" }), [
      { path: "tools[0].parameters.properties.code.pattern", message: "expands to more than 20,000 instructions" },
    ]);
    assertEquals(at({ patternProperties: { "^(?=x)": {}, "^x\\d{2}$": {} } }), [
      {
        path: 'tools[0].parameters.properties.code.patternProperties["^(?=x)"]',
        message: `uses a lookahead or lookbehind, which ${linear}`,
      },
    ]);
    assertEquals(at({ pattern: "^[a-z]{1,64}$", patternProperties: { "^\\p{L}+$": {} } }), []);
  });

  test("a refused pattern is ignored by the checks, as an invalid one is; a costly one is not checked, never a hang", () => {
    assertEquals(checkToolArguments({ code: "ab" }, { properties: { code: { pattern: "^(a)\\1$" } } }), []);
    const redos = { type: "object", properties: { code: { type: "string", pattern: "^(a+)+$" } } } as const;
    assertEquals(checkToolArguments({ code: `${"a".repeat(28)}!` }, redos), ["$.code must match its pattern"]);
    // 10,000 code points past 5,000 live threads each: more than one check's budget.
    const costly = { type: "object", properties: { code: { type: "string", pattern: "a{0,5000}b" } } } as const;
    const text = "a".repeat(10_000);
    const issues = checkToolArguments({ code: text }, costly);
    assert(issues.length === 1 && /could not be checked/.test(issues[0]!), JSON.stringify(issues));
    const watcher = new SchemaWatcher(costly);
    new IncrementalJsonParser({ listener: watcher }).feed(JSON.stringify({ code: text }));
    assertEquals(watcher.violation, undefined, "the early check stops looking and accepts");
    // The same on a key: a patternProperties pattern whose steps run out neither matches the key
    // nor leaves it to additionalProperties: false.
    const keys = { type: "object", patternProperties: { "a{0,5000}b": {} }, additionalProperties: false } as const;
    const keyIssues = checkToolArguments({ [text]: 1 }, keys);
    assert(keyIssues.length === 1 && /could not be checked/.test(keyIssues[0]!), JSON.stringify(keyIssues));
    const keyWatcher = new SchemaWatcher(keys);
    new IncrementalJsonParser({ listener: keyWatcher }).feed(JSON.stringify({ [text]: 1 }));
    assertEquals(keyWatcher.violation, undefined);
  });

  test("a string of any length is matched as RegExp matches it, in both checks; past the budget, not checked", () => {
    // Past 10,000 characters a string never matched: `^a` rejected a valid one (also early), and
    // `not`, `patternProperties` accepted what they reject. The call's budget bounds the work.
    const long = "a".repeat(10_001);
    const cases: [object, JsonValue, string[]][] = [
      [{ type: "string", pattern: "^a" }, long, []],
      [{ type: "object", propertyNames: { pattern: "^a" } }, { [long]: 1 }, []],
      [{ not: { pattern: "^a" } }, long, ["$ must not match the schema in not"]],
      [
        { type: "object", patternProperties: { "^a": { type: "string" } } },
        { [long]: 1 },
        [`$.${"a".repeat(39)}… must be string, not number`],
      ],
    ];
    for (const [schema, value, issues] of cases) {
      const text = JSON.stringify(value);
      assertEquals(
        checkToolArguments(value, schema, { budget: new CheckBudget(text.length) }),
        issues,
        JSON.stringify(schema),
      );
      const watcher = new SchemaWatcher(schema, { budget: new CheckBudget(text.length) });
      new IncrementalJsonParser({ listener: watcher }).feed(text);
      // `not` is the final check's alone.
      const early = issues.length > 0 && !("not" in schema);
      assertEquals(watcher.violation !== undefined, early, `early: ${JSON.stringify(schema)}`);
    }
    // 100,000 characters past a 5,000-thread pattern: more than a call's 2,000,000 steps, refused as such.
    const costly = "a".repeat(100_000);
    const issues = checkToolArguments(costly, { pattern: "a{0,5000}b" }, { budget: new CheckBudget(costly.length) });
    assert(issues.length === 1 && /could not be checked/.test(issues[0]!), JSON.stringify(issues));
  });
});
