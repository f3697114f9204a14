import { anyProviderKey, type Env, type ModelAlias } from "../env.ts";
import { HttpError } from "../response/json-error.ts";
import { upstreamProvider } from "../upstream/providers/index.ts";
import { providerTarget } from "../upstream/providers/target.ts";
import { providerModel, resolveAlias } from "./provider-model.ts";

/**
 * The `model` of the agent endpoints (`/v1/messages`, `/v1/responses`): `<provider>/<model>` as on
 * the other client endpoints, or a name that `MODEL_ALIASES` maps to one, so that an agent that
 * sends its own model names (Claude Code does, for its background calls too) is routed without
 * being reconfigured. A name ending in `*` matches every name it begins (the longest such prefix
 * wins), `*` alone matches any name; an exact name wins over a prefix. The pairs were checked when
 * the settings were read (../env.ts), so a bad target never becomes a 400 blaming the client. A name
 * without a `/` that is not mapped goes to `bare` (the protocol's own provider, when
 * {@link bareNameProvider} gives it) under that name, else is a 404 (`not_found`) saying how to
 * name a model. A name with a `/` is `<provider>/<model>`: an unknown provider (`nope/x`) is the
 * 400 `unknown_provider` at `model` of the other endpoints, never a bare name sent upstream.
 */
export function agentModel(
  value: unknown,
  providers: readonly string[],
  aliases: readonly ModelAlias[],
  bare?: string,
): { provider: string; model: string } {
  const alias = typeof value === "string" ? resolveAlias(value, aliases) : undefined;
  if (alias !== undefined) return { provider: alias.provider, model: alias.model };
  if (typeof value === "string" && value !== "" && !value.includes("/") && !providers.includes(value)) {
    if (bare !== undefined) return { provider: bare, model: value };
    throw new HttpError(404, {
      code: "not_found",
      message: `\`model\` names no model of this Worker: use <provider>/<model> (the provider one of: ${providers.join(", ")}), or a name mapped by the MODEL_ALIASES variable.`,
      field: "model",
    });
  }
  return providerModel(value, providers, "model", bare, aliases);
}

/**
 * The provider that serves a model name without a provider (`claude-opus-5-5`, as Claude Code
 * sends it) on an agent endpoint: the protocol's own (`native`: Anthropic for Messages, OpenAI
 * Responses for Responses) when it has its key, so that the agent's own names reach it, or when
 * no provider has a key (offline, where the scripted model and the replay serve any name); else
 * none, and such a name must be mapped (`MODEL_ALIASES`) or written `<provider>/<model>`.
 */
export function bareNameProvider(env: Env, native: string): string | undefined {
  const known = bareOf.get(env);
  if (known?.has(native)) return known.get(native);
  const bare = !anyProviderKey(env) || providerTarget(upstreamProvider(native), env).live ? native : undefined;
  if (known === undefined) bareOf.set(env, new Map([[native, bare]]));
  else known.set(native, bare);
  return bare;
}

/**
 * {@link bareNameProvider}'s answer for each bindings object and protocol: workerd hands every
 * request of an isolate the same bindings, whose variables never change, so the keys are looked at
 * once, not on every request of a protocol (a name with its provider never needs them). A setting
 * that fails is not kept: every request still meets its `SettingsError`.
 */
const bareOf = new WeakMap<Env, Map<string, string | undefined>>();

/** The names `MODEL_ALIASES` maps (without wildcards), for `GET /v1/models`. */
export function aliasNames(aliases: readonly ModelAlias[]): string[] {
  return aliases.map((alias) => alias.name).filter((name) => !name.endsWith("*"));
}
