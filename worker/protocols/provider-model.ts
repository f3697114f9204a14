import type { ModelAlias } from "../env.ts";
import { HttpError, invalidField } from "../response/json-error.ts";

/**
 * Reads the `model` of the client protocols, `<provider>/<model>` with the Worker's provider
 * names (`anthropic/claude-sonnet-4-6`, `gemini/gemini-2.5-flash`, `openai/gpt-4o-mini`): the
 * provider is everything before the first `/`, the model the rest (which may hold slashes, as
 * `openai/meta-llama/Llama-3.3-70B` for an OpenAI-compatible server does). The model id itself is
 * checked later with the rules of `POST /v1/stream`. Messages never repeat the client's value.
 * A name a pair of `aliases` (`MODEL_ALIASES`) maps goes where it maps first ({@link resolveAlias}),
 * save that `*` alone never takes a name of one of `providers`.
 * With `bare`, a name without a `/` is that provider's model. A message about a missing or
 * malformed name says every form taken: a name alone with `bare`, one `MODEL_ALIASES` maps when
 * `aliases` has any, so that it never sends a client away from a name it could use.
 */
export function providerModel(
  value: unknown,
  providers: readonly string[],
  field = "model",
  bare?: string,
  aliases: readonly ModelAlias[] = [],
): { provider: string; model: string } {
  const alias = typeof value === "string" ? resolveAlias(value, aliases) : undefined;
  // `*` alone, the agents' catch-all, never takes a name that names one of the providers
  // (`openai/gpt-4o`): that is the client's own choice, which it served before any alias.
  const at = typeof value === "string" ? value.indexOf("/") : -1;
  const named = at > 0 && providers.includes((value as string).slice(0, at));
  if (alias !== undefined && !(alias.name === "*" && named)) return { provider: alias.provider, model: alias.model };
  const aliased = aliases.length > 0;
  // A name without a provider (`gpt-4o-mini`) goes to the protocol's own provider when the caller
  // may serve it so (agent-model.ts bareNameProvider: offline, or with that provider's key).
  if (bare !== undefined && typeof value === "string" && value !== "" && !value.includes("/"))
    return providers.includes(value)
      ? providerModel(`${value}/`, providers, field, bare, aliases)
      : { provider: bare, model: value };
  // The forms taken, written only for an error: a request that names its model well never needs them.
  const shape = (): string =>
    [
      `<provider>/<model>, the provider one of: ${providers.join(", ")} (as in ${providers[0]}/gpt-4o-mini)`,
      ...(bare === undefined ? [] : [`or a model name alone, which ${bare} serves`]),
      ...(aliased ? ["or a name the MODEL_ALIASES variable maps"] : []),
    ].join(", ");
  if (typeof value !== "string" || value === "") throw invalidField(field, `\`${field}\` is required: ${shape()}.`);
  const slash = value.indexOf("/");
  const provider = slash < 0 ? value : value.slice(0, slash);
  if (!providers.includes(provider))
    throw new HttpError(400, {
      code: "unknown_provider",
      message: `\`${field}\` names no provider of this Worker: use ${shape()}.`,
      field,
    });
  if (slash === value.length - 1 || slash < 0) throw invalidField(field, `\`${field}\` must be ${shape()}.`);
  return { provider, model: value.slice(slash + 1) };
}

/**
 * The pair of `MODEL_ALIASES` that maps `name`, if any: the exact name, else the longest `prefix*`,
 * else `*`.
 *
 * @example
 * ```ts
 * resolveAlias("fast", settings.modelAliases); // { name: "fast", provider: "anthropic", model: "claude-haiku-4-5" }
 * ```
 */
export function resolveAlias(name: string, aliases: readonly ModelAlias[]): ModelAlias | undefined {
  let best: ModelAlias | undefined;
  for (const alias of aliases) {
    if (alias.name === name) return alias;
    const prefix = alias.name.endsWith("*") ? alias.name.slice(0, -1) : undefined;
    if (prefix !== undefined && name.startsWith(prefix) && (best === undefined || alias.name.length > best.name.length))
      best = alias;
  }
  return best;
}
