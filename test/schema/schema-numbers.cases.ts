// Numbers past what a double holds. A schema and its arguments arrive as JSON text, which
// JSON.parse reads into doubles: `1e400` is Infinity, `1e-400` is 0.
// - checkToolSchema refused `maximum: 1e400` but let `const: 1e400`, `enum: [1e400]`, `default`,
//   `examples` and any other keyword's value through: the Worker sends the schema on as JSON, in
//   which JSON.stringify writes Infinity as `null`, so the provider would have been asked for
//   `const: null`. Each is now refused at its JSON path, annotations and unknown keywords too.
// - `multipleOf: 1e-400` was said to be no number greater than 0, which its sender wrote as one.
// - checkToolArguments said `enum: [1e400]` meant "$ must be null" (JSON.stringify(Infinity)),
//   and let `1e400` through `type: "number"`, which the app then reads as Infinity and writes as
//   null: refused, as Ajv does by default (its strictNumbers). `-0` and `1e-400` (0 once read)
//   are as every validator that reads JSON into doubles says (Ajv, python-jsonschema).
import { checkToolArguments, IncrementalJsonParser, type ToolSchema } from "../../src/index.ts";
import { SchemaWatcher } from "../../src/schema/schema-watcher.ts";
import { assertEquals, group } from "../support/harness.ts";
import { check, issues } from "../support/schema-drafts.ts";

const PAST = "is a number past what a double holds (about 1.8e308)";
const within = (type: string): string => `must be ${type} within what a double holds (about ±1.8e308)`;

group("checkToolSchema: a number past a double, wherever it sits", (test) => {
  test("const, enum, default, examples and unknown keywords' values are refused at their JSON path", () => {
    assertEquals(issues(JSON.parse('{"const": 1e400}')), [`parameters.const: ${PAST}`]);
    assertEquals(issues(JSON.parse('{"enum": ["a", {"b": [2, -1e400]}]}')), [`parameters.enum[1].b[1]: ${PAST}`]);
    assertEquals(
      issues(JSON.parse('{"properties": {"n": {"type": "number", "default": 1e400, "examples": [1, -1e999]}}}')),
      [`parameters.properties.n.default: ${PAST}`, `parameters.properties.n.examples[1]: ${PAST}`],
    );
    assertEquals(issues(JSON.parse('{"x-unit": {"a b": [1e400]}, "$defs": {"u": {"const": 1e400}}}')), [
      `parameters["x-unit"]["a b"][0]: ${PAST}`,
      `parameters.$defs.u.const: ${PAST}`,
    ]);
  });

  test("a bound past a double is said once, as before", () => {
    assertEquals(issues(JSON.parse('{"maximum": 1e400, "minLength": -1e400}')), [
      `parameters.maximum: ${PAST}`,
      `parameters.minLength: ${PAST}`,
    ]);
  });

  test("100,000 arrays deep or 1,000 times over, the walk ends with bounded issues", () => {
    const deep = `{"examples": ${"[".repeat(100_000)}1e400${"]".repeat(100_000)}}`;
    const said = issues(JSON.parse(deep));
    assertEquals(said.length, 1);
    assertEquals(said[0]!.endsWith(`[0][0]: ${PAST}`), true, said[0]);
    const many = issues(JSON.parse(`{"enum": [${Array(1_000).fill("1e400").join(",")}]}`));
    assertEquals(many.length, 21);
    assertEquals(many[19], `parameters.enum[19]: ${PAST}`);
    assertEquals(many[20], "parameters: and 980 more problems");
  });

  test("an object an app's schema holds in many places, or in a cycle, is walked for such numbers once", () => {
    // JSON never shares an object, but an app's schema may: one subschema in two branches, level
    // after level (2^16 ways to its leaf), or an object holding itself. checkToolSchema's other walks
    // read each object once; the walk for numbers past a double read it once per way (65,536 reads
    // of the leaf), and went round a cycle without end.
    let reads = 0;
    const leaf = {
      type: "number",
      get default() {
        reads++;
        return 1;
      },
    };
    let shared: Record<string, unknown> = leaf;
    for (let i = 0; i < 16; i++) shared = { anyOf: [shared, shared] };
    assertEquals(issues(shared), []);
    assertEquals(reads < 16, true, `the leaf read ${reads} times`);
    const cycle: Record<string, unknown> = { type: "object", properties: {}, examples: [Number.POSITIVE_INFINITY] };
    (cycle["properties"] as Record<string, unknown>)["self"] = cycle;
    assertEquals(issues(cycle), [`parameters.examples[0]: ${PAST}`]);
  });

  test("multipleOf: 1e-400, read as 0, is said to be so", () => {
    assertEquals(issues(JSON.parse('{"multipleOf": 1e-400}')), [
      "parameters.multipleOf: must be a number greater than 0 (one nearer 0 than a double holds, such as 1e-400, reads as 0)",
    ]);
    assertEquals(issues({ multipleOf: -1 }), ["parameters.multipleOf: must be a number greater than 0"]);
  });
});

group("checkToolArguments: a number past a double", (test) => {
  test("1e400 is no number nor integer a double holds, in both checks", () => {
    assertEquals(check(JSON.parse("1e400"), { type: "number" }), [`$ ${within("number")}`]);
    assertEquals(check(JSON.parse("-1e400"), { type: ["integer", "null"] }), [`$ ${within("integer or null")}`]);
    assertEquals(check(JSON.parse("1e308"), { type: "integer" }), []);
    const schema: ToolSchema = { type: "object", properties: { n: { type: "number" } } };
    const watcher = new SchemaWatcher(schema);
    new IncrementalJsonParser({ listener: watcher }).feed('{"n": 1e400}');
    assertEquals(watcher.violation?.message, "Expected a number within what a double holds.");
  });

  test("an enum or const value past a double is named as read, never as null", () => {
    assertEquals(check(1, JSON.parse('{"enum": [1e400]}')), ["$ must be Infinity"]);
    assertEquals(check(true, JSON.parse('{"enum": [-1e400, "a"]}')), ['$ must be one of -Infinity, "a"']);
    assertEquals(check(null, JSON.parse('{"const": 1e400}')), ["$ must be Infinity"]);
  });

  test("-0 and 1e-400 (0 once read) are as validators reading JSON into doubles say", () => {
    const zero = JSON.parse("-0");
    assertEquals(check(zero, { type: "integer", const: 0, multipleOf: 3 }), []);
    assertEquals(check([0, zero], { uniqueItems: true }), ["$ must have items that are all different"]);
    assertEquals(check(JSON.parse("1e-400"), { type: "integer", enum: [0] }), []);
    assertEquals(checkToolArguments(JSON.parse("[1e-400]"), { const: [zero] } as ToolSchema), []);
  });
});
