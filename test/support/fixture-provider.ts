import type { Provider } from "../../src/index.ts";
import { allFixtures, type Fixture } from "./fixtures.ts";

/**
 * Folders of ../shared/fixtures whose wire protocol the library does not read yet, skipped by
 * name until the issue that adds the protocol lands (none today: issue 14 added Cohere v2). A
 * folder that is neither read nor listed here fails `protocolOf`, so a new recording is never
 * skipped silently.
 */
const NOT_READ_YET: ReadonlySet<string> = new Set<string>();

/** The folders whose recordings all use one protocol (Gemini's in SSE or as a JSON array, Bedrock's Converse or InvokeModel). */
const FOLDER_PROTOCOLS: Readonly<Record<string, Provider>> = {
  anthropic: "anthropic",
  gemini: "gemini",
  "openai-responses": "openai-responses",
  lmstudio: "openai-responses",
  bedrock: "bedrock",
  cohere: "cohere",
  // Built from the documentation's and the SDK's shapes (test/recordings/gemini-interactions/README.md).
  "gemini-interactions": "gemini-interactions",
};

/** Folders of OpenAI-compatible servers: Chat Completions, or the Responses API for a recording named `responses-*`. */
const CHAT_FOLDERS: ReadonlySet<string> = new Set([
  "openai",
  "azure",
  "deepseek",
  "groq",
  "mistral",
  "ollama",
  "openrouter",
  "qwen",
  "vllm",
  "xai",
]);

/** The wire protocol of a recording, from its folder, name and framing (see shared/fixtures/README.md). */
export function protocolOf(fixture: Fixture): string {
  const protocol = FOLDER_PROTOCOLS[fixture.provider];
  if (protocol) return protocol;
  // Ollama's native /api/chat is NDJSON; its /v1 recordings are Chat Completions.
  if (fixture.provider === "ollama" && fixture.format === "ndjson") return "ollama";
  if (NOT_READ_YET.has(fixture.provider)) return fixture.provider;
  if (!CHAT_FOLDERS.has(fixture.provider))
    throw new Error(
      `No protocol is known for the fixture folder ${fixture.provider}/: add it to test/support/fixture-provider.ts.`,
    );
  return fixture.name.startsWith("responses") ? "openai-responses" : "openai";
}

/** The protocol as a `provider` option, or `undefined` for a folder the library does not read yet. */
export function supportedProvider(fixture: Fixture): Provider | undefined {
  return NOT_READ_YET.has(fixture.provider) ? undefined : (protocolOf(fixture) as Provider);
}

/** The first `count` recordings the library reads that are SSE (with tool calls and text): what the encoder cases run on. */
export function sseRecordings(count = 40): Fixture[] {
  return allFixtures.filter((f) => f.format === "sse" && supportedProvider(f) !== undefined).slice(0, count);
}
