// The vitest runner of the shared suite: Node, workerd and Chromium run this same file, so
// each runtime runs exactly the cases that test/cases/index.ts registers.
import { describe, it } from "vitest";
import { cases } from "../all-cases.ts";
import { missingData, skippedLine } from "../support/shared-data.ts";

const groups = new Map<string, typeof cases>();
for (const testCase of cases) groups.set(testCase.group, [...(groups.get(testCase.group) ?? []), testCase]);

for (const [group, members] of groups) {
  describe(group, () => {
    // 20 s, not vitest's 5: a seeded property case builds its arbitraries once (a second or two), more on a loaded machine.
    for (const testCase of members)
      it.skipIf(missingData(testCase.needs).length > 0)(testCase.name, testCase.run, 20_000);
  });
}
const skipped = cases.filter((testCase) => missingData(testCase.needs).length > 0);
const line = skippedLine(
  skipped.length,
  skipped.flatMap((testCase) => missingData(testCase.needs)),
);
if (line !== undefined) console.log(line);
