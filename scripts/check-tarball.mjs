// The package as a user gets it (issue 24): packs the tarball with `npm pack` (its `prepack` builds),
// installs it in a fresh project in a temporary folder (offline: the package has no dependency),
// then, in that project:
//   1. imports every subpath of the exports map and reads a recorded stream through the chain,
//      and require()s every subpath from CommonJS, under the system's `node` (Node 20 here) and
//      the Node 24 of the dev dependencies;
//   2. type-checks a consumer of every subpath without skipLibCheck, with the oldest TypeScript
//      the package supports (5.0), the 5.x it is built with, and the newest (7), the other two
//      installed on first use (scripts/on-demand.mjs): with the DOM lib under `nodenext` and `bundler`
//      resolution, as a Node-only project (lib ES2022, types node, no DOM) under nodenext, node16
//      and bundler, with exactOptionalPropertyTypes, with lib ES2020, as a CommonJS project
//      (`module: commonjs`, and a .cts with `import = require()` from TypeScript 5.8); then with
//      Deno's types (`deno check`);
//   3. bundles each subpath with esbuild against the size budget (scripts/size.mjs --package).
// Prints one line per check and exits 1 if any failed. Usage: node scripts/check-tarball.mjs [--keep]
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { ensureOnDemand, onDemandBin } from "./on-demand.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
const work = mkdtempSync(join(tmpdir(), "tool-call-stream-tarball-"));
const project = join(work, "consumer");
const failures = [];
const quiet = { cwd: root, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] };

/** The version of an installed dev dependency (`typescript`: the 5.x the repository builds with). */
function readVersion(name) {
  return JSON.parse(readFileSync(join(root, "node_modules", name, "package.json"), "utf8")).version;
}

/** Runs a command; a failure is recorded with its output, never thrown. */
function run(label, command, args, options = {}) {
  const result = spawnSync(command, args, { ...quiet, ...options });
  const output = `${result.stdout ?? ""}${result.stderr ?? ""}`.trim();
  if (result.status === 0) {
    console.log(`tarball: ${label}: ok`);
    return output;
  }
  failures.push(`${label} failed (exit ${result.status ?? result.signal}):\n${output || String(result.error)}`);
  return undefined;
}

try {
  // The tarball, built by its prepack (npm run build).
  execFileSync("npm", ["pack", "--pack-destination", work], quiet);
  const tarballs = readdirSync(work).filter((name) => name.endsWith(".tgz"));
  const tarball = tarballs.find((name) => name.startsWith(`${pkg.name}-`));
  const size = readFileSync(join(work, tarball)).length;
  console.log(`tarball: ${tarball}, ${size} bytes`);

  mkdirSync(project);
  writeFileSync(join(project, "package.json"), JSON.stringify({ name: "consumer", private: true, type: "module" }));
  run(
    "npm install (offline)",
    "npm",
    ["install", "--offline", "--no-audit", "--no-fund", "--ignore-scripts", ...tarballs.map((t) => join(work, t))],
    { cwd: project },
  );

  // 1. Every subpath imported, and one chain run, in each Node.
  const subpaths = Object.keys(pkg.exports)
    .filter((subpath) => subpath !== "./package.json")
    .map((subpath) => (subpath === "." ? pkg.name : `${pkg.name}/${subpath.slice(2)}`));
  writeFileSync(
    join(project, "imports.mjs"),
    `const subpaths = ${JSON.stringify(subpaths)};
for (const subpath of subpaths) {
  const names = Object.keys(await import(subpath));
  if (names.length === 0) throw new Error(subpath + " exports nothing");
}
const { streamToolCalls } = await import("${pkg.name}");
const body = 'data: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_1","function":{"name":"f","arguments":"{\\\\"a\\\\":1}"}}]}}]}\\n\\ndata: {"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}\\n\\ndata: [DONE]\\n\\n';
const events = [];
for await (const event of streamToolCalls(new Response(body), { provider: "openai" })) events.push(event);
const call = events.find((event) => event.type === "tool-call");
if (call?.arguments?.a !== 1 || events.at(-1).type !== "finish") throw new Error("unexpected events " + JSON.stringify(events));
console.log(process.version + ": " + subpaths.length + " subpaths imported, one stream read");
`,
  );
  // npm scripts put node_modules/.bin (with its Node 24) first on the PATH: the system's node is
  // the first one found outside it.
  const systemNode = (process.env.PATH ?? "")
    .split(delimiter)
    .filter((folder) => folder !== "" && !folder.startsWith(join(root, "node_modules")))
    .map((folder) => join(folder, "node"))
    .find((file) => existsSync(file));
  // From CommonJS: require() of every subpath (Node 20.19+ and 22.12+ load ES modules so).
  writeFileSync(
    join(project, "requires.cjs"),
    `for (const subpath of ${JSON.stringify(subpaths)})
  if (Object.keys(require(subpath)).length === 0) throw new Error(subpath + " exports nothing");
console.log(process.version + ": " + ${subpaths.length} + " subpaths required");
`,
  );
  for (const [label, node] of [
    ["system node", systemNode ?? "node"],
    ["dev-dependency node", join(root, "node_modules", ".bin", "node")],
  ]) {
    for (const file of ["imports.mjs", "requires.cjs"]) {
      const output = run(`${file} under the ${label}`, node, [file], { cwd: project });
      if (output) console.log(`  ${output}`);
    }
  }

  // 2. A consumer of every subpath, type-checked with the oldest and the newest TypeScript.
  writeFileSync(
    join(project, "consumer.ts"),
    `${subpaths.map((subpath, i) => `import * as entry${i} from "${subpath}";`).join("\n")}
import { streamToolCalls, type ToolCallEvent } from "${pkg.name}";
import { SSEDecoderStream, ToolCallAccumulatorStream, OpenAIChatDeltaStream } from "${pkg.name}/openai";
import type { RunnableTool, ToolHandlerResult } from "${pkg.name}/tools";

export const entries: object[] = [${subpaths.map((_, i) => `entry${i}`).join(", ")}];

/** Reads events with a reader, which needs no DOM.AsyncIterable (TypeScript 5.0 has none). */
export async function count(response: Response): Promise<number> {
  const reader = streamToolCalls(response, { provider: "openai" }).getReader();
  let calls = 0;
  for (let read = await reader.read(); !read.done; read = await reader.read()) if (read.value.type === "tool-call") calls++;
  return calls;
}
export function chain(body: ReadableStream<Uint8Array>): ReadableStream<ToolCallEvent> {
  return body.pipeThrough(new SSEDecoderStream()).pipeThrough(new OpenAIChatDeltaStream()).pipeThrough(new ToolCallAccumulatorStream());
}
export const streaming: RunnableTool = {
  description: "A result that grows.",
  parameters: { type: "object" },
  async *run() {
    yield 1;
    return 2;
  },
};
export const result: ToolHandlerResult = (async function* () { yield 1; return 2; })();
`,
  );
  // for await over a ReadableStream, as the README shows it: needs lib DOM.AsyncIterable.
  writeFileSync(
    join(project, "consumer-for-await.ts"),
    `import { streamToolCalls } from "${pkg.name}";
export async function names(response: Response): Promise<string[]> {
  const names: string[] = [];
  for await (const event of streamToolCalls(response)) if (event.type === "tool-call") names.push(event.name);
  return names;
}
`,
  );
  // A CommonJS consumer: `import x = require(...)`, which TypeScript takes for an ES module from
  // 5.8 on under module nodenext (Node 20.19+ and 22.12+ load one with require).
  writeFileSync(
    join(project, "consumer-require.cts"),
    `import library = require("${pkg.name}");
import openai = require("${pkg.name}/openai");
export const read: typeof library.streamToolCalls = library.streamToolCalls;
export const stage = new openai.OpenAIChatDeltaStream();
`,
  );
  // The set-ups the README names, each strict and without skipLibCheck: a browser or Worker project
  // (DOM), a Node-only server project (lib ES2022 and @types/node, no DOM: nothing in the package's
  // types may need a DOM-only name such as ReadableStreamReadResult) under each resolution, with
  // the strictest flags, with lib ES2020; a CommonJS project as `tsc --init` writes it (module
  // commonjs: node10 resolution in 5.x, which reads typesVersions, not exports); a .cts consumer.
  const nodeTypes = join(root, "node_modules", "@types");
  const strictest = {
    exactOptionalPropertyTypes: true,
    noUncheckedIndexedAccess: true,
    noImplicitOverride: true,
    noPropertyAccessFromIndexSignature: true,
    verbatimModuleSyntax: true,
  };
  const setups = [
    ...["nodenext", "bundler"].map((resolution) => ({ name: `DOM, ${resolution}`, resolution, dom: true })),
    { name: "Node only: lib ES2022, types node", resolution: "nodenext", dom: false },
    { name: "Node only, node16", resolution: "node16", dom: false },
    { name: "Node only, bundler", resolution: "bundler", dom: false },
    {
      name: "Node only, exactOptionalPropertyTypes and the other strictest flags",
      resolution: "nodenext",
      dom: false,
      extra: strictest,
    },
    {
      name: "DOM, exactOptionalPropertyTypes",
      resolution: "bundler",
      dom: true,
      extra: { exactOptionalPropertyTypes: true },
    },
    { name: "Node only, lib and target ES2020", resolution: "nodenext", dom: false, lib: "ES2020" },
    { name: "CommonJS as tsc --init writes it", resolution: undefined, module: "CommonJS", dom: false },
    {
      name: "CommonJS .cts, import = require()",
      resolution: "nodenext",
      dom: false,
      files: ["consumer-require.cts"],
      since: 5.8,
    },
  ];
  for (const [tsc, version] of [
    [join(await ensureOnDemand("typescript-5.0"), "typescript", "bin", "tsc"), "5.0"],
    [join(root, "node_modules", "typescript", "bin", "tsc"), readVersion("typescript")],
    [join(await ensureOnDemand("typescript-7"), "typescript", "bin", "tsc"), "7"],
  ]) {
    const asyncIterable = version !== "5.0";
    for (const [i, setup] of setups.entries()) {
      if (setup.since && Number.parseFloat(version) < setup.since) continue;
      const config = `tsconfig.${version}.${i}.json`;
      const es = setup.lib ?? "ES2022";
      const module =
        setup.module ??
        (setup.resolution === "bundler" ? "ESNext" : setup.resolution === "node16" ? "Node16" : "NodeNext");
      writeFileSync(
        join(project, config),
        JSON.stringify({
          compilerOptions: {
            target: es,
            module,
            ...(setup.resolution ? { moduleResolution: setup.resolution } : {}),
            lib: setup.dom ? [es, "DOM", "DOM.Iterable", ...(asyncIterable ? ["DOM.AsyncIterable"] : [])] : [es],
            types: setup.dom ? [] : ["node"],
            ...(setup.dom ? {} : { typeRoots: [nodeTypes] }),
            strict: true,
            noEmit: true,
            ...setup.extra,
          },
          files: setup.files ?? ["consumer.ts", ...(asyncIterable ? ["consumer-for-await.ts"] : [])],
        }),
      );
      const label = `tsc ${version} (${setup.name}, no skipLibCheck)`;
      if (setup.dom || version !== "5.0") {
        run(label, "node", [tsc, "-p", config], { cwd: project });
        continue;
      }
      // @types/node (26 here) needs a newer TypeScript than 5.0 for its own files (Disposable,
      // Symbol.dispose): under 5.0 only an error outside @types/node counts.
      const result = spawnSync("node", [tsc, "-p", config], { ...quiet, cwd: project });
      const errors = `${result.stdout}`.split("\n").filter((line) => /error TS\d+/.test(line));
      const ours = errors.filter((line) => !line.includes("node_modules/@types/node/"));
      if (result.status !== 0 && errors.length === 0)
        failures.push(`${label} failed:\n${result.stdout}${result.stderr}`);
      else if (ours.length > 0) failures.push(`${label} failed:\n${ours.join("\n")}`);
      else
        console.log(
          `tarball: ${label}: ok (${errors.length - ours.length} errors inside @types/node itself left aside)`,
        );
    }
  }

  // Deno's types: `deno check` of the consumer in the installed project, as a Deno user of the
  // npm package checks it (Deno's own TypeScript and its web types, no DOM lib).
  writeFileSync(join(project, "deno.json"), JSON.stringify({ nodeModulesDir: "manual" }));
  run("deno check (Deno's types)", await onDemandBin("deno"), ["check", "consumer.ts", "consumer-for-await.ts"], {
    cwd: project,
  });

  // 3. Each subpath bundled from the installed package, against the size budget.
  const sizes = run("esbuild bundles within the size budget", "node", [
    join(root, "scripts", "size.mjs"),
    "--package",
    project,
  ]);
  if (sizes) console.log(sizes.split("\n").at(-1));
} catch (error) {
  failures.push(`it failed to run: ${error instanceof Error ? error.message : String(error)}`);
} finally {
  if (process.argv.includes("--keep")) console.log(`tarball: kept ${work}`);
  else rmSync(work, { recursive: true, force: true });
}
for (const failure of failures) console.error(`!! tarball: ${failure}`);
process.exit(failures.length > 0 ? 1 : 0);
