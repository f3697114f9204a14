import { withHeartbeat } from "../../http/heartbeat.ts";
import { UI_MESSAGE_STREAM_HEADERS, UIMessageEncoder, type RunnableTool } from "../../../src/index.ts";
import type { Env } from "../../env.ts";
import { corsHeaders, corsOrigins, preflightResponse } from "../../http/cors.ts";
import { providerNames } from "../../upstream/providers/index.ts";
import { bareNameProvider } from "../agent-model.ts";
import { parseUIRequest } from "./request.ts";
import { withRequestSettings } from "../../request/request-settings.ts";
import { asHttpError, HttpError, invalidField } from "../../response/json-error.ts";
import { uiMessageErrorResponse } from "./error.ts";
import type { Runtime } from "../../runtime.ts";
import { demoTools } from "../../demo-tools/index.ts";
import { openHeldBatches } from "../../services/client-events.ts";
import { answerHeaders, encodeAnswer } from "../client-answer.ts";
import { signedCalls } from "../thought-signatures.ts";
import { uiReasoningMetadata } from "../reasoning-state.ts";
import { after, clientCallsAnswer, failedAfter, runApproved } from "./approved.ts";
import { protocolPost, withField } from "../protocol-post.ts";

/**
 * `POST /v1/ui`: the Vercel AI SDK's UI message stream (protocol v1) for `useChat` and
 * `DefaultChatTransport`, in front of every provider the Worker serves. The request is what the
 * transport sends, with `model` (and `tools`, `run`, ...) from its `body` option (see
 * request.ts); with `run: true` the Worker runs its own tools at the edge and loops,
 * and the answer carries each step and each tool's output.
 *
 * The stream is written for every reader from ai 5.0 on (`minVersion: 5`: no fields ai 5 rejects;
 * a denied call is a `tool-output-error`). A Gemini or Gemini Interactions call's signature rides
 * in its `toolCallId` (../thought-signatures.ts), which `useChat` echoes in the tool part on the
 * next turn. The checks, limits, replay and cancellation are those
 * of `POST /v1/stream`; errors before the answer are plain text, the message `useChat` shows.
 */
export function uiRoute(
  request: Request,
  env: Env,
  runtime: Runtime,
  tools: Readonly<Record<string, RunnableTool>> = demoTools(),
): Promise<Response> {
  return protocolPost(request, env, runtime, uiMessageErrorResponse, async (body, context) => {
    const { cors } = context;
    const parse = (ran?: Map<string, string>) =>
      withRequestSettings(context.settings, () =>
        parseUIRequest(body, providerNames, tools, bareNameProvider(context.env, "openai"), ran),
      );
    let parsed = parse();
    let head = "";
    // Calls the user approved whose tool has not run (./approved.ts): the Worker's run at the edge
    // before the model is called; the client's go back to it, and no model is called.
    if (parsed.approved !== undefined) {
      // As many as a run's calls at most (`MAX_TOOL_CALLS`): each runs, and its output is history.
      const past = parsed.approved[context.settings.maxToolCalls];
      if (past !== undefined)
        throw invalidField(
          past.path,
          `At most ${context.settings.maxToolCalls} approved calls whose tool has not run (MAX_TOOL_CALLS): send the outputs of the others.`,
        );
      if (parsed.mode === "stream")
        return new Response(clientCallsAnswer(parsed.approved, parsed.messageId), {
          headers: answerHeaders(cors, UI_MESSAGE_STREAM_HEADERS, {}),
        });
      const signal = context.request.signal ?? new AbortController().signal;
      const outcome = await runApproved(parsed.approved, parsed.request.enabled, signal, runtime.timers);
      head = outcome.chunks;
      parsed = parse(outcome.ran);
    }
    let opened: Awaited<ReturnType<typeof openHeldBatches>>;
    try {
      opened = await openHeldBatches(parsed, context);
    } catch (error) {
      if (head === "") throw error;
      // The approved calls ran: their outputs reach the client before the failure (./approved.ts).
      return new Response(failedAfter(head, withField(asHttpError(error))), {
        headers: answerHeaders(cors, UI_MESSAGE_STREAM_HEADERS, {}),
      });
    }
    const { batches, headers } = opened;
    const answer = encodeAnswer(
      // The client's calls: a Gemini call's id carries its signature (../thought-signatures.ts).
      parsed.mode === "stream" ? signedCalls(parsed.request.provider, batches) : batches,
      new UIMessageEncoder({
        minVersion: 5,
        reasoningMetadata: uiReasoningMetadata,
        ...(parsed.messageId !== undefined ? { messageId: parsed.messageId } : {}),
      }),
    );
    return new Response(withHeartbeat(after(head, answer), runtime.timers), {
      headers: answerHeaders(cors, UI_MESSAGE_STREAM_HEADERS, headers),
    });
  });
}

/**
 * `GET /v1/ui/<chat id>/stream`, where `useChat({ resume: true })` asks for a stream to resume:
 * this Worker keeps none for this protocol, which the AI SDK reads from `204 No Content`. A
 * cross-origin client's preflight (`OPTIONS`) is answered as on the other routes.
 */
export function uiResumeRoute(request: Request, env: Env): Response {
  try {
    const corsAllowOrigins = corsOrigins(env);
    if (request.method === "OPTIONS") return preflightResponse(request, corsAllowOrigins, "GET, HEAD, OPTIONS");
    const cors = corsHeaders(request, corsAllowOrigins);
    if (request.method !== "GET")
      throw new HttpError(
        405,
        { code: "method_not_allowed", message: "Use GET." },
        { ...cors, allow: "GET, HEAD, OPTIONS" },
      );
    return new Response(null, { status: 204, headers: { ...cors, "cache-control": "no-store" } });
  } catch (error) {
    return uiMessageErrorResponse(asHttpError(error));
  }
}
