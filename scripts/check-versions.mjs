// The version is one number everywhere (issue 8): package.json, deno.json, and the newest released
// entry of CHANGELOG.md ("## [x.y.z] - YYYY-MM-DD", after "## [Unreleased]"; before the first
// release, "## x.y.z (unreleased)") must agree and be semver; and deno.json's subpath exports must be the same as package.json's, pointing at the
// sources that dist/ is built from, and the `docs` script documents every one of them. Exits 1 with one line per disagreement.
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { ON_DEMAND } from "./on-demand.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const read = (file) => readFileSync(join(root, file), "utf8");
const pkg = JSON.parse(read("package.json"));
const deno = JSON.parse(read("deno.json"));
const failures = [];

const SEMVER = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$/;
if (!SEMVER.test(pkg.version)) failures.push(`package.json version ${pkg.version} is not semver`);
if (deno.version !== pkg.version)
  failures.push(`deno.json version ${deno.version} differs from package.json ${pkg.version}`);

const headings = [...read("CHANGELOG.md").matchAll(/^## \[([^\]]+)\](?: - (\d{4}-\d{2}-\d{2}))?\s*$/gm)];
const released = headings.filter((heading) => heading[1] !== "Unreleased");
// Before the first release no heading is dated: the version is the one that release will carry,
// and the changelog says it is not out yet.
if (released.length === 0) {
  if (!new RegExp(`^## ${pkg.version.replaceAll(".", "\\.")} \\(unreleased\\)\\s*$`, "m").test(read("CHANGELOG.md")))
    failures.push(`CHANGELOG.md has no released version heading, nor "## ${pkg.version} (unreleased)"`);
} else {
  const [, version, date] = released[0];
  if (version !== pkg.version)
    failures.push(`CHANGELOG.md's newest version ${version} differs from package.json ${pkg.version}`);
  if (!date) failures.push(`CHANGELOG.md's entry for ${version} has no date`);
}
if (headings[0]?.[1] !== "Unreleased") failures.push('CHANGELOG.md does not start with an "## [Unreleased]" section');

const npmSubpaths = Object.keys(pkg.exports).filter((subpath) => subpath !== "./package.json");
const denoSubpaths = Object.keys(deno.exports);
const onlyNpm = npmSubpaths.filter((subpath) => !denoSubpaths.includes(subpath));
const onlyDeno = denoSubpaths.filter((subpath) => !npmSubpaths.includes(subpath));
if (onlyNpm.length > 0) failures.push(`subpaths in package.json but not deno.json: ${onlyNpm.join(", ")}`);
if (onlyDeno.length > 0) failures.push(`subpaths in deno.json but not package.json: ${onlyDeno.join(", ")}`);
for (const subpath of npmSubpaths.filter((subpath) => denoSubpaths.includes(subpath))) {
  const source = deno.exports[subpath];
  const built = pkg.exports[subpath].default;
  const expected = built.replace(/^\.\/dist\//, "./src/").replace(/\.js$/, ".ts");
  if (source !== expected)
    failures.push(`deno.json exports["${subpath}"] is ${source}, but package.json builds ${built} from ${expected}`);
  if (!existsSync(join(root, source))) failures.push(`deno.json exports["${subpath}"]: ${source} does not exist`);
}
const docsScript = pkg.scripts?.docs ?? "";
const undocumented = Object.values(deno.exports).filter(
  (source) => !docsScript.split(" ").includes(source.replace(/^\.\//, "")),
);
if (undocumented.length > 0)
  failures.push(`the "docs" script does not generate the reference of ${undocumented.join(", ")}`);
// The tests compare the library's SSE framing with eventsource-parser in every runtime, Deno included.
const parserRange = pkg.devDependencies?.["eventsource-parser"];
if (deno.imports?.["eventsource-parser"] !== `npm:eventsource-parser@${parserRange}`) {
  failures.push(
    `deno.json imports eventsource-parser as ${deno.imports?.["eventsource-parser"]}, not npm:eventsource-parser@${parserRange} as package.json`,
  );
}

// The packages installed on first use (scripts/on-demand.mjs, issue 36) are pinned there, exactly,
// and are no dev dependency as well (one version, in one place).
const onDemand = Object.values(ON_DEMAND).flatMap((set) => Object.entries(set.packages));
for (const [name, version] of onDemand) {
  if (!/^\d+\.\d+\.\d+$/.test(version)) failures.push(`on-demand ${name}@${version} is not an exact version`);
  if (pkg.devDependencies?.[name] !== undefined && name !== "typescript")
    failures.push(`${name} is installed on demand (scripts/on-demand.mjs) and is a dev dependency too`);
}
// Wrangler at the version @cloudflare/vitest-plugin pins: two would install two workerd (170 MB each).
const pluginManifest = join(root, "node_modules", "@cloudflare", "vitest-plugin", "package.json");
if (existsSync(pluginManifest)) {
  const pinned = JSON.parse(readFileSync(pluginManifest, "utf8")).dependencies?.wrangler;
  if (pinned !== undefined && pkg.devDependencies?.wrangler !== pinned)
    failures.push(
      `wrangler is ${pkg.devDependencies?.wrangler}, but @cloudflare/vitest-plugin pins ${pinned}: make them one`,
    );
}

if (failures.length === 0)
  console.log(
    `versions: ${pkg.version} in package.json, deno.json and CHANGELOG.md; ${npmSubpaths.length} subpaths in both; ${onDemand.length} packages on demand pinned`,
  );
for (const failure of failures) console.error(`!! versions: ${failure}`);
process.exit(failures.length > 0 ? 1 : 0);
