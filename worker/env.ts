/**
 * The Worker's bindings (wrangler.toml `[vars]` and secrets) and the settings read from them.
 *
 * @module
 */
import { PROVIDERS } from "../src/index.ts";

/** Bindings. Secrets are set with `wrangler secret put NAME` (or `.dev.vars` locally). */
export interface Env {
  /** Secret: the bearer token clients must send. */
  CLIENT_TOKEN?: string;
  /**
   * `"true"`: without `CLIENT_TOKEN`, answer requests without a token while no provider key (nor
   * `OLLAMA_BASE_URL`) is set, so every answer is a replay. `npm start` sets it; never deploy it.
   */
  OPEN_ACCESS?: string;
  /**
   * Secret: the key that signs response ids (HMAC-SHA-256), so only ids this Worker minted reach a
   * Durable Object. Unset, each isolate makes its own, and an id holds only in its isolate.
   */
  RESPONSE_ID_SECRET?: string;
  /** Secret: key for `openai` and `openai-responses`. */
  OPENAI_API_KEY?: string;
  /** Secret: key for `anthropic`. */
  ANTHROPIC_API_KEY?: string;
  /** Secret: key for `gemini`. */
  GEMINI_API_KEY?: string;
  /** Secret: key for `cohere`. */
  COHERE_API_KEY?: string;
  /** Secret: the access key id that signs `bedrock` requests (with `AWS_SECRET_ACCESS_KEY`). */
  AWS_ACCESS_KEY_ID?: string;
  /** Secret: the secret access key that signs `bedrock` requests. */
  AWS_SECRET_ACCESS_KEY?: string;
  /** Secret: the session token of temporary AWS credentials, if they are. */
  AWS_SESSION_TOKEN?: string;
  /** Secret: a bearer token for an Ollama server behind authentication (ollama.com, a proxy); optional. */
  OLLAMA_API_KEY?: string;
  /** Base URL of the OpenAI API or of any OpenAI-compatible server (Groq, DeepSeek, vLLM, Ollama, ...). */
  OPENAI_BASE_URL?: string;
  /** Base URL of the Anthropic API. */
  ANTHROPIC_BASE_URL?: string;
  /** Base URL of the Gemini API. */
  GEMINI_BASE_URL?: string;
  /** Base URL of the Cohere v2 API. */
  COHERE_BASE_URL?: string;
  /** The AWS region of `bedrock` (`us-east-1`, `eu-central-1`, ...). */
  AWS_REGION?: string;
  /** Base URL of Bedrock Runtime when not the region's own (a VPC or FIPS endpoint). */
  BEDROCK_BASE_URL?: string;
  /**
   * Base URL of the Ollama server (`http://localhost:11434`). Ollama takes no key, so this is what
   * makes `ollama` call a real server; unset, the replay answers.
   */
  OLLAMA_BASE_URL?: string;
  /** Origins allowed to call the API from a browser, comma-separated, or `*`. Same-origin always works. */
  CORS_ALLOW_ORIGINS?: string;
  /**
   * The `anthropic-beta` values a Messages client may turn on at an Anthropic upstream,
   * comma-separated (`fine-grained-tool-streaming-2025-05-14,interleaved-thinking-2025-05-14`):
   * a beta can cost the operator (long context, paid tools), so any other is dropped. Unset: none.
   */
  ANTHROPIC_BETAS?: string;
  /**
   * The Anthropic server tools a Messages client may use at an Anthropic upstream, by kind (the
   * tool's `type` without its date), comma-separated (`web_search,web_fetch,code_execution`): they
   * run on Anthropic's side and bill the operator's key, so any other is dropped (a `tool_choice`
   * naming one is a 400). With any listed, a `container`'s `skills` are forwarded too. Unset: none.
   */
  ANTHROPIC_SERVER_TOOLS?: string;
  /**
   * OpenAI's hosted tools (`web_search`: its Chat search models too) a client may use on the operator's key, by kind,
   * comma-separated (`web_search,mcp,tool_search,programmatic_tool_calling,shell`; worker/README.md); others dropped. Unset: none.
   */
  OPENAI_SERVER_TOOLS?: string;
  /**
   * The storage a client's file URL may name, as URL prefixes, comma-separated
   * (`s3://my-bucket/docs/,gs://my-bucket/`): Bedrock reads `s3://` with the Worker's AWS key and
   * Gemini `gs://` and its Files API's URLs with its project, so any other is a 400. Each is a
   * scheme and bucket, and a path ending in `/`. Unset: none.
   */
  ALLOWED_STORAGE_URLS?: string;
  /** Largest request body, in bytes. */
  MAX_BODY_BYTES?: string | number;
  /**
   * Largest request body of the agent endpoints (`/v1/messages`, `/v1/responses`), in bytes: an
   * agent sends its whole session every turn (Claude Code's first request is about 49 KB).
   */
  MAX_AGENT_BODY_BYTES?: string | number;
  /**
   * Model names the agent endpoints, `/v1/chat/completions` and an Azure deployment map to
   * `<provider>/<model>`, comma-separated `name=target` pairs
   * (`claude-sonnet-4-6=openai/gpt-5,claude-haiku-*=gemini/gemini-2.5-flash`); a name ending in `*`
   * matches every name it begins, and `*` alone every name not matched before.
   */
  MODEL_ALIASES?: string;
  /** Most tool calls in one response. */
  MAX_TOOL_CALLS?: string | number;
  /** Largest arguments text of one call, in characters (UTF-16 code units). */
  MAX_ARGUMENTS_LENGTH?: string | number;
  /** Largest message of the provider (an SSE event, an NDJSON line, an AWS event-stream message), in characters or bytes. */
  MAX_EVENT_LENGTH?: string | number;
  /** Largest text (and reasoning) a non-streaming Chat Completion collects, in characters (UTF-16 units, as every size limit here). */
  MAX_COMPLETION_LENGTH?: string | number;
  /** Longest wait for the provider's headers or its next chunk, in milliseconds. */
  IDLE_TIMEOUT_MS?: string | number;
  /** Longest a whole response may take (every model call and tool of a run included), in milliseconds. */
  MAX_RESPONSE_MS?: string | number;
  /** Mean delay between the events of a replayed recording, in milliseconds (0: no pacing). */
  REPLAY_DELAY_MS?: string | number;
  /** Durable Objects that keep each response's events for resume; absent: streams are not resumable. */
  RESPONSES?: DurableObjectNamespace;
  /** How long a response keeps running with no client attached, in milliseconds. */
  DETACHED_LIMIT_MS?: string | number;
  /** How long a finished response can still be resumed, in milliseconds. */
  RESUME_TTL_MS?: string | number;
  /** Most events kept per response for resume. */
  RESUME_MAX_EVENTS?: string | number;
  /** Most bytes of events kept per response for resume. */
  RESUME_MAX_BYTES?: string | number;
  /** Most bytes (UTF-16 units) of events an isolate's running resumable responses hold in memory, together. */
  RESUME_MEMORY_BYTES?: string | number;
  /** How many `RESPONSES` objects per location share the resumable responses (1 to 1000). */
  RESPONSE_OBJECTS?: string | number;
  /** Least milliseconds between two writes of a streamed answer's body (0 to 1000; 0: every network chunk). */
  WRITE_WINDOW_MS?: string | number;
  /** How long a stored `/v1/responses` response (`store`, `previous_response_id`) is kept, in milliseconds. */
  STORE_TTL_MS?: string | number;
  /** Largest stored `/v1/responses` response (its input and output as JSON, UTF-8 bytes); a larger one is not stored. */
  MAX_STORED_RESPONSE_BYTES?: string | number;
  /** Most bytes the stored `/v1/responses` responses of one `RESPONSES` object take together (2 per UTF-16 unit). */
  MAX_STORED_BYTES_PER_OBJECT?: string | number;
  /**
   * Least milliseconds between two writes of a resumable response's log (0 to 1000): each a billed
   * row and a chunk to its clients; the first events, and any after a pause this long, at once.
   */
  RESUME_WRITE_WINDOW_MS?: string | number;
}

/** The secrets that hold provider keys and credentials. */
export const PROVIDER_KEY_VARS = [
  "OPENAI_API_KEY",
  "ANTHROPIC_API_KEY",
  "GEMINI_API_KEY",
  "COHERE_API_KEY",
  "AWS_ACCESS_KEY_ID",
  "AWS_SECRET_ACCESS_KEY",
  "AWS_SESSION_TOKEN",
  "OLLAMA_API_KEY",
] as const;

/** The name of a provider key secret. */
export type ProviderKeyVar = (typeof PROVIDER_KEY_VARS)[number];

/** True when any provider key (served or not) or an Ollama server is set: `OPEN_ACCESS` never meets a real provider. */
export function anyProviderKey(env: Env): boolean {
  return [...PROVIDER_KEY_VARS, "OLLAMA_BASE_URL" as const].some((name) => nonEmpty(env[name]) !== undefined);
}

/** The settings, parsed and checked, but those read before the client is let in (./http/auth.ts, ./http/cors.ts). */
export interface Settings extends Record<keyof typeof NUMBERS, number> {
  /** `RESPONSE_ID_SECRET`, when set. */
  responseIdSecret: string | undefined;
  /** `ANTHROPIC_BETAS`: the `anthropic-beta` values forwarded to Anthropic. */
  anthropicBetas: ReadonlySet<string>;
  /** `ANTHROPIC_SERVER_TOOLS`, `OPENAI_SERVER_TOOLS`: the server tool kinds forwarded to each provider. */
  anthropicServerTools: ReadonlySet<string>;
  openaiServerTools: ReadonlySet<string>;
  /** `ALLOWED_STORAGE_URLS`, as listed: checked where a file is read (worker/request/storage-urls.ts). */
  allowedStorageUrls: readonly string[];
  modelAliases: readonly ModelAlias[];
}

/** A `MODEL_ALIASES` pair: a model name a client sends (a `*` ending it: every name it begins) and its target. */
export type ModelAlias = { name: string; provider: string; model: string };

/** The kinds each `*_SERVER_TOOLS` may list: the server tools the Worker forwards (Anthropic's: `type` less its date). */
export const SERVER_TOOL_KINDS = {
  ANTHROPIC_SERVER_TOOLS: "web_search,web_fetch,code_execution,tool_search_tool_regex,tool_search_tool_bm25,advisor",
  OPENAI_SERVER_TOOLS: "web_search,mcp,tool_search,programmatic_tool_calling,shell",
} as const;

/** Each number's variable, default (unset or empty) and bounds. */
const NUMBERS = {
  maxBodyBytes: ["MAX_BODY_BYTES", 256 * 1024, 1],
  maxAgentBodyBytes: ["MAX_AGENT_BODY_BYTES", 8 * 1024 * 1024, 1],
  maxToolCalls: ["MAX_TOOL_CALLS", 64, 1],
  maxArgumentsLength: ["MAX_ARGUMENTS_LENGTH", 256 * 1024, 1],
  maxEventLength: ["MAX_EVENT_LENGTH", 1024 * 1024, 1],
  maxCompletionLength: ["MAX_COMPLETION_LENGTH", 1024 * 1024, 1],
  idleTimeoutMs: ["IDLE_TIMEOUT_MS", 120_000, 1],
  maxResponseMs: ["MAX_RESPONSE_MS", 600_000, 1],
  replayDelayMs: ["REPLAY_DELAY_MS", 40, 0],
  detachedLimitMs: ["DETACHED_LIMIT_MS", 120_000, 0],
  resumeTtlMs: ["RESUME_TTL_MS", 300_000, 0],
  resumeMaxEvents: ["RESUME_MAX_EVENTS", 20_000, 1],
  resumeMaxBytes: ["RESUME_MAX_BYTES", 8 * 1024 * 1024, 1],
  resumeMemoryBytes: ["RESUME_MEMORY_BYTES", 32 * 1024 * 1024, 1],
  responseObjects: ["RESPONSE_OBJECTS", 16, 1, 1000],
  writeWindowMs: ["WRITE_WINDOW_MS", 25, 0, 1000],
  resumeWriteWindowMs: ["RESUME_WRITE_WINDOW_MS", 100, 0, 1000],
  storeTtlMs: ["STORE_TTL_MS", 30 * 24 * 60 * 60 * 1000, 1],
  maxStoredResponseBytes: ["MAX_STORED_RESPONSE_BYTES", 2 * 1024 * 1024, 1, 32 * 1024 * 1024],
  maxStoredBytesPerObject: ["MAX_STORED_BYTES_PER_OBJECT", 1024 * 1024 * 1024, 1, 8 * 1024 * 1024 * 1024],
} as const satisfies Record<string, readonly [NumericVar, number, number, number?]>;

/** Defaults for variables that are not set. */
export const DEFAULT_SETTINGS = Object.fromEntries(
  Object.entries(NUMBERS).map(([key, [, fallback]]) => [key, fallback]),
) as { readonly [Key in keyof typeof NUMBERS]: number };

/** A variable that is set to a value the Worker cannot use. */
export class SettingsError extends Error {
  /** The variable (or variables) at fault: all a client may read of it. */
  readonly setting: string;
  /** `setting` and what it must be (`"must be an integer of at least 1."`); never a value that may be a secret. */
  constructor(setting: string, requirement: string) {
    super(`${setting} ${requirement}`);
    this.name = "SettingsError";
    this.setting = setting;
  }
}

/** Reads the settings once the client is authenticated (./http/auth.ts); a bad variable is a {@link SettingsError}. */
export function readSettings(env: Env): Settings {
  openAccess(env); // Read as closed when malformed before the client is let in; a client let in is told.
  return {
    responseIdSecret: nonEmpty(env.RESPONSE_ID_SECRET),
    anthropicBetas: new Set(commaList(env.ANTHROPIC_BETAS)),
    anthropicServerTools: serverToolKinds(env, "ANTHROPIC_SERVER_TOOLS", "Anthropic"),
    openaiServerTools: serverToolKinds(env, "OPENAI_SERVER_TOOLS", "OpenAI"),
    allowedStorageUrls: commaList(env.ALLOWED_STORAGE_URLS),
    modelAliases: modelAliases(env.MODEL_ALIASES),
    ...(Object.fromEntries(
      Object.entries(NUMBERS).map(([key, [name, fallback, min, max]]) => [key, integer(env, name, fallback, min, max)]),
    ) as Record<keyof typeof NUMBERS, number>),
  };
}

/** The items of a comma-separated variable, trimmed, the blank ones left out. */
export function commaList(value: string | undefined): string[] {
  return (value ?? "").split(",").flatMap((item) => (item.trim() === "" ? [] : [item.trim()]));
}

/** A secret or variable that is set and not blank. */
export function nonEmpty(value: string | undefined): string | undefined {
  return value !== undefined && value.trim() !== "" ? value : undefined;
}

/** `OPEN_ACCESS`, `"true"` or `"false"` (unset or empty: false); anything else is a {@link SettingsError}. */
export function openAccess(env: Env): boolean {
  const raw = env.OPEN_ACCESS?.trim() ?? "";
  if (raw === "" || raw === "false") return false;
  if (raw === "true") return true;
  throw new SettingsError("OPEN_ACCESS", 'must be "true" or "false".');
}

/** `MODEL_ALIASES`, each pair checked now: named by a client, a bad target was a 400 blaming its `model`. */
function modelAliases(value: string | undefined): ModelAlias[] {
  const aliases: ModelAlias[] = [];
  for (const pair of commaList(value)) {
    const bad = (why: string) => new SettingsError("MODEL_ALIASES", `has ${JSON.stringify(pair)}, ${why}`);
    const [at, slash] = [pair.indexOf("="), pair.indexOf("/", pair.indexOf("="))];
    const name = pair.slice(0, at).trim();
    const [provider, model] = [pair.slice(at + 1, slash).trim(), pair.slice(slash + 1).trim()];
    if (at < 1) throw bad("which is not name=<provider>/<model> (pairs separated by commas).");
    if (name.slice(0, -1).includes("*")) throw bad("whose name has a `*` other than one at its end (a prefix).");
    if (aliases.some((alias) => alias.name === name)) throw bad(`which maps ${name} twice.`);
    if (slash < 0 || model === "" || !(PROVIDERS as readonly string[]).includes(provider))
      throw bad(`whose target is not <provider>/<model>, the provider one of ${PROVIDERS.join(", ")}.`);
    aliases.push({ name, provider, model });
  }
  return aliases;
}

/** A `*_SERVER_TOOLS` list, each kind one of {@link SERVER_TOOL_KINDS}. */
function serverToolKinds(env: Env, name: keyof typeof SERVER_TOOL_KINDS, runner: string): Set<string> {
  const [known, kinds] = [commaList(SERVER_TOOL_KINDS[name]), commaList(env[name])];
  for (const kind of kinds) {
    const undated = kind.replace(/_\d{8}$/, "");
    if (known.includes(kind)) continue;
    const why = known.includes(undated)
      ? `a tool type: list its kind, the type without its date (${undated}).`
      : `no server tool ${runner} runs that this Worker forwards: one of ${known.join(", ")}.`;
    throw new SettingsError(name, `has ${JSON.stringify(kind.slice(0, 200))}, ${why}`);
  }
  return new Set(kinds);
}

/** The variables that hold a number (typed `string | number`: wrangler.toml may give either). */
type NumericVar = { [Name in keyof Env]-?: number extends Env[Name] ? Name : never }[keyof Env];

function integer(env: Env, name: NumericVar, fallback: number, min: number, max = Number.MAX_SAFE_INTEGER): number {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = typeof raw === "number" ? raw : Number(raw.trim());
  if (Number.isSafeInteger(value) && value >= min && value <= max) return value;
  const range = max === Number.MAX_SAFE_INTEGER ? `of at least ${min}` : `from ${min} to ${max}`;
  throw new SettingsError(name, `must be an integer ${range}.`);
}
