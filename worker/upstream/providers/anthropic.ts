import { anthropicRecordings } from "../replay/recordings/anthropic.ts";
import type { StreamRequest } from "../../request/stream-request.ts";
import { requestBody } from "./request-body.ts";
import type { ProviderHttpRequest, ProviderTarget, UpstreamProvider, ToolNameRule } from "./upstream-provider.ts";

// Anthropic's Messages API: `^[a-zA-Z0-9_-]{1,128}$` (its 400 quotes the pattern).
const ANTHROPIC_NAMES: ToolNameRule = { maxLength: 128, char: /[A-Za-z0-9_-]/, first: /[A-Za-z0-9_-]/ };

/** The Anthropic Messages API (`POST /v1/messages`). */
export const anthropic: UpstreamProvider<"anthropic"> = {
  protocol: "anthropic",
  keyVar: "ANTHROPIC_API_KEY",
  baseUrlVar: "ANTHROPIC_BASE_URL",
  defaultBaseUrl: "https://api.anthropic.com/v1",
  buildRequest: buildAnthropicRequest,
  toolNames: ANTHROPIC_NAMES,
  recordings: anthropicRecordings,
};

/** The streaming Messages request. */
export function buildAnthropicRequest(request: StreamRequest, target: ProviderTarget): ProviderHttpRequest {
  return {
    url: `${target.baseUrl}/messages`,
    headers: {
      "x-api-key": target.apiKey,
      // Fixed: a client's own version is not forwarded (the body is the Worker's, written for this one).
      "anthropic-version": "2023-06-01",
      // A Messages client's betas, those the deployment allows (`ANTHROPIC_BETAS`).
      ...(request.anthropicBetas && { "anthropic-beta": request.anthropicBetas.join(",") }),
      "content-type": "application/json",
      accept: "text/event-stream",
    },
    body: requestBody("anthropic", request),
  };
}
