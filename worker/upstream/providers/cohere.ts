import { cohereRecordings } from "../replay/recordings/cohere.ts";
import type { StreamRequest } from "../../request/stream-request.ts";
import { requestBody } from "./request-body.ts";
import type { ProviderHttpRequest, ProviderTarget, UpstreamProvider } from "./upstream-provider.ts";

/** Cohere's v2 Chat API (`POST /v2/chat`), streaming SSE with `event:` names. */
export const cohere: UpstreamProvider<"cohere"> = {
  protocol: "cohere",
  keyVar: "COHERE_API_KEY",
  baseUrlVar: "COHERE_BASE_URL",
  defaultBaseUrl: "https://api.cohere.com/v2",
  buildRequest: buildCohereRequest,
  recordings: cohereRecordings,
};

/** The streaming `POST /chat` request. */
export function buildCohereRequest(request: StreamRequest, target: ProviderTarget): ProviderHttpRequest {
  return {
    url: `${target.baseUrl}/chat`,
    headers: {
      authorization: `Bearer ${target.apiKey}`,
      "content-type": "application/json",
      accept: "text/event-stream",
    },
    body: requestBody("cohere", request),
  };
}
