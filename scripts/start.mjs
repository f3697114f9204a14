// `npm start`: says what the local Worker runs on (offline, on the scripted model and the
// recordings; or the providers it has keys for), where (the port wrangler took, which is not the
// one asked for when that is in use), whether clients need a token, a first call to paste and how
// to switch; then runs `wrangler dev` in the open replay mode (`--var OPEN_ACCESS:true`, which the Worker honours only while no
// provider key is set) with the arguments given after `--` (`npm start -- --port 8788`,
// `npm start -- --var CLIENT_TOKEN:secret`). The keys are read where wrangler dev reads them: the
// git-ignored `.dev.vars` and `--var` arguments. Nothing here is part of the Worker.
import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const args = process.argv.slice(2);

/**
 * Provider of each key (worker/env.ts PROVIDER_KEY_VARS; Ollama's switch is its base URL; either
 * half of AWS's pair makes bedrock answer, a 500 until both are set). A key of `null` serves no
 * provider alone, but as any key the Worker reads it ends the open mode (worker/env.ts anyProviderKey).
 */
const KEYS = {
  OPENAI_API_KEY: "openai, openai-responses",
  ANTHROPIC_API_KEY: "anthropic",
  GEMINI_API_KEY: "gemini, gemini-interactions",
  COHERE_API_KEY: "cohere",
  AWS_ACCESS_KEY_ID: "bedrock",
  AWS_SECRET_ACCESS_KEY: "bedrock",
  AWS_SESSION_TOKEN: null,
  OLLAMA_API_KEY: null,
  OLLAMA_BASE_URL: "ollama",
};

/** Where each variable was set: `.dev.vars` or `--var`, which the banner names. */
const from = new Map();

/**
 * A line of `.dev.vars` as wrangler reads it (dotenv's rules, which a shell-style file follows): an
 * optional `export `, `NAME=value` or `NAME: value`, the value quoted ('', "", ``) or up to a `#`
 * comment. A line read otherwise would have the banner say "offline" for a key wrangler loads.
 */
const DEV_VAR = /^\s*(?:export\s+)?([\w.-]+)(?:\s*=|:\s)\s*('[^']*'|"(?:\\"|[^"])*"|`[^`]*`|[^#]*)/;

/** The variables `.dev.vars` and the `--var NAME:value` arguments set, non-empty. */
function vars() {
  const set = new Map();
  const file = join(root, ".dev.vars");
  if (existsSync(file))
    for (const line of readFileSync(file, "utf8").split(/\r?\n/)) {
      const match = DEV_VAR.exec(line);
      if (!match) continue;
      set.set(match[1], match[2].trim().replace(/^(['"`])([\s\S]*)\1$/, "$2"));
      from.set(match[1], ".dev.vars");
    }
  for (let i = 0; i < args.length; i++) {
    if (args[i] !== "--var") continue;
    for (let j = i + 1; j < args.length && !args[j].startsWith("--"); j++) {
      const at = args[j].indexOf(":");
      if (at <= 0) continue;
      set.set(args[j].slice(0, at), args[j].slice(at + 1));
      from.set(args[j].slice(0, at), "--var");
    }
  }
  return new Map([...set].filter(([, value]) => value.trim() !== ""));
}

const set = vars();
const portAt = args.findIndex((arg) => arg === "--port" || arg.startsWith("--port="));
const port = portAt < 0 ? "8787" : args[portAt].includes("=") ? args[portAt].split("=")[1] : args[portAt + 1];
/** The keys set, each ending the open mode, and the providers they make live, once each. */
const keys = Object.keys(KEYS).filter((name) => set.has(name));
const live = [...new Set(keys.map((name) => KEYS[name]).filter((provider) => provider !== null))];
const token = set.has("CLIENT_TOKEN");
/** Where the keys were set, which is where to add the token or remove them (".dev.vars", "--var" or both). */
const keysFrom = [...new Set(keys.map((name) => from.get(name)))].join(" and ");
/** Half of AWS's pair: every bedrock request is a 500 `worker_misconfigured` (worker/upstream/providers/bedrock.ts). */
const halfPair = set.has("AWS_ACCESS_KEY_ID") !== set.has("AWS_SECRET_ACCESS_KEY");
/** What to print once wrangler is ready at `url` (the port it took: another than asked when that one is in use). */
function banner(url) {
  // wrangler takes a free port when the one asked for is in use, and says so nowhere else.
  // Two wrangler devs of one clone share its .wrangler/state, where both run the Durable Object's
  // SQLite (and its alarms), which wrangler may then log as SQLITE_BUSY.
  const ownState = args.some((arg) => arg === "--persist-to" || arg.startsWith("--persist-to="));
  const taken = new URL(url).port;
  const moved =
    taken === port
      ? []
      : [
          `Port ${port} is in use (another \`npm start\`?), so this Worker is at ${url}; calls to :${port} reach that other server.`,
          ...(ownState
            ? []
            : [
                `Both use this clone's local storage (.wrangler/state; wrangler may log SQLITE_BUSY): \`npm start -- --persist-to .wrangler/state-${taken}\` gives this one its own.`,
              ]),
        ];
  // A first call to paste: the scripted model calls the request's own tool (worker/README.md);
  // live, the first provider with a key, on a model of the reader's choosing.
  const [provider, model] = live.length === 0 ? ["openai", "any"] : [live[0].split(",")[0], "<model>"];
  const tryIt = `curl -sN ${url}/v1/stream -H 'content-type: application/json' -d '{"provider":"${provider}","model":"${model}","messages":[{"role":"user","content":"Weather in Paris?"}],"tools":[{"name":"get_weather","parameters":{"type":"object","properties":{"city":{"type":"string"}}}}]}'${token ? " -H 'authorization: Bearer <CLIENT_TOKEN>'" : ""}`;
  const mode =
    keys.length === 0
      ? [
          `tool-call-stream Worker at ${url}: offline (no provider key set). Any model name is answered by the scripted`,
          "model, which calls your request's own tools and answers their results.",
          token
            ? "CLIENT_TOKEN is set: clients send it as their API key."
            : "Open without a token, for local use only: a deployed Worker (or a bare `wrangler dev`) refuses every request until CLIENT_TOKEN is set.",
          `Try it from another terminal (the page is ${url}/; OpenAI, Anthropic, AI SDK and AG-UI clients: worker/README.md):`,
          `  ${tryIt}`,
          "To use a real model: put a key in .dev.vars (e.g. OPENAI_API_KEY=sk-..., with CLIENT_TOKEN=<any secret>) and restart.",
        ]
      : [
          live.length === 0
            ? `tool-call-stream Worker at ${url}: offline, but ${keys.join(", ")} (from ${keysFrom}) ends the open mode, as any provider key does.`
            : `tool-call-stream Worker at ${url}: live for ${live.join(", ")} (keys from ${keysFrom}); the other providers offline.`,
          ...(halfPair
            ? [
                "AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY go together: with one alone, every bedrock request is a 500.",
              ]
            : []),
          ...(token
            ? [
                "Clients send CLIENT_TOKEN as their API key. Try it from another terminal, with a model your key can use:",
                `  ${tryIt}`,
              ]
            : [
                `No CLIENT_TOKEN is set, so every request is refused: add ${keysFrom === "--var" ? "--var CLIENT_TOKEN:<any secret>" : "CLIENT_TOKEN=<any secret> to .dev.vars"}.`,
              ]),
          `To run offline: restart without the provider keys (${keysFrom}).`,
        ];
  return [...moved, ...mode];
}

const wrangler = join(root, "node_modules", "wrangler", "bin", "wrangler.js");
if (!existsSync(wrangler)) {
  console.error("wrangler is not installed: run `npm install` in this folder first (it brings wrangler and Node 24).");
  process.exit(1);
}
// wrangler needs Node 22 or later: `npm start` runs this file with the dev dependencies' Node 24
// (npm puts node_modules/.bin first on the PATH), `node scripts/start.mjs` with the system's,
// which may be older; then wrangler runs on that Node 24, not refused with "update Node.js".
const devNode = join(root, "node_modules", "node", "bin", "node");
const node = Number(process.versions.node.split(".")[0]) < 22 && existsSync(devNode) ? devNode : process.execPath;
const child = spawn(node, [wrangler, "dev", "--var", "OPEN_ACCESS:true", ...args], {
  cwd: root,
  stdio: ["inherit", "pipe", "inherit"],
  env: { ...process.env, CLOUDFLARE_CF_FETCH_ENABLED: "false" },
});
// The mode goes after wrangler's own start-up lines, where it is read: once it says it is ready.
let shown = false;
let seen = "";
child.stdout.on("data", (chunk) => {
  process.stdout.write(chunk);
  if (shown) return;
  // Without its colours (miniflare colours the URL where FORCE_COLOR is set), which split "Ready on" from it.
  seen = (seen + chunk.toString()).replace(/\x1b\[[0-9;]*m/g, "").slice(-4096);
  const ready = /Ready on (https?:\/\/\S+)\s/.exec(seen);
  if (ready) {
    shown = true;
    process.stdout.write(`\n${banner(ready[1]).join("\n")}\n\n`);
  }
});
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => child.kill(signal));
// A SIGTERM to npm (`npm start & ... kill $!`, a process manager) ends npm and the `sh` it runs
// this script in, not this script: orphaned, wrangler would keep the port, and the next `npm start`
// would move to another. Run by npm, a parent gone (this process adopted) stops it as a SIGTERM
// does; run by hand (`nohup node scripts/start.mjs &`), it outlives its shell as asked.
const parent = process.ppid;
if (process.env.npm_lifecycle_event) setInterval(() => process.ppid !== parent && child.kill("SIGTERM"), 500).unref();
child.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
