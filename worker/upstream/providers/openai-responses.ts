import { responsesTextFormat } from "../../request/output-format.ts";
import { openaiResponsesRecordings } from "../replay/recordings/openai-responses.ts";
import type { JsonObject, StreamRequest } from "../../request/stream-request.ts";
import { OPENAI_NAMES } from "./openai-chat.ts";
import { requestBody } from "./request-body.ts";
import type { ProviderHttpRequest, ProviderTarget, UpstreamProvider } from "./upstream-provider.ts";

/** The OpenAI Responses API (`POST /responses`), at `OPENAI_BASE_URL` with `OPENAI_API_KEY`. */
export const openaiResponses: UpstreamProvider<"openai-responses"> = {
  protocol: "openai-responses",
  keyVar: "OPENAI_API_KEY",
  baseUrlVar: "OPENAI_BASE_URL",
  defaultBaseUrl: "https://api.openai.com/v1",
  buildRequest: buildOpenAIResponsesRequest,
  toolNames: OPENAI_NAMES,
  recordings: openaiResponsesRecordings,
};

/** The streaming `POST /responses` request. */
export function buildOpenAIResponsesRequest(request: StreamRequest, target: ProviderTarget): ProviderHttpRequest {
  return {
    url: `${target.baseUrl}/responses`,
    headers: {
      authorization: `Bearer ${target.apiKey}`,
      "content-type": "application/json",
      accept: "text/event-stream",
    },
    // A compatible server that ignores `stream: true` answers whole: read as its stream.
    wholeType: "application/json",
    body: withText(
      withToolChoice(requestBody("openai-responses", request), request),
      request.openaiText ?? otherText(request),
    ),
  };
}

/** The body with a Responses client's choice of a tool OpenAI runs, in place of `required`, its `max_tool_calls`, `parallel_tool_calls`, OpenAI's bookkeeping (`prompt_cache_key`, ...: ../../protocols/openai-keys.ts), `truncation`, `context_management` and `moderation`. */
function withToolChoice(
  body: JsonObject,
  {
    openaiToolChoice,
    openaiMaxToolCalls,
    parallelToolCalls,
    openaiKeys,
    openaiTruncation,
    openaiContextManagement,
    openaiModeration,
  }: StreamRequest,
): JsonObject {
  if (openaiKeys) Object.assign(body, openaiKeys);
  if (openaiTruncation) body["truncation"] = openaiTruncation;
  if (openaiToolChoice) body["tool_choice"] = openaiToolChoice;
  if (openaiMaxToolCalls !== undefined) body["max_tool_calls"] = openaiMaxToolCalls;
  if (parallelToolCalls === false) body["parallel_tool_calls"] = false;
  if (openaiContextManagement) body["context_management"] = openaiContextManagement;
  if (openaiModeration) body["moderation"] = openaiModeration;
  return body;
}

/** `text` of another protocol's request: its JSON format, and a Chat client's `verbosity`. */
function otherText({ outputFormat, openaiVerbosity }: StreamRequest): JsonObject | undefined {
  if (!outputFormat && !openaiVerbosity) return undefined;
  return {
    ...(outputFormat && { format: responsesTextFormat(outputFormat) }),
    ...(openaiVerbosity && { verbosity: openaiVerbosity }),
  };
}

/** The body with a Responses client's `text` as it came (its structured output's `format`, its `verbosity`), or another's format. */
function withText(body: JsonObject, text: JsonObject | undefined): JsonObject {
  if (text) body["text"] = text;
  return body;
}
