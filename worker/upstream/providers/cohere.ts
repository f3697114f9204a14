import { cohereResponseFormat } from "../../request/output-format.ts";
import { cohereRecordings } from "../replay/recordings/cohere.ts";
import type { StreamRequest } from "../../request/stream-request.ts";
import { requestBody } from "./request-body.ts";
import type { ProviderHttpRequest, ProviderTarget, UpstreamProvider, ToolNameRule } from "./upstream-provider.ts";

// Cohere documents "only a-z, A-Z, 0-9, _ and must not begin with a digit" (its Tool type; the v2
// ToolV2Function says nothing more) and no length: the 64 of the other providers is kept.
const COHERE_NAMES: ToolNameRule = { maxLength: 64, char: /[A-Za-z0-9_]/, first: /[A-Za-z_]/ };

/** Cohere's v2 Chat API (`POST /v2/chat`), streaming SSE with `event:` names. */
export const cohere: UpstreamProvider<"cohere"> = {
  protocol: "cohere",
  keyVar: "COHERE_API_KEY",
  baseUrlVar: "COHERE_BASE_URL",
  defaultBaseUrl: "https://api.cohere.com/v2",
  buildRequest: buildCohereRequest,
  toolNames: COHERE_NAMES,
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
    // A compatible server that ignores `stream: true` answers whole: read as its stream.
    wholeType: "application/json",
    body: {
      ...requestBody("cohere", request),
      ...(request.outputFormat && { response_format: cohereResponseFormat(request.outputFormat) }),
    },
  };
}
