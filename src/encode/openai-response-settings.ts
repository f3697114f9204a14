/**
 * The settings a Responses response object repeats from its request: Open Responses'
 * `ResponseResource` requires every one of them ("All fields not marked nullable MUST have a value.
 * Use zero values where applicable"), in `response.created`, every later snapshot and the final
 * object.
 *
 * @module
 */

/** A tool as the response lists it: a `function` tool with its four fields, or another type as the request gave it. */
export type OpenAIResponseTool =
  | {
      /** A function the model may call. */
      type: "function";
      /** Its name. */
      name: string;
      /** Its description, or `null`. */
      description: string | null;
      /** Its JSON Schema, or `null`. */
      parameters: { [key: string]: unknown } | null;
      /** Whether the provider was asked for strict arguments, or `null`. */
      strict: boolean | null;
    }
  | {
      /** Another tool type (a `custom` free-text tool, ...), as the request gave it. */
      type: string;
      /** Its other fields. */
      [field: string]: unknown;
    };

/** The `text` setting: the output format, and the verbosity when the request gave one. */
export interface OpenAIResponseText {
  /** `{type: "text"}`, `{type: "json_object"}` or a `json_schema` format. */
  format: { type: string; [field: string]: unknown };
  /** `low`, `medium` or `high`, when given. */
  verbosity?: string;
}

/** Every setting of a response object that comes from its request, in the API's snake_case. */
export interface OpenAIResponseSettings {
  /** The response this one continues, or `null`. */
  previous_response_id: string | null;
  /** The request's `instructions`, or `null`. */
  instructions: string | null;
  /** The tools offered to the model. */
  tools: OpenAIResponseTool[];
  /** `auto`, `none`, `required`, or the request's object (`{type: "function", name}`, `{type: "allowed_tools", ...}`). */
  tool_choice: string | { type: string; [field: string]: unknown };
  /** `auto` or `disabled`. */
  truncation: string;
  /** Whether the model may make several calls at once. */
  parallel_tool_calls: boolean;
  /** The output format. */
  text: OpenAIResponseText;
  /** Nucleus sampling. */
  top_p: number;
  /** Presence penalty. */
  presence_penalty: number;
  /** Frequency penalty. */
  frequency_penalty: number;
  /** How many most likely tokens each position reports. */
  top_logprobs: number;
  /** Sampling temperature. */
  temperature: number;
  /** The reasoning setting, or `null`. */
  reasoning: { effort: string | null; summary: string | null } | null;
  /** The longest answer in tokens, or `null`. */
  max_output_tokens: number | null;
  /** The most calls of built-in tools, or `null`. */
  max_tool_calls: number | null;
  /** Whether the server keeps the response for `previous_response_id` and `GET`. */
  store: boolean;
  /** Whether the response runs in the background. */
  background: boolean;
  /** The processing tier. */
  service_tier: string;
  /** The request's metadata: up to 16 string pairs. */
  metadata: { [key: string]: string };
  /** The request's `safety_identifier`, or `null`. */
  safety_identifier: string | null;
  /** The request's `prompt_cache_key`, or `null`. */
  prompt_cache_key: string | null;
}

/**
 * The settings of a response whose request gave none: the spec's zero values, and OpenAI's own
 * defaults where a zero would misstate the sampling (`temperature` and `top_p` 1).
 *
 * @example
 * ```ts
 * const response = { ...RESPONSE_SETTINGS_DEFAULTS, temperature: 0.2 };
 * ```
 */
export const RESPONSE_SETTINGS_DEFAULTS: Readonly<OpenAIResponseSettings> = Object.freeze({
  previous_response_id: null,
  instructions: null,
  tools: [],
  tool_choice: "auto",
  truncation: "disabled",
  parallel_tool_calls: true,
  text: { format: { type: "text" } },
  top_p: 1,
  presence_penalty: 0,
  frequency_penalty: 0,
  top_logprobs: 0,
  temperature: 1,
  reasoning: null,
  max_output_tokens: null,
  max_tool_calls: null,
  store: false,
  background: false,
  service_tier: "default",
  metadata: {},
  safety_identifier: null,
  prompt_cache_key: null,
});

/** The defaults with what `settings` gives (fields set to `undefined` keep their default), copied. */
export function responseSettings(
  settings: { readonly [K in keyof OpenAIResponseSettings]?: OpenAIResponseSettings[K] | undefined } | undefined,
): OpenAIResponseSettings {
  const out: Record<string, unknown> = { ...RESPONSE_SETTINGS_DEFAULTS };
  for (const [key, value] of Object.entries(settings ?? {})) if (value !== undefined) out[key] = value;
  // Each object value copied (the defaults' `tools`, `text` and `metadata` included), so the
  // response shares nothing with the caller's settings or another response: by hand, as these are
  // JSON values, at a fraction of `structuredClone`'s cost per response (its serializer's set-up).
  for (const key in out) out[key] = copied(out[key]);
  return out as unknown as OpenAIResponseSettings;
}

/** A deep copy of a JSON value (arrays and objects copied, anything else as it is). */
function copied(value: unknown): unknown {
  if (typeof value !== "object" || value === null) return value;
  if (Array.isArray(value)) return value.map(copied);
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const item = copied((value as Record<string, unknown>)[key]);
    // A JSON `__proto__` key (a client's schema may hold one) stays an own property.
    if (key === "__proto__")
      Object.defineProperty(out, key, { value: item, enumerable: true, writable: true, configurable: true });
    else out[key] = item;
  }
  return out;
}
