import {
  streamToolCallBatches,
  streamToolCalls,
  type StreamToolCallsOptions,
  type ToolCallEvent,
  type ToolSchema,
} from "../../src/index.ts";
import { responsePool, resumeStream, startResumableStream } from "./resume.ts";
import { anyProviderKey, readSettings, type Env, type Settings } from "../env.ts";
import { authenticate } from "../http/auth.ts";
import { corsHeaders, preflightResponse } from "../http/cors.ts";
import { EVENT_STREAM_HEADERS, eventStreamBodyOfBatches } from "../response/event-stream.ts";
import { HttpError } from "../response/json-error.ts";
import { withoutProviderData, withoutProviderDataInBatches } from "../response/without-provider-data.ts";
import { guardedPost } from "../http/guarded-post.ts";
import { providerNames, upstreamProvider } from "../upstream/providers/index.ts";
import { providerTarget } from "../upstream/providers/target.ts";
import { pickRecording } from "../upstream/replay/recording.ts";
import { replayUpstream } from "../upstream/replay/replay-upstream.ts";
import { parseStreamRequest } from "../request/parse-stream-request.ts";
import type { StreamRequest } from "../request/stream-request.ts";
import type { Runtime } from "../runtime.ts";
import { openUpstream } from "../upstream/open-upstream.ts";

/**
 * `POST /v1/stream`: validates the request, calls the provider (or the replay upstream when
 * the provider has no key), and answers `text/event-stream` with one SSE event per
 * accumulated event (`event: <type>`, `id: <sequence>`, `data: <json>`), adjacent fragments of
 * one call (or of text) from one network chunk joined into one (`joinDeltas`).
 *
 * The checks are those of {@link guardedPost}. Errors before the stream are JSON
 * ({@link HttpError}); after it started they are `error` events followed by `abort`.
 */
export function streamRoute(request: Request, env: Env, runtime: Runtime): Promise<Response> {
  return guardedPost(request, env, (body, settings, cors) =>
    startStream(request, parseStreamRequest(body, providerNames), env, settings, runtime, cors),
  );
}

/**
 * `GET /v1/stream/<id>` resumes a resumable response after the `Last-Event-ID` it sends (what
 * `EventSource` does by itself); `DELETE` cancels it. Same authentication and CORS as `POST`.
 */
export async function resumeRoute(request: Request, id: string, env: Env): Promise<Response> {
  const settings = readSettings(env);
  const cors = corsHeaders(request, settings.corsAllowOrigins);
  try {
    if (request.method === "OPTIONS")
      return preflightResponse(request, settings.corsAllowOrigins, "GET, DELETE, OPTIONS");
    if (request.method !== "GET" && request.method !== "DELETE") {
      throw new HttpError(
        405,
        { code: "method_not_allowed", message: "Use GET or DELETE." },
        { allow: "GET, DELETE, OPTIONS" },
      );
    }
    await authenticate(request, { clientToken: settings.clientToken, replayOnly: !anyProviderKey(env) });
    if (!env.RESPONSES)
      throw new HttpError(404, { code: "unknown_response", message: "This Worker keeps no responses for resume." });
    return await resumeStream(request, id, env.RESPONSES, cors);
  } catch (error) {
    if (error instanceof HttpError) throw new HttpError(error.status, error.body, { ...error.headers, ...cors });
    throw error;
  }
}

async function startStream(
  request: Request,
  streamRequest: StreamRequest,
  env: Env,
  settings: Settings,
  runtime: Runtime,
  cors: Record<string, string>,
): Promise<Response> {
  if (env.RESPONSES) return startResumableStream(streamRequest, responsePool(request, env.RESPONSES, settings), cors);
  const controller = new AbortController();
  request.signal?.addEventListener("abort", () => controller.abort(), { once: true });
  const { batches, headers } = await openEventBatches(streamRequest, env, settings, runtime, controller);
  return new Response(eventStreamBodyOfBatches(batches), { headers: { ...cors, ...headers } });
}

/**
 * Calls the provider (or the replay upstream) and returns its accumulated events, with the
 * headers to answer with. `controller` aborts the provider request; with `withSignal`, it also
 * ends the events with an `abort` that lists the calls still open (a detached response cancelled
 * by the Durable Object). Throws {@link HttpError} for upstream failures before the stream starts.
 */
export async function openEventStream(
  streamRequest: StreamRequest,
  env: Env,
  settings: Settings,
  runtime: Runtime,
  controller: AbortController,
  withSignal = false,
): Promise<{ events: ReadableStream<ToolCallEvent>; headers: Record<string, string> }> {
  const { body, options, headers } = await openChain(streamRequest, env, settings, runtime, controller, withSignal);
  return { events: withoutProviderData(streamToolCalls(body, options)), headers };
}

/**
 * {@link openEventStream} with the events in arrays, one per network chunk of the provider's
 * body (`streamToolCallBatches`): what a route that encodes them to bytes reads, one chunk of its
 * answer per array and no read per event.
 */
export async function openEventBatches(
  streamRequest: StreamRequest,
  env: Env,
  settings: Settings,
  runtime: Runtime,
  controller: AbortController,
  withSignal = false,
): Promise<{ batches: ReadableStream<ToolCallEvent[]>; headers: Record<string, string> }> {
  const { body, options, headers } = await openChain(streamRequest, env, settings, runtime, controller, withSignal);
  return { batches: withoutProviderDataInBatches(streamToolCallBatches(body, options)), headers };
}

/** The provider's body (or the replay's), the chain's options for this request, and the headers to answer with. */
async function openChain(
  streamRequest: StreamRequest,
  env: Env,
  settings: Settings,
  runtime: Runtime,
  controller: AbortController,
  withSignal: boolean,
): Promise<{ body: ReadableStream<Uint8Array>; options: StreamToolCallsOptions; headers: Record<string, string> }> {
  const provider = upstreamProvider(streamRequest.provider);
  const { target, live } = providerTarget(provider, env);
  const http = provider.buildRequest(streamRequest, target);
  const recording = live ? undefined : pickRecording(provider.recordings, lastUserText(streamRequest));
  const send = recording
    ? replayUpstream(recording, { delayMs: settings.replayDelayMs, timers: runtime.timers })
    : runtime.fetch;
  const body = await openUpstream(http, {
    send,
    timers: runtime.timers,
    idleTimeoutMs: settings.idleTimeoutMs,
    controller,
  });
  const options: StreamToolCallsOptions = {
    provider: provider.protocol,
    maxToolCalls: settings.maxToolCalls,
    maxArgumentsBytes: settings.maxArgumentsBytes,
    maxEventBytes: settings.maxEventBytes,
    ...(withSignal ? { signal: controller.signal } : {}),
    // The request's tools are checked only when it asks: without, a call is passed on as the model made it.
    ...(streamRequest.earlyValidation
      ? {
          tools: streamRequest.tools.map((tool) => ({ name: tool.name, parameters: tool.parameters as ToolSchema })),
          earlyValidation: true,
          abortOnViolation: streamRequest.abortOnViolation === true,
        }
      : {}),
  };
  const headers = { ...EVENT_STREAM_HEADERS };
  if (recording) headers["x-replay-recording"] = recording.name;
  return { body, options, headers };
}

function lastUserText(request: StreamRequest): string {
  const users = request.messages.filter((message) => message.role === "user");
  return users.at(-1)?.content ?? "";
}
