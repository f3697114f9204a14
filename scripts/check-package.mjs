// Checks the npm package as it would be published (issue 8). Needs `npm run build` first.
//   1. `npm pack --dry-run` lists only intended files: package.json, README.md, LICENSE,
//      CHANGELOG.md, dist/*.{js,d.ts}; everything the exports map points at is in it, every module
//      has its declarations, and `prepack` builds (so `npm pack` or `npm publish` without a prior
//      build cannot ship a package without dist/). No source maps and no src/: maps would point
//      at src/*.ts, which Deno refuses to run from node_modules and bundlers would not need; the
//      TypeScript source is on JSR and in the repository, and dist/ is readable ES2022 with its
//      comments (scripts/check-tarball.mjs installs and uses the packed tarball).
//   2. publint (strict: warnings fail too).
//   3. @arethetypeswrong/cli with the esm-only profile (CommonJS resolution is out of scope).
// Prints one line per check and exits 1 if any failed.
import { execFileSync, spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { dirname, join, normalize } from "node:path";
import { fileURLToPath } from "node:url";
import { onDemandBin } from "./on-demand.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
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
  /^dist\/(?:[a-z0-9-]+\/)*[a-z0-9-]+\.(js|d\.ts)$/,
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
// typesVersions: each subpath's declarations again, for TypeScript's `node10` resolution (what
// `module: "commonjs"` means in TypeScript 5.x, as `tsc --init` writes it), which reads no exports map.
const subpathTypes = Object.entries(pkg.exports)
  .filter(([subpath, target]) => subpath !== "." && typeof target === "object")
  .map(([subpath, target]) => [subpath.slice(2), [target.types]]);
if (JSON.stringify(pkg.typesVersions) !== JSON.stringify({ "*": Object.fromEntries(subpathTypes) }))
  failures.push(`package.json "typesVersions" does not map each subpath of "exports" to its "types", in order`);
for (const file of files) if (file.endsWith(".js")) required.add(file.replace(/\.js$/, ".d.ts"));
const missing = [...required].filter((file) => !files.has(file));
if (missing.length > 0)
  failures.push(`npm pack would leave out files that the package points at: ${missing.join(", ")}`);
if (!/\bnpm run build\b/.test(pkg.scripts?.prepack ?? ""))
  failures.push(`package.json "prepack" does not run the build: npm pack without dist/ would ship a broken package`);
for (const field of ["repository", "homepage", "bugs", "keywords", "engines"])
  if (pkg[field] === undefined) failures.push(`package.json has no "${field}"`);
for (const file of files)
  if (/sourceMappingURL=/.test(file.endsWith(".js") ? readFileSync(join(root, file), "utf8") : ""))
    failures.push(`${file} points at a source map the package does not ship`);
if (pkg.sideEffects !== false) failures.push(`package.json "sideEffects" is not false`);
if (pkg.type !== "module") failures.push(`package.json "type" is not "module"`);
// No runtime dependency: the library frames SSE itself, so an install of the package brings
// nothing else (TypeScript, for the types, is an optional peer).
for (const field of ["dependencies", "optionalDependencies"])
  if (Object.keys(pkg[field] ?? {}).length > 0)
    failures.push(`package.json has ${field} (${Object.keys(pkg[field]).join(", ")}); the package has none`);
for (const peer of Object.keys(pkg.peerDependencies ?? {}))
  if (pkg.peerDependenciesMeta?.[peer]?.optional !== true)
    failures.push(`package.json's peer dependency ${peer} is not optional; the package needs none`);
console.log(`npm pack: ${files.size} files, ${packed[0].size} bytes packed (${packed[0].unpackedSize} unpacked)`);

// 2 and 3: publint and attw, each a separate tool run (installed on first use: scripts/on-demand.mjs).
for (const [name, args] of [
  ["publint", ["--strict"]],
  ["attw", ["--pack", ".", "--profile", "esm-only", "--format", "table-flipped"]],
]) {
  const run = spawnSync(await onDemandBin("package-lint", name), args, { cwd: root, encoding: "utf8" });
  const output = `${run.stdout}${run.stderr}`.trim();
  if (run.status !== 0) {
    console.log(output);
    failures.push(`${name} failed (exit ${run.status})`);
  } else console.log(`${name}: ok`);
}

for (const failure of failures) console.error(`!! package: ${failure}`);
process.exit(failures.length > 0 ? 1 : 0);
