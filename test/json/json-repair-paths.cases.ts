// Single-quoted strings made JSON by the repair: the double quotes inside escaped, whatever stands
// around them. The repair's other cases are in json-repair-and-schema.cases.ts.
import { repairJson } from "../../src/index.ts";
import { assertEquals, group } from "../support/harness.ts";

group("JSON repair on the accumulator path", (test) => {
  test("double quotes in a single-quoted string are escaped, however many and wherever they stand", () => {
    const cases: [string, string][] = [
      ["''", ""],
      ["'\"'", '"'],
      ["'\"\"'", '""'],
      ['\'"""\'', '"""'],
      ["'\"x'", '"x'],
      ["'x\"'", 'x"'],
      ['\'"x""\'', '"x""'],
      ["'it\\'s \"q\"'", 'it\'s "q"'],
      ["'\\'\"\\''", "'\"'"],
      // An escaped backslash before a quote escapes nothing; an escaped double quote stays one.
      ["'a\\\\\"b'", 'a\\"b'],
      ["'\\\"'", '"'],
      ["'\\n\"\"\\t'", '\n""\t'],
    ];
    for (const [quoted, value] of cases) {
      assertEquals(
        repairJson(`{'a': ${quoted}}`, { closeTruncated: false }),
        { ok: true, value: { a: value }, repairs: ["single-quotes"] },
        quoted,
      );
    }
  });
});
