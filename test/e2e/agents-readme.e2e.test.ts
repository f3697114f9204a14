// The agents' lines of worker/README.md, run as printed against the Worker as `npm start` serves
// it: offline (no provider key, no CLIENT_TOKEN in the agents' environment), and with a client
// token required (as with a provider key set), the same lines with CLIENT_TOKEN exported. Only
// the port differs (the README's 8787 becomes the test server's). The Worker's scripted model
// calls each agent's own tool (Claude Code's Read, Codex's exec_command) with arguments from the
// prompt, the agent runs it, and the answer is written from its result.
import { execFileSync, spawn } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { agentBinDir, tempDirs } from "./agent-clis.ts";
import { startWorker, stopWorkers, type WorkerServer } from "./worker-server.ts";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
const bin = join(root, "node_modules", ".bin");
const readme = readFileSync(join(root, "worker", "README.md"), "utf8");
const TOKEN = "readme-client-token";
const FILE = "# Demo\nHello from the demo file.\n";

/** The block of worker/README.md marked `<!-- agent: NAME -->`. */
function block(name: string): string {
  const match = new RegExp(`<!-- agent: ${name} -->\\n+\`\`\`[a-z]*\\n([\\s\\S]*?)\`\`\``).exec(readme);
  if (!match) throw new Error(`worker/README.md has no block marked <!-- agent: ${name} -->`);
  return match[1]!;
}

const { tempDir, removeTempDirs } = tempDirs();
let agents = bin;
let open: WorkerServer | undefined;
let guarded: WorkerServer | undefined;

beforeAll(async () => {
  agents = await agentBinDir();
  [open, guarded] = await Promise.all([
    startWorker({}, 90_000),
    startWorker({ CLIENT_TOKEN: TOKEN, OPEN_ACCESS: "false" }, 90_000),
  ]);
}, 720_000); // the first run installs the agents (./agent-clis.ts)

afterAll(async () => {
  // Both Workers, also the one whose start went unseen when the other's failed (Promise.all).
  await stopWorkers();
  removeTempDirs();
}, 30_000);

/** Runs a README line with bash in a git repository holding a README.md; gives stdout, or throws with what it printed. */
function runLine(line: string, env: Record<string, string>, timeout = 60_000): Promise<string> {
  const cwd = tempDir("readme-agent-cwd-");
  writeFileSync(join(cwd, "README.md"), FILE);
  execFileSync("git", ["init", "-q"], { cwd });
  return new Promise((resolvePromise, reject) => {
    const child = spawn("bash", ["-c", line], {
      cwd,
      env: {
        PATH: `${bin}:${agents}:${process.env["PATH"] ?? ""}`,
        HOME: tempDir("readme-agent-home-"),
        LANG: "C.UTF-8",
        ...env,
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    const timer = setTimeout(() => child.kill("SIGKILL"), timeout);
    child.on("close", (code) => {
      clearTimeout(timer);
      if (code === 0) resolvePromise(stdout);
      else reject(new Error(`exit ${code}\n${stdout.slice(-2000)}\n${stderr.slice(-2000)}`));
    });
  });
}

const at = (text: string, server: WorkerServer) => text.replaceAll("http://localhost:8787", server.url);

/** Codex's home with the README's config.toml in it. */
function codexHome(server: WorkerServer): string {
  const home = tempDir("readme-codex-home-");
  writeFileSync(join(home, "config.toml"), at(block("codex-config"), server));
  return home;
}

describe("the agents' README lines, as printed", () => {
  it("Claude Code, offline: no key, no token; its Read tool is called with the prompt's path and the answer quotes the file", async () => {
    const out = await runLine(at(block("claude"), open!), {});
    expect(out).toContain("Read returned");
    expect(out).toContain("Hello from the demo file.");
  });

  it("Codex, offline: no CLIENT_TOKEN in its environment; its exec_command tool is called with the quoted command", async () => {
    const out = await runLine(block("codex"), { CODEX_HOME: codexHome(open!) });
    // exec_command ran (where the sandbox lets it, the file's text; else the sandbox's error): either way, answered.
    expect(out).toMatch(/exec_command (returned|could not answer)/);
    // Run where the agent runs: a `workdir` of the prompt's file failed "Not a directory" before the sandbox was asked.
    expect(out).not.toContain("Not a directory");
  });

  it("with a client token required, the same lines with CLIENT_TOKEN exported work, and without it are refused", async () => {
    const claude = at(block("claude"), guarded!);
    expect(await runLine(claude, { CLIENT_TOKEN: TOKEN })).toContain("Read returned");
    const codex = { CODEX_HOME: codexHome(guarded!) };
    expect(await runLine(block("codex"), { ...codex, CLIENT_TOKEN: TOKEN })).toMatch(
      /exec_command (returned|could not answer)/,
    );
    await expect(runLine(block("codex"), codex, 30_000)).rejects.toThrow();
  });
});
