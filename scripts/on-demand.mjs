// Tools and client libraries that only one test, check or bench uses are no dev dependencies
// (issue 36: `npm install` stays lean and quick): the test that needs a set installs it here on
// first use, from the registry with `npm install`, into node_modules/.cache/on-demand/<set>-<hash>/
// (a new folder when a version below changes), and later runs reuse it. Installed in a folder of
// its own and renamed into place, so two tests that ask at once never see half an install. The
// versions are pinned here, in one place (scripts/check-versions.mjs checks that they are exact and
// not dev dependencies as well).
//
// From a script or test: `await onDemandBin("deno")` (a command's path), `await onDemandImport("cohere-ai")`
// (a package's module). From a shell: `node scripts/on-demand.mjs deno test ...` runs the set's
// command; `node scripts/on-demand.mjs --bin-dir deno` prints the folder holding its commands.
import { execFile, spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { promisify } from "node:util";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const cache = join(root, "node_modules", ".cache", "on-demand");

/** Each set: the packages installed together (exact versions), and the install scripts they need. */
export const ON_DEMAND = {
  // The Deno runtime: the Deno test run, `deno doc` (npm run docs, check-docs), `deno publish
  // --dry-run`, the Deno example and the tarball's `deno check`.
  deno: { packages: { deno: "2.9.6" }, allowScripts: { deno: true } },
  // The oldest TypeScript the package supports and the newest: the tarball's consumer type checks.
  "typescript-5.0": { packages: { typescript: "5.0.4" } },
  "typescript-7": { packages: { typescript: "7.0.2" } },
  // The package linters of scripts/check-package.mjs.
  "package-lint": { packages: { "@arethetypeswrong/cli": "0.18.5", publint: "0.3.25" } },
  // The provider SDKs only test/node/sdk-chunks.test.ts (and sdk-interactions-hops.test.ts) drives (the others are dev dependencies),
  // whose types test/node/next-turn-sdk-types.test.ts checks the next turns against.
  "sdk-clients": {
    packages: {
      "@aws-sdk/client-bedrock-runtime": "3.1178.0",
      "@google/genai": "3.6.1",
      "@smithy/node-http-handler": "4.14.2",
      "cohere-ai": "8.1.0",
    },
  },
  // The AI SDK's Bedrock provider and Smithy's codec, contenders of bench/event-stream.ts.
  "bench-event-stream": { packages: { "@ai-sdk/amazon-bedrock": "4.0.186", "@smithy/eventstream-codec": "4.5.2" } },
};

/** The folder a set is installed in: its name and a hash of its packages and versions. */
function setDir(name) {
  const set = ON_DEMAND[name];
  if (set === undefined) throw new Error(`on-demand: no set "${name}" (known: ${Object.keys(ON_DEMAND).join(", ")})`);
  const hash = createHash("sha256").update(JSON.stringify(set)).digest("hex").slice(0, 10);
  return join(cache, `${name}-${hash}`);
}

const pending = new Map();

/**
 * Installs a set if it is not there yet; resolves to its node_modules folder.
 * @param {keyof typeof ON_DEMAND} name
 * @returns {Promise<string>}
 */
export function ensureOnDemand(name) {
  const dir = setDir(name);
  const modules = join(dir, "node_modules");
  if (existsSync(join(dir, ".complete"))) return Promise.resolve(modules);
  if (!pending.has(name))
    pending.set(
      name,
      install(name, dir).finally(() => pending.delete(name)),
    );
  return pending.get(name).then(() => modules);
}

async function install(name, dir) {
  const set = ON_DEMAND[name];
  mkdirSync(cache, { recursive: true });
  const staging = mkdtempSync(`${dir}.staging-`);
  try {
    writeFileSync(
      join(staging, "package.json"),
      JSON.stringify({ private: true, dependencies: set.packages, allowScripts: set.allowScripts ?? {} }),
    );
    process.stderr.write(`on-demand: installing ${name} (${Object.keys(set.packages).join(", ")}) once\n`);
    await promisify(execFile)("npm", ["install", "--no-audit", "--no-fund", "--no-package-lock", "--loglevel=error"], {
      cwd: staging,
      timeout: 600_000,
      maxBuffer: 16 * 1024 * 1024,
    });
    // A module in the set's folder, so that a bare specifier resolves from its node_modules.
    writeFileSync(join(staging, "import.mjs"), "export const load = (specifier) => import(specifier);\n");
    writeFileSync(join(staging, ".complete"), "");
    try {
      renameSync(staging, dir);
    } catch (error) {
      if (!existsSync(join(dir, ".complete"))) throw error; // installed by another process meanwhile
    }
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

/** The set that holds a package, by the package's name. */
function setOf(pkg) {
  const found = Object.keys(ON_DEMAND).find((name) => pkg in ON_DEMAND[name].packages);
  if (found === undefined) throw new Error(`on-demand: no set holds ${pkg}`);
  return found;
}

/**
 * The path of a set's command (`bin`: the command's name, the set's name by default).
 * @param {keyof typeof ON_DEMAND} name
 * @param {string} [bin]
 * @returns {Promise<string>}
 */
export async function onDemandBin(name, bin = name) {
  return join(await ensureOnDemand(name), ".bin", bin);
}

/**
 * Imports a package of a set (or a subpath of it), resolved as Node resolves it from the set's folder.
 * The caller states what it uses of the module (`T`): the package's own types are installed with
 * it, on first use, so a type check (which runs before) cannot read them.
 * @template [T=unknown]
 * @param {string} specifier
 * @param {keyof typeof ON_DEMAND} [set]
 * @returns {Promise<T>}
 */
export async function onDemandImport(specifier, set = setOf(specifier.match(/^(@[^/]+\/)?[^/]+/)[0])) {
  const modules = await ensureOnDemand(set);
  const { load } = await import(pathToFileURL(join(dirname(modules), "import.mjs")).href);
  return load(specifier);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const [first, ...rest] = process.argv.slice(2);
  if (first === "--bin-dir") {
    for (const name of rest) console.log(join(await ensureOnDemand(name), ".bin"));
  } else if (first && !first.startsWith("-")) {
    const child = spawn(await onDemandBin(first), rest, { stdio: "inherit" });
    child.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
  } else {
    console.error("usage: node scripts/on-demand.mjs <set> [args...] | --bin-dir <set>...");
    process.exit(2);
  }
}
