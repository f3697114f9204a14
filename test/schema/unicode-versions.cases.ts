// A pattern's Unicode property escapes (`\p{L}`, `\P{Script=Han}`) read the runtime's own Unicode
// tables, and the runtimes ship different ones: Deno 2.9's V8 has Unicode 16, Node 24's 17. Between
// the two, 5,533 code points changed in some property an escape can name (measured by matching all
// 1,114,112 code points against every escape in both: the 4,803 assigned in 17, 672 symbols that
// left the emoji properties, ★ U+2605 among them, and 58 others in their General_Category, Script
// Extensions, Diacritic or case). So one argument matched a pattern on one runtime and not another.
// A check that meets such a code point through a property escape now stops, as when its budget runs
// out, with a message naming the code point: the same verdict on every runtime.
import { checkToolArguments, checkToolSchema, IncrementalJsonParser, type ToolSchema } from "../../src/index.ts";
import { SchemaWatcher } from "../../src/schema/schema-watcher.ts";
import { assert, assertEquals, group } from "../support/harness.ts";

const string = (pattern: string): ToolSchema => ({ type: "string", pattern }) as ToolSchema;
const check = (text: string, pattern: string): string[] => checkToolArguments(text, string(pattern));
const unsettled = (code: string): string[] => [
  `$ could not be checked alike on every runtime: ${code} has other Unicode properties in Unicode 16 than in 17, which runtimes differ in`,
];

group("Schema checks: Unicode property escapes judge alike on every runtime's Unicode tables", (test) => {
  test("a code point assigned in Unicode 17 stops the check through \\p{...}, on every runtime", () => {
    // U+323B0, a Han ideograph of Unicode 17's CJK Extension J: unassigned in Unicode 16. Before:
    // Node 24 matched it as a letter ([]), Deno 2.9 did not ("must match pattern").
    const han = "\u{323B0}";
    assertEquals(check(`ab${han}`, "^\\p{L}+$"), unsettled("U+323B0"));
    assertEquals(check(han, "^\\P{L}$"), unsettled("U+323B0"));
    assertEquals(check(han, "^[\\p{Script=Han}x]$"), unsettled("U+323B0"));
    assertEquals(check(`a${han}`, "\\p{Lu}|[^\\p{N}]"), [], "matched before the code point is reached");
    // A set without a property escape reads no Unicode table: the code point is itself.
    assertEquals(check(han, "^[\\u{323B0}]$"), []);
    assertEquals(check(han, "^.$"), []);
  });

  test("a symbol whose emoji properties changed stops only the emoji escapes; its other properties stayed", () => {
    // ★ U+2605 is Extended_Pictographic in Unicode 16, not in 17 (Node 24 and Deno 2.9 disagreed).
    assertEquals(check("★", "^\\p{Extended_Pictographic}$"), unsettled("U+2605"));
    assertEquals(check("★", "^\\P{ExtPict}$"), unsettled("U+2605"));
    assertEquals(check("★", "^\\p{So}$"), []);
    assertEquals(check("★", "^\\p{L}$"), ["$ must match its pattern"]);
    // U+0308 (combining diaeresis) gained Tifinagh in its Script_Extensions: every escape stops.
    assertEquals(check("u\u0308", "^\\p{L}\\p{M}$"), unsettled("U+0308"));
    // Letters every table agrees on.
    assertEquals(check("Ünïcødé Ελλάδα 東京", "^[\\p{L}\\s]+$"), []);
    assertEquals(check("1", "^\\p{L}$"), ["$ must match its pattern"]);
  });

  test("the early check accepts what it cannot judge alike (the final check says why)", () => {
    const watcher = new SchemaWatcher({ type: "object", properties: { a: string("^\\p{L}+$") } });
    new IncrementalJsonParser({ listener: watcher }).feed('{"a": "x\u{323B0}"}');
    assertEquals(watcher.violation, undefined);
  });

  test("this runtime's Unicode tables are Unicode 16's or 17's, whose differences unicode-drift.ts lists", () => {
    // A runtime of another version (18) would differ in code points the list does not hold: this
    // fails first, and the list is measured again against it.
    const all: string[] = [];
    for (let code = 0; code <= 0x10ffff; code++)
      if (code < 0xd800 || code > 0xdfff) all.push(String.fromCodePoint(code));
    const text = all.join("");
    const count = (property: string): number => text.match(new RegExp(`\\p{${property}}`, "gu"))?.length ?? 0;
    const counts = ["Assigned", "Extended_Pictographic", "Script_Extensions=Latin", "Diacritic"].map(count);
    const known = [
      [292_531, 3_537, 1_555, 1_178], // Unicode 16 (Deno 2.9)
      [297_334, 2_848, 1_559, 1_247], // Unicode 17 (Node 24, workerd, Chromium)
    ];
    assert(
      known.some((version) => version.every((n, i) => n === counts[i])),
      `counts ${counts.join(", ")}: neither Unicode 16's nor 17's`,
    );
  });

  test("a script that only Unicode 17 names is refused by checkToolSchema on every runtime", () => {
    // Before: Node 24 accepted `\p{Script=Sidetic}` (Unicode 17), Deno 2.9 refused it as no valid
    // regular expression: one tool list was a 400 on one runtime only.
    for (const name of [
      "Script=Sidetic",
      "sc=Sidt",
      "scx=Tols",
      "Script_Extensions=Tolong_Siki",
      "sc=Berf",
      "sc=Tai_Yo",
    ])
      assertEquals(checkToolSchema(string(`^\\p{${name}}$`), "p"), [
        { path: "p.pattern", message: "is not a valid regular expression (ECMAScript, u flag) on every runtime" },
      ]);
    assertEquals(checkToolSchema(string("^\\p{Script=Greek}\\P{sc=Latn}$"), "p"), []);
  });
});
