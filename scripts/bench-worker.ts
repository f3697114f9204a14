// `npm run bench:worker`: the Worker's CPU per response against the chain alone and a
// pass-through, each in local workerd (`wrangler dev` on loopback), on event-dense provider bodies
// served at full speed by a local upstream (a Node HTTP server on 127.0.0.1).
//
// Three `wrangler dev`, each its own workerd:
//   worker     the real Worker (worker/index.ts, wrangler.toml): /v1/stream is resumable (the
//              RESPONSES Durable Object runs each response, in the same workerd);
//   plain      the real Worker without the Durable Object binding (bench/worker/wrangler.plain.toml):
//              /v1/stream streams straight from the route;
//   reference  bench/worker/bench-worker.ts: /chain/... runs `streamToolCalls` on the upstream body
//              and counts the events, /batches/... the same with `streamToolCallBatches` (one read
//              per array of events: the cheaper floor the Worker itself builds on), /pass/...
//              answers the upstream bytes unchanged.
// The real Worker reaches the local upstream through its ordinary settings (OPENAI_BASE_URL,
// ANTHROPIC_BASE_URL and keys passed with `--var` for this run only; no code path of its own).
//
// CPU: utime + stime of each workerd (/proc/<pid>/stat fields 14 and 15, summed over the workerd
// processes under that wrangler) before and after a batch of BENCH_N responses (default 20) of one
// body from one target, requests one at a time; per response = the difference / BENCH_N. Rounds
// (BENCH_ROUNDS, default 5) interleave the targets; the figure is the median over rounds, a ratio
// the median of the per-round ratios.
// TTFB: from sending the request to the first body byte, median over the batch, beside the
// upstream's own (the same request sent to the local upstream directly).
//
// Linux only (/proc). Usage: npm run bench:worker   (BENCH_N=20 BENCH_ROUNDS=5 BENCH_BODIES=openai,anthropic,responses)
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { createServer as createNetServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { anthropic, argumentsOf, fragments, openAIChat, responses } from "../bench/bodies.ts";

/** BENCH_RESUMABLE=0 leaves the resumable Worker out (the slowest to measure). */
const RESUMABLE = process.env["BENCH_RESUMABLE"] !== "0";
const N = Number(process.env["BENCH_N"] ?? 20);
const ROUNDS = Number(process.env["BENCH_ROUNDS"] ?? 5);
const TICK_MS = 1000 / Number(process.env["CLK_TCK"] ?? 100);
const TOKEN = "bench-client-token";

interface BenchBody {
  name: string;
  provider: "openai" | "anthropic" | "openai-responses";
  /** The upstream path, after /v1. */
  path: string;
  bytes: Uint8Array;
}

function bodies(): BenchBody[] {
  const eight = Array.from({ length: 8 }, () => fragments(argumentsOf(2048), 6));
  const sequential = eight.flatMap((pieces, index) => pieces.map((piece) => [index, piece] as [number, string]));
  const one = [fragments(argumentsOf(50 * 1024), 4)];
  const encode = (text: string): Uint8Array => new TextEncoder().encode(text);
  const all: BenchBody[] = [
    {
      name: "openai: OpenAI Chat, 8 parallel calls x 2 KB, 6-char fragments",
      provider: "openai",
      path: "chat/completions",
      bytes: encode(openAIChat([], sequential)),
    },
    {
      name: "anthropic: Anthropic, 1 call x 50 KB, 4-char fragments",
      provider: "anthropic",
      path: "messages",
      bytes: encode(anthropic(one)),
    },
    {
      name: "responses: OpenAI Responses, 1 call x 50 KB, 4-char fragments",
      provider: "openai-responses",
      path: "responses",
      bytes: encode(responses(one)),
    },
  ];
  // Not event-dense: what a response costs the Worker apart from its events (run it with BENCH_BODIES=tiny).
  const tiny: BenchBody = {
    name: "tiny: OpenAI Chat, one 2-character text delta",
    provider: "openai",
    path: "chat/completions",
    bytes: encode(openAIChat(["Hi"], [])),
  };
  const only = process.env["BENCH_BODIES"]?.split(",");
  const chosen = only ? [...all, tiny].filter((body) => only.some((name) => body.name.startsWith(`${name}:`))) : all;
  // The upstream serves one body per path.
  if (new Set(chosen.map((body) => body.path)).size !== chosen.length)
    throw new Error("BENCH_BODIES=tiny runs alone (it has openai's path).");
  return chosen;
}

/** The local upstream: every POST to /v1/<path> answers that body at once, in one write. */
function startUpstream(list: readonly BenchBody[]): Promise<{ server: Server; port: number }> {
  const byPath = new Map(list.map((body) => [`/v1/${body.path}`, body.bytes]));
  const server = createServer((request, response) => {
    request.resume();
    request.on("end", () => {
      const bytes = byPath.get(request.url ?? "");
      if (!bytes) return void response.writeHead(404).end();
      response.writeHead(200, { "content-type": "text/event-stream", "content-length": String(bytes.length) });
      response.end(bytes);
    });
  });
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () => resolve({ server, port: (server.address() as { port: number }).port })),
  );
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createNetServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

interface Target {
  name: string;
  port: number;
  child: ChildProcess;
  persist: string;
}

async function startWrangler(name: string, config: string, vars: Record<string, string>): Promise<Target> {
  const port = await freePort();
  const inspector = await freePort();
  const persist = mkdtempSync(join(tmpdir(), `bench-worker-${name}-`));
  const args = [
    "dev",
    "-c",
    config,
    "--ip",
    "127.0.0.1",
    "--port",
    String(port),
    "--inspector-port",
    String(inspector),
  ];
  args.push("--persist-to", persist, "--show-interactive-dev-session=false", "--log-level", "warn");
  for (const [key, value] of Object.entries(vars)) args.push("--var", `${key}:${value}`);
  const child = spawn(join("node_modules", ".bin", "wrangler"), args, {
    // Its stderr is shown only if it fails to start (esbuild's watcher complains when stopped).
    stdio: ["ignore", "ignore", "pipe"],
    env: { ...process.env, WRANGLER_SEND_METRICS: "false", CI: "1" },
  });
  let log = "";
  child.stderr!.on("data", (chunk: Buffer) => void (log = (log + chunk.toString()).slice(-20_000)));
  const target = { name, port, child, persist };
  for (let attempt = 0; attempt < 240; attempt++) {
    if (child.exitCode !== null) throw new Error(`wrangler dev (${name}) exited with ${child.exitCode}:\n${log}`);
    try {
      await fetch(`http://127.0.0.1:${port}/healthz`);
      if (workerdPids(target).length > 0) return target;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`wrangler dev (${name}) did not start:\n${log}`);
}

/** The workerd processes under a wrangler: its descendants named workerd. */
function workerdPids(target: Target): number[] {
  const parent = new Map<number, number>();
  const comm = new Map<number, string>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const close = stat.lastIndexOf(")");
      comm.set(Number(entry), stat.slice(stat.indexOf("(") + 1, close));
      parent.set(Number(entry), Number(stat.slice(close + 2).split(" ")[1]));
    } catch {
      // gone meanwhile
    }
  }
  const root = target.child.pid!;
  const under = (pid: number): boolean => {
    for (let p = parent.get(pid); p !== undefined && p > 1; p = parent.get(p)) if (p === root) return true;
    return false;
  };
  return [...comm].filter(([pid, name]) => name === "workerd" && under(pid)).map(([pid]) => pid);
}

/** utime + stime of the target's workerd processes, in clock ticks. */
function cpuTicks(pids: readonly number[]): number {
  let ticks = 0;
  for (const pid of pids) {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    // Fields 14 and 15 of stat(5), counted from the pid (field 1); `fields` starts at field 3.
    ticks += Number(fields[11]) + Number(fields[12]);
  }
  return ticks;
}

interface Measured {
  /** What the response said: its events (SSE frames), or the count the chain answered. */
  events: number;
  bytes: number;
  ttfbMs: number;
}

async function request(url: string, init: RequestInit, count: "frames" | "number" | "bytes"): Promise<Measured> {
  const start = performance.now();
  const response = await fetch(url, init);
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status} ${await response.text()}`);
  const reader = response.body!.getReader();
  let ttfbMs = -1;
  let bytes = 0;
  let frames = 0;
  let text = "";
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (ttfbMs < 0) ttfbMs = performance.now() - start;
    bytes += value.length;
    if (count === "number") text += new TextDecoder().decode(value);
    else if (count === "frames")
      for (let i = value.indexOf(10); i >= 0; i = value.indexOf(10, i + 1)) if (value[i + 1] === 10) frames++;
  }
  return { events: count === "number" ? Number(text) : frames, bytes, ttfbMs };
}

function streamInit(body: BenchBody): RequestInit {
  const payload = {
    provider: body.provider,
    model: "bench-model",
    messages: [{ role: "user", content: "Write the file." }],
    tools: [{ name: "write_file", description: "Writes a file.", parameters: { type: "object" } }],
  };
  return {
    method: "POST",
    headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" },
    body: JSON.stringify(payload),
  };
}

const median = (values: readonly number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function main(): Promise<void> {
  const list = bodies();
  const upstream = await startUpstream(list);
  const origin = `http://127.0.0.1:${upstream.port}`;
  const workerVars = {
    OPENAI_BASE_URL: `${origin}/v1`,
    ANTHROPIC_BASE_URL: `${origin}/v1`,
    OPENAI_API_KEY: "bench-key",
    ANTHROPIC_API_KEY: "bench-key",
    CLIENT_TOKEN: TOKEN,
  };
  const targets: Target[] = [];
  try {
    // One at a time: three bundlers at once on a small machine start slowly.
    targets.push(await startWrangler("worker", "wrangler.toml", workerVars));
    targets.push(await startWrangler("plain", "bench/worker/wrangler.plain.toml", workerVars));
    targets.push(await startWrangler("reference", "bench/worker/wrangler.toml", { UPSTREAM: origin }));
    const [worker, plain, reference] = targets as [Target, Target, Target];
    console.log(
      `bench:worker  ${N} responses per batch, ${ROUNDS} rounds, node ${process.version}, ${
        readFileSync("/proc/cpuinfo", "utf8")
          .split("\n")
          .filter((l) => l.startsWith("processor")).length
      } cores`,
    );
    for (const body of list) {
      const runs: {
        name: string;
        target: Target;
        url: string;
        init: RequestInit;
        count: "frames" | "number" | "bytes";
      }[] = [
        {
          name: "Worker /v1/stream plain",
          target: plain,
          url: `http://127.0.0.1:${plain.port}/v1/stream`,
          init: streamInit(body),
          count: "frames",
        },
        {
          name: "Worker /v1/stream resumable",
          target: worker,
          url: `http://127.0.0.1:${worker.port}/v1/stream`,
          init: streamInit(body),
          count: "frames",
        },
        {
          name: "chain alone",
          target: reference,
          url: `http://127.0.0.1:${reference.port}/chain/v1/${body.path}`,
          init: {},
          count: "number",
        },
        {
          name: "pass-through",
          target: reference,
          url: `http://127.0.0.1:${reference.port}/pass/v1/${body.path}`,
          init: {},
          count: "bytes",
        },
        {
          name: "chain alone, batched",
          target: reference,
          url: `http://127.0.0.1:${reference.port}/batches/v1/${body.path}`,
          init: {},
          count: "number",
        },
        {
          name: "chain + SSE encoding (bare)",
          target: reference,
          url: `http://127.0.0.1:${reference.port}/sse/v1/${body.path}`,
          init: {},
          count: "frames",
        },
        {
          name: "... + idle timeout (bare)",
          target: reference,
          url: `http://127.0.0.1:${reference.port}/idle/v1/${body.path}`,
          init: {},
          count: "frames",
        },
        {
          name: "upstream direct",
          target: reference,
          url: `${origin}/v1/${body.path}`,
          init: { method: "POST", body: "{}" },
          count: "bytes",
        },
      ];
      if (!RESUMABLE) runs.splice(1, 1, { ...runs[1]!, name: "(resumable not measured)", url: "" });
      const cpu = runs.map(() => [] as number[]);
      const ttfb = runs.map(() => [] as number[]);
      const events = runs.map(() => 0);
      for (const run of runs)
        for (let i = 0; i < 2 && run.url; i++)
          events[runs.indexOf(run)] = (await request(run.url, run.init, run.count)).events; // warm up
      for (let round = 0; round < ROUNDS; round++) {
        for (const [k, run] of runs.entries()) {
          if (!run.url) continue;
          const pids = workerdPids(run.target);
          const before = cpuTicks(pids);
          for (let i = 0; i < N; i++) ttfb[k]!.push((await request(run.url, run.init, run.count)).ttfbMs);
          if (run.name !== "upstream direct") cpu[k]!.push(((cpuTicks(pids) - before) * TICK_MS) / N);
        }
      }
      const ms = cpu.map((values) => (values.length ? median(values) : Number.NaN));
      console.log(
        `\n${body.name} (${(body.bytes.length / 1024).toFixed(0)} KiB upstream, ${events[2]} events from the chain, ${events[0]} SSE frames from the Worker)`,
      );
      for (const [k, run] of runs.entries()) {
        if (!run.url) continue;
        const range = cpu[k]!.length
          ? ` (rounds ${Math.min(...cpu[k]!).toFixed(1)} to ${Math.max(...cpu[k]!).toFixed(1)})`
          : "";
        const figure = Number.isNaN(ms[k]!) ? "" : `CPU ${ms[k]!.toFixed(1)} ms/response${range}, `;
        console.log(`  ${run.name.padEnd(28)} ${figure}TTFB median ${median(ttfb[k]!).toFixed(1)} ms`);
      }
      // Ratios: the median of the per-round ratios (each round measures all targets back to back,
      // so load from other processes falls on them alike).
      const ratio = (k: number, of: number): string =>
        median(cpu[k]!.map((value, round) => value / cpu[of]![round]!)).toFixed(2);
      for (const k of RESUMABLE ? [0, 1] : [0])
        console.log(
          `  ${runs[k]!.name}: x${ratio(k, 2)} the chain, x${ratio(k, 4)} the batched chain, x${ratio(k, 3)} the pass-through`,
        );
    }
  } finally {
    for (const target of targets) {
      const pids = workerdPids(target);
      target.child.kill("SIGTERM");
      await new Promise((resolve) => setTimeout(resolve, 1000));
      for (const pid of pids) {
        try {
          process.kill(pid, "SIGTERM");
        } catch {
          // already gone with its wrangler
        }
      }
      rmSync(target.persist, { recursive: true, force: true });
    }
    upstream.server.close();
  }
}

await main();
