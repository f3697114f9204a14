import { HttpError, invalidField } from "../response/json-error.ts";

/**
 * Reads the `model` of the client protocols, `<provider>/<model>` with the Worker's provider
 * names (`anthropic/claude-sonnet-4-5`, `gemini/gemini-2.5-flash`, `openai/gpt-4o-mini`): the
 * provider is everything before the first `/`, the model the rest (which may hold slashes, as
 * `openai/meta-llama/Llama-3.3-70B` for an OpenAI-compatible server does). The model id itself is
 * checked later with the rules of `POST /v1/stream`. Messages never repeat the client's value.
 */
export function providerModel(
  value: unknown,
  providers: readonly string[],
  field = "model",
): { provider: string; model: string } {
  const shape = `<provider>/<model>, the provider one of: ${providers.join(", ")} (as in ${providers[0]}/gpt-4o-mini)`;
  if (typeof value !== "string" || value === "") throw invalidField(field, `\`${field}\` is required: ${shape}.`);
  const slash = value.indexOf("/");
  const provider = slash < 0 ? value : value.slice(0, slash);
  if (!providers.includes(provider))
    throw new HttpError(400, {
      code: "unknown_provider",
      message: `\`${field}\` names no provider of this Worker: use ${shape}.`,
      field,
    });
  if (slash === value.length - 1 || slash < 0) throw invalidField(field, `\`${field}\` must be ${shape}.`);
  return { provider, model: value.slice(slash + 1) };
}
