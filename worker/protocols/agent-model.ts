import { anyProviderKey, type Env } from "../env.ts";
import { HttpError } from "../response/json-error.ts";
import { upstreamProvider } from "../upstream/providers/index.ts";
import { providerTarget } from "../upstream/providers/target.ts";
import { providerModel } from "./provider-model.ts";

/**
 * The `model` of the agent endpoints (`/v1/messages`, `/v1/responses`): `<provider>/<model>` as on
 * the other client endpoints, or a name that `MODEL_ALIASES` maps to one, so that an agent that
 * sends its own model names (Claude Code does, for its background calls too) is routed without
 * being reconfigured. Aliases are `name=target` pairs separated by commas; a name ending in `*`
 * matches every name it begins (the longest such prefix wins), `*` alone matches any name.
 * An exact name wins over a prefix. A name neither mapped nor `<provider>/<model>` goes to `bare`
 * (the protocol's own provider, when {@link bareNameProvider} gives it) under that name, else is a
 * 404 (`not_found`) saying how to name a model.
 */
export function agentModel(
  value: unknown,
  providers: readonly string[],
  aliases: string | undefined,
  bare?: string,
): { provider: string; model: string } {
  const target = typeof value === "string" ? resolveAlias(value, aliases) : undefined;
  if (target !== undefined) return providerModel(target, providers, "model");
  if (typeof value === "string" && value !== "" && !providers.includes(value.split("/")[0]!)) {
    if (bare !== undefined) return { provider: bare, model: value };
    throw new HttpError(404, {
      code: "not_found",
      message: `\`model\` names no model of this Worker: use <provider>/<model> (the provider one of: ${providers.join(", ")}), or a name mapped by the MODEL_ALIASES variable.`,
      field: "model",
    });
  }
  return providerModel(value, providers, "model");
}

/**
 * The provider that serves a model name without a provider (`claude-opus-5-5`, as Claude Code
 * sends it) on an agent endpoint: the protocol's own (`native`: Anthropic for Messages, OpenAI
 * Responses for Responses) when it has its key, so that the agent's own names reach it, or when
 * no provider has a key (offline, where the scripted model and the replay serve any name); else
 * none, and such a name must be mapped (`MODEL_ALIASES`) or written `<provider>/<model>`.
 */
export function bareNameProvider(env: Env, native: string): string | undefined {
  return !anyProviderKey(env) || providerTarget(upstreamProvider(native), env).live ? native : undefined;
}

/** The `<provider>/<model>` an alias maps `name` to, if any. */
export function resolveAlias(name: string, aliases: string | undefined): string | undefined {
  let best: { length: number; target: string } | undefined;
  for (const pair of (aliases ?? "").split(",")) {
    const at = pair.indexOf("=");
    if (at < 1) continue;
    const key = pair.slice(0, at).trim();
    const target = pair.slice(at + 1).trim();
    if (key === name) return target;
    if (key.endsWith("*") && name.startsWith(key.slice(0, -1)) && (best === undefined || key.length > best.length))
      best = { length: key.length, target };
  }
  return best?.target;
}

/** The names `MODEL_ALIASES` maps (without wildcards), for `GET /v1/models`. */
export function aliasNames(aliases: string | undefined): string[] {
  return (aliases ?? "")
    .split(",")
    .map((pair) => pair.slice(0, pair.indexOf("=")).trim())
    .filter((name) => name !== "" && !name.endsWith("*"));
}
