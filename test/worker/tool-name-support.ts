// The fake providers of the tool-name tests: Cohere (no `-` in a name) and Gemini (no leading digit),
// each answering with one call of the short name it was sent, and what names a request carried.
import type { Env } from "../../worker/env.ts";
import { upstreamProviders } from "../../worker/upstream/providers/index.ts";
import { ToolNames } from "../../worker/upstream/tool-names.ts";
import { FakeUpstream, testEnv } from "./support.ts";

/** One provider whose rule refuses `name`, with what the client sees and what the provider must get. */
export interface RefusedName {
  provider: "cohere" | "gemini";
  /** The client's name, which the provider's rule refuses. */
  name: string;
  /** The name the provider must be sent, on every turn. */
  short: RegExp;
  env: Env;
  /** A fake provider answering with one call of the short name. */
  upstream: () => FakeUpstream;
  /** How many names the second turn (the tool, the earlier call, its result, a tool_choice) carries in this provider's shape. */
  secondTurnNames: number;
}

const sse = (payload: unknown, event?: string) =>
  `${event === undefined ? "" : `event: ${event}\n`}data: ${JSON.stringify(payload)}\n\n`;

/** Cohere's answer: one call `short({"city":"Paris"})`. */
function cohereCall(short: string): string[] {
  const event = (payload: { type: string; [field: string]: unknown }) => sse(payload, payload.type);
  return [
    event({ type: "message-start", delta: { message: { role: "assistant" } } }),
    event({
      type: "tool-call-start",
      index: 0,
      delta: { message: { tool_calls: { id: "c_1", type: "function", function: { name: short, arguments: "" } } } },
    }),
    event({
      type: "tool-call-delta",
      index: 0,
      delta: { message: { tool_calls: { function: { arguments: '{"city":"Paris"}' } } } },
    }),
    event({ type: "tool-call-end", index: 0 }),
    event({ type: "message-end", delta: { finish_reason: "TOOL_CALL" } }),
  ];
}

/** Gemini's answer: one call `short({"city":"Paris"})`. */
function geminiCall(short: string): string[] {
  const part = { functionCall: { name: short, args: { city: "Paris" } } };
  return [sse({ candidates: [{ content: { role: "model", parts: [part] }, finishReason: "STOP", index: 0 }] })];
}

/** The short name a provider is sent for `name` (the mapping's own, checked against a pattern by each test). */
export const shortOf = (provider: keyof typeof upstreamProviders, name: string): string =>
  new ToolNames([name], upstreamProviders[provider].toolNames).toProvider(name);

/** A `-`, which Cohere refuses (and /v1/stream takes). */
export const COHERE_REFUSED: RefusedName = {
  provider: "cohere",
  name: "get-weather",
  short: /^get_weather_[0-9a-f]{8}$/,
  env: testEnv({ COHERE_API_KEY: "k", COHERE_BASE_URL: "https://provider.test/v2", CLIENT_TOKEN: "t" }),
  upstream: () => new FakeUpstream({ kind: "sse", chunks: cohereCall(shortOf("cohere", "get-weather")) }),
  // The tool and the earlier call (Cohere has no named choice: the tool is sent alone, REQUIRED).
  secondTurnNames: 2,
};

/** A leading digit, which Gemini refuses (and OpenAI, the AI SDK and AG-UI take). */
export const GEMINI_REFUSED: RefusedName = {
  provider: "gemini",
  name: "3d_render",
  short: /^_d_render_[0-9a-f]{8}$/,
  env: testEnv({ GEMINI_API_KEY: "k", GEMINI_BASE_URL: "https://provider.test/v1beta", CLIENT_TOKEN: "t" }),
  upstream: () => new FakeUpstream({ kind: "sse", chunks: geminiCall(shortOf("gemini", "3d_render")) }),
  // The declaration, the earlier functionCall, its functionResponse and allowedFunctionNames.
  secondTurnNames: 4,
};

/** Every tool name a provider request carries: each `name` (and `allowedFunctionNames` entry), in order. */
export function sentNames(body: unknown): string[] {
  if (Array.isArray(body)) return body.flatMap(sentNames);
  if (typeof body !== "object" || body === null) return [];
  return Object.entries(body).flatMap(([key, value]) => {
    if (key === "name" && typeof value === "string") return [value];
    if (key === "allowedFunctionNames" && Array.isArray(value)) return value as string[];
    return sentNames(value);
  });
}

/** A tool's parameters, without a `name` property that {@link sentNames} would count. */
export const CITY = { type: "object" as const, properties: { city: { type: "string" } } };
