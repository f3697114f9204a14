// The shared suite runs in four runtimes through one index (test/all-cases.ts): a case file left
// out of it would silently run nowhere.
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";

function caseFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return caseFiles(path);
    return entry.name.endsWith(".cases.ts") ? [path] : [];
  });
}

describe("the shared suite's index", () => {
  it("imports every *.cases.ts file under test/", () => {
    const index = readFileSync("test/all-cases.ts", "utf8");
    const missing = caseFiles("test")
      .map((file) => `./${relative("test", file)}`)
      .filter((file) => !index.includes(`"${file}"`));
    expect(missing).toEqual([]);
  });
});
