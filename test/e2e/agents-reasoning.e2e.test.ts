// Claude Code and Codex, unchanged, carry a reasoning model's state through the Worker from one
// turn to the next: turn 1 of a fake Anthropic (signed thinking), OpenAI Responses (a reasoning
// item with encrypted content) or DeepSeek-style Chat Completions (`reasoning_content`, which it
// answers a 400 without: ./deepseek-provider.ts) calls the agent's shell tool; the agent runs it and sends turn 2,
// which must reach the provider with that state in the provider's own shape, whichever protocol
// the agent speaks (the Worker seals one provider's state into the other protocol's opaque field).
import { spawn } from "node:child_process";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ITEM, type ReasoningProvider, SIGNATURE, startReasoningProvider, THOUGHT } from "./reasoning-provider.ts";
import { agentBinDir, writeCodexConfig, tempDirs } from "./agent-clis.ts";
import { DEEPSEEK_CALL_ID, DEEPSEEK_THOUGHT } from "./deepseek-provider.ts";
import { startWorker, stopWorkers, type WorkerServer } from "./worker-server.ts";

const bin = join(resolve(dirname(fileURLToPath(import.meta.url)), "..", ".."), "node_modules", ".bin");
/** Where `claude` and `codex` are (installed by the first test that needs them: ./agent-clis.ts). */
let agents = bin;
const TOKEN = "agent-client-token";
const OUTPUT = "OUT-42-";
const command = (tag: string): string => `echo OUT-$((6*7))-${tag}`;

let fake: ReasoningProvider | undefined;
let server: WorkerServer | undefined;
const { tempDir, removeTempDirs } = tempDirs();

/** Runs an agent to its end with stdin closed; kills it past 50 s. */
function run(file: string, args: readonly string[], env: Record<string, string>): Promise<string> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(file, args, {
      cwd: tempDir("agent-cwd-"),
      env: { PATH: `${bin}:${process.env["PATH"] ?? ""}`, HOME: tempDir("agent-home-"), LANG: "C.UTF-8", ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    child.stderr.on("data", (chunk) => (output += chunk));
    const timer = setTimeout(() => child.kill("SIGKILL"), 50_000);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      if (code === 0) resolvePromise(output);
      else reject(new Error(`${file} exited with ${code}\n${output.slice(-3000)}`));
    });
  });
}

const claude = (tag: string, model: string) =>
  run(
    join(agents, "claude"),
    ["-p", `Run \`${command(tag)}\` with the Bash tool.`, "--allowedTools", "Bash", "--model", model],
    { ANTHROPIC_BASE_URL: server!.url, ANTHROPIC_API_KEY: TOKEN, CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1" },
  );

function codex(tag: string, model: string) {
  const home = tempDir("codex-home-");
  writeCodexConfig(home, model, server!.url, ['model_reasoning_effort = "medium"']);
  return run(
    join(agents, "codex"),
    [
      "exec",
      "--skip-git-repo-check",
      "--dangerously-bypass-approvals-and-sandbox",
      `Run \`${command(tag)}\` with your shell tool.`,
    ],
    { CODEX_HOME: home, WORKER_TOKEN: TOKEN },
  );
}

/** The body of turn 2 for `tag`: the one request that carries the command's output. */
function secondTurn(tag: string): Record<string, unknown> {
  const turns = fake!.bodies.filter(({ body }) => JSON.stringify(body).includes(`${OUTPUT}${tag}`));
  expect(turns).toHaveLength(1);
  return turns[0]!.body;
}

/** Anthropic's turn 2: the assistant turn starts with the signed thinking, and thinking is on. */
function expectSignedThinking(body: Record<string, unknown>) {
  const turns = body["messages"] as { role: string; content: { type: string }[] }[];
  const assistant = turns.find((turn) => turn.role === "assistant")!;
  expect(assistant.content[0]).toEqual({ type: "thinking", thinking: THOUGHT, signature: SIGNATURE });
  expect(assistant.content[1]).toMatchObject({ type: "tool_use", id: "toolu_e2e" });
  expect(body["thinking"]).toMatchObject({ type: "enabled" });
}

/** OpenAI's turn 2: the reasoning item with its own id and encrypted content, right before its call. */
function expectReasoningItem(body: Record<string, unknown>) {
  const input = body["input"] as { type?: string }[];
  const at = input.findIndex((item) => item.type === "reasoning");
  expect(input[at]).toEqual({
    type: "reasoning",
    id: ITEM.id,
    summary: [{ type: "summary_text", text: THOUGHT }],
    encrypted_content: ITEM.encrypted,
  });
  expect(input[at + 1]).toMatchObject({ type: "function_call", call_id: "call_e2e" });
}

/**
 * DeepSeek's turn 2: the assistant message of the call carries the reasoning in
 * `reasoning_content`, exactly as it streamed, and no request of the loop was refused.
 */
function expectReasoningContent(body: Record<string, unknown>) {
  const turns = body["messages"] as Record<string, unknown>[];
  const assistant = turns.find((turn) => turn["role"] === "assistant" && Array.isArray(turn["tool_calls"]))!;
  expect(assistant["reasoning_content"]).toBe(DEEPSEEK_THOUGHT.join(""));
  expect(assistant["tool_calls"]).toMatchObject([{ id: DEEPSEEK_CALL_ID, type: "function" }]);
  expect(fake!.bodies.filter(({ status }) => status !== 200)).toEqual([]);
}

beforeAll(async () => {
  agents = await agentBinDir();
  fake = await startReasoningProvider(OUTPUT);
  server = await startWorker({ ...fake.vars, CLIENT_TOKEN: TOKEN, OPEN_ACCESS: "false" }, 90_000);
}, 720_000); // the first run installs the agents (./agent-clis.ts)

afterAll(async () => {
  try {
    await stopWorkers();
  } finally {
    await fake?.stop();
  }
  removeTempDirs();
}, 30_000);

describe("agents carry a reasoning model's state to its next turn through the Worker", () => {
  it("Claude Code on Anthropic: the signed thinking block goes back as it came", async () => {
    await claude("cc-anthropic", "anthropic/claude-sonnet-4-5");
    expectSignedThinking(secondTurn("cc-anthropic"));
  });

  it("Claude Code on OpenAI Responses: the reasoning item, sealed in the thinking block's signature", async () => {
    await claude("cc-responses", "openai-responses/gpt-5");
    expectReasoningItem(secondTurn("cc-responses"));
  });

  it("Codex on Anthropic: the signed thinking, sealed in the reasoning item's encrypted_content", async () => {
    await codex("codex-anthropic", "anthropic/claude-sonnet-4-5");
    expectSignedThinking(secondTurn("codex-anthropic"));
  });

  it("Codex on OpenAI Responses: the reasoning item with the id its encrypted content is bound to", async () => {
    await codex("codex-responses", "openai-responses/gpt-5");
    const body = secondTurn("codex-responses");
    expectReasoningItem(body);
    expect(body["reasoning"]).toEqual({ effort: "medium", summary: "auto" });
  });

  it("Claude Code on a DeepSeek-style thinking model: its reasoning_content, sealed in the thinking block's signature", async () => {
    await claude("cc-deepseek", "openai/deepseek-reasoner");
    expectReasoningContent(secondTurn("cc-deepseek"));
  });

  it("Codex on a DeepSeek-style thinking model: its reasoning_content, sealed in the reasoning item's encrypted_content", async () => {
    await codex("codex-deepseek", "openai/deepseek-reasoner");
    expectReasoningContent(secondTurn("codex-deepseek"));
  });
});
