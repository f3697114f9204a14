// Which data sets of ../shared were found when scripts/bundle-fixtures.mjs bundled them. A test
// that needs a set that is absent is skipped by name (the harness's `needs`, or
// `describe.skipIf(!sharedData.recordings.available)` in a vitest file), and the runners print
// one line saying how many tests were skipped and where the data goes.
import manifest from "../generated/shared-data.json" with { type: "json" };

/** A data set of ../shared that some tests need. */
export type SharedData = keyof typeof manifest;

/** Each data set: whether it was found, what it is and where it goes. */
export const sharedData: Record<SharedData, { available: boolean; what: string; where: string }> = manifest;

/** The data sets among `needs` that are absent. */
export function missingData(needs: readonly SharedData[] = []): SharedData[] {
  return needs.filter((name) => !sharedData[name].available);
}

/** The one line a runner prints when it skipped tests for want of data, or undefined when it skipped none. */
export function skippedLine(skipped: number, needs: readonly SharedData[]): string | undefined {
  if (skipped === 0) return undefined;
  const sets = [...new Set(needs)].map((name) => `${sharedData[name].what} at ${sharedData[name].where}`);
  return `${skipped} tests skipped by name for want of data: put ${sets.join(" and ")}, then run node scripts/bundle-fixtures.mjs.`;
}
