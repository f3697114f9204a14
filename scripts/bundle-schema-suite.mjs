// Bundles the keyword files of draft 2020-12 and draft 7 of the official JSON Schema Test Suite
// (../shared/vectors/json-schema-suite, or $TOOL_CALL_STREAM_SCHEMA_SUITE) into
// test/generated/json-schema-suite.json, so that every runtime (Node, workerd, Deno, Chromium)
// imports them as JSON without a file system. The suite is not copied into the repository: when
// it is absent, the bundle says so and the suite's test skips by name. Run by
// scripts/bundle-fixtures.mjs (and so by every test run); also on its own.
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const source = resolve(
  process.env.TOOL_CALL_STREAM_SCHEMA_SUITE ?? join(root, "..", "shared", "vectors", "json-schema-suite"),
);
const DRAFTS = ["draft2020-12", "draft7"];
const files = [];
const available = DRAFTS.every((draft) => existsSync(join(source, draft)));
if (available) {
  for (const draft of DRAFTS) {
    for (const file of readdirSync(join(source, draft)).sort()) {
      if (!file.endsWith(".json")) continue;
      files.push({ draft, file, groups: JSON.parse(readFileSync(join(source, draft, file), "utf8")) });
    }
  }
}
mkdirSync(join(root, "test", "generated"), { recursive: true });
writeFileSync(
  join(root, "test", "generated", "json-schema-suite.json"),
  JSON.stringify({ available, source: available ? source : "", files }),
);
console.log(
  available
    ? `Bundled ${files.length} JSON Schema Test Suite files from ${source}.`
    : `No JSON Schema Test Suite at ${source}: its test will be skipped.`,
);
