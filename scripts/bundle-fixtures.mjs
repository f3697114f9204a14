// Bundles the recorded provider streams of ../shared/fixtures (or $TOOL_CALL_STREAM_FIXTURES)
// into test/generated/fixtures.json, so that every runtime (Node, workerd, Deno, Chromium)
// imports them as JSON without a file system.
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const source = resolve(process.env.TOOL_CALL_STREAM_FIXTURES ?? join(root, "..", "shared", "fixtures"));
if (!existsSync(source)) {
  console.error(`No fixtures at ${source}: set TOOL_CALL_STREAM_FIXTURES to the recorded streams folder.`);
  process.exit(1);
}
const fixtures = [];
for (const provider of readdirSync(source, { withFileTypes: true })) {
  if (!provider.isDirectory()) continue;
  for (const file of readdirSync(join(source, provider.name)).sort()) {
    if (!file.endsWith(".sse")) continue;
    const name = file.slice(0, -".sse".length);
    const expectedPath = join(source, provider.name, `${name}.expected.json`);
    if (!existsSync(expectedPath)) continue;
    fixtures.push({
      provider: provider.name,
      name,
      sse: readFileSync(join(source, provider.name, file), "utf8"),
      expected: JSON.parse(readFileSync(expectedPath, "utf8")),
    });
  }
}
mkdirSync(join(root, "test", "generated"), { recursive: true });
writeFileSync(join(root, "test", "generated", "fixtures.json"), JSON.stringify(fixtures));
console.log(`Bundled ${fixtures.length} recorded streams from ${source}.`);
