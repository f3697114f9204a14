import { noReadablePayload, tallyPayloads } from "../../services/payload-tally.ts";
import { OpenAIResponsesEncoder, readOpenAIResponse } from "../../../src/index.ts";
import type { Env } from "../../env.ts";
import type { Runtime } from "../../runtime.ts";
import { openClientAnswer, openClientBatches } from "../../services/client-events.ts";
import { providerNames } from "../../upstream/providers/index.ts";
import { answerHeaders, encodeAnswer, failedInit, SSE_HEADERS } from "../client-answer.ts";
import { withHeartbeat } from "../../http/heartbeat.ts";
import { responsesErrorResponse } from "../openai-error.ts";
import { HttpError } from "../../response/json-error.ts";
import { bareNameProvider } from "../agent-model.ts";
import { protocolPost } from "../protocol-post.ts";
import { allowedCalls } from "../../services/call-rules.ts";
import { customCalls } from "../custom-calls.ts";
import { parseResponsesRequest } from "./request.ts";
import { withRequestSettings } from "../../request/request-settings.ts";
import { responsesEncryptedContent } from "../reasoning-state.ts";
import { agentBatches } from "../thought-signatures.ts";
import { programParts } from "./program-items.ts";
import { readConversation } from "./conversation.ts";
import { KeepingEncoder, keepingOf, keepResponse, unkept } from "./keep-response.ts";
import { clientResponseId, itemIds } from "./stored-ids.ts";
import { storedResponsesOf, storing } from "./stored-route.ts";

/** An SSE comment: every SSE reader skips it. */

/**
 * `POST /v1/responses`: an OpenAI Responses endpoint in front of every provider the Worker
 * serves, so that openai-node's `responses.stream()`, the Agents SDK, `@ai-sdk/openai` and Codex
 * (a model provider with `base_url = "<worker>/v1"` and `wire_api = "responses"`) run on any of
 * them. With `stream: true` the answer is the Responses event stream, with an SSE comment after
 * 15 s of silence; without it, one `response` object built from the same events (a failed one
 * with status 502, or its kind's status and a rate limit's wait: failedInit). The body may be up to `MAX_AGENT_BODY_BYTES`; every other check, limit,
 * replay and cancellation is that of `POST /v1/stream`; errors before the answer are in
 * OpenAI's shape. With the `RESPONSES` binding a response is stored unless the request says
 * `store: false` (./keep-response.ts), and `previous_response_id` and `item_reference` items are
 * read from the stored ones (./conversation.ts); without it, or with `store: false`, nothing is
 * stored and the request costs no storage. A WebSocket handshake (OpenAI's Responses WebSocket
 * mode, which Codex tries first) is a 426 Upgrade Required: this Worker serves HTTP only.
 */
export function responsesRoute(request: Request, env: Env, runtime: Runtime): Promise<Response> {
  // Codex opens OpenAI's Responses WebSocket mode first (`GET` with `Upgrade: websocket`) and falls
  // back to HTTP at once only on a 426; any other status costs it its reconnect retries first.
  if (request.headers.get("upgrade")?.toLowerCase() === "websocket")
    return Promise.resolve(
      responsesErrorResponse(
        new HttpError(
          426,
          {
            code: "upgrade_required",
            message: "This Worker serves `/v1/responses` over HTTP only, not its WebSocket mode: POST the request.",
          },
          // RFC 9110 (15.5.22): a 426 names the protocol the resource is served over.
          { upgrade: "HTTP/1.1" },
        ),
      ),
    );
  return protocolPost(
    request,
    env,
    runtime,
    responsesErrorResponse,
    async (body, context) => {
      const { settings, cors } = context;
      const stored = storing(body) ? await storedResponsesOf(context) : undefined;
      const conversation = await readConversation(body, stored, settings.maxAgentBodyBytes);
      const parsed = withRequestSettings(settings, () =>
        parseResponsesRequest(
          conversation.body,
          providerNames,
          settings.modelAliases,
          bareNameProvider(context.env, "openai-responses"),
          conversation,
          settings.openaiServerTools,
        ),
      );
      const keeping =
        stored && (await keepingOf(conversation.body as Record<string, unknown>, conversation.earlier, stored));
      const options = {
        model: parsed.model,
        encryptedContent: responsesEncryptedContent,
        settings: {
          ...parsed.settings,
          store: !!keeping,
          previous_response_id: conversation.previousResponseId ?? null,
        },
        builtInTools: parsed.builtInTools,
        ...(keeping ? { id: clientResponseId(keeping.id), generateId: itemIds(keeping.id) } : {}),
      };
      const client = { mode: "stream" as const, request: parsed.request };
      if (parsed.stream) {
        const { batches, headers } = await openClientBatches(client, context);
        const chosen = allowedCalls(
          customCalls(
            programParts(parsed.request.provider, agentBatches(parsed.request.provider, batches)),
            parsed.customTools,
            parsed.request.provider,
          ),
          parsed,
        );
        const encoder = new OpenAIResponsesEncoder(options);
        const keeper = keeping && new KeepingEncoder(encoder, keeping);
        const answer = encodeAnswer(chosen, keeper || encoder);
        const heartbeat = keeper ? { afterFirstChunk: true, before: keeper.before } : { afterFirstChunk: true };
        return new Response(withHeartbeat(answer, runtime.timers, heartbeat), {
          headers: answerHeaders(cors, SSE_HEADERS, headers),
        });
      }
      const answer = await openClientAnswer(client, context);
      const { headers } = answer;
      const tally = tallyPayloads(answer.batches);
      const batches = programParts(parsed.request.provider, agentBatches(parsed.request.provider, tally.events));
      const { response } = await readOpenAIResponse(
        allowedCalls(customCalls(batches, parsed.customTools, parsed.request.provider), parsed),
        {
          ...options,
          maxTextLength: settings.maxCompletionLength,
        },
      );
      if (tally.unreadable()) throw noReadablePayload();
      if (keeping && !(await keepResponse(keeping, response))) unkept(response);
      const json = answerHeaders(cors, { "cache-control": "no-store" }, headers);
      if (response.status !== "failed") return Response.json(response, { headers: json });
      return Response.json(response, failedInit(response.error?.code, response.error?.message, json));
    },
    (settings) => ({ bytes: settings.maxAgentBodyBytes, name: "MAX_AGENT_BODY_BYTES" }),
  );
}
