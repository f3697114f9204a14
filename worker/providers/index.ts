import type { Provider } from "../../src/index.ts";
import { anthropic } from "./anthropic.ts";
import { gemini } from "./gemini.ts";
import { openaiChat } from "./openai-chat.ts";
import { openaiResponses } from "./openai-responses.ts";
import type { UpstreamProvider } from "./upstream-provider.ts";

/**
 * Every provider the Worker serves, by the name clients send, which is the library's name of
 * its wire protocol. Mapped over the library's `Provider` union, so a provider added to the
 * library is a compile error here until its line is added.
 */
export const upstreamProviders: { readonly [P in Provider]: UpstreamProvider<P> } = {
  openai: openaiChat,
  "openai-responses": openaiResponses,
  anthropic,
  gemini,
};

/** The names clients may send as `provider`. */
export const providerNames: readonly string[] = Object.keys(upstreamProviders);

/** The provider of a validated request's name. */
export function upstreamProvider(name: string): UpstreamProvider {
  return upstreamProviders[name as Provider] as UpstreamProvider;
}
