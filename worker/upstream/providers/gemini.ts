import { geminiGenerationConfig } from "../../request/output-format.ts";
import { geminiRecordings } from "../replay/recordings/gemini.ts";
import type { JsonObject, OutputFormat, StreamRequest } from "../../request/stream-request.ts";
import { requestBody } from "./request-body.ts";
import type { ProviderHttpRequest, ProviderTarget, UpstreamProvider, ToolNameRule } from "./upstream-provider.ts";

// Gemini's FunctionDeclaration: "must start with a letter or an underscore; a-z, A-Z, 0-9, underscores,
// dots, colons and dashes, with a maximum length of 64".
const GEMINI_NAMES: ToolNameRule = { maxLength: 64, char: /[A-Za-z0-9_.:-]/, first: /[A-Za-z_]/ };

/** The Gemini API (`models/{model}:streamGenerateContent?alt=sse`). */
export const gemini: UpstreamProvider<"gemini"> = {
  protocol: "gemini",
  keyVar: "GEMINI_API_KEY",
  baseUrlVar: "GEMINI_BASE_URL",
  defaultBaseUrl: "https://generativelanguage.googleapis.com/v1beta",
  buildRequest: buildGeminiRequest,
  toolNames: GEMINI_NAMES,
  recordings: geminiRecordings,
};

/**
 * The streaming `streamGenerateContent` request; `alt=sse` makes the body Server-Sent Events.
 * Without it (a proxy that dropped the parameter) Gemini answers one JSON array of the same chunks,
 * `application/json`, and `generateContent` one of them: both read as the stream (the library's
 * Gemini framing reads an array or a bare object).
 */
export function buildGeminiRequest(request: StreamRequest, target: ProviderTarget): ProviderHttpRequest {
  const model = encodeURIComponent(request.model.replace(/^models\//, ""));
  return {
    url: `${target.baseUrl}/models/${model}:streamGenerateContent?alt=sse`,
    headers: { "x-goog-api-key": target.apiKey, "content-type": "application/json", accept: "text/event-stream" },
    body: withOutputFormat(requestBody("gemini", request), request.outputFormat),
    wholeType: "application/json",
  };
}

/** The body with a client's structured output (worker/request/output-format.ts) in its `generationConfig`. */
function withOutputFormat(body: JsonObject, format: OutputFormat | undefined): JsonObject {
  if (format)
    body["generationConfig"] = {
      ...(body["generationConfig"] as JsonObject | undefined),
      ...geminiGenerationConfig(format),
    };
  return body;
}
