import { geminiRecordings } from "../replay/recordings/gemini.ts";
import type { StreamRequest } from "../../request/stream-request.ts";
import { requestBody } from "./request-body.ts";
import type { ProviderHttpRequest, ProviderTarget, UpstreamProvider } from "./upstream-provider.ts";

/** The Gemini API (`models/{model}:streamGenerateContent?alt=sse`). */
export const gemini: UpstreamProvider<"gemini"> = {
  protocol: "gemini",
  keyVar: "GEMINI_API_KEY",
  baseUrlVar: "GEMINI_BASE_URL",
  defaultBaseUrl: "https://generativelanguage.googleapis.com/v1beta",
  buildRequest: buildGeminiRequest,
  recordings: geminiRecordings,
};

/** The streaming `streamGenerateContent` request; `alt=sse` makes the body Server-Sent Events. */
export function buildGeminiRequest(request: StreamRequest, target: ProviderTarget): ProviderHttpRequest {
  const model = encodeURIComponent(request.model.replace(/^models\//, ""));
  return {
    url: `${target.baseUrl}/models/${model}:streamGenerateContent?alt=sse`,
    headers: { "x-goog-api-key": target.apiKey, "content-type": "application/json", accept: "text/event-stream" },
    body: requestBody("gemini", request),
  };
}
