// `npm start` (scripts/start.mjs) prints its banner once wrangler says where it is ready: run here
// against a stand-in for wrangler in a copy of the script's folder, which prints wrangler's line
// as miniflare writes it (its URL coloured where colours are on: FORCE_COLOR, or a terminal).
import { spawn } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { PROVIDER_KEY_VARS } from "../../worker/env.ts";

const root = mkdtempSync(join(tmpdir(), "start-banner-"));
mkdirSync(join(root, "scripts"));
mkdirSync(join(root, "node_modules", "wrangler", "bin"), { recursive: true });
copyFileSync(join("scripts", "start.mjs"), join(root, "scripts", "start.mjs"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** What `npm start` prints before the stand-in's END line, when wrangler writes `ready`. */
function startOutput(ready: string, args: readonly string[] = []): Promise<string> {
  // The stand-in writes END apart, after the ready line, and stays up until it is stopped.
  const wrangler = `process.stdout.write(${JSON.stringify(ready)});
setTimeout(() => process.stdout.write("END\\n"), 0);
setInterval(() => {}, 1000);`;
  writeFileSync(join(root, "node_modules", "wrangler", "bin", "wrangler.js"), wrangler);
  const start = spawn(process.execPath, [join(root, "scripts", "start.mjs"), "--port", "8790", ...args], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  let output = "";
  return new Promise((resolve, reject) => {
    start.on("error", reject);
    start.stdout.on("data", (chunk) => {
      output += chunk;
      if (output.includes("END\n")) start.kill("SIGTERM");
    });
    start.on("close", () => resolve(output)); // after its output, all of it
  });
}

describe("npm start's banner", () => {
  for (const [label, line] of [
    ["plain", "[wrangler:info] Ready on http://localhost:8790\n"],
    ["coloured", "\x1b[34m[wrangler:info]\x1b[39m Ready on \x1b[32mhttp://localhost:8790\x1b[39m\n"],
  ] as const)
    it(`follows wrangler's ready line, ${label}`, async () => {
      const output = await startOutput(line);
      expect(output).toContain("tool-call-stream Worker at http://localhost:8790:");
      expect(output).not.toContain("is in use");
    });

  it("with a key given by --var, says to add the token and drop the key there, not in .dev.vars", async () => {
    const output = await startOutput("Ready on http://localhost:8790\n", ["--var", "OPENAI_API_KEY:sk-test"]);
    expect(output).toContain("live for openai, openai-responses (keys from --var)");
    expect(output).toContain("add --var CLIENT_TOKEN:<any secret>");
    expect(output).toContain("To run offline: restart without the provider keys (--var).");
    expect(output).not.toContain(".dev.vars");
  });

  it("reads .dev.vars as wrangler does (dotenv): `export`, `NAME: value`, quotes, comments", async () => {
    // A shell-style line is a key to wrangler: the banner said "offline, open without a token"
    // while the Worker, live for OpenAI and with no token, refused every request.
    const vars = join(root, ".dev.vars");
    try {
      for (const [file, live, token] of [
        ["export OPENAI_API_KEY=sk-test\n", "openai, openai-responses", false],
        ["ANTHROPIC_API_KEY: 'sk-ant' # the team's\nexport CLIENT_TOKEN=\"s3cret\"\n", "anthropic", true],
        ['GEMINI_API_KEY= # unset for now\nCOHERE_API_KEY=""\n', undefined, false],
      ] as const) {
        writeFileSync(vars, file);
        const output = await startOutput("Ready on http://localhost:8790\n");
        if (live === undefined) expect(output, file).toContain("offline (no provider key set)");
        else expect(output, file).toContain(`live for ${live} (keys from .dev.vars)`);
        expect(output.includes("No CLIENT_TOKEN is set"), file).toBe(live !== undefined && !token);
      }
    } finally {
      rmSync(vars, { force: true });
    }
  });

  it("is never open while the Worker is closed: every key the Worker reads ends the open mode, even one that makes no provider live", async () => {
    // The banner said "Open without a token" for AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN or
    // OLLAMA_API_KEY alone, while the Worker (worker/env.ts anyProviderKey) refused every request 401.
    const names = [...PROVIDER_KEY_VARS, "OLLAMA_BASE_URL"];
    // A start each, side by side: one after another they outlast a test's time on a loaded machine.
    const outputs = await Promise.all(
      names.map((name) => startOutput("Ready on http://localhost:8790\n", ["--var", `${name}:x`])),
    );
    outputs.forEach((output, i) => {
      expect(output, names[i]).not.toContain("Open without a token");
      expect(output, names[i]).toContain(
        "No CLIENT_TOKEN is set, so every request is refused: add --var CLIENT_TOKEN:",
      );
    });
    const session = await startOutput("Ready on http://localhost:8790\n", ["--var", "AWS_SESSION_TOKEN:x"]);
    expect(session).toContain("offline, but AWS_SESSION_TOKEN (from --var) ends the open mode");
  }, 60_000);

  it("names every provider a key serves, and half an AWS key pair as the 500 it is", async () => {
    expect(await startOutput("Ready on http://localhost:8790\n", ["--var", "GEMINI_API_KEY:g"])).toContain(
      "live for gemini, gemini-interactions (keys from --var)",
    );
    const half = await startOutput("Ready on http://localhost:8790\n", ["--var", "AWS_SECRET_ACCESS_KEY:s"]);
    expect(half).toContain("live for bedrock (keys from --var)");
    expect(half).toContain("AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY go together");
    const pair = await startOutput("Ready on http://localhost:8790\n", [
      "--var",
      "AWS_ACCESS_KEY_ID:A",
      "AWS_SECRET_ACCESS_KEY:s",
    ]);
    expect(pair).toContain("live for bedrock (keys from --var)");
    expect(pair).not.toContain("go together");
  }, 60_000);

  it("stops wrangler when its parent goes: npm's SIGTERM ends npm and its `sh`, not the script under them", async () => {
    // `npm start & ... kill $!` left wrangler and workerd serving the port, and the next `npm start` moved to another.
    const pidFile = join(root, "wrangler.pid");
    const wrangler = `require("node:fs").writeFileSync(${JSON.stringify(pidFile)}, process.pid + " " + process.ppid);
process.stdout.write("Ready on http://localhost:8790\\n");
setInterval(() => {}, 1000);`;
    writeFileSync(join(root, "node_modules", "wrangler", "bin", "wrangler.js"), wrangler);
    // `; exit` keeps the shell from exec'ing the script, as npm's `sh -c` runs it.
    const sh = spawn("sh", ["-c", `"${process.execPath}" "${join(root, "scripts", "start.mjs")}"; exit`], {
      stdio: ["ignore", "pipe", "ignore"],
      env: { ...process.env, npm_lifecycle_event: "start" },
    });
    let output = "";
    await new Promise<void>((resolve) =>
      sh.stdout.on("data", (chunk) => {
        output += chunk;
        if (output.includes("tool-call-stream Worker at")) resolve();
      }),
    );
    const [pid, script] = readFileSync(pidFile, "utf8").split(" ").map(Number) as [number, number];
    sh.kill("SIGKILL"); // the parent gone at once, as npm's SIGTERM takes its `sh`
    const alive = () => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    };
    for (let i = 0; i < 40 && alive(); i++) await new Promise((resolve) => setTimeout(resolve, 100));
    const left = alive();
    if (left) for (const orphan of [pid, script]) process.kill(orphan, "SIGKILL");
    expect(left).toBe(false);
  }, 15_000);

  it("says the port wrangler took when the one asked for was in use", async () => {
    const output = await startOutput("Ready on \x1b[32mhttp://localhost:8791\x1b[39m\n");
    expect(output).toContain("Port 8790 is in use");
    expect(output).toContain("tool-call-stream Worker at http://localhost:8791:");
  });

  it("says how to give a second Worker of one clone its own local storage, unless it has one", async () => {
    const moved = "Ready on http://localhost:8791\n";
    expect(await startOutput(moved)).toContain("npm start -- --persist-to .wrangler/state-8791");
    const own = await startOutput(moved, ["--persist-to", ".wrangler/mine"]);
    expect(own).toContain("Port 8790 is in use");
    expect(own).not.toContain("--persist-to .wrangler/state-");
  });
});
