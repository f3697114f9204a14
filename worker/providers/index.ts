import type { Provider } from "../../src/index.ts";
import { anthropic } from "./anthropic.ts";
import { gemini } from "./gemini.ts";
import { openaiChat } from "./openai-chat.ts";
import { openaiResponses } from "./openai-responses.ts";
import type { UpstreamProvider } from "./upstream-provider.ts";

/**
 * The library's protocols the Worker calls upstream. The library reads Bedrock, Cohere and Ollama
 * too; their upstreams (request builders, signing, replays) are the Worker part of issue 14, which
 * removes this exclusion, and every other protocol added to the library is a compile error below.
 */
export type WorkerProvider = Exclude<Provider, "bedrock" | "cohere" | "ollama">;

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
};

/** The names clients may send as `provider`. */
export const providerNames: readonly string[] = Object.keys(upstreamProviders);

/** The provider of a validated request's name. */
export function upstreamProvider(name: string): UpstreamProvider<WorkerProvider> {
  return upstreamProviders[name as WorkerProvider] as UpstreamProvider<WorkerProvider>;
}
