import { noReadablePayload, tallyPayloads } from "../../services/payload-tally.ts";
import { withHeartbeat } from "../../http/heartbeat.ts";
import { OpenAIChatCompletionBuilder, OpenAIChatEncoder } from "../../../src/index.ts";
import { readEach } from "../../http/read-each.ts";
import type { Env } from "../../env.ts";
import { protocolPost } from "../protocol-post.ts";
import { providerNames } from "../../upstream/providers/index.ts";
import { bareNameProvider } from "../agent-model.ts";
import { parseChatCompletionRequest } from "./request.ts";
import { withRequestSettings } from "../../request/request-settings.ts";
import { HttpError } from "../../response/json-error.ts";
import { openAIErrorResponse } from "../openai-error.ts";
import type { Runtime } from "../../runtime.ts";
import { openClientAnswer, openClientBatches } from "../../services/client-events.ts";
import { answerHeaders, encodeAnswer, failedInit, SSE_HEADERS } from "../client-answer.ts";
import { agentBatches } from "../thought-signatures.ts";
import { allowedCalls, requestRules } from "../../services/call-rules.ts";
import { customCalls } from "../custom-calls.ts";
import { withDeployment } from "./azure-deployment.ts";
import { legacyCompletion, LegacyFunctionEncoder } from "./legacy-functions.ts";

const FAILED = "The answer is an error; the rest of the response is not needed.";

/**
 * `POST /v1/chat/completions`: an OpenAI-compatible endpoint in front of every provider the
 * Worker serves, `model` being `<provider>/<model>`, a name `MODEL_ALIASES` maps (as the agent
 * endpoints' names: agents that speak Chat Completions send their own), or a name alone, OpenAI's,
 * offline or with its key (agent-model.ts bareNameProvider); `new OpenAI({ baseURL: "<worker>/v1",
 * apiKey: CLIENT_TOKEN })` just works. With `stream: true` the answer is the
 * `chat.completion.chunk` stream (usage last with `stream_options.include_usage`, then
 * `data: [DONE]`); without it, one `chat.completion` object built from the same events (a
 * provider error before the finish is then a 502 in OpenAI's error shape, or its kind's status
 * with a rate limit's wait: failedInit). A Gemini or Gemini
 * Interactions call's signature rides in its `tool_calls[].id` (../thought-signatures.ts), which
 * the client echoes on the next turn, as on `/v1/messages` and `/v1/responses`. A call of a `custom`
 * tool (OpenAI Responses' own custom call, or another provider's call of a function of one
 * string: ../custom-calls.ts) is answered as a custom call,
 * `{type: "custom", custom: {name, input}}`, streamed and not. A request with the deprecated `functions`
 * is answered in their shape (`function_call`, one call: ./legacy-functions.ts).
 *
 * The checks, limits, replay and cancellation are those of `POST /v1/stream`; errors before the
 * answer are in OpenAI's shape (see ../openai-error.ts). Azure OpenAI's
 * `POST /openai/deployments/<deployment>/chat/completions` is this route with `deployment`, its
 * path's (percent-encoded), as the model (./azure-deployment.ts).
 */
export function chatCompletionsRoute(
  request: Request,
  env: Env,
  runtime: Runtime,
  deployment?: string,
): Promise<Response> {
  return protocolPost(request, env, runtime, openAIErrorResponse, async (body, context) => {
    const { settings, cors } = context;
    const chat = withRequestSettings(settings, () => {
      const bare = bareNameProvider(context.env, "openai");
      const named =
        deployment === undefined ? body : withDeployment(body, deployment, providerNames, bare, settings.modelAliases);
      // A deployment is mapped already (a `*` pair would map its target again).
      const aliases = deployment === undefined ? settings.modelAliases : [];
      return parseChatCompletionRequest(named, providerNames, bare, settings.openaiServerTools, aliases);
    });
    const rules = requestRules(chat.request, chat.allowed);
    if (chat.stream) {
      const encoder = new OpenAIChatEncoder({ model: chat.model, includeUsage: chat.includeUsage });
      const { batches, headers } = await openClientBatches({ mode: "stream", request: chat.request }, context);
      const answer = encodeAnswer(
        agentBatches(
          chat.request.provider,
          allowedCalls(customCalls(batches, chat.customTools, chat.request.provider), rules),
        ),
        chat.legacy ? new LegacyFunctionEncoder(encoder) : encoder,
      );
      return new Response(withHeartbeat(answer, runtime.timers), {
        headers: answerHeaders(cors, SSE_HEADERS, headers),
      });
    }
    const { batches, headers } = await openClientAnswer({ mode: "stream", request: chat.request }, context);
    // The library's bound on the text it holds (characters, as every size limit here) cancels the provider past it.
    const tally = tallyPayloads(batches);
    const builder = new OpenAIChatCompletionBuilder({ model: chat.model, maxTextLength: settings.maxCompletionLength });
    // Read without a stream read per event; an answer that can only be an error stops the provider.
    await readEach(
      agentBatches(
        chat.request.provider,
        allowedCalls(customCalls(tally.events, chat.customTools, chat.request.provider), rules),
      ),
      (batch) => {
        builder.add(batch);
        return !builder.failed;
      },
      FAILED,
    );
    const result = builder.result();
    if (tally.unreadable()) throw noReadablePayload();
    if (result.type === "error" && result.error.code === "text-too-large") {
      const message = `The completion exceeds the limit of ${settings.maxCompletionLength} characters (MAX_COMPLETION_LENGTH); send \`stream: true\` to receive it as it is written.`;
      throw new HttpError(502, { code: "completion_too_large", message });
    }
    const json = answerHeaders(cors, { "cache-control": "no-store" }, headers);
    if (result.type === "completion")
      return Response.json(chat.legacy ? legacyCompletion(result.completion) : result.completion, { headers: json });
    return Response.json({ error: result.error }, failedInit(result.error.code, result.error.message, json));
  });
}
