// The agents themselves, unchanged, through the Worker: Claude Code (`claude -p`, its Bash tool,
// ANTHROPIC_BASE_URL at the Worker's /v1/messages) and Codex (`codex exec`, its shell tool, a model
// provider with `wire_api = "responses"` at the Worker's /v1/responses) each run a real command
// and read its output, in front of each of the seven providers: `wrangler dev` serves the Worker,
// and a fake of every provider on 127.0.0.1 (test/e2e/fake-provider.ts) answers turn 1 with a call
// of the agent's shell tool and turn 2, which must carry the command's output, with text that
// repeats it. No network: both agents run with a HOME of their own and their traffic off.
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { shellCall, startFakeProvider, type FakeProvider } from "./fake-provider.ts";
import { agentBinDir, runAgent as run, writeCodexConfig, tempDirs } from "./agent-clis.ts";
import { startWorker, stopWorkers, type WorkerServer } from "./worker-server.ts";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
const bin = join(root, "node_modules", ".bin");
/** Where `claude` and `codex` are (installed by the first test that needs them: ./agent-clis.ts). */
let agents = bin;

const TOKEN = "agent-client-token";
const PROVIDERS = [
  "openai",
  "openai-responses",
  "anthropic",
  "gemini",
  "bedrock",
  "cohere",
  "ollama",
  "gemini-interactions",
];
/** What the command prints starts so; the prompt holds only the command (`$((6*7))`), so a request holds it only once the tool ran. */
const OUTPUT = "OUT-42-";
const command = (tag: string): string => `echo OUT-$((6*7))-${tag}`;

let fake: FakeProvider | undefined;
/** The agents' homes and working directories, removed at the end. */
const { tempDir, removeTempDirs } = tempDirs();
let server: WorkerServer | undefined;

beforeAll(async () => {
  agents = await agentBinDir();
  fake = await startFakeProvider(shellCall, OUTPUT);
  server = await startWorker(
    { ...fake.vars, CLIENT_TOKEN: TOKEN, OPEN_ACCESS: "false", MODEL_ALIASES: "claude-*=anthropic/fake-model" },
    90_000,
  );
}, 720_000); // the first run installs the agents (./agent-clis.ts)

afterAll(async () => {
  try {
    await stopWorkers();
  } finally {
    await fake?.stop();
  }
  removeTempDirs();
}, 30_000);

/** The environment of an agent: Node 24 first on PATH, a HOME of its own, nothing inherited that names a key. */
function agentEnv(extra: Record<string, string>): Record<string, string> {
  return {
    PATH: `${bin}:${process.env["PATH"] ?? ""}`,
    HOME: tempDir("agent-home-"),
    LANG: "C.UTF-8",
    ...extra,
  };
}

/** The requests the fake answered for one tag: the provider each reached, and whether with a call or text. */
const turnsOf = (tag: string) =>
  fake!.seen.filter((seen) => seen.body.includes(`-${tag}`)).map((seen) => [seen.provider, seen.answered]);

describe("Claude Code runs its Bash tool through POST /v1/messages", () => {
  for (const provider of PROVIDERS) {
    it(`${provider}: claude -p calls Bash, runs it, and its answer reads the command's output`, async () => {
      const tag = `claude-${provider}`;
      const cwd = tempDir("agent-cwd-");
      const { stdout } = await run(
        join(agents, "claude"),
        [
          "-p",
          `Run \`${command(tag)}\` with the Bash tool and tell me what it printed.`,
          "--output-format",
          "stream-json",
          "--verbose",
          "--allowedTools",
          "Bash",
          "--model",
          `${provider}/fake-model`,
        ],
        {
          cwd,
          timeout: 50_000,
          env: agentEnv({
            ANTHROPIC_BASE_URL: server!.url,
            ANTHROPIC_API_KEY: TOKEN,
            CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
          }),
        },
      );
      const lines = stdout
        .split("\n")
        .filter((line) => line.startsWith("{"))
        .map((line) => JSON.parse(line) as Record<string, unknown>);
      const blocks = lines.flatMap((line) =>
        line["type"] === "assistant" || line["type"] === "user"
          ? ((line["message"] as { content: Record<string, unknown>[] }).content ?? [])
          : [],
      );
      const call = blocks.find((block) => block["type"] === "tool_use");
      expect(call).toMatchObject({ name: "Bash", input: { command: command(tag) } });
      const result = blocks.find((block) => block["type"] === "tool_result");
      expect(JSON.stringify(result?.["content"])).toContain(`${OUTPUT}${tag}`);
      const final = lines.find((line) => line["type"] === "result");
      expect(final).toMatchObject({ is_error: false });
      expect(final?.["result"]).toContain(`${OUTPUT}${tag}`);
      expect(turnsOf(tag)).toEqual([
        [provider, "call"],
        [provider, "text"],
      ]);
    });
  }

  it("a model name of Claude Code's own goes where MODEL_ALIASES maps it", async () => {
    const tag = "claude-alias";
    const { stdout } = await run(
      join(agents, "claude"),
      [
        "-p",
        `Run \`${command(tag)}\` with the Bash tool.`,
        "--output-format",
        "json",
        "--allowedTools",
        "Bash",
        "--model",
        "claude-sonnet-4-5",
      ],
      {
        cwd: tempDir("agent-cwd-"),
        timeout: 50_000,
        env: agentEnv({
          ANTHROPIC_BASE_URL: server!.url,
          ANTHROPIC_API_KEY: TOKEN,
          CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
        }),
      },
    );
    expect((JSON.parse(stdout) as { result: string }).result).toContain(`${OUTPUT}${tag}`);
    expect(turnsOf(tag)).toEqual([
      ["anthropic", "call"],
      ["anthropic", "text"],
    ]);
  });
});

describe("Codex runs its shell tool through POST /v1/responses", () => {
  for (const provider of PROVIDERS) {
    it(`${provider}: codex exec calls exec_command, runs it, and its answer reads the command's output`, async () => {
      const tag = `codex-${provider}`;
      const home = tempDir("codex-home-");
      writeCodexConfig(home, `${provider}/fake-model`, server!.url);
      const { stdout } = await run(
        join(agents, "codex"),
        [
          "exec",
          "--skip-git-repo-check",
          "--dangerously-bypass-approvals-and-sandbox",
          `Run \`${command(tag)}\` with your shell tool and tell me what it printed.`,
        ],
        {
          cwd: tempDir("agent-cwd-"),
          timeout: 50_000,
          env: agentEnv({ CODEX_HOME: home, WORKER_TOKEN: TOKEN }),
        },
      );
      // `codex exec` prints its last message on stdout (the transcript goes to stderr).
      expect(stdout).toContain(`The command printed ${OUTPUT}${tag}`);
      expect(turnsOf(tag)).toEqual([
        [provider, "call"],
        [provider, "text"],
      ]);
      const second = fake!.seen.filter((seen) => seen.body.includes(`-${tag}`))[1]!.body;
      expect(second).toContain(`${OUTPUT}${tag}`);
    });
  }
});
