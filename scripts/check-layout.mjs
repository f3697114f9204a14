// The layout of src/ (issue 13) and worker/ (issue 23), checked in CI. Exits 1, with one line
// per finding, when
//   - an import cycle joins modules of src/ or worker/ (type-only imports and re-exports count:
//     they tie modules together just the same);
//   - a module imports against the chain: each stage folder has a rank, and a module may import
//     only from its own folder or from folders of a lower rank (so framing knows nothing of
//     providers, providers nothing of the accumulator, the accumulator nothing of tools or
//     encoders); stage folders never import the entry modules;
//   - the top of src/ holds anything but the entry modules of package.json and the stage folders;
//   - a file of src/ is over MAX_LINES lines;
//   - in worker/ (the Worker, a folder per feature): a module imports a folder of a higher rank
//     (WORKER_RANKS: the bindings, the error shape, http and the Worker's request, the upstream,
//     the services, the resumable responses, the protocols and the page), one protocol's folder
//     imports another's (worker/protocols/<name>/ are independent: a new protocol is a folder and
//     a line in the router), a module imports the router or the Worker's entry, the top of
//     worker/ holds anything but those and the bindings, a module reaches into src/ past its
//     entry modules, or a file is over MAX_LINES lines.
// Usage: node scripts/check-layout.mjs
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const src = join(root, "src");
export const MAX_LINES = 300;
/** Modules allowed past MAX_LINES, each with why (none now). */
const LONGER = new Map();
const capOf = (path) => LONGER.get(path) ?? MAX_LINES;

/**
 * The stage folders in the order of the chain. Equal ranks are independent of each other:
 * `providers` and `json` both build on `shared` and `framing` and never import each other;
 * `schema` builds on `json` (the early checks listen to its parser).
 */
export const RANKS = {
  shared: 0, // the vocabulary every stage shares: deltas, events, errors, JSON values
  framing: 1, // bytes -> framed messages
  providers: 2, // framed messages -> normalized deltas, one folder per wire protocol
  json: 2, // incremental parsing, the grammar, repair, error positions
  schema: 3, // tool schemas and their checks (final and early, on the json parser): the accumulator's plug-ins
  accumulate: 4, // normalized deltas -> accumulated events
  pipeline: 5, // the whole chain in one call (streamToolCalls)
  tools: 6, // events -> tool results, the agent loop
  encode: 7, // events -> a client protocol's bytes, and back
};

/**
 * The Worker's folders, lowest first; a module imports only its own folder or lower ranks. The
 * top-level `env.ts` and `runtime.ts` (the bindings and settings, the injected network and clock)
 * are below everything; `app.ts` (the router) and `index.ts` (the Worker's entry) above.
 * `page/client/` is the page's browser script, bundled apart (scripts/build-page.mjs).
 */
export const WORKER_RANKS = {
  response: 1, // HttpError: the one shape of an error before a stream starts
  http: 2, // auth, CORS, the body limit, the checks of every POST, the Worker's own SSE answer
  request: 2, // the Worker's one request (/v1/stream, /v1/run), which every protocol is read into
  "demo-tools": 2, // the tools /v1/run offers
  upstream: 3, // the provider side: request builders, the replay and the scripted model
  services: 4, // what produces an endpoint's events: one model call, the tool loop
  resumable: 5, // the Durable Object and how routes reach it
  protocols: 6, // one folder per client protocol: route, request, error shape
  page: 6, // the demo page
};
const WORKER_BASE = new Set(["env.ts", "runtime.ts"]);
const WORKER_TOP = new Set(["app.ts", "index.ts"]);
/** Folders whose sub-folders are independent features. */
const FEATURES = new Set(["protocols"]);

const failures = [];
const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
const entries = new Set(
  Object.values(pkg.exports)
    .filter((target) => typeof target === "object")
    .map((target) => relative("dist", target.default).replace(/\.js$/, ".ts")),
);

function files(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : [path];
  });
}

const modules = files(src).filter((path) => path.endsWith(".ts"));
for (const name of readdirSync(src)) {
  const isFolder = statSync(join(src, name)).isDirectory();
  if (isFolder ? !(name in RANKS) : !entries.has(name)) {
    failures.push(
      `src/${name} is neither an entry module of package.json nor a stage folder (${Object.keys(RANKS).join(", ")})`,
    );
  }
}

/** The stage folder of a module, or `undefined` for an entry module. */
const stageOf = (path) => {
  const [first, ...rest] = relative(src, path).split(sep);
  return rest.length > 0 ? first : undefined;
};

const graph = new Map();
for (const path of modules) {
  const text = readFileSync(path, "utf8");
  const lines = text.split("\n").length - (text.endsWith("\n") ? 1 : 0);
  if (lines > capOf(relative(root, path)))
    failures.push(`${relative(root, path)} has ${lines} lines (at most ${capOf(relative(root, path))})`);
  const imports = ts
    .preProcessFile(text, true, false)
    .importedFiles.map((ref) => ref.fileName)
    .filter((spec) => spec.startsWith("."));
  const targets = imports.map((spec) => resolve(dirname(path), spec));
  graph.set(path, targets);
  const from = stageOf(path);
  for (const target of targets) {
    if (!modules.includes(target)) {
      failures.push(`${relative(root, path)} imports ${relative(root, target)}, which is not a module of src/`);
      continue;
    }
    if (from === undefined) continue; // entry modules may re-export any stage
    const to = stageOf(target);
    if (to === undefined) failures.push(`${relative(root, path)} imports the entry module ${relative(root, target)}`);
    else if (to !== from && !(RANKS[to] < RANKS[from])) {
      failures.push(`${relative(root, path)} (${from}) imports ${relative(root, target)} (${to}), against the chain`);
    }
  }
}

// worker/: ranks, independent protocol folders, the library through its entry modules.
const workerDir = join(root, "worker");
const skip = (path) => /[/\\]page[/\\](?:client|generated)[/\\]/.test(path);
const workerModules = files(workerDir).filter((path) => path.endsWith(".ts") && !skip(path));
for (const name of readdirSync(workerDir)) {
  const isFolder = statSync(join(workerDir, name)).isDirectory();
  if (isFolder ? !(name in WORKER_RANKS) : name.endsWith(".ts") && !WORKER_BASE.has(name) && !WORKER_TOP.has(name)) {
    failures.push(
      `worker/${name} is none of the Worker's folders (${Object.keys(WORKER_RANKS).join(", ")}) or top modules`,
    );
  }
}
/** A worker module's place: its folder and rank, and its feature (`protocols/<name>`) if any. */
const placeOf = (path) => {
  const parts = relative(workerDir, path).split(sep);
  if (parts.length === 1) return { folder: parts[0], rank: WORKER_BASE.has(parts[0]) ? 0 : Number.POSITIVE_INFINITY };
  const feature = FEATURES.has(parts[0]) && parts.length > 2 ? `${parts[0]}/${parts[1]}` : undefined;
  return { folder: parts[0], rank: WORKER_RANKS[parts[0]] ?? Number.POSITIVE_INFINITY, feature };
};
for (const path of workerModules) {
  const text = readFileSync(path, "utf8");
  const lines = text.split("\n").length - (text.endsWith("\n") ? 1 : 0);
  if (lines > capOf(relative(root, path)))
    failures.push(`${relative(root, path)} has ${lines} lines (at most ${capOf(relative(root, path))})`);
  const targets = ts
    .preProcessFile(text, true, false)
    .importedFiles.map((ref) => ref.fileName)
    .filter((spec) => spec.startsWith("."))
    .map((spec) => resolve(dirname(path), spec));
  graph.set(path, targets);
  const from = placeOf(path);
  const name = relative(root, path);
  for (const target of targets) {
    const where = relative(root, target);
    if (target.startsWith(src + sep)) {
      if (!entries.has(relative(src, target)))
        failures.push(`${name} imports ${where}: the Worker reaches the library only through its entry modules`);
      continue;
    }
    if (!target.startsWith(workerDir + sep) || skip(target)) continue; // the page's generated assets
    const to = placeOf(target);
    if (WORKER_TOP.has(relative(workerDir, target))) {
      if (from.rank !== Number.POSITIVE_INFINITY) failures.push(`${name} imports ${where}, the router or the entry`);
    } else if (to.folder !== from.folder && !(to.rank < from.rank))
      failures.push(`${name} (${from.folder}) imports ${where} (${to.folder}), against the Worker's ranks`);
    else if (from.feature && to.feature && from.feature !== to.feature)
      failures.push(`${name} imports ${where}: one protocol's folder never imports another's`);
  }
}

// Cycles: a depth-first search that reports each cycle once, by its path.
const state = new Map(); // path -> "open" | "done"
const stack = [];
function visit(path) {
  state.set(path, "open");
  stack.push(path);
  for (const target of graph.get(path) ?? []) {
    if (state.get(target) === "open") {
      const cycle = [...stack.slice(stack.indexOf(target)), target].map((p) => relative(root, p));
      failures.push(`import cycle: ${cycle.join(" -> ")}`);
    } else if (!state.has(target) && graph.has(target)) visit(target);
  }
  stack.pop();
  state.set(path, "done");
}
for (const path of [...modules, ...workerModules]) if (!state.has(path)) visit(path);

const folders = new Set(modules.map(stageOf).filter(Boolean));
if (failures.length === 0)
  console.log(
    `layout: ${modules.length} modules in ${folders.size} stage folders and ${entries.size} entry modules, ${workerModules.length} Worker modules in ${Object.keys(WORKER_RANKS).length} folders; no module over ${MAX_LINES} lines (${LONGER.size} allowed more, with why), no cycle, imports along the chain and the Worker's ranks`,
  );
for (const failure of failures) console.error(`!! layout: ${failure}`);
process.exit(failures.length > 0 ? 1 : 0);
