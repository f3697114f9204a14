// The package as a user gets it (issue 24): packs the tarball with `npm pack` (its `prepack` builds),
// installs it in a fresh project in a temporary folder (offline: eventsource-parser, the one
// dependency, is packed from this checkout's node_modules), then, in that project:
//   1. imports every subpath of the exports map and reads a recorded stream through the chain,
//      under the system's `node` (Node 20 here) and the Node 24 of the dev dependencies;
//   2. type-checks a consumer of every subpath without skipLibCheck, with the oldest TypeScript
//      the package supports (5.0, node_modules/typescript-5.0) and the newest (7,
//      node_modules/typescript-7), under `nodenext` and `bundler` resolution;
//   3. bundles each subpath with esbuild against the size budget (scripts/size.mjs --package).
// Prints one line per check and exits 1 if any failed. Usage: node scripts/check-tarball.mjs [--keep]
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
const work = mkdtempSync(join(tmpdir(), "tool-call-stream-tarball-"));
const project = join(work, "consumer");
const failures = [];
const quiet = { cwd: root, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] };

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
  // The tarball, built by its prepack (npm run build), and eventsource-parser's.
  execFileSync("npm", ["pack", "--pack-destination", work], quiet);
  execFileSync("npm", ["pack", "--ignore-scripts", "--pack-destination", work], {
    ...quiet,
    cwd: join(root, "node_modules", "eventsource-parser"),
  });
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
  for (const [label, node] of [
    ["system node", systemNode ?? "node"],
    ["dev-dependency node", join(root, "node_modules", ".bin", "node")],
  ]) {
    const output = run(`imports under the ${label}`, node, ["imports.mjs"], { cwd: project });
    if (output) console.log(`  ${output}`);
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
  for (const [typescript, version] of [
    ["typescript-5.0", "5.0"],
    ["typescript-7", "7"],
  ]) {
    const tsc = join(root, "node_modules", typescript, "bin", "tsc");
    const asyncIterable = version !== "5.0";
    for (const resolution of ["nodenext", "bundler"]) {
      const config = `tsconfig.${version}.${resolution}.json`;
      writeFileSync(
        join(project, config),
        JSON.stringify({
          compilerOptions: {
            target: "ES2022",
            module: resolution === "bundler" ? "ESNext" : "NodeNext",
            moduleResolution: resolution,
            lib: ["ES2022", "DOM", "DOM.Iterable", ...(asyncIterable ? ["DOM.AsyncIterable"] : [])],
            types: [],
            strict: true,
            noEmit: true,
          },
          files: ["consumer.ts", ...(asyncIterable ? ["consumer-for-await.ts"] : [])],
        }),
      );
      run(`tsc ${version} (${resolution}, no skipLibCheck)`, "node", [tsc, "-p", config], { cwd: project });
    }
  }

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
