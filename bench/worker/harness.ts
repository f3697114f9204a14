// What `npm run bench:worker` (scripts/bench-worker.ts) and bench/worker/profile.ts share: the
// bodies, `wrangler dev` on loopback, the CPU time of its workerd processes from /proc, and a
// client that reads a response to its end.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createServer as createNetServer } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { anthropic, argumentsOf, fragments, openAIChat, responses } from "../bodies.ts";

export const TOKEN = "bench-client-token";

/** A provider body of the bench. */
export interface BenchBody {
  /** Its short name (BENCH_BODIES), then a description. */
  name: string;
  provider: "openai" | "anthropic" | "openai-responses";
  /** The upstream path, after /v1. */
  path: string;
  bytes: Uint8Array;
}

/**
 * The three event-dense bodies, and `tiny` (not event-dense: what a response costs apart from its
 * events); `only` picks some by short name.
 */
export function benchBodies(only?: readonly string[]): BenchBody[] {
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
  const tiny: BenchBody = {
    name: "tiny: OpenAI Chat, one 2-character text delta",
    provider: "openai",
    path: "chat/completions",
    bytes: encode(openAIChat(["Hi"], [])),
  };
  const chosen = only ? [...all, tiny].filter((body) => only.some((name) => body.name.startsWith(`${name}:`))) : all;
  // The upstream serves one body per path.
  if (new Set(chosen.map((body) => body.path)).size !== chosen.length)
    throw new Error("BENCH_BODIES=tiny runs alone (it has openai's path).");
  return chosen;
}

/** The settings the real Worker reaches the local upstream with (`--var`, this run only). */
export function workerVars(origin: string): Record<string, string> {
  return {
    OPENAI_BASE_URL: `${origin}/v1`,
    ANTHROPIC_BASE_URL: `${origin}/v1`,
    OPENAI_API_KEY: "bench-key",
    ANTHROPIC_API_KEY: "bench-key",
    CLIENT_TOKEN: TOKEN,
    // BENCH_WRITE_WINDOW_MS: the Worker's WRITE_WINDOW_MS for this run (its own default otherwise).
    ...(process.env["BENCH_WRITE_WINDOW_MS"] ? { WRITE_WINDOW_MS: process.env["BENCH_WRITE_WINDOW_MS"] } : {}),
  };
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createNetServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/** One `wrangler dev`. */
export interface Target {
  name: string;
  port: number;
  inspector: number;
  child: ChildProcess;
  persist: string;
}

/**
 * Starts `wrangler dev -c config` on a free port of 127.0.0.1 and waits for its workerd; `cwd`:
 * the tree it runs (another copy of the repository, to measure two trees in one run).
 */
export async function startWrangler(
  name: string,
  config: string,
  vars: Record<string, string>,
  cwd = ".",
): Promise<Target> {
  const port = await freePort();
  const inspector = await freePort();
  const persist = mkdtempSync(join(tmpdir(), `bench-worker-${name}-`));
  const args = ["dev", "-c", config, "--ip", "127.0.0.1", "--port", String(port)];
  args.push("--inspector-port", String(inspector), "--persist-to", persist);
  args.push("--show-interactive-dev-session=false", "--log-level", "warn");
  for (const [key, value] of Object.entries(vars)) args.push("--var", `${key}:${value}`);
  const child = spawn(resolve(cwd, "node_modules", ".bin", "wrangler"), args, {
    cwd,
    // Its stderr is shown only if it fails to start (esbuild's watcher complains when stopped).
    stdio: ["ignore", "ignore", "pipe"],
    env: { ...process.env, WRANGLER_SEND_METRICS: "false", CI: "1" },
  });
  let log = "";
  child.stderr?.on("data", (chunk: Buffer) => void (log = (log + chunk.toString()).slice(-20_000)));
  const target = { name, port, inspector, child, persist };
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

/** Stops a wrangler and its workerd processes, and removes its state. */
export async function stopWrangler(target: Target): Promise<void> {
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

/** The workerd processes under a wrangler: its descendants named workerd. */
export function workerdPids(target: Target): number[] {
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
  const root = target.child.pid;
  const under = (pid: number): boolean => {
    for (let p = parent.get(pid); p !== undefined && p > 1; p = parent.get(p)) if (p === root) return true;
    return false;
  };
  return [...comm].filter(([pid, name]) => name === "workerd" && under(pid)).map(([pid]) => pid);
}

/** utime + stime of the target's workerd processes, in clock ticks. */
export function cpuTicks(pids: readonly number[]): number {
  let ticks = 0;
  for (const pid of pids) {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    // Fields 14 and 15 of stat(5), counted from the pid (field 1); `fields` starts at field 3.
    ticks += Number(fields[11]) + Number(fields[12]);
  }
  return ticks;
}

/** What a response said: its events (SSE frames), or the count the chain answered. */
export interface Measured {
  events: number;
  bytes: number;
  ttfbMs: number;
}

/** How a response is counted: its SSE frames, the number it answers, or only its bytes. */
export type Count = "frames" | "number" | "bytes";

/** Sends one request and reads the response to its end. */
export async function request(url: string, init: RequestInit, count: Count): Promise<Measured> {
  const start = performance.now();
  const response = await fetch(url, init);
  if (!response.ok || !response.body) throw new Error(`${url}: HTTP ${response.status} ${await response.text()}`);
  const reader = response.body.getReader();
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

/** The real Worker's `POST /v1/stream` request for a body's provider. */
export function streamInit(body: Pick<BenchBody, "provider">): RequestInit {
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

export const median = (values: readonly number[]): number =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

/** The agent endpoints the bench measures: Anthropic Messages (Claude Code's) and OpenAI Responses (Codex's). */
export type AgentEndpoint = "messages" | "responses";

/**
 * The real Worker's request to an agent endpoint for a body's provider (`model` as
 * `<provider>/<model>`, the client token as each protocol's clients send a key): the same tool
 * and prompt as {@link streamInit}, so the same upstream body answers.
 */
export function agentInit(body: Pick<BenchBody, "provider">, endpoint: AgentEndpoint): RequestInit {
  const model = `${body.provider}/bench-model`;
  const description = "Writes a file.";
  const payload =
    endpoint === "messages"
      ? {
          model,
          max_tokens: 4096,
          stream: true,
          messages: [{ role: "user", content: "Write the file." }],
          tools: [{ name: "write_file", description, input_schema: { type: "object" } }],
        }
      : {
          model,
          stream: true,
          input: "Write the file.",
          tools: [{ type: "function", name: "write_file", description, parameters: { type: "object" } }],
        };
  const key: Record<string, string> =
    endpoint === "messages"
      ? { "x-api-key": TOKEN, "anthropic-version": "2023-06-01" }
      : { authorization: `Bearer ${TOKEN}` };
  return { method: "POST", headers: { ...key, "content-type": "application/json" }, body: JSON.stringify(payload) };
}
