import { geminiInteractionsResponseFormat } from "../../request/output-format.ts";
import { geminiInteractionsRecordings } from "../replay/recordings/gemini-interactions.ts";
import type { JsonObject, StreamRequest } from "../../request/stream-request.ts";
import { requestBody } from "./request-body.ts";
import { geminiInteractionsResumeUrl, type GeminiInteractionsResumePoint } from "../../../src/gemini-interactions.ts";
import type { ProviderHttpRequest, ProviderTarget, UpstreamProvider, ToolNameRule } from "./upstream-provider.ts";

// The Interactions API's function tools take Gemini's function names: "must start with a letter or
// an underscore; a-z, A-Z, 0-9, underscores, dots, colons and dashes, with a maximum length of 64".
const GEMINI_NAMES: ToolNameRule = { maxLength: 64, char: /[A-Za-z0-9_.:-]/, first: /[A-Za-z_]/ };

/**
 * Gemini's Interactions API (`POST /v1beta/interactions` with `stream: true`), with the Gemini
 * API's key and base URL. The Worker sends the conversation whole in `input` (no
 * `previous_interaction_id`), so every turn stands alone; a stream whose connection drops is
 * resumed after its last `event_id` (the library's `geminiInteractionsResumingBody`, in `open-upstream.ts`) unless `store` is false.
 */
export const geminiInteractions: UpstreamProvider<"gemini-interactions"> = {
  protocol: "gemini-interactions",
  keyVar: "GEMINI_API_KEY",
  baseUrlVar: "GEMINI_BASE_URL",
  defaultBaseUrl: "https://generativelanguage.googleapis.com/v1beta",
  buildRequest: buildGeminiInteractionsRequest,
  toolNames: GEMINI_NAMES,
  recordings: geminiInteractionsRecordings,
};

/**
 * The streaming `interactions` request. `Api-Revision` pins the step-based schema the decoder
 * reads first (the docs' examples send `2026-05-20`); the legacy `content.*` events are read too.
 */
export function buildGeminiInteractionsRequest(request: StreamRequest, target: ProviderTarget): ProviderHttpRequest {
  const headers = {
    "x-goog-api-key": target.apiKey,
    accept: "text/event-stream",
    "api-revision": "2026-05-20",
  };
  return {
    url: `${target.baseUrl}/interactions`,
    headers: { ...headers, "content-type": "application/json" },
    body: withResponseFormat(requestBody("gemini-interactions", request), request),
    // A stored interaction (the default) can be read again: a dropped stream resumes after its
    // last event, as the SDK's interactions.get(id, { stream: true, last_event_id }) does.
    ...(request.store === false
      ? {}
      : {
          resume: (point: GeminiInteractionsResumePoint): ProviderHttpRequest => ({
            method: "GET",
            url: geminiInteractionsResumeUrl(target.baseUrl, point),
            headers,
            body: {},
          }),
        }),
  };
}

/** The body with structured output asked for in a client's protocol, as the Interactions API's `response_format`. */
function withResponseFormat(body: JsonObject, request: StreamRequest): JsonObject {
  if (request.outputFormat) body["response_format"] = geminiInteractionsResponseFormat(request.outputFormat);
  return body;
}
