import { anthropicRecordings } from "../replay/recordings/anthropic.ts";
import type { StreamRequest } from "../../request/stream-request.ts";
import { requestBody } from "./request-body.ts";
import type { ProviderHttpRequest, ProviderTarget, UpstreamProvider } from "./upstream-provider.ts";

/** The Anthropic Messages API (`POST /v1/messages`). */
export const anthropic: UpstreamProvider<"anthropic"> = {
  protocol: "anthropic",
  keyVar: "ANTHROPIC_API_KEY",
  baseUrlVar: "ANTHROPIC_BASE_URL",
  defaultBaseUrl: "https://api.anthropic.com/v1",
  buildRequest: buildAnthropicRequest,
  recordings: anthropicRecordings,
};

/** The streaming Messages request. */
export function buildAnthropicRequest(request: StreamRequest, target: ProviderTarget): ProviderHttpRequest {
  return {
    url: `${target.baseUrl}/messages`,
    headers: {
      "x-api-key": target.apiKey,
      "anthropic-version": "2023-06-01",
      // A Messages client's own version and betas (Claude Code's), as Anthropic's gateway contract asks.
      ...request.anthropicHeaders,
      "content-type": "application/json",
      accept: "text/event-stream",
    },
    body: requestBody("anthropic", request),
  };
}
