// Starts the Worker with `wrangler dev` on a free port for the end-to-end test, and stops it
// (the whole process group) whatever happens.
import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { createServer } from "node:net";
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
  args.push("--show-interactive-dev-session=false", "--log-level", "warn", "--var", ...blank, ...assigned);
  const child = spawn(process.execPath, args, {
    cwd: root,
    detached: true, // its own process group, so stop() also ends workerd
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, WRANGLER_SEND_METRICS: "false", CI: "1", NO_COLOR: "1" },
  });
  let output = "";
  child.stdout?.on("data", (chunk) => (output += chunk));
  child.stderr?.on("data", (chunk) => (output += chunk));
  const server: WorkerServer = { url: `http://127.0.0.1:${port}`, output: () => output, stop: () => stop(child) };
  try {
    await waitUntilHealthy(server.url, child, timeoutMs);
  } catch (error) {
    await server.stop();
    throw new Error(`wrangler dev did not start: ${(error as Error).message}\n${output}`);
  }
  return server;
}

async function waitUntilHealthy(url: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`it exited with ${child.exitCode}`);
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

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.pid === undefined) return;
  const exited = once(child, "exit");
  const kill = (signal: NodeJS.Signals): void => {
    try {
      process.kill(-child.pid!, signal);
    } catch {
      // the group is already gone
    }
  };
  kill("SIGTERM");
  const timer = setTimeout(() => kill("SIGKILL"), 5000);
  await exited;
  clearTimeout(timer);
}
