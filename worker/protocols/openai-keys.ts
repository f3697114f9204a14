/**
 * OpenAI's bookkeeping fields of a Chat Completions or Responses request: `prompt_cache_key`,
 * `prompt_cache_retention`, `prompt_cache_options`, `safety_identifier`, `store`, `metadata`,
 * `service_tier`, `user`. Each is checked as OpenAI checks it (a wrong type is a 400 naming the
 * field), by both routes; those an OpenAI upstream takes (all of them in openai-node's Chat and
 * Responses create params) go to one as `openaiKeys` (OpenAI Responses, and OpenAI Chat at
 * api.openai.com: a compatible server may refuse them); the other providers have no such fields
 * and get none. `store` is the request's own `store` instead, which the provider kits write (OpenAI
 * Responses and Gemini Interactions have one) and OpenAI Chat's builder at api.openai.com.
 * `service_tier` is checked but never sent: a tier bills the operator's key (`priority` at a
 * higher price), as the server tools are sent only when the deployment lists them.
 *
 * @module
 */
import { invalidField } from "../response/json-error.ts";
import { isObject, own } from "../request/json-fields.ts";
import type { JsonObject, StreamRequest } from "../request/stream-request.ts";

/** OpenAI's bounds of `metadata`: 16 pairs, keys up to 64 characters, values up to 512. */
const METADATA = { pairs: 16, key: 64, value: 512 } as const;
/** The longest `safety_identifier` and `prompt_cache_key` (the spec's and OpenAI's `maxLength`). */
export const MAX_KEY_LENGTH = 64;
/**
 * The service tiers taken: the spec's `ServiceTierEnum` (`auto`, `default`, `flex`, `priority`),
 * OpenAI's `scale`, and the AI SDK's `fast` and `ultrafast` (its `serviceTier` option's enum), so
 * that no client's tier becomes a 400 here; Codex sends `priority` or `flex`.
 */
export const SERVICE_TIERS = ["auto", "default", "flex", "priority", "scale", "fast", "ultrafast"] as const;
/** `prompt_cache_retention`'s values (openai-node's `'in_memory' | '24h'`; OpenAI first documented `in-memory`). */
const RETENTIONS = ["in_memory", "in-memory", "24h"] as const;

/**
 * The fields of `fields` (a Chat or Responses body) an OpenAI upstream takes, each checked, as
 * `openaiKeys`: `prompt_cache_key`, `prompt_cache_retention`, `prompt_cache_options`,
 * `safety_identifier`, `metadata` (OpenAI Chat takes it with `store: true` alone:
 * worker/upstream/providers/openai-chat.ts) and `user` (deprecated by OpenAI for the first and
 * fourth, still taken by both APIs), undefined when there is none to send; `store` apart, for the
 * request's own field; `service_tier` checked and not sent. `null` is absent.
 */
export function openAIKeysOf(
  fields: Record<string, unknown>,
): Pick<StreamRequest, "openaiKeys" | "store" | "promptCache"> {
  const given = (key: string): unknown => own(fields, key) ?? undefined;
  const store = given("store");
  if (store !== undefined && typeof store !== "boolean") throw invalidField("store", "`store` must be true or false.");
  const metadata = metadataOf(given("metadata"));
  oneOf(given("service_tier"), "service_tier", SERVICE_TIERS);
  const user = given("user");
  if (user !== undefined && typeof user !== "string") throw invalidField("user", "`user` must be a string.");
  const keys: JsonObject = {
    ...pair("prompt_cache_key", keyOf(given("prompt_cache_key"), "prompt_cache_key")),
    ...pair("prompt_cache_retention", oneOf(given("prompt_cache_retention"), "prompt_cache_retention", RETENTIONS)),
    ...pair("prompt_cache_options", cacheOptionsOf(given("prompt_cache_options"))),
    ...pair("safety_identifier", keyOf(given("safety_identifier"), "safety_identifier")),
    ...pair("metadata", metadata),
    ...pair("user", user),
  };
  const promptCache = promptCacheOf(keys);
  return {
    ...(Object.keys(keys).length > 0 && { openaiKeys: keys }),
    ...(store !== undefined && { store }),
    ...(promptCache && { promptCache }),
  };
}

/**
 * The prompt caching an OpenAI client asks for, for Anthropic, which caches only where a request
 * marks it (OpenAI caches every prompt's prefix unasked): a `prompt_cache_key` (Codex sends its
 * conversation's) or a retention past OpenAI's default, the longer kept as Anthropic's `1h`.
 */
function promptCacheOf(keys: JsonObject): StreamRequest["promptCache"] {
  const longer =
    keys["prompt_cache_retention"] === "24h" ||
    (keys["prompt_cache_options"] as Record<string, string> | undefined)?.["ttl"] === "30m";
  if (longer) return { type: "ephemeral", ttl: "1h" };
  return keys["prompt_cache_key"] !== undefined ? { type: "ephemeral" } : undefined;
}

/** `prompt_cache_options`' fields and values, openai-node's `PromptCacheOptions`: what OpenAI takes. */
const CACHE_OPTIONS: Readonly<Record<string, readonly string[]>> = { mode: ["implicit", "explicit"], ttl: ["30m"] };

/**
 * `prompt_cache_options` checked field by field (a 400 naming the one at fault), or undefined when
 * absent or empty. `mode: "explicit"` is left out: OpenAI then caches nothing but at a part's
 * `prompt_cache_breakpoint`, which the Worker does not carry (a message's parts become one text),
 * so it would cache nothing; without it OpenAI's implicit breakpoint (its default) caches the prefix.
 */
function cacheOptionsOf(value: unknown): Record<string, string> | undefined {
  if (value === undefined) return undefined;
  if (!isObject(value))
    throw invalidField("prompt_cache_options", "`prompt_cache_options` must be an object (`mode`, `ttl`).");
  for (const [key, option] of Object.entries(value)) {
    const field = `prompt_cache_options.${/^[A-Za-z0-9_]{1,64}$/.test(key) ? key : "(unprintable)"}`;
    const values = Object.hasOwn(CACHE_OPTIONS, key) ? CACHE_OPTIONS[key] : undefined;
    if (!values) throw invalidField(field, `\`prompt_cache_options\` has \`mode\` and \`ttl\` alone.`);
    oneOf(option ?? undefined, field, values);
  }
  const { mode, ...rest } = value as Record<string, string>;
  const sent = mode === "explicit" ? rest : (value as Record<string, string>);
  return Object.keys(sent).length > 0 ? sent : undefined;
}

const pair = (key: string, value: JsonObject[string] | undefined): JsonObject =>
  value === undefined ? {} : { [key]: value };

/** `value` when one of `values`, or undefined when absent; else a 400 naming `field`. */
export function oneOf(value: unknown, field: string, values: readonly string[]): string | undefined {
  if (value === undefined || (typeof value === "string" && values.includes(value))) return value;
  throw invalidField(field, `\`${field}\` must be ${values.join(" or ")}.`);
}

/** A string of at most {@link MAX_KEY_LENGTH} characters, or undefined when absent; else a 400 naming `field`. */
export function keyOf(value: unknown, field: string): string | undefined {
  if (value === undefined || (typeof value === "string" && value.length <= MAX_KEY_LENGTH)) return value;
  throw invalidField(field, `\`${field}\` must be a string of at most ${MAX_KEY_LENGTH} characters.`);
}

/** `metadata`: up to 16 string pairs, as OpenAI bounds it (kept with a stored response). */
export function metadataOf(value: unknown): Record<string, string> | undefined {
  if (value === undefined) return undefined;
  if (!isObject(value)) throw invalidField("metadata", "`metadata` must be an object of strings.");
  const entries = Object.entries(value);
  if (entries.length > METADATA.pairs)
    throw invalidField("metadata", `\`metadata\` holds at most ${METADATA.pairs} pairs.`);
  for (const [key, entry] of entries)
    if (key.length > METADATA.key || typeof entry !== "string" || entry.length > METADATA.value)
      throw invalidField(
        "metadata",
        `\`metadata\` keys are at most ${METADATA.key} characters and its values strings of at most ${METADATA.value}.`,
      );
  return Object.fromEntries(entries) as Record<string, string>;
}
