// Bundles the recorded provider streams of ../shared/fixtures (or $TOOL_CALL_STREAM_FIXTURES)
// into test/generated/fixtures.json, so that every runtime (Node, workerd, Deno, Chromium)
// imports them as JSON without a file system.
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import "./bundle-schema-suite.mjs";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const source = resolve(process.env.TOOL_CALL_STREAM_FIXTURES ?? join(root, "..", "shared", "fixtures"));
if (!existsSync(source)) {
  console.error(`No fixtures at ${source}: set TOOL_CALL_STREAM_FIXTURES to the recorded streams folder.`);
  process.exit(1);
}
/**
 * The framing of each body by its extension. Text bodies are stored as text; binary ones (the AWS
 * event stream) as base64, so that every runtime loads them as the exact bytes.
 */
const FORMATS = { ".sse": "sse", ".bin": "event-stream", ".ndjson": "ndjson", ".json": "json-array" };
const fixtures = [];
for (const provider of readdirSync(source, { withFileTypes: true })) {
  if (!provider.isDirectory()) continue;
  for (const file of readdirSync(join(source, provider.name)).sort()) {
    if (file.endsWith(".expected.json")) continue;
    const extension = Object.keys(FORMATS).find((ext) => file.endsWith(ext));
    if (!extension) continue;
    const name = file.slice(0, -extension.length);
    const expectedPath = join(source, provider.name, `${name}.expected.json`);
    if (!existsSync(expectedPath)) continue;
    const body = readFileSync(join(source, provider.name, file));
    const format = FORMATS[extension];
    fixtures.push({
      provider: provider.name,
      name,
      format,
      ...(format === "event-stream" ? { base64: body.toString("base64") } : { text: body.toString("utf8") }),
      expected: JSON.parse(readFileSync(expectedPath, "utf8")),
    });
  }
}
mkdirSync(join(root, "test", "generated"), { recursive: true });
writeFileSync(join(root, "test", "generated", "fixtures.json"), JSON.stringify(fixtures));
console.log(`Bundled ${fixtures.length} recorded streams from ${source}.`);
