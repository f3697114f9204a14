import type { Provider } from "../../src/index.ts";

/**
 * A recorded multi-step tool conversation: each request the client sent (step 2 and later carry
 * the tool results) and the provider's streamed answer to it, verbatim, from one recorded
 * exchange. The first step ends in tool calls, the last in a text answer.
 */
export interface RecordedConversation {
  /** A short name, sent back in `x-replay-recording`. */
  name: string;
  /** The library's name of the wire protocol. */
  provider: Provider;
  /** Where the recording comes from (repository, commit, path). */
  source: string;
  /** Words of a prompt that make this conversation the answer (lower case). */
  keywords?: readonly string[];
  /** The exchanges in order. */
  steps: readonly RecordedStep[];
}

/** One request of a recorded conversation and the provider's answer to it. */
export interface RecordedStep {
  /** The request body as it was sent. */
  request: unknown;
  /** The streamed response body (Server-Sent Events), exactly as received. */
  response: string;
}

/**
 * The conversation that answers a prompt: the one whose keywords the prompt mentions most, else
 * the first; undefined when the provider has none.
 */
export function pickConversation(conversations: readonly RecordedConversation[], prompt: string): RecordedConversation | undefined {
  const text = prompt.toLowerCase();
  let best = conversations[0];
  let bestScore = 0;
  for (const conversation of conversations) {
    const score = (conversation.keywords ?? []).filter((keyword) => text.includes(keyword)).length;
    if (score > bestScore) [best, bestScore] = [conversation, score];
  }
  return best;
}

/**
 * How many tool-result turns follow the last prompt in a provider request body: 0 for the first
 * request of a run, 1 once the results of the first calls are sent back, and so on. It depends on
 * the request alone, so the same request always gets the same recorded answer.
 */
export function stepOfRequest(provider: Provider, body: unknown): number {
  const object = isObject(body) ? body : {};
  if (provider === "gemini") return resultTurnsAfterPrompt(asArray(object["contents"]), isGeminiPrompt, isGeminiResults);
  if (provider === "openai-responses") return resultTurnsAfterPrompt(asArray(object["input"]), isResponsesPrompt, isResponsesResults);
  if (provider === "anthropic") return resultTurnsAfterPrompt(asArray(object["messages"]), isAnthropicPrompt, isAnthropicResults);
  return resultTurnsAfterPrompt(asArray(object["messages"]), (m) => m["role"] === "user", (m) => m["role"] === "tool");
}

/**
 * Counts the runs of consecutive result entries after the last prompt entry. A run counts once
 * however many parallel results it holds (OpenAI sends one `tool` message per call).
 */
function resultTurnsAfterPrompt(
  entries: readonly unknown[],
  isPrompt: (entry: Record<string, unknown>) => boolean,
  isResults: (entry: Record<string, unknown>) => boolean,
): number {
  let turns = 0;
  let inRun = false;
  for (const entry of entries) {
    const object = isObject(entry) ? entry : {};
    if (isPrompt(object)) {
      turns = 0;
      inRun = false;
    } else if (isResults(object)) {
      if (!inRun) turns++;
      inRun = true;
    } else {
      inRun = false;
    }
  }
  return turns;
}

/** Anthropic sends tool results in a user turn; a user turn with no `tool_result` block is a prompt. */
function isAnthropicResults(message: Record<string, unknown>): boolean {
  return message["role"] === "user" && asArray(message["content"]).some((block) => isObject(block) && block["type"] === "tool_result");
}

function isAnthropicPrompt(message: Record<string, unknown>): boolean {
  return message["role"] === "user" && !isAnthropicResults(message);
}

function isGeminiResults(content: Record<string, unknown>): boolean {
  return content["role"] === "user" && asArray(content["parts"]).some((part) => isObject(part) && "functionResponse" in part);
}

function isGeminiPrompt(content: Record<string, unknown>): boolean {
  return content["role"] === "user" && !isGeminiResults(content);
}

function isResponsesResults(item: Record<string, unknown>): boolean {
  return item["type"] === "function_call_output" || item["type"] === "custom_tool_call_output";
}

function isResponsesPrompt(item: Record<string, unknown>): boolean {
  return item["role"] === "user";
}

function asArray(value: unknown): readonly unknown[] {
  return Array.isArray(value) ? value : [];
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
