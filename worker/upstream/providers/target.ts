import { nonEmpty, SettingsError, type Env } from "../../env.ts";
import type { ProviderTarget, UpstreamProvider } from "./upstream-provider.ts";

/** Where a request goes: the provider with its credentials, or the replay upstream (`live: false`). */
export interface ResolvedTarget {
  target: ProviderTarget;
  /** False when the provider is not configured and the replay upstream answers. */
  live: boolean;
}

/**
 * The target of `provider` under the Worker's settings: its base URL and credentials when it is
 * configured (its key secret, or what its `credentials` reads), else the replay's, without any.
 * Throws a {@link SettingsError} for a setting it cannot use.
 */
export function providerTarget(provider: UpstreamProvider, env: Env): ResolvedTarget {
  const credentials = provider.credentials ? provider.credentials(env) : keyCredentials(provider, env);
  return {
    target: { baseUrl: baseUrl(provider, env), ...(credentials ?? { apiKey: "" }) },
    live: credentials !== undefined,
  };
}

/**
 * The base URLs checked for each bindings object, by provider: workerd hands every request of an
 * isolate the same bindings, whose variables never change, so each is parsed once, not twice per
 * request (the model's provider, and the protocol's own for a bare model name). A malformed one is
 * not kept: every request still meets its `SettingsError`.
 */
const checked = new WeakMap<Env, Map<UpstreamProvider, string>>();

/** The provider's base URL from its var (or its default), checked to be absolute http(s), without a trailing slash. */
export function baseUrl(provider: UpstreamProvider, env: Env): string {
  let known = checked.get(env);
  const kept = known?.get(provider);
  if (kept !== undefined) return kept;
  const fallback = typeof provider.defaultBaseUrl === "string" ? provider.defaultBaseUrl : provider.defaultBaseUrl(env);
  const raw = nonEmpty(env[provider.baseUrlVar]) ?? fallback;
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new SettingsError(provider.baseUrlVar, "must be an absolute http(s) URL.");
  }
  if (url.protocol !== "https:" && url.protocol !== "http:")
    throw new SettingsError(provider.baseUrlVar, "must be an absolute http(s) URL.");
  const href = url.href.replace(/\/+$/, "");
  if (known === undefined) checked.set(env, (known = new Map()));
  known.set(provider, href);
  return href;
}

function keyCredentials(provider: UpstreamProvider, env: Env): { apiKey: string } | undefined {
  const apiKey = nonEmpty(env[provider.keyVar]);
  return apiKey === undefined ? undefined : { apiKey };
}
