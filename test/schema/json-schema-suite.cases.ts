// The official JSON Schema Test Suite through both schema checks (issue 27): for every case whose
// keywords are all supported, the final check gives the suite's verdict; for every case, a valid
// instance is neither rejected nor flagged early. Each root declares its file's draft (draft 7's
// $ref ignores its siblings); a 2020-12 file's cases run with no $schema too (the default
// dialect). The suite is read from ../shared, never copied; without it, the per-file cases are
// not registered and the numbers case is skipped by name.
import { assert, group } from "../support/harness.ts";
import { runSuiteFile, type SuiteTally, schemaSuite } from "../support/schema-suite.ts";

const tallies = new Map<string, SuiteTally>();
const tallyOf = (index: number): SuiteTally => {
  const file = schemaSuite.files[index]!;
  const key = `${file.draft}/${file.file}`;
  let tally = tallies.get(key);
  if (!tally) tallies.set(key, (tally = runSuiteFile(file)));
  return tally;
};

group("JSON Schema Test Suite (draft 2020-12 and draft 7) through the final and early checks", (test) => {
  for (const [index, file] of schemaSuite.files.entries()) {
    test(`${file.draft}/${file.file}: the suite's verdict on supported keywords, no false alarm on any case`, () => {
      const tally = tallyOf(index);
      assert(tally.disagreements.length === 0, `disagreements:\n${tally.disagreements.join("\n")}`);
      assert(tally.falseAlarms.length === 0, `false alarms:\n${tally.falseAlarms.join("\n")}`);
    });
  }
  test("2020-12 files with no $schema (the default dialect): the suite's verdicts, no false alarm", () => {
    for (const file of schemaSuite.files.filter(({ draft }) => draft === "draft2020-12")) {
      const tally = runSuiteFile(file, false);
      assert(
        tally.disagreements.length + tally.falseAlarms.length === 0,
        [...tally.disagreements, ...tally.falseAlarms].join("\n"),
      );
    }
  }).needs("json-schema-suite");
  test("the numbers: cases run, agreed, skipped (with why), invalid instances caught early", () => {
    const total = { run: 0, agreed: 0, invalid: 0, earlyCaught: 0, skipped: {} as Record<string, number> };
    for (const index of schemaSuite.files.keys()) {
      const tally = tallyOf(index);
      total.run += tally.run;
      total.agreed += tally.agreed;
      total.invalid += tally.invalid;
      total.earlyCaught += tally.earlyCaught;
      for (const [why, n] of Object.entries(tally.skipped)) total.skipped[why] = (total.skipped[why] ?? 0) + n;
    }
    const skipped = Object.values(total.skipped).reduce((a, b) => a + b, 0);
    const reasons = Object.entries(total.skipped)
      .sort((a, b) => b[1] - a[1])
      .map(([why, n]) => `${why} ${n}`)
      .join(", ");
    console.log(
      `JSON Schema Test Suite: ${total.run} run, ${total.agreed} agreed, ${skipped} skipped (${reasons}); ` +
        `early: ${total.earlyCaught} of ${total.invalid} invalid instances caught before they ended`,
    );
    assert(total.run > 1000 && total.agreed === total.run, `${total.agreed} of ${total.run} agreed`);
  }).needs("json-schema-suite");
});
