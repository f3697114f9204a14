// What `npm run bench:load` (bench/load/run.ts) and its soak test (test/e2e/load-soak.e2e.test.ts)
// share: the scripted providers in a process of their own, the built Worker, the pass-through and
// the floors each served by Miniflare (one workerd each), the workloads, a load generator at a fixed
// concurrency that checks every answer, and the workerd's CPU time and memory from /proc.
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { createInterface } from "node:readline";
import { convertV4MiniflareOptions, Miniflare } from "miniflare";
import { type AnswerShape, answerMatches, FIRST_CONTENT, readAnswer } from "./answers.ts";
import {
  type ExpectedCall,
  LOAD_TOOL,
  type LoadProvider,
  type LoadSize,
  loadBodies,
  UPSTREAM_PATHS,
} from "./bodies.ts";

const ROOT = resolve(import.meta.dirname, "../..");
export const TOKEN = "load-client-token";

/** The scripted providers' process and its origin. */
export interface Providers {
  origin: string;
  child: ChildProcess;
}

/** Starts bench/load/providers.ts in a Node process of its own and waits for its origin. */
export async function startProviders(): Promise<Providers> {
  const child = spawn(process.execPath, [join(ROOT, "bench/load/providers.ts")], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const line = await new Promise<string>((done, fail) => {
    child.once("exit", (code) => fail(new Error(`the scripted providers exited (${code})`)));
    createInterface({ input: child.stdout! }).once("line", done);
  });
  return { origin: (JSON.parse(line) as { origin: string }).origin, child };
}

/**
 * What a served script is, which says what it is sent and how its answer is read: the Worker (its
 * client protocol's request and answer), the pass-through (the upstream's request, forwarded), or
 * a floor (bench/load/floor-*.ts: the Worker's client body, the upstream's events answered).
 */
export type Kind = "worker" | "pass" | "floor";

/** The floors of `npm run bench:load`, by name: each a file bench/load/floor-<name>.ts. */
export const FLOORS = ["js-relay", "reencode"] as const;

/** One workerd under Miniflare: its URL, its processes, and what starting it took. */
export interface Served {
  name: string;
  mf: Miniflare;
  url: string;
  pids: number[];
  /** From the Miniflare constructor to the first answer read whole (ms). */
  coldStartMs: number;
}

/** The `[vars]` of wrangler.toml, as `wrangler dev` and a deploy give them to the Worker. */
function wranglerVars(): Record<string, string> {
  const toml = readFileSync(join(ROOT, "wrangler.toml"), "utf8");
  const section = toml.slice(toml.indexOf("\n[vars]") + 7).split(/\n\[/)[0] ?? "";
  const vars: Record<string, string> = {};
  for (const match of section.matchAll(/^([A-Z_]+) = "(.*)"$/gm)) vars[match[1]!] = match[2]!;
  return vars;
}

/**
 * Builds the Worker as `wrangler deploy` would (`--dry-run --outdir`: its build command, then the
 * bundle) and the pass-through and the floors with esbuild; returns the scripts' paths and a
 * cleanup. `before`: another copy of the repository, whose Worker is built too (to measure two
 * trees in one run). `extra`: more scripts of bench/load/ to build as the pass-through is, by name.
 */
export async function buildWorkers(
  before?: string,
  extra: readonly string[] = [],
): Promise<{
  worker: string;
  pass: string;
  floors: Record<(typeof FLOORS)[number], string>;
  scripts: Record<string, string>;
  before?: string;
  remove: () => void;
}> {
  const dir = mkdtempSync(join(tmpdir(), "bench-load-"));
  const bin = join(ROOT, "node_modules/.bin");
  const wrangler = (cwd: string, out: string): void =>
    void execFileSync(join(bin, "wrangler"), ["deploy", "--dry-run", "--outdir", join(dir, out)], {
      cwd,
      stdio: ["ignore", "ignore", "inherit"],
      env: { ...process.env, PATH: `${bin}:${process.env["PATH"]}`, WRANGLER_SEND_METRICS: "false", CI: "1" },
    });
  wrangler(ROOT, "worker");
  flagsOf.set(join(dir, "worker", "index.js"), compatibilityFlags(ROOT));
  if (before) {
    wrangler(resolve(before), "before");
    flagsOf.set(join(dir, "before", "index.js"), compatibilityFlags(resolve(before)));
  }
  const { build } = await import("esbuild");
  const scripts: Record<string, string> = {};
  for (const name of ["pass-through", ...FLOORS.map((floor) => `floor-${floor}`), ...extra]) {
    scripts[name] = join(dir, name, "index.js");
    await build({
      entryPoints: [join(ROOT, `bench/load/${name}.ts`)],
      outfile: scripts[name],
      bundle: true,
      format: "esm",
      target: "es2022",
      logLevel: "warning",
    });
  }
  return {
    worker: join(dir, "worker", "index.js"),
    pass: scripts["pass-through"]!,
    floors: { "js-relay": scripts["floor-js-relay"]!, reencode: scripts["floor-reencode"]! },
    scripts,
    ...(before ? { before: join(dir, "before", "index.js") } : {}),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** The compatibility flags of each Worker {@link buildWorkers} built, from its tree's wrangler.toml. */
const flagsOf = new Map<string, string[]>();

/** `compatibility_flags` of the wrangler.toml in `root` (a one-line array). */
function compatibilityFlags(root: string): string[] {
  const line = /^compatibility_flags\s*=\s*(\[.*\])/m.exec(readFileSync(join(root, "wrangler.toml"), "utf8"));
  return line ? (JSON.parse(line[1]!) as string[]) : [];
}

/** The compatibility flags to serve the built Worker `script` with: its tree's, as a deploy would. */
export function workerFlags(script: string): string[] {
  return flagsOf.get(script) ?? compatibilityFlags(ROOT);
}

/** LOAD_WORKER_VARS="WRITE_WINDOW_MS=0,..." : the Worker's settings changed for one run. */
function extraVars(): Record<string, string> {
  const pairs = (process.env["LOAD_WORKER_VARS"] ?? "").split(",").filter((pair) => pair.includes("="));
  return Object.fromEntries(pairs.map((pair) => [pair.slice(0, pair.indexOf("=")), pair.slice(pair.indexOf("=") + 1)]));
}

/** The pids of the processes named workerd (or callgrind's, running one) that this process started (its descendants). */
export function workerdProcesses(): Set<number> {
  const parent = new Map<number, number>();
  const workerd: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      parent.set(Number(entry), Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]));
      // A workerd under callgrind (MINIFLARE_WORKERD_PATH: bench/load/stored-callgrind.ts) runs as valgrind's tool.
      if (/^(workerd|callgrind-amd64)/.test(stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"))))
        workerd.push(Number(entry));
    } catch {
      // the process ended meanwhile
    }
  }
  const mine = (pid: number): boolean => {
    for (let p = parent.get(pid); p !== undefined && p > 1; p = parent.get(p)) if (p === process.pid) return true;
    return false;
  };
  return new Set(workerd.filter(mine));
}

/**
 * Serves `script` with Miniflare in a workerd of its own: the real Worker (`worker`: wrangler.toml's
 * vars, compatibility settings and its `RESPONSES` Durable Object, the providers' origin as its
 * base URLs), the pass-through or a floor (the providers' origin as UPSTREAM, and `vars`). Cold
 * start: from here to the first answer of `first` read whole.
 */
export async function serve(
  name: string,
  script: string,
  kind: Kind,
  origin: string,
  first: Workload,
  vars: Record<string, string> = {},
): Promise<Served> {
  const before = workerdProcesses();
  const started = performance.now();
  const common = {
    name: kind,
    modules: true,
    modulesRoot: dirname(script),
    scriptPath: script,
    compatibilityDate: "2026-11-01",
  };
  const worker =
    kind === "worker"
      ? {
          ...common,
          compatibilityFlags: workerFlags(script),
          bindings: {
            ...wranglerVars(),
            CLIENT_TOKEN: TOKEN,
            OPENAI_API_KEY: "load-key",
            ANTHROPIC_API_KEY: "load-key",
            OPENAI_BASE_URL: `${origin}/v1`,
            ANTHROPIC_BASE_URL: `${origin}/v1`,
            ...extraVars(),
          },
          durableObjects: { RESPONSES: { className: "ResponseBuffer", useSQLite: true } },
        }
      : { ...common, bindings: { UPSTREAM: origin, ...vars } };
  const mf = new Miniflare(convertV4MiniflareOptions({ host: "127.0.0.1", port: 0, workers: [worker] }));
  const url = (await mf.ready).href.replace(/\/$/, "");
  const served: Served = { name, mf, url, pids: [], coldStartMs: 0 };
  try {
    const answer = await send(served, first, kind);
    if (!answer.ok) throw new Error(`${name}: the first request failed: ${answer.error ?? "a malformed answer"}`);
    served.coldStartMs = performance.now() - started;
    served.pids = [...workerdProcesses()].filter((pid) => !before.has(pid));
    if (served.pids.length === 0) throw new Error(`${name}: no workerd process found`);
    return served;
  } catch (error) {
    await mf.dispose(); // the caller never gets it to dispose: its workerd would outlive the run
    throw error;
  }
}

/** What {@link buildWorkers} built. */
export type Built = Awaited<ReturnType<typeof buildWorkers>>;

/**
 * Serves the target a tool's setting names (CG_TARGET, ROUNDS_TARGETS): `worker` (this tree's
 * Worker), `before` (LOAD_BEFORE's), `pass-through`, a floor (`js-relay`, `reencode`) or
 * `fetch-step:<variant>` (bench/load/fetch-step.ts, which `built` must have as an extra script).
 */
export async function serveTarget(
  spec: string,
  built: Built,
  origin: string,
  first: Workload,
): Promise<{ served: Served; kind: Kind }> {
  if (spec === "worker" || spec === "before") {
    const script = spec === "worker" ? built.worker : built.before;
    if (!script) throw new Error("`before` needs LOAD_BEFORE=<another copy of the repository>");
    return { served: await serve(spec, script, "worker", origin, first), kind: "worker" };
  }
  if (spec === "pass-through") return { served: await serve(spec, built.pass, "pass", origin, first), kind: "pass" };
  const floor = FLOORS.find((name) => name === spec);
  if (floor) return { served: await serve(spec, built.floors[floor], "floor", origin, first), kind: "floor" };
  const variant = /^fetch-step:(.+)$/.exec(spec)?.[1];
  const script = built.scripts["fetch-step"];
  if (!variant || !script) throw new Error(`no such target: ${spec}`);
  return { served: await serve(spec, script, "pass", origin, first, { VARIANT: variant }), kind: "pass" };
}

/** One kind of request of the bench. */
export interface Workload {
  name: string;
  provider: LoadProvider;
  size: LoadSize;
  /** The Worker's endpoint. */
  path: string;
  /** The Worker's answer, and the upstream's (what the pass-through and the direct request read). */
  shape: AnswerShape;
  upstreamShape: AnswerShape;
  /** The client's body to the Worker. */
  body: Record<string, unknown>;
  expected: ExpectedCall[];
}

/** The workloads by name: chat streamed and not, messages, responses (small answers), and the 10 KB call. */
export function workloads(): Record<string, Workload> {
  const bodies = loadBodies();
  const user = "Write my todo list to notes/todo.md.";
  const chatTool = { type: "function", function: LOAD_TOOL };
  const chat = (size: LoadSize, stream: boolean): Record<string, unknown> => ({
    model: `openai/${size}`,
    messages: [{ role: "user", content: user }],
    tools: [chatTool],
    ...(stream ? { stream: true } : {}),
  });
  const { parameters, ...named } = LOAD_TOOL;
  const messages = {
    model: "anthropic/small",
    max_tokens: 1024,
    stream: true,
    messages: [{ role: "user", content: user }],
    tools: [{ ...named, input_schema: parameters }],
  };
  const responses = (extra: Record<string, unknown>): Record<string, unknown> => ({
    model: "openai-responses/small",
    stream: true,
    input: user,
    tools: [{ type: "function", ...LOAD_TOOL }],
    ...extra,
  });
  const make = (
    name: string,
    provider: LoadProvider,
    size: LoadSize,
    path: string,
    shape: AnswerShape,
    body: Record<string, unknown>,
  ): Workload => {
    const upstreamShape: AnswerShape =
      provider === "openai" ? "chat" : provider === "anthropic" ? "messages" : "responses";
    return { name, provider, size, path, shape, upstreamShape, body, expected: bodies[provider][size].calls };
  };
  const list = [
    make("chat-stream", "openai", "small", "/v1/chat/completions", "chat", chat("small", true)),
    make("chat", "openai", "small", "/v1/chat/completions", "chat-json", chat("small", false)),
    make("messages", "anthropic", "small", "/v1/messages", "messages", messages),
    make("responses", "openai-responses", "small", "/v1/responses", "responses", responses({})),
    make("responses-no-store", "openai-responses", "small", "/v1/responses", "responses", responses({ store: false })),
    make("tool-args-10k", "openai", "big", "/v1/chat/completions", "chat", chat("big", true)),
  ];
  return Object.fromEntries(list.map((workload) => [workload.name, workload]));
}

/** What one request measured. */
export interface Sample {
  ok: boolean;
  /** The answer came (HTTP 200, read whole) but its calls or its ending were wrong. */
  malformed: boolean;
  error?: string;
  totalMs: number;
  firstContentMs: number;
}

/**
 * A request as each target gets it: the Worker its client body, the pass-through and the upstream
 * the provider's, a floor the client's body at the provider's path.
 */
function requestOf(target: Served | "direct", workload: Workload, kind: Kind, origin: string) {
  const upstreamBody = JSON.stringify({ model: workload.size, stream: true, messages: [] });
  if (target === "direct") return { url: `${origin}${UPSTREAM_PATHS[workload.provider]}`, body: upstreamBody };
  if (kind === "pass") return { url: `${target.url}${UPSTREAM_PATHS[workload.provider]}`, body: upstreamBody };
  if (kind === "floor")
    return { url: `${target.url}${UPSTREAM_PATHS[workload.provider]}`, body: JSON.stringify(workload.body) };
  return { url: `${target.url}${workload.path}`, body: JSON.stringify(workload.body) };
}

const decoder = new TextDecoder();

/**
 * LOAD_ACCEPT_ENCODING=identity: the client's `Accept-Encoding` (else fetch's own, `gzip, deflate`).
 * Miniflare's entry Worker stands in for Cloudflare's front line, which compresses a JSON answer
 * for a client that accepts gzip outside the Worker: in Miniflare workerd compresses it, in the
 * measured process (a not-streamed answer's `deflateInit2` and `deflate`, about 0.3 M instructions a
 * request), where the pass-through's event stream is never compressed.
 */
const ACCEPT_ENCODING = process.env["LOAD_ACCEPT_ENCODING"];

/** Sends one request of `workload` to `target` (or to the upstream itself) and checks its answer. */
export async function send(target: Served | "direct", workload: Workload, kind: Kind, origin = ""): Promise<Sample> {
  const { url, body } = requestOf(target, workload, kind, origin);
  const shape = target !== "direct" && kind === "worker" ? workload.shape : workload.upstreamShape;
  const marker = FIRST_CONTENT[shape];
  const headers: Record<string, string> = { "content-type": "application/json", authorization: `Bearer ${TOKEN}` };
  if (workload.path === "/v1/messages") headers["anthropic-version"] = "2023-06-01";
  if (ACCEPT_ENCODING !== undefined) headers["accept-encoding"] = ACCEPT_ENCODING;
  const start = performance.now();
  let firstContentMs = -1;
  try {
    const response = await fetch(url, { method: "POST", headers, body });
    if (!response.ok || !response.body) {
      return {
        ok: false,
        malformed: false,
        error: `HTTP ${response.status} ${await response.text()}`,
        totalMs: 0,
        firstContentMs: 0,
      };
    }
    let text = "";
    for await (const chunk of response.body) {
      const from = Math.max(0, text.length - 64);
      text += decoder.decode(chunk as Uint8Array, { stream: true });
      if (firstContentMs < 0 && (marker === null || marker.test(text.slice(from))))
        firstContentMs = performance.now() - start;
    }
    const totalMs = performance.now() - start;
    const answer = readAnswer(shape, text);
    const ok = answerMatches(answer, workload.expected);
    return { ok, malformed: !ok, totalMs, firstContentMs: firstContentMs < 0 ? totalMs : firstContentMs };
  } catch (error) {
    return { ok: false, malformed: false, error: String(error), totalMs: 0, firstContentMs: 0 };
  }
}

/** `n` requests of `workload` to `target`, `concurrency` at a time; the samples and the wall time. */
export async function load(
  target: Served | "direct",
  workload: Workload,
  kind: Kind,
  origin: string,
  concurrency: number,
  n: number,
): Promise<{ samples: Sample[]; wallMs: number }> {
  const samples: Sample[] = [];
  let next = 0;
  const start = performance.now();
  const client = async (): Promise<void> => {
    while (next < n) {
      next++;
      samples.push(await send(target, workload, kind, origin));
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, n) }, client));
  return { samples, wallMs: performance.now() - start };
}

/**
 * CPU time of `pids` in milliseconds: the run time of each of their threads
 * (/proc/<pid>/task/<tid>/schedstat, nanoseconds), or, where the kernel has no schedstat, utime +
 * stime (/proc/<pid>/stat fields 14 and 15, in clock ticks of 10 ms). workerd's threads live as
 * long as it does, so a difference over a step counts all of its work in the step.
 */
export function cpuMs(pids: readonly number[]): number {
  let ns = 0;
  try {
    for (const pid of pids)
      for (const task of readdirSync(`/proc/${pid}/task`))
        ns += Number(readFileSync(`/proc/${pid}/task/${task}/schedstat`, "utf8").split(" ")[0]);
    return ns / 1e6;
  } catch {
    let ticks = 0;
    for (const pid of pids) {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      ticks += Number(fields[11]) + Number(fields[12]);
    }
    return (ticks * 1000) / Number(process.env["CLK_TCK"] ?? 100);
  }
}

/** Resident memory of `pids` (VmRSS), in MiB. */
export function rssMiB(pids: readonly number[]): number {
  let kib = 0;
  for (const pid of pids) kib += Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0);
  return kib / 1024;
}

/** The value at quantile `q` of `values` (nearest rank). */
export function quantile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? Number.NaN;
}
