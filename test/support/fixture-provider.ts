import { createProviderDeltaStream, type Provider } from "../../src/index.ts";
import type { Fixture } from "./fixtures.ts";

/** The wire protocol of a recording, from its folder and name (see shared/fixtures/README.md). */
export function protocolOf(fixture: Fixture): string {
  if (fixture.provider === "anthropic" || fixture.provider === "gemini") return fixture.provider;
  if (fixture.provider === "openai-responses" || fixture.provider === "lmstudio" || fixture.name.startsWith("responses")) {
    return "openai-responses";
  }
  return "openai";
}

/** The protocol as a `provider` option, or `undefined` while the library does not support it yet. */
export function supportedProvider(fixture: Fixture): Provider | undefined {
  const protocol = protocolOf(fixture) as Provider;
  try {
    createProviderDeltaStream(protocol);
    return protocol;
  } catch {
    return undefined; // not registered (yet): the caller skips the recording
  }
}
