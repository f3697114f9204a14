// Starts the Worker with `wrangler dev` on a free port for the end-to-end test, and stops it
// (the whole process group: wrangler and its workerd) whatever happens. A test file's `afterAll`
// calls stopWorkers(), which also ends the Workers whose start its caller never saw finish: one
// of a `Promise.all` whose other start failed, one still starting when `beforeAll` timed out
// (vitest then reports the tests skipped, and runs `afterAll`). Each runs in its own process
// group, which outlives the test process: left running, it ran on long after.
import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { PROVIDER_KEY_VARS } from "../../worker/env.ts";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");

/** A running `wrangler dev`. */
export interface WorkerServer {
  url: string;
  /** What wrangler printed, for failure messages. */
  output: () => string;
  stop: () => Promise<void>;
}

/** The process groups this file started and has not seen end. */
const running = new Set<number>();
/** The state directory (`--persist-to`) of each process group, removed once the group is gone. */
const states = new Map<number, string>();
/** Every process group this file started: {@link startedGroups}. */
const started: number[] = [];
/** Bumped by stopWorkers(): a start begun before it stops its own Worker rather than hand it over. */
let generation = 0;

// The last resort, if the test process exits with a group still running (an afterAll that never ran).
process.once("exit", () => {
  for (const group of running) signal(group, "SIGKILL");
});

/**
 * Stops every `wrangler dev` (and its workerd) this test file started, those whose start is still
 * under way included: their start then fails. Resolves once each process group is gone.
 */
export async function stopWorkers(): Promise<void> {
  generation++;
  await Promise.all([...running].map(stopGroup));
}

/** The process group of every `wrangler dev` this file started, to check that none is left. */
export const startedGroups = (): readonly number[] => [...started];

/** A port nobody listens on right now. */
async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const address = server.address();
  server.close();
  if (address === null || typeof address === "string") throw new Error("no port");
  return address.port;
}

/**
 * Runs `wrangler dev` (its [build] step bundles the page first) as `npm start` does (in the open
 * replay mode, `OPEN_ACCESS`) with every provider key blanked, so the page is served by the replay
 * upstream even where a `.dev.vars` holds real keys.
 */
export async function startWorker(vars: Record<string, string>, timeoutMs: number): Promise<WorkerServer> {
  // A free port can be taken between freePort() and wrangler's bind (by another e2e file's workerd,
  // which opens ports of its own): wrangler then exits "Address already in use"; try new ports.
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOnce(vars, timeoutMs);
    } catch (error) {
      if (attempt === 3 || !(error as Error).message.includes("Address already in use")) throw error;
    }
  }
}

async function startOnce(vars: Record<string, string>, timeoutMs: number): Promise<WorkerServer> {
  const at = generation;
  const port = await freePort();
  const blank = [...PROVIDER_KEY_VARS, "OLLAMA_BASE_URL", "CLIENT_TOKEN"].map((name) => `${name}:`);
  const assigned = Object.entries({ OPEN_ACCESS: "true", ...vars }).map(([name, value]) => `${name}:${value}`);
  const args = [
    join(root, "node_modules", "wrangler", "bin", "wrangler.js"),
    "dev",
    "--port",
    String(port),
    "--ip",
    "127.0.0.1",
  ];
  // A free inspector port too: two `wrangler dev` (two e2e files, or another checkout's) never share 9229.
  args.push("--inspector-port", String(await freePort()));
  // A state directory of its own: two starting at once on the checkout's .wrangler/state both
  // created its Durable Objects' SQLite files, and one workerd died "database is locked".
  const state = mkdtempSync(join(tmpdir(), "tool-call-stream-wrangler-"));
  args.push("--persist-to", state);
  args.push("--show-interactive-dev-session=false", "--log-level", "warn", "--var", ...blank, ...assigned);
  const removeState = (): void => rmSync(state, { recursive: true, force: true });
  if (at !== generation) {
    removeState();
    throw new Error("wrangler dev not started: the file's Workers were stopped meanwhile");
  }
  const child = spawn(process.execPath, args, {
    cwd: root,
    detached: true, // its own process group, so stop() also ends workerd
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, WRANGLER_SEND_METRICS: "false", CI: "1", NO_COLOR: "1" },
  });
  const group = child.pid;
  if (group === undefined) {
    removeState();
    throw new Error("wrangler dev could not be spawned");
  }
  running.add(group);
  started.push(group);
  states.set(group, state);
  let output = "";
  child.stdout?.on("data", (chunk) => (output += chunk));
  child.stderr?.on("data", (chunk) => (output += chunk));
  const server: WorkerServer = { url: `http://127.0.0.1:${port}`, output: () => output, stop: () => stopGroup(group) };
  try {
    await waitUntilHealthy(server.url, child, timeoutMs);
    if (at !== generation) throw new Error("the file's Workers were stopped meanwhile");
  } catch (error) {
    await server.stop();
    throw new Error(`wrangler dev did not start: ${(error as Error).message}\n${output}`);
  }
  return server;
}

async function waitUntilHealthy(url: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    // A signal (stopWorkers()) ends it with no exit code.
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`it exited with ${child.exitCode ?? child.signalCode}`);
    try {
      const response = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(2000) });
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`no answer on ${url}/healthz within ${timeoutMs} ms`);
}

function signal(group: number, name: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-group, name);
    return true;
  } catch {
    return false; // the group is gone
  }
}

/**
 * Ends a process group: SIGTERM, SIGKILL after 5 s, and waits until no process of it is left (not
 * only wrangler: its workerd too, which may outlive it). Throws if one is left after 15 s.
 */
async function stopGroup(group: number): Promise<void> {
  signal(group, "SIGTERM");
  const since = Date.now();
  while (signal(group, 0)) {
    const waited = Date.now() - since;
    if (waited > 15_000) throw new Error(`process group ${group} (wrangler dev) still running after SIGKILL`);
    if (waited > 5_000) signal(group, "SIGKILL");
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  running.delete(group);
  const state = states.get(group);
  states.delete(group);
  if (state !== undefined) rmSync(state, { recursive: true, force: true });
}
