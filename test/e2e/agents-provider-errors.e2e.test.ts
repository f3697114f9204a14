// The agents themselves, unchanged, in front of a provider that fails inside its stream (each
// provider's own failure, in its documented shape: test/worker/in-stream-error-cases.ts), through
// the Worker, act on the failure as on their own API's: Claude Code reads an overload of any
// provider as Anthropic's `overloaded_error` on /v1/messages and turns to its `--fallback-model`
// for an overload (another provider here), which ends the run; Codex reads a context overflow
// as OpenAI's `context_length_exceeded` on /v1/responses and stops to say the context window is
// full instead of sending the same request again. Before the Worker classified provider errors,
// both were a generic failure: Claude Code fell back for a server error without retrying an
// overload, Codex sent the request again. Codex on limits (in-stream-limit-cases.ts) and overloads:
// a quota is OpenAI's `insufficient_quota`, on which it stops after one request ("Quota exceeded"),
// where it retried a generic failure five times, a request the provider refused as it is
// `invalid_prompt`, on which it shows the message and stops; an overload `server_error`, which it
// retries (on `server_is_overloaded` it ended the turn: "Selected model is at capacity"); a rate
// limit that named its wait says it as Codex reads it, so Codex sleeps that long, not its 200 ms
// backoff. `wrangler dev` serves the Worker,
// test/e2e/fake-provider.ts plays every provider; no network.
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ProviderErrorKind } from "../../src/index.ts";
import { type ErrorCase, errorCases, SECRET } from "../worker/in-stream-error-cases.ts";
import { limitCases } from "../worker/in-stream-limit-cases.ts";
import { agentBinDir, runAgent, writeCodexConfig, tempDirs } from "./agent-clis.ts";
import { type FakeAnswer, type FakeProvider, shellCall, startFakeProvider } from "./fake-provider.ts";
import { startWorker, stopWorkers, type WorkerServer } from "./worker-server.ts";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
const bin = join(root, "node_modules", ".bin");
let agents = bin;
const TOKEN = "agent-client-token";
const OUTPUT = "OUT-42-";
const command = (tag: string): string => `echo OUT-$((6*7))-${tag}`;
/** What each agent is failed with. */
const KIND: Record<"claude" | "codex", ProviderErrorKind> = { claude: "overloaded", codex: "context-overflow" };
/** Claude Code's fallback model for a provider's: on another provider. */
const fallbackOf = (provider: string) => (provider === "anthropic" ? "openai" : "anthropic");
/** The providers with a documented failure of each kind (Cohere has no overload, Gemini Interactions no overflow). */
const providersOf = (kind: ProviderErrorKind) => [
  ...new Set(errorCases.filter((c) => c.kind === kind).map((c) => c.provider)),
];

let fake: FakeProvider | undefined;
let server: WorkerServer | undefined;
const { tempDir, removeTempDirs } = tempDirs();

/** The Codex runs on limits and overloads, by tag: the case they fail with, and how many of their requests fail. */
const limitRuns = new Map<string, { failure: ErrorCase; failures: number }>();
/** When the fake answered each of those runs' requests, in ms. */
const times = new Map<string, number[]>();

/**
 * A run's requests to its own provider fail inside the stream, with that provider's failure of the
 * agent's kind (Claude Code's fallback, on another provider, is answered); a limit run's, its own
 * case's, as many times as it says.
 */
function failing(body: string, provider: string): FakeAnswer | undefined {
  const limitTag = /OUT-\$\(\(6\*7\)\)-(codex-limit-[a-z0-9-]+)/.exec(body)?.[1];
  const run = limitTag === undefined ? undefined : limitRuns.get(limitTag);
  if (run && limitTag !== undefined) {
    const seen = times.get(limitTag) ?? [];
    times.set(limitTag, [...seen, Date.now()]);
    return seen.length < run.failures ? run.failure : undefined;
  }
  const tag = /OUT-\$\(\(6\*7\)\)-(claude|codex)-([a-z-]+)/.exec(body);
  if (!tag || tag[2] !== provider) return undefined;
  return errorCases.find((c) => c.provider === provider && c.kind === KIND[tag[1] as "claude" | "codex"]);
}

beforeAll(async () => {
  agents = await agentBinDir();
  fake = await startFakeProvider(shellCall, OUTPUT, failing);
  server = await startWorker({ ...fake.vars, CLIENT_TOKEN: TOKEN, OPEN_ACCESS: "false" }, 90_000);
}, 720_000);

afterAll(async () => {
  try {
    await stopWorkers();
  } finally {
    await fake?.stop();
  }
  removeTempDirs();
}, 30_000);

const agentEnv = (extra: Record<string, string>): Record<string, string> => ({
  PATH: `${bin}:${process.env["PATH"] ?? ""}`,
  HOME: tempDir("agent-home-"),
  LANG: "C.UTF-8",
  ...extra,
});
const turnsOf = (tag: string) =>
  fake!.seen.filter((seen) => seen.body.includes(`-${tag}`)).map((seen) => [seen.provider, seen.answered]);

describe("Claude Code turns to its fallback model on a provider's overloads inside the stream (overloaded_error)", () => {
  for (const provider of providersOf(KIND.claude)) {
    it(`${provider}: overloaded, then the fallback model runs the command and reads its output`, async () => {
      const tag = `claude-${provider}`;
      const { stdout } = await runAgent(
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
          "--fallback-model",
          `${fallbackOf(provider)}/fake-model`,
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
      const lines = stdout
        .split("\n")
        .filter((line) => line.startsWith("{"))
        .map((line) => JSON.parse(line) as Record<string, unknown>);
      // Claude Code's own account: it fell back for an overload (for a server error before).
      const fallback = lines.find((line) => line["type"] === "system" && line["subtype"] === "model_fallback");
      expect(fallback).toMatchObject({ trigger: "overloaded", fallback_model: `${fallbackOf(provider)}/fake-model` });
      const result = lines.find((line) => line["type"] === "result");
      expect(result).toMatchObject({ is_error: false, result: expect.stringContaining(`${OUTPUT}${tag}`) });
      const turns = turnsOf(tag);
      const overloaded = turns.findIndex(([, answered]) => answered !== "failed");
      expect(overloaded).toBeGreaterThan(0);
      expect(turns.slice(0, overloaded)).toEqual(turns.slice(0, overloaded).map(() => [provider, "failed"]));
      expect(turns.slice(overloaded)).toEqual([
        [fallbackOf(provider), "call"],
        [fallbackOf(provider), "text"],
      ]);
      expect(stdout).not.toContain(SECRET.split(" ")[0]);
    });
  }
});

/** Runs `codex exec` on `provider` to print `tag`: its stdout, or its error message if it failed. */
function codex(tag: string, provider: string): Promise<{ stdout?: string; failure?: string }> {
  const home = tempDir("codex-home-");
  writeCodexConfig(home, `${provider}/fake-model`, server!.url);
  return runAgent(
    join(agents, "codex"),
    [
      "exec",
      "--skip-git-repo-check",
      "--dangerously-bypass-approvals-and-sandbox",
      `Run \`${command(tag)}\` with your shell tool and tell me what it printed.`,
    ],
    { cwd: tempDir("agent-cwd-"), timeout: 50_000, env: agentEnv({ CODEX_HOME: home, WORKER_TOKEN: TOKEN }) },
  ).then(
    ({ stdout }) => ({ stdout }),
    (error: Error) => ({ failure: error.message }),
  );
}

describe("Codex stops on a provider's context overflow inside the stream (context_length_exceeded)", () => {
  for (const provider of providersOf(KIND.codex)) {
    it(`${provider}: the run says the context window is full, without sending the request again`, async () => {
      const tag = `codex-${provider}`;
      const { failure } = await codex(tag, provider);
      // `codex exec` exits with 1 and its own words for ContextWindowExceeded.
      expect(failure).toMatch(/exited with 1[\s\S]*context window/);
      expect(turnsOf(tag)).toEqual([[provider, "failed"]]);
      expect(failure).not.toContain(SECRET.split(" ")[0]);
    });
  }
});

/** A quota of each provider that has one, two overloads, a rate limit that names its wait. */
const QUOTAS = limitCases.filter(
  (c, i, all) =>
    c.kind === "quota-exceeded" && all.findIndex((o) => o.kind === c.kind && o.provider === c.provider) === i,
);
const OVERLOADS = errorCases.filter(
  (c) => c.kind === "overloaded" && (c.provider === "anthropic" || c.provider === "bedrock"),
);
const WAIT = limitCases.find((c) => c.wait !== undefined && c.provider === "openai-responses")!;

/** Runs Codex on a limit case whose first `failures` requests fail with it. */
function codexOn(tag: string, c: ErrorCase, failures: number) {
  limitRuns.set(tag, { failure: c, failures });
  return codex(tag, c.provider);
}

describe("Codex stops on a provider's quota refusal inside the stream (insufficient_quota)", () => {
  for (const c of QUOTAS) {
    it(`${c.label}: one request, and Codex's own words for a quota`, async () => {
      const tag = `codex-limit-quota-${c.provider}`;
      const { failure } = await codexOn(tag, c, Number.POSITIVE_INFINITY);
      expect(failure).toMatch(/exited with 1[\s\S]*Quota exceeded/);
      expect(times.get(tag)).toHaveLength(1);
      expect(failure).not.toContain(SECRET.split(" ")[0]);
    });
  }
});

describe("Codex stops on a request the provider refused inside the stream (invalid_prompt)", () => {
  for (const c of limitCases.filter((c) => c.kind === "invalid-request")) {
    it(`${c.label}: one request, and the Worker's sentence`, async () => {
      const tag = `codex-limit-refused-${c.provider}`;
      const { failure } = await codexOn(tag, c, Number.POSITIVE_INFINITY);
      expect(failure).toMatch(/exited with 1[\s\S]*The provider refused the request as it is/);
      expect(times.get(tag)).toHaveLength(1);
      expect(failure).not.toContain(SECRET.split(" ")[0]);
    });
  }
});

describe("Codex retries a provider's overload inside the stream (server_error), then runs the command", () => {
  for (const [i, c] of OVERLOADS.entries()) {
    it(`${c.label}: overloaded once, asked again, then the command's output`, async () => {
      const tag = `codex-limit-overload-${i}`;
      const { stdout } = await codexOn(tag, c, 1);
      expect(stdout).toContain(`${OUTPUT}${tag}`);
      expect(turnsOf(tag).map(([, answered]) => answered)).toEqual(["failed", "call", "text"]);
    });
  }
});

describe("Codex sleeps the wait a rate limit inside the stream named (try again in 1.898s)", () => {
  it(`${WAIT.label}: asked again after the wait, then the command's output`, async () => {
    const tag = "codex-limit-wait";
    const { stdout } = await codexOn(tag, WAIT, 1);
    expect(stdout).toContain(`${OUTPUT}${tag}`);
    const [failed, again] = times.get(tag)!;
    // Codex's own backoff would have asked again within about 200 ms.
    expect(again! - failed!).toBeGreaterThanOrEqual(WAIT.wait! * 1000 - 100);
  });
});
