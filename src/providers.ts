import { ToolCallStreamError } from "./errors.ts";
import { AnthropicDeltaStream } from "./anthropic-delta-stream.ts";
import { GeminiDeltaStream } from "./gemini-delta-stream.ts";
import { OpenAIChatDeltaStream } from "./openai-chat-delta-stream.ts";
import { OpenAIResponsesDeltaStream } from "./openai-responses-delta-stream.ts";
import type { ProviderDelta, SSEMessage } from "./types.ts";

/** The wire protocols tool-call-stream reads. `openai` is Chat Completions and every compatible vendor. */
export type Provider = "openai" | "openai-responses" | "anthropic" | "gemini";

/** Creates the provider stage for a protocol. */
export function createProviderDeltaStream(provider: Provider): TransformStream<SSEMessage, ProviderDelta> {
  switch (provider) {
    case "openai":
      return new OpenAIChatDeltaStream();
    case "openai-responses":
      return new OpenAIResponsesDeltaStream();
    case "anthropic":
      return new AnthropicDeltaStream();
    case "gemini":
      return new GeminiDeltaStream();
  }
  // Reached only from JavaScript or a cast: TypeScript callers cannot name another protocol.
  throw new ToolCallStreamError({ code: "unknown-provider", message: `Unknown provider ${JSON.stringify(provider)}.` });
}
