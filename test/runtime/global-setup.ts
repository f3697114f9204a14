// Bundles the recorded streams before any runtime imports them.
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";

export default function setup(): void {
  execFileSync(process.execPath, [fileURLToPath(new URL("../../scripts/bundle-fixtures.mjs", import.meta.url))], {
    stdio: "inherit",
  });
}
