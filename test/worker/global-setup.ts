// Runs in Node before the worker tests: the Worker imports the page bundle that
// scripts/build-page.mjs generates (wrangler runs it itself before `wrangler dev`), and the
// tests read the recorded streams that scripts/bundle-fixtures.mjs bundles.
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

const path = (relative: string): string => fileURLToPath(new URL(relative, import.meta.url));

export default function setup(): void {
  execFileSync(process.execPath, [path("../../scripts/build-page.mjs")], { stdio: "inherit" });
  if (!existsSync(path("../generated/shared-data.json"))) {
    execFileSync(process.execPath, [path("../../scripts/bundle-fixtures.mjs")], { stdio: "inherit" });
  }
}
