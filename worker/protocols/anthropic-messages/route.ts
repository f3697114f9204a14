import { noReadablePayload, tallyPayloads } from "../../services/payload-tally.ts";
import { AnthropicMessagesEncoder, readAnthropicMessage } from "../../../src/index.ts";
import type { Env } from "../../env.ts";
import { asHttpError, HttpError } from "../../response/json-error.ts";
import { corsHeaders, corsOrigins, preflightResponse } from "../../http/cors.ts";
import type { Runtime } from "../../runtime.ts";
import { openClientAnswer, openClientBatches } from "../../services/client-events.ts";
import { providerNames } from "../../upstream/providers/index.ts";
import { answerHeaders, encodeAnswer, failedInit, SSE_HEADERS } from "../client-answer.ts";
import { withHeartbeat } from "../../http/heartbeat.ts";
import { bareNameProvider } from "../agent-model.ts";
import { protocolPost } from "../protocol-post.ts";
import { anthropicErrorResponse } from "./error.ts";
import { parseMessagesRequest } from "./request.ts";
import { withRequestSettings } from "../../request/request-settings.ts";
import { checkThread } from "./thread.ts";
import { messagesSignature } from "../reasoning-state.ts";
import { agentBatches } from "../thought-signatures.ts";
import { allowedCalls, requestRules } from "../../services/call-rules.ts";

/**
 * The betas a Messages client asked for (`anthropic-beta`, comma-separated, as the SDKs send
 * `betas`) that the deployment allows (`ANTHROPIC_BETAS`): a beta can bill the operator's key
 * (long context, paid tools), so no other reaches Anthropic. The client's `anthropic-version` is
 * never forwarded: the Worker speaks the one version its request builder writes.
 */
function allowedBetas(headers: Headers, allowed: ReadonlySet<string>): string[] | undefined {
  if (allowed.size === 0) return undefined;
  // Split no further than one past the limit: the work is the limit's, whatever the header's length.
  const sent = (headers.get("anthropic-beta") ?? "").split(",", MAX_BETAS + 1);
  if (sent.length > MAX_BETAS)
    throw new HttpError(400, {
      code: "invalid_request",
      message: `\`anthropic-beta\` holds more than ${MAX_BETAS} values.`,
      field: "anthropic-beta",
    });
  const betas = new Set(sent.map((beta) => beta.trim()).filter((beta) => allowed.has(beta)));
  return betas.size > 0 ? [...betas] : undefined;
}

/** The most `anthropic-beta` values a request may send (Claude Code sends a handful): past it, a 400 naming the header. */
const MAX_BETAS = 64;

/** Anthropic's keep-alive frame, which its SDKs skip. */
const PING = 'event: ping\ndata: {"type":"ping"}\n\n';

/**
 * `POST /v1/messages` (also with `?beta=true`): an Anthropic Messages endpoint in front of every
 * provider the Worker serves, so that `@anthropic-ai/sdk` and Claude Code
 * (`ANTHROPIC_BASE_URL=<worker>`, `ANTHROPIC_API_KEY=<CLIENT_TOKEN>`) run on any of them. With
 * `stream: true` the answer is the Messages event stream, with an `event: ping` after 15 s of
 * silence; without it, one `message` object built from the same events (a failure is then a 502
 * in Anthropic's error shape, or its kind's status and a rate limit's wait: failedInit). The body may be up to `MAX_AGENT_BODY_BYTES`; every other check,
 * limit, replay and cancellation is that of `POST /v1/stream`.
 */
export function messagesRoute(request: Request, env: Env, runtime: Runtime): Promise<Response> {
  return protocolPost(
    request,
    env,
    runtime,
    anthropicErrorResponse,
    async (body, context) => {
      const { settings, cors } = context;
      checkThread(body);
      const parsed = withRequestSettings(settings, () =>
        parseMessagesRequest(
          body,
          providerNames,
          settings.modelAliases,
          bareNameProvider(context.env, "anthropic"),
          settings.anthropicServerTools,
        ),
      );
      // Betas go to Anthropic alone: for another provider the header is not read (dropped, no 400).
      const betas = parsed.request.provider === "anthropic" && allowedBetas(request.headers, settings.anthropicBetas);
      if (betas) parsed.request.anthropicBetas = betas;
      const client = { mode: "stream" as const, request: parsed.request };
      if (parsed.stream) {
        const { batches, headers } = await openClientBatches(client, context);
        const answer = encodeAnswer(
          agentBatches(parsed.request.provider, allowedCalls(batches, requestRules(parsed.request))),
          new AnthropicMessagesEncoder({ model: parsed.model, signature: messagesSignature }),
        );
        return new Response(withHeartbeat(answer, runtime.timers, { frame: PING, afterFirstChunk: true }), {
          headers: answerHeaders(cors, SSE_HEADERS, headers),
        });
      }
      const answer = await openClientAnswer(client, context);
      const { headers } = answer;
      const tally = tallyPayloads(answer.batches);
      const batches = agentBatches(parsed.request.provider, allowedCalls(tally.events, requestRules(parsed.request)));
      const result = await readAnthropicMessage(batches, {
        model: parsed.model,
        signature: messagesSignature,
        maxTextLength: settings.maxCompletionLength,
      });
      if (tally.unreadable()) throw noReadablePayload();
      const json = answerHeaders(cors, { "cache-control": "no-store" }, headers);
      if (result.type === "message") return Response.json(result.message, { headers: json });
      return Response.json(
        { type: "error", error: result.error },
        failedInit(result.error.type, result.error.message, json),
      );
    },
    (settings) => ({ bytes: settings.maxAgentBodyBytes, name: "MAX_AGENT_BODY_BYTES" }),
  );
}

/**
 * `POST /v1/messages/count_tokens`: not served, a 404 in Anthropic's shape (Claude Code then
 * estimates), with the CORS of `/v1/messages` (its preflight answered, its 404 readable by a listed origin).
 */
export function countTokensRoute(request: Request, env: Env): Response {
  const origins = corsOrigins(env);
  try {
    const cors = corsHeaders(request, origins);
    if (request.method === "OPTIONS") return preflightResponse(request, origins);
    const message = "This Worker does not count tokens: /v1/messages/count_tokens is not served.";
    return anthropicErrorResponse(new HttpError(404, { code: "not_found", message }, cors));
  } catch (error) {
    return anthropicErrorResponse(asHttpError(error));
  }
}
