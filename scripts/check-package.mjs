// Checks the npm package as it would be published (issue 8). Needs `npm run build` first.
//   1. `npm pack --dry-run` lists only intended files: package.json, README.md, LICENSE,
//      CHANGELOG.md, dist/*.{js,js.map,d.ts,d.ts.map}, src/*.ts; and everything the exports map,
//      the declaration maps and the source maps point at is in it.
//   2. publint (strict: warnings fail too).
//   3. @arethetypeswrong/cli with the esm-only profile (CommonJS resolution is out of scope).
// Prints one line per check and exits 1 if any failed.
import { execFileSync, spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { dirname, join, normalize } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const bin = (name) => join(root, "node_modules", ".bin", name);
const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
const failures = [];

// 1. The packed file list.
const packed = JSON.parse(
  execFileSync("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], {
    cwd: root,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "ignore"],
  }),
);
const files = new Set(packed[0].files.map((file) => file.path));
const allowed = [
  /^package\.json$/,
  /^README\.md$/,
  /^LICENSE$/,
  /^CHANGELOG\.md$/,
  /^dist\/(?:[a-z0-9-]+\/)*[a-z0-9-]+\.(js|js\.map|d\.ts|d\.ts\.map)$/,
  /^src\/(?:[a-z0-9-]+\/)*[a-z0-9-]+\.ts$/,
];
const unexpected = [...files].filter((file) => !allowed.some((pattern) => pattern.test(file)));
if (unexpected.length > 0) failures.push(`npm pack would ship unintended files: ${unexpected.join(", ")}`);
const required = new Set(["package.json", "README.md", "LICENSE", "CHANGELOG.md"]);
for (const [subpath, target] of Object.entries(pkg.exports)) {
  if (typeof target === "string") required.add(normalize(target));
  else {
    if (Object.keys(target)[0] !== "types") failures.push(`exports["${subpath}"] does not list "types" first`);
    for (const file of Object.values(target)) required.add(normalize(file));
  }
}
for (const file of files) {
  if (!file.endsWith(".map")) continue;
  const map = JSON.parse(readFileSync(join(root, file), "utf8"));
  for (const source of map.sources) required.add(normalize(join(dirname(file), map.sourceRoot ?? "", source)));
  if (file.endsWith(".d.ts.map")) required.add(file.replace(/\.d\.ts\.map$/, ".d.ts"));
}
for (const file of files) if (file.endsWith(".d.ts")) required.add(`${file}.map`);
const missing = [...required].filter((file) => !files.has(file));
if (missing.length > 0)
  failures.push(`npm pack would leave out files that the package points at: ${missing.join(", ")}`);
if (pkg.sideEffects !== false) failures.push(`package.json "sideEffects" is not false`);
if (pkg.type !== "module") failures.push(`package.json "type" is not "module"`);
if (JSON.stringify(Object.keys(pkg.dependencies ?? {})) !== JSON.stringify(["eventsource-parser"])) {
  failures.push(
    `runtime dependencies are ${Object.keys(pkg.dependencies ?? {}).join(", ")}; only eventsource-parser is allowed`,
  );
}
console.log(`npm pack: ${files.size} files, ${packed[0].size} bytes packed (${packed[0].unpackedSize} unpacked)`);

// 2 and 3: publint and attw, each a separate tool run.
for (const [name, args] of [
  ["publint", ["--strict"]],
  ["attw", ["--pack", ".", "--profile", "esm-only", "--format", "table-flipped"]],
]) {
  const run = spawnSync(bin(name), args, { cwd: root, encoding: "utf8" });
  const output = `${run.stdout}${run.stderr}`.trim();
  if (run.status !== 0) {
    console.log(output);
    failures.push(`${name} failed (exit ${run.status})`);
  } else console.log(`${name}: ok`);
}

for (const failure of failures) console.error(`!! package: ${failure}`);
process.exit(failures.length > 0 ? 1 : 0);
