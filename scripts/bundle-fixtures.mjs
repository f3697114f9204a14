// Bundles the data the tests read from ../shared (beside the repository, not in it) into
// test/generated/, so that every runtime (Node, workerd, Deno, Chromium) imports it as JSON without
// a file system. Each data set is a folder with an environment variable to point elsewhere; its
// bundle is always written (empty when the folder is absent), and test/generated/shared-data.json
// says which sets were found, so the tests that need a missing set are skipped by name (the
// harness's `needs`, or `describe.skipIf` in vitest files) with one line saying how many and
// where the data goes, instead of failing. A clone without ../shared passes `npm test`; CI has it.
// A new data set is one entry in DATA_SETS (its test support module reads `<name>.json`).
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const generated = join(root, "test", "generated");

/**
 * The framing of each recorded body by its extension. Text bodies are stored as text; binary ones
 * (the AWS event stream) as base64, so that every runtime loads them as the exact bytes.
 */
const FORMATS = { ".sse": "sse", ".bin": "event-stream", ".ndjson": "ndjson", ".json": "json-array" };

/**
 * Streams of a protocol no real capture of is available, built from its documentation's examples
 * and its SDK's types (each folder's README.md says from what): in the repository, bundled with
 * the recordings whether or not ../shared is there, after them.
 */
const documented = join(root, "test", "recordings");

/** The recorded provider streams (and the documented ones), each with its `.expected.json`. */
function bundleRecordings(source) {
  const fixtures = [...(source === undefined ? [] : readFixtures(source)), ...readFixtures(documented)];
  return { data: { fixtures }, count: `${fixtures.length} recorded streams` };
}

/** The streams of one folder of provider folders. */
function readFixtures(source) {
  const fixtures = [];
  for (const provider of readdirSync(source, { withFileTypes: true })) {
    if (!provider.isDirectory() || (source === documented && provider.name === "external")) continue;
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
  return fixtures;
}

/** The keyword files of draft 2020-12 and draft 7 of the official JSON Schema Test Suite. */
function bundleSchemaSuite(source) {
  const files = [];
  for (const draft of ["draft2020-12", "draft7"]) {
    if (!existsSync(join(source, draft))) continue;
    for (const file of readdirSync(join(source, draft)).sort()) {
      if (!file.endsWith(".json")) continue;
      // As text, parsed by the test: a bundler that turns JSON into a module (Vite, for workerd and
      // Chromium) writes object literals, where the suite's "__proto__" keys would set prototypes.
      files.push({ draft, file, text: readFileSync(join(source, draft, file), "utf8") });
    }
  }
  return { data: { files }, count: `${files.length} JSON Schema Test Suite files` };
}

/** The Open Responses OpenAPI document (its response and streaming-event schemas), as text. */
function bundleOpenResponses(source) {
  const text = readFileSync(join(source, "openapi.json"), "utf8");
  return { data: { text }, count: "the Open Responses OpenAPI document" };
}

/**
 * Other projects' cases rebuilt in this repository (test/recordings/external/<source>/manifest.json,
 * as ../shared/external-fixtures is laid out; its README.md says how): bundled with the recordings
 * of ../shared/external-fixtures whether or not that is there, marked `inRepo`.
 */
const rebuilt = join(root, "test", "recordings", "external");

/**
 * Other projects' recordings (../shared/external-fixtures/<source>/manifest.json): each entry of
 * each manifest with its body as text (one payload a line, or the raw HTTP body for `"wire": "raw"`)
 * and the result THAT project expects; the test support rebuilds the wire bytes. The cases rebuilt
 * in this repository follow them.
 */
function bundleExternalFixtures(source) {
  const fixtures = [...(source === undefined ? [] : readExternal(source, false)), ...readExternal(rebuilt, true)];
  return { data: { fixtures }, count: `${fixtures.length} other projects' recordings and rebuilt cases` };
}

/** The entries of every source folder's manifest under one folder. */
function readExternal(source, inRepo) {
  const fixtures = [];
  for (const folder of readdirSync(source, { withFileTypes: true })) {
    const manifestPath = join(source, folder.name, "manifest.json");
    if (!folder.isDirectory() || !existsSync(manifestPath)) continue;
    const manifest = JSON.parse(readFileSync(manifestPath, "utf8"));
    for (const entry of manifest.fixtures) {
      const file = entry.file.split("/").pop();
      fixtures.push({
        source: folder.name,
        provider: entry.provider,
        name: file.replace(/\.(chunks\.txt|sse)$/, ""),
        wire: entry.wire === "raw" ? "raw" : "chunks",
        text: readFileSync(join(source, folder.name, entry.file), "utf8"),
        expected: JSON.parse(readFileSync(join(source, folder.name, entry.expected), "utf8")),
        origin: entry.commit ? `${entry.repo}@${entry.commit.slice(0, 7)}:${entry.path}` : entry.url,
        ...(entry.note ? { note: entry.note } : {}),
        ...(entry.disputed ? { disputed: entry.disputed } : {}),
        ...(inRepo ? { inRepo: true } : {}),
      });
    }
  }
  fixtures.sort((a, b) => `${a.source}/${a.name}`.localeCompare(`${b.source}/${b.name}`));
  return fixtures;
}

/**
 * Each data set: its name (the key in shared-data.json, the file `<name>.json`), what it is, its
 * folder under ../shared, the variable that overrides it, what its bundle holds when it is absent,
 * and the function that bundles it from its folder.
 */
const DATA_SETS = [
  {
    name: "recordings",
    what: "recorded provider streams",
    folder: "fixtures",
    variable: "TOOL_CALL_STREAM_FIXTURES",
    empty: () => bundleRecordings(undefined).data,
    bundle: bundleRecordings,
  },
  {
    name: "json-schema-suite",
    what: "JSON Schema Test Suite files",
    folder: "vectors/json-schema-suite",
    variable: "TOOL_CALL_STREAM_SCHEMA_SUITE",
    empty: () => ({ files: [] }),
    bundle: bundleSchemaSuite,
  },
  {
    name: "external-fixtures",
    what: "other projects' recorded streams",
    folder: "external-fixtures",
    variable: "TOOL_CALL_STREAM_EXTERNAL_FIXTURES",
    empty: () => bundleExternalFixtures(undefined).data,
    bundle: bundleExternalFixtures,
  },
  {
    name: "open-responses",
    what: "the Open Responses OpenAPI document",
    folder: "conformance/open-responses",
    variable: "TOOL_CALL_STREAM_OPEN_RESPONSES",
    empty: () => ({ text: "{}" }),
    bundle: bundleOpenResponses,
  },
];

mkdirSync(generated, { recursive: true });
const manifest = {};
for (const set of DATA_SETS) {
  const source = resolve(process.env[set.variable] ?? join(root, "..", "shared", set.folder));
  const available = existsSync(source);
  const where = `../shared/${set.folder} (or set ${set.variable})`;
  const bundled = available ? set.bundle(source) : { data: set.empty() };
  writeFileSync(join(generated, `${set.name}.json`), JSON.stringify({ available, source, ...bundled.data }));
  manifest[set.name] = { available, what: set.what, where };
  console.log(
    available
      ? `Bundled ${bundled.count} from ${relative(root, source) || "."}.`
      : `Skipping the tests that need ${set.what}: none at ${source}. Put the data at ${where} to run them.`,
  );
}
writeFileSync(join(generated, "shared-data.json"), JSON.stringify(manifest));
