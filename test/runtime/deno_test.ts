// The Deno runner of the shared suite: the same cases, imported as a Deno user imports the
// library (TypeScript sources, npm dependencies resolved through package.json).
import { cases } from "../all-cases.ts";
import { missingData, skippedLine } from "../support/shared-data.ts";

declare const Deno: { test(definition: { name: string; fn: () => void | Promise<void>; ignore: boolean }): void };

for (const testCase of cases) {
  const ignore = missingData(testCase.needs).length > 0;
  Deno.test({ name: `${testCase.group} › ${testCase.name}`, fn: testCase.run, ignore });
}
const skipped = cases.filter((testCase) => missingData(testCase.needs).length > 0);
const line = skippedLine(
  skipped.length,
  skipped.flatMap((testCase) => missingData(testCase.needs)),
);
if (line !== undefined) console.log(line);
