import { ollamaFormat } from "../../request/output-format.ts";
import { nonEmpty, type Env } from "../../env.ts";
import { ollamaRecordings } from "../replay/recordings/ollama.ts";
import type { StreamRequest } from "../../request/stream-request.ts";
import { requestBody } from "./request-body.ts";
import type {
  ProviderCredentials,
  ProviderHttpRequest,
  ProviderTarget,
  ToolNameRule,
  UpstreamProvider,
} from "./upstream-provider.ts";

// Ollama documents no rule (the model's chat template reads the name): names go as the agent
// protocols take them, Anthropic's rule being the widest; anything else (an AI SDK or AG-UI name
// with a space or a dot) goes short, as a template may not expect it.
const OLLAMA_NAMES: ToolNameRule = { maxLength: 128, char: /[A-Za-z0-9_-]/, first: /[A-Za-z0-9_-]/ };

/**
 * Ollama's native chat API (`POST /api/chat`), streaming NDJSON. Ollama takes no key: setting
 * `OLLAMA_BASE_URL` is what makes the Worker call it (`OLLAMA_API_KEY` adds a bearer token, for
 * a server behind authentication); unset, the replay answers.
 */
export const ollama: UpstreamProvider<"ollama"> = {
  protocol: "ollama",
  keyVar: "OLLAMA_API_KEY",
  baseUrlVar: "OLLAMA_BASE_URL",
  defaultBaseUrl: "http://localhost:11434",
  credentials: ollamaCredentials,
  buildRequest: buildOllamaRequest,
  toolNames: OLLAMA_NAMES,
  recordings: ollamaRecordings,
};

/** Configured when `OLLAMA_BASE_URL` is set, with the optional key. */
export function ollamaCredentials(env: Env): ProviderCredentials | undefined {
  if (nonEmpty(env.OLLAMA_BASE_URL) === undefined) return undefined;
  return { apiKey: nonEmpty(env.OLLAMA_API_KEY) ?? "" };
}

/**
 * The streaming `POST /api/chat` request. An answer of `stream: false` (a proxy that buffered it) is
 * one object, `application/json`: the stream's lines in one, its message whole, read as its last line.
 */
export function buildOllamaRequest(request: StreamRequest, target: ProviderTarget): ProviderHttpRequest {
  const body = requestBody("ollama", request);
  if (request.outputFormat) body["format"] = ollamaFormat(request.outputFormat);
  const headers: Record<string, string> = { "content-type": "application/json", accept: "application/x-ndjson" };
  if (target.apiKey !== "") headers["authorization"] = `Bearer ${target.apiKey}`;
  const url = `${target.baseUrl}/api/chat`;
  return { url, headers, body, responseType: "application/x-ndjson", wholeType: "application/json" };
}
