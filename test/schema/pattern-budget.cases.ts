// The Unicode property escapes of a request's patterns (`\p{L}`), which cost the runtime's RegExp
// constructor some 30 to 250 µs each against well under 1 µs for any other part of a pattern: one
// budget (PatternBudget) shared by every checkToolSchema call of a request, counted before the
// runtime reads a pattern, each distinct pattern once, and a pattern past it refused at its path.
// The work is compared by counting the escapes the runtime is given to read, never by a time.
import { checkToolArguments, checkToolSchema, PatternBudget, type ToolSchema } from "../../src/index.ts";
import { propertyEscapes } from "../../src/schema/pattern-budget.ts";
import { assert, assertEquals, group } from "../support/harness.ts";

const NAMES = ["L", "Lu", "Ll", "N", "Nd", "P", "S", "Alphabetic", "Assigned", "ID_Start", "Script=Greek"];
/** A pattern of `n` escapes that no other call of this gives (its own suffix). */
let made = 0;
const escapes = (n: number): string =>
  `^${Array.from({ length: n }, (_, i) => `\\p{${NAMES[i % NAMES.length]}}`).join("")}(?:${made++})?`;
const tool = (...patterns: string[]): Record<string, unknown> => ({
  type: "object",
  properties: Object.fromEntries(patterns.map((pattern, i) => [`p${i}`, { type: "string", pattern }])),
});
const refusal = (path: string) => ({
  path,
  message:
    "takes the Unicode property escapes (\\p{...}) of the request's patterns past 64 (each costs the runtime far more than any other part of a pattern)",
});

/** Runs `work` with the runtime's RegExp constructor counting the property escapes of the sources it is given. */
function escapesRead(work: () => void): number {
  const original = globalThis.RegExp;
  let read = 0;
  globalThis.RegExp = new Proxy(original, {
    construct(target, args: [string, string?]) {
      read += propertyEscapes(String(args[0]));
      return Reflect.construct(target, args) as RegExp;
    },
  });
  try {
    work();
  } finally {
    globalThis.RegExp = original;
  }
  return read;
}

group("PatternBudget: the Unicode property escapes of one request's patterns", (test) => {
  test("counts \\p and \\P escapes, not an escaped backslash before a p", () => {
    assertEquals(propertyEscapes("^\\p{L}\\P{N}[\\p{Lu}a]$"), 3);
    assertEquals(propertyEscapes("\\\\p\\\\P"), 0);
    assertEquals(propertyEscapes("\\\\\\p{L}"), 1);
    assertEquals(propertyEscapes("p{L}"), 0);
  });

  test("one budget shared by a request's tools: the pattern that goes past 64 is refused at its path", () => {
    const patterns = new PatternBudget();
    assertEquals(checkToolSchema(tool(escapes(40)), "tools[0].parameters", { patterns }), []);
    assertEquals(checkToolSchema(tool(escapes(20), escapes(20)), "tools[1].parameters", { patterns }), [
      refusal("tools[1].parameters.properties.p1.pattern"),
    ]);
    assertEquals([patterns.left, patterns.refused], [4, 1]);
    // A schema alone has a budget of its own: each of these fits it.
    assertEquals(checkToolSchema(tool(escapes(40))), []);
    assertEquals(checkToolSchema(tool(escapes(20), escapes(20))), []);
  });

  test("patternProperties keys are counted, and a $ref into a keyword the walk does not read is counted at its path", () => {
    const keys = { type: "object", patternProperties: { [escapes(60)]: {}, [escapes(10)]: {} } };
    const [issue] = checkToolSchema(keys, "tools[0].parameters");
    assert(issue?.path.startsWith('tools[0].parameters.patternProperties["^'), issue?.path);
    const hidden = { "x-hidden": tool(escapes(60), escapes(10)), $ref: "#/x-hidden" };
    assertEquals(checkToolSchema(hidden, "tools[0].parameters"), [
      refusal('tools[0].parameters["x-hidden"].properties.p1.pattern'),
    ]);
  });

  test("a schema a check compiled first still has its $ref-only escapes counted by a request's budget", () => {
    const hidden = { "x-hidden": tool(escapes(60), escapes(10)), $ref: "#/x-hidden" };
    assertEquals(checkToolArguments({}, hidden as ToolSchema), []); // compiled now, without a budget
    const patterns = new PatternBudget();
    assertEquals(checkToolSchema(hidden, "tools[0].parameters", { patterns }), [
      refusal('tools[0].parameters["x-hidden"].properties.p1.pattern'),
    ]);
    assertEquals([patterns.left, patterns.refused], [4, 1]);
  });

  test("the instructions of a request's patterns: 250,000 in all, each place a pattern is written counted", () => {
    // 20,000 instructions each (a{19999} and its match), 12 bytes an instruction kept once run: a
    // 234 KB schema of 5,000 of them and 59 KB of a model's arguments kept 44 MB.
    const wide = (n: number) => tool(...Array.from({ length: n }, () => "a{19999}"));
    const patterns = new PatternBudget();
    assertEquals(checkToolSchema(wide(10), "tools[0].parameters", { patterns }), []);
    assertEquals(patterns.instructionsLeft, 50_000);
    const past = checkToolSchema(wide(3), "tools[1].parameters", { patterns });
    assertEquals(past.length, 1);
    assertEquals(past[0]!.path, "tools[1].parameters");
    assert(past[0]!.message.includes("more than 250,000 instructions"), past[0]!.message);
    assertEquals(checkToolSchema(wide(1), "tools[2].parameters", { patterns }).length, 1, "and the next");
    // A pattern a $ref reaches from many places is one program.
    const shared = {
      type: "object",
      properties: Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`p${i}`, { $ref: "#/$defs/a" }])),
      $defs: { a: { pattern: "a{19999}" } },
    };
    const once = new PatternBudget();
    assertEquals(checkToolSchema(shared, "tools[0].parameters", { patterns: once }), []);
    assertEquals(once.instructionsLeft, 230_000);
  });

  test("a pattern written many times is counted once, and checks as before", () => {
    const letters = "^\\p{L}[\\p{L} '-]*$";
    const patterns = new PatternBudget();
    const schema = tool(...Array.from({ length: 500 }, () => letters));
    assertEquals(checkToolSchema(schema, "tools[0].parameters", { patterns }), []);
    assertEquals(checkToolSchema(tool(letters), "tools[1].parameters", { patterns }), []);
    assertEquals(patterns.left, 62);
    assertEquals(checkToolArguments({ p0: "São Paulo", p1: "1" }, schema as ToolSchema), [
      "$.p1 must match its pattern",
    ]);
  });

  test("the escapes the runtime reads for a request stay within the budget however many tools hold them", () => {
    for (const tools of [10, 100]) {
      const patterns = new PatternBudget();
      const read = escapesRead(() => {
        for (let i = 0; i < tools; i++)
          checkToolSchema(tool(escapes(8), escapes(8)), `tools[${i}].parameters`, { patterns });
      });
      // Each pattern admitted is read at most twice (the walk and the compilation); none past the budget is read.
      assert(read <= 2 * 64, `${tools} tools: ${read} escapes read`);
    }
  });
});
