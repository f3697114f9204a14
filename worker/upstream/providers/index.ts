import type { Provider } from "../../../src/index.ts";
import { anthropic } from "./anthropic.ts";
import { bedrock } from "./bedrock.ts";
import { cohere } from "./cohere.ts";
import { gemini } from "./gemini.ts";
import { geminiInteractions } from "./gemini-interactions.ts";
import { ollama } from "./ollama.ts";
import { openaiChat } from "./openai-chat.ts";
import { openaiResponses } from "./openai-responses.ts";
import type { UpstreamProvider } from "./upstream-provider.ts";

/** The library's protocols the Worker calls upstream: all of them. */
export type WorkerProvider = Provider;

/**
 * Every provider the Worker serves, by the name clients send, which is the library's name of
 * its wire protocol. Mapped over the library's `Provider` union, so a provider added to the
 * library is a compile error here until its line is added.
 */
export const upstreamProviders: { readonly [P in WorkerProvider]: UpstreamProvider<P> } = {
  openai: openaiChat,
  "openai-responses": openaiResponses,
  anthropic,
  gemini,
  bedrock,
  cohere,
  ollama,
  "gemini-interactions": geminiInteractions,
};

/** The names clients may send as `provider`. */
export const providerNames: readonly string[] = Object.keys(upstreamProviders);

/** The provider of a validated request's name. */
export function upstreamProvider(name: string): UpstreamProvider<WorkerProvider> {
  return upstreamProviders[name as WorkerProvider] as UpstreamProvider<WorkerProvider>;
}
