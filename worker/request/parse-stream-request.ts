import { PatternBudget, type ToolEntry } from "../../src/index.ts";
import { HttpError, invalidField } from "../response/json-error.ts";
import { parseMessages, requiredString, toolNameError } from "./parse-messages.ts";
import { parseReasoning } from "./parse-reasoning.ts";
import { parseSampling, SAMPLING_FIELDS } from "./parse-sampling.ts";
import { checkSearchModel } from "./search-models.ts";
import {
  boundedInteger,
  boundedNumber,
  checkParameters,
  isObject,
  misnamedSchema,
  own,
  tooDeep,
  tooDeepError,
} from "./json-fields.ts";
import type { JsonObject, StreamRequest, ToolChoice } from "./stream-request.ts";

/**
 * How many messages and tools one request may hold, and the tool names it takes.
 *
 * @example
 * ```ts
 * const request = parseStreamRequest(body, providerNames, { ...STREAM_BOUNDS, messages: 10 });
 * ```
 */
export interface RequestBounds {
  messages: number;
  tools: number;
  /** A tool name this request may hold: the client protocol's rule (the provider's is met later, worker/upstream/tool-names.ts). */
  toolName: RegExp;
  /** {@link toolName} in words, for the 400 of a name that breaks it. */
  toolNameRule: string;
  /**
   * A sampling setting the provider has no field for (worker/request/parse-sampling.ts): a 400
   * naming it, or left out where the clients are agents that send one by default.
   */
  unsupportedSampling: "refuse" | "omit";
}

/**
 * `/v1/stream`'s and `/v1/run`'s tool names (the intersection of what OpenAI, Anthropic and Gemini
 * take, as documented since the first release); a provider with a stricter rule (Cohere: no `-`)
 * gets a short name.
 */
const TOOL_NAME = /^[A-Za-z_][A-Za-z0-9_-]{0,63}$/;

/**
 * Bounds that keep one request from costing the Worker (or the provider bill) without limit.
 *
 * @example
 * ```ts
 * parseStreamRequest(body, providerNames, STREAM_BOUNDS); // the default
 * ```
 */
export const STREAM_BOUNDS: RequestBounds = {
  messages: 1000,
  tools: 128,
  toolName: TOOL_NAME,
  toolNameRule: "1 to 64 letters, digits, _ or -, starting with a letter or _",
  unsupportedSampling: "refuse",
};

/**
 * The agent endpoints' bounds: an agent sends its whole session every turn (Codex two items per
 * tool call, Claude Code some 40 tools and more with MCP servers), so a conversation there is
 * bounded by MAX_AGENT_BODY_BYTES first; these counts only stop a body of tiny entries. Their tool
 * names were checked by the protocol's own rule (Anthropic's 128 characters for Messages, OpenAI's
 * 64 for Responses), so here a name only has to fit the widest of the providers' rules; the model
 * call sends the provider a short name where its rule refuses one (worker/upstream/tool-names.ts).
 *
 * @example
 * ```ts
 * clientRequest(wire, undefined, providerNames, {}, rename, AGENT_BOUNDS);
 * ```
 */
export const AGENT_BOUNDS: RequestBounds = {
  messages: 100_000,
  tools: 1024,
  toolName: /^[A-Za-z0-9_.:-]{1,128}$/,
  toolNameRule: "1 to 128 letters, digits, _, -, . or :",
  // An agent sends sampling settings by default; stop sequences a provider has no field for the Worker applies.
  unsupportedSampling: "omit",
};
const FIELDS = new Set([
  "provider",
  "model",
  "messages",
  "tools",
  "tool_choice",
  "max_tokens",
  "temperature",
  ...SAMPLING_FIELDS,
  "reasoning",
  "container",
  "stream",
  "early_validation",
  "abort_on_violation",
]);
// Model ids of every supported vendor fit (`claude-sonnet-4-6`, `meta-llama/Llama-3.3-70B`,
// `qwen2.5-coder:7b`, `@cf/meta/llama-3.1-8b`); nothing that could change a URL's meaning does.
const MODEL = /^[A-Za-z0-9@._:/+-]{1,200}$/;

/**
 * The 400 of a `provider` missing or unknown. Without one, a `model` that begins with a provider's
 * name and `/` (Chat Completions' `openai/gpt-4o`) is the newcomer's likely mistake: the message
 * says `provider` is a field of its own, naming that provider (one of the Worker's names, never
 * the client's text).
 */
function unknownProvider(provider: unknown, model: unknown, providers: readonly string[]): HttpError {
  const slash = typeof model === "string" ? model.indexOf("/") : -1;
  const named = provider === undefined && slash > 0 ? (model as string).slice(0, slash) : undefined;
  const message =
    named !== undefined && providers.includes(named)
      ? `\`provider\` is a field of its own here: send \`"provider": "${named}"\` and \`model\` without its \`${named}/\` prefix (\`provider/model\` in \`model\` is Chat Completions' form).`
      : provider === undefined
        ? `\`provider\` is required: one of ${providers.join(", ")}.`
        : `\`provider\` must be one of: ${providers.join(", ")}.`;
  return new HttpError(400, { code: "unknown_provider", message, field: "provider" });
}

/**
 * Validates a parsed `POST /v1/stream` body against the documented shape (see
 * stream-request.ts) and normalizes it. Throws a 400 {@link HttpError} that names the field at
 * fault; messages never repeat the client's values.
 */
export function parseStreamRequest(
  body: unknown,
  providers: readonly string[],
  bounds: RequestBounds = STREAM_BOUNDS,
): StreamRequest {
  if (!isObject(body)) throw invalidField("", "The request body must be a JSON object.");
  const deep = tooDeep(body);
  if (deep !== undefined) throw tooDeepError(deep);
  for (const key of Object.keys(body)) {
    if (!FIELDS.has(key))
      throw new HttpError(400, {
        code: "unknown_field",
        message: "The request has a field this API does not know.",
        field: safeName(key),
      });
  }
  if (own(body, "stream") !== undefined && own(body, "stream") !== true)
    throw invalidField("stream", "`stream` can only be true: this endpoint always streams.");
  const provider = own(body, "provider");
  if (typeof provider !== "string" || !providers.includes(provider))
    throw unknownProvider(provider, own(body, "model"), providers);
  const model = own(body, "model");
  if (typeof model !== "string" || model === "")
    throw invalidField("model", "`model` is required: a model id such as gpt-4o-mini.");
  if (!MODEL.test(model) || model.includes(".."))
    throw invalidField("model", "`model` has characters no model id has.");
  // The model goes into the provider's URL path (Bedrock's /model/{id}/, Gemini's /models/{id}):
  // a `.` or empty segment there is normalized away and would shorten the path the Worker signs.
  if (model.split("/").some((segment) => segment === "" || segment === "."))
    throw invalidField("model", "`model` has an empty or `.` path segment, which no model id has.");
  checkSearchModel(provider, model); // a search model searches on the deployment's key: listed or refused
  const tools = parseTools(own(body, "tools"), bounds);
  const messages = parseMessages(own(body, "messages"), bounds, provider);
  const request: StreamRequest = { provider, model, messages, tools };
  if (own(body, "tool_choice") !== undefined) request.toolChoice = parseToolChoice(own(body, "tool_choice"), tools);
  if (own(body, "max_tokens") !== undefined)
    request.maxTokens = boundedInteger(own(body, "max_tokens"), "max_tokens", 1, 1_000_000);
  if (own(body, "temperature") !== undefined)
    request.temperature = boundedNumber(own(body, "temperature"), "temperature", 0, 2);
  const sampling = parseSampling(body, provider, bounds.unsupportedSampling);
  if (sampling) request.sampling = sampling;
  if (own(body, "reasoning") !== undefined) request.reasoning = parseReasoning(own(body, "reasoning"));
  const container = own(body, "container");
  if (container !== undefined) request.container = containerId(container);
  if (optionalBoolean(own(body, "early_validation"), "early_validation")) request.earlyValidation = true;
  if (optionalBoolean(own(body, "abort_on_violation"), "abort_on_violation")) {
    if (!request.earlyValidation)
      throw invalidField(
        "abort_on_violation",
        "`abort_on_violation` needs `early_validation: true`: a violation is only found while the arguments stream.",
      );
    request.abortOnViolation = true;
  }
  return request;
}

/** A container id: Anthropic's are `container_` and a few dozen letters and digits; the bound keeps a body's text small. */
function containerId(value: unknown): string {
  if (typeof value !== "string" || !/^[\w-]{1,256}$/.test(value))
    throw invalidField("container", "`container` must be a container id: 1 to 256 letters, digits, _ or -.");
  return value;
}

function parseTools(value: unknown, bounds: RequestBounds): ToolEntry[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) throw invalidField("tools", "`tools` must be an array.");
  if (value.length > bounds.tools) throw invalidField("tools", `\`tools\` has more than ${bounds.tools} entries.`);
  const patterns = new PatternBudget(); // one for the request's tools together
  const tools = value.map((tool, i) => parseTool(tool, `tools[${i}]`, bounds, patterns));
  const names = new Set(tools.map((tool) => tool.name));
  if (names.size !== tools.length) throw invalidField("tools", "Two tools have the same name.");
  return tools;
}

function parseTool(value: unknown, toolPath: string, bounds: RequestBounds, patterns: PatternBudget): ToolEntry {
  // The Chat Completions form nests the definition under `function`: its fields' paths do too.
  const nested = isObject(value) && own(value, "type") === "function" && isObject(own(value, "function"));
  const fn = nested ? own(value, "function") : value;
  const path = nested ? `${toolPath}.function` : toolPath;
  if (!isObject(fn)) throw invalidField(path, "Each tool must be an object.");
  const name = own(fn, "name");
  if (typeof name !== "string" || !bounds.toolName.test(name)) throw toolNameError(`${path}.name`, bounds);
  const raw = own(fn, "description");
  const description = raw === undefined ? undefined : requiredString(raw, `${path}.description`);
  const given = own(fn, "parameters");
  misnamedSchema(fn, path, "parameters");
  if (given !== undefined && !isObject(given))
    throw invalidField(`${path}.parameters`, "`parameters` must be a JSON Schema object.");
  if (given !== undefined) checkParameters(given, `${path}.parameters`, patterns);
  const parameters = (given ?? { type: "object", properties: {} }) as JsonObject;
  const eager = own(fn, "eager_input_streaming"); // Anthropic's per-tool fine-grained streaming
  if (eager !== undefined && typeof eager !== "boolean")
    throw invalidField(`${path}.eager_input_streaming`, "`eager_input_streaming` must be true or false.");
  const entry: ToolEntry = { name, ...(description !== undefined ? { description } : {}), parameters };
  return eager === undefined ? entry : { ...entry, eagerInputStreaming: eager };
}

function parseToolChoice(value: unknown, tools: readonly ToolEntry[]): ToolChoice {
  if (value === "auto" || value === "none") return { type: value };
  if (value === "required" || value === "any") {
    if (tools.length === 0) throw invalidField("tool_choice", "`tool_choice` requires a tool, but `tools` is empty.");
    return { type: "required" };
  }
  // `{ "name": "f" }`, or the Chat Completions form `{ "type": "function", "function": { "name": "f" } }`.
  const fn = isObject(value) ? own(value, "function") : undefined;
  const named = isObject(fn) ? own(fn, "name") : isObject(value) ? own(value, "name") : undefined;
  if (typeof named !== "string")
    throw invalidField("tool_choice", '`tool_choice` must be "auto", "none", "required" or { "name": ... }.');
  if (!tools.some((tool) => tool.name === named))
    throw invalidField("tool_choice", "`tool_choice` names a tool that is not in `tools`.");
  return { type: "tool", name: named };
}

function optionalBoolean(value: unknown, field: string): boolean {
  if (value !== undefined && typeof value !== "boolean")
    throw invalidField(field, `\`${field}\` must be true or false.`);
  return value === true;
}

/** A field name fit to repeat in an error: short and plain, else a placeholder. */
function safeName(key: string): string {
  return /^[A-Za-z0-9_.-]{1,64}$/.test(key) ? key : "(unprintable)";
}
