// The agents' CLIs (Claude Code, Codex: about 850 MB) are not dependencies of the package: the
// end-to-end tests that run them install them here, once, into a cache of the checkout
// (node_modules/.cache/agent-clis-<hash of the versions below>/, with `npm install` from the
// registry): a new folder when a version changes, so a checkout never runs an agent older than the pin.
// A checkout that has them in node_modules/.bin already (an install from before they moved here)
// uses those. Installed in a directory of its own and renamed into place, so two test files that
// ask at once never see half an install.
import { execFile, spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
/** The agents the tests run, at the versions they were tested with. */
export const AGENT_PACKAGES = { "@anthropic-ai/claude-code": "2.1.337", "@openai/codex": "0.171.0" } as const;
const versions = createHash("sha256").update(JSON.stringify(AGENT_PACKAGES)).digest("hex").slice(0, 10);
const cache = join(root, "node_modules", ".cache", `agent-clis-${versions}`);

/** The directory holding the `claude` and `codex` commands, installed first if they are not there. */
export async function agentBinDir(): Promise<string> {
  const own = join(root, "node_modules", ".bin");
  if (existsSync(join(own, "claude")) && existsSync(join(own, "codex"))) return own;
  const bin = join(cache, "node_modules", ".bin");
  if (existsSync(join(bin, "claude")) && existsSync(join(bin, "codex"))) return bin;
  mkdirSync(dirname(cache), { recursive: true });
  const staging = mkdtempSync(`${cache}-`);
  try {
    writeFileSync(
      join(staging, "package.json"),
      JSON.stringify({
        private: true,
        dependencies: AGENT_PACKAGES,
        // Claude Code's install script sets up its native build.
        allowScripts: { "@anthropic-ai/claude-code": true },
      }),
    );
    await npmInstall(staging);
    try {
      renameSync(staging, cache);
    } catch (error) {
      if (!existsSync(join(bin, "claude"))) throw error; // another file installed them meanwhile
    }
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
  return bin;
}

/**
 * `npm install` in `dir`, tried twice: a registry read that fails once (a reset connection, a
 * cache entry another install was writing) is not the agents' fault. The second failure is thrown
 * with what npm printed.
 */
async function npmInstall(dir: string): Promise<void> {
  const args = ["install", "--no-audit", "--no-fund", "--no-package-lock", "--loglevel=error"];
  for (let attempt = 1; ; attempt++) {
    try {
      await promisify(execFile)("npm", args, { cwd: dir, timeout: 600_000, maxBuffer: 16 * 1024 * 1024 });
      return;
    } catch (error) {
      if (attempt === 2) {
        const { stderr = "" } = error as { stderr?: string };
        throw new Error(`npm install of the agents failed twice: ${String(error)}\n${stderr.slice(-4000)}`);
      }
    }
  }
}

/**
 * Runs an agent to its end with stdin closed (`codex exec` otherwise waits to read a prompt from
 * it), and gives what it wrote; kills it past `timeout`.
 */
export function runAgent(
  file: string,
  args: readonly string[],
  options: { cwd: string; timeout: number; env: Record<string, string> },
): Promise<{ stdout: string; stderr: string }> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(file, args, { cwd: options.cwd, env: options.env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    const timer = setTimeout(() => child.kill("SIGKILL"), options.timeout);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      if (code === 0) resolvePromise({ stdout, stderr });
      else reject(new Error(`${file} exited with ${code}\n${stdout.slice(-2000)}\n${stderr.slice(-2000)}`));
    });
  });
}

/**
 * Writes Codex's `config.toml` into `home` (its CODEX_HOME): `model` served by the Worker at
 * `workerUrl` over the Responses API, its token in WORKER_TOKEN, no update check or analytics;
 * `extra` lines go in the top table (`model_reasoning_effort = "medium"`).
 */
export function writeCodexConfig(home: string, model: string, workerUrl: string, extra: readonly string[] = []): void {
  writeFileSync(
    join(home, "config.toml"),
    [
      `model = "${model}"`,
      'model_provider = "worker"',
      ...extra,
      "check_for_update_on_startup = false",
      "[analytics]",
      "enabled = false",
      "[model_providers.worker]",
      'name = "tool-call-stream"',
      `base_url = "${workerUrl}/v1"`,
      'env_key = "WORKER_TOKEN"',
      'wire_api = "responses"',
      "",
    ].join("\n"),
  );
}

/** Scratch folders for a test file (the agents' homes and working directories), removed together in its `afterAll`. */
export function tempDirs(): { tempDir: (prefix: string) => string; removeTempDirs: () => void } {
  const made: string[] = [];
  return {
    tempDir: (prefix) => {
      const dir = mkdtempSync(join(tmpdir(), prefix));
      made.push(dir);
      return dir;
    },
    removeTempDirs: () => {
      for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
    },
  };
}
