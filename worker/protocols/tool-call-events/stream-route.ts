import type { Env } from "../../env.ts";
import { guardedPost } from "../../http/guarded-post.ts";
import type { RequestContext } from "../../http/request-context.ts";
import { eventStreamBodyOfBatches } from "../../http/event-stream.ts";
import { withHeartbeat } from "../../http/heartbeat.ts";
import type { HttpError } from "../../response/json-error.ts";
import { providerNames } from "../../upstream/providers/index.ts";
import { parseStreamRequest } from "../../request/parse-stream-request.ts";
import { withRequestSettings } from "../../request/request-settings.ts";
import type { StreamRequest } from "../../request/stream-request.ts";
import { responsePool, startResumableStream } from "../../resumable/response-pool.ts";
import type { Runtime } from "../../runtime.ts";
import { openEventBatches } from "../../services/model-call.ts";

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
  return guardedPost(request, env, runtime, (body, context) =>
    startStream(
      withRequestSettings(context.settings, () => parseStreamRequest(body, providerNames)),
      context,
    ),
  );
}

async function startStream(streamRequest: StreamRequest, context: RequestContext): Promise<Response> {
  const { request, env, settings, runtime, cors } = context;
  if (env.RESPONSES)
    return startResumableStream(streamRequest, await responsePool(request, env.RESPONSES, settings), cors);
  // The client's own signal cancels the provider request: no controller of its own per request.
  const { batches, headers } = await openEventBatches(streamRequest, context, request.signal);
  return new Response(withHeartbeat(eventStreamBodyOfBatches(batches), runtime.timers), {
    headers: { ...cors, ...headers },
  });
}
