import { withHeartbeat } from "../../http/heartbeat.ts";
import { AGUIEncoder, type RunnableTool } from "../../../src/index.ts";
import type { Env } from "../../env.ts";
import { protocolPost } from "../protocol-post.ts";
import { providerNames } from "../../upstream/providers/index.ts";
import { bareNameProvider } from "../agent-model.ts";
import { parseAGUIRequest } from "./request.ts";
import { withRequestSettings } from "../../request/request-settings.ts";
import { agUIErrorResponse } from "./error.ts";
import type { Runtime } from "../../runtime.ts";
import { demoTools } from "../../demo-tools/index.ts";
import { openHeldBatches } from "../../services/client-events.ts";
import { answerHeaders, encodeAnswer, SSE_HEADERS } from "../client-answer.ts";
import { signedCalls } from "../thought-signatures.ts";
import { sealedReasoning } from "../reasoning-state.ts";

/**
 * `POST /v1/ag-ui`: AG-UI events over SSE for `HttpAgent` of `@ag-ui/client` (and CopilotKit),
 * in front of every provider the Worker serves. The request is a `RunAgentInput`, with `model`
 * and the Worker's options in `forwardedProps` (see request.ts); with
 * `forwardedProps.run: true` the Worker runs its own tools at the edge and loops, and each
 * final result is a `TOOL_CALL_RESULT` (a streaming tool's results so far are CUSTOM
 * `tool-result-preliminary` events). A Gemini or Gemini Interactions call's signature rides in its
 * `toolCallId` (../thought-signatures.ts), which the agent echoes in its history on the next turn,
 * as on `/v1/chat/completions`.
 *
 * The answer is `RUN_STARTED` ... `RUN_FINISHED` (or `RUN_ERROR`) for the input's `threadId` and
 * `runId`. The checks, limits, replay and cancellation are those of `POST /v1/stream`; errors
 * before the answer are a `RUN_ERROR` object as JSON, with the status.
 */
export function agUIRoute(
  request: Request,
  env: Env,
  runtime: Runtime,
  tools: Readonly<Record<string, RunnableTool>> = demoTools(),
): Promise<Response> {
  return protocolPost(request, env, runtime, agUIErrorResponse, async (body, context) => {
    const { cors } = context;
    const parsed = withRequestSettings(context.settings, () =>
      parseAGUIRequest(body, providerNames, tools, bareNameProvider(context.env, "openai")),
    );
    const { batches, headers } = await openHeldBatches(parsed, context);
    // The client's calls: a Gemini call's id carries its signature (../thought-signatures.ts).
    const events = parsed.mode === "stream" ? signedCalls(parsed.request.provider, batches) : batches;
    const answer = encodeAnswer(
      events,
      new AGUIEncoder({ threadId: parsed.threadId, runId: parsed.runId, encryptedValue: sealedReasoning }),
    );
    return new Response(withHeartbeat(answer, runtime.timers), { headers: answerHeaders(cors, SSE_HEADERS, headers) });
  });
}
