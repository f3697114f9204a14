import { readyBatches, type EncodableEvent } from "../../src/index.ts";
import type { RequestContext } from "../http/request-context.ts";
import type { RunRequest } from "../request/parse-run-request.ts";
import type { StreamRequest } from "../request/stream-request.ts";
import { openEventBatches, openEventStream } from "./model-call.ts";
import { failUnreadable } from "./payload-tally.ts";
import { openRunEvents } from "./tool-loop.ts";

/** A validated client request: one model call, or a tool loop with the Worker's tools. */
export type ClientRequest = { mode: "stream"; request: StreamRequest } | { mode: "run"; request: RunRequest };

/**
 * The events a client-protocol endpoint encodes: one model call, as `POST /v1/stream` makes it,
 * or in run mode the tool loop of `POST /v1/run` (the Worker's tools at the edge; offline, the
 * scripted model). The provider request (and in run mode the loop and its tools) stops when the
 * client goes away: its request's signal aborts, or the answer's body is cancelled, which
 * cancels these events. Throws `HttpError` when the provider fails before its stream starts.
 *
 * @returns the events, and `x-replay-recording` when a replay answers.
 */
export async function openClientEvents(
  parsed: ClientRequest,
  context: RequestContext,
  options: { stopOnAbort?: boolean } = {},
): Promise<{ events: ReadableStream<EncodableEvent>; headers: Record<string, string> }> {
  const { request } = context;
  const controller = new AbortController();
  request.signal?.addEventListener("abort", () => controller.abort(request.signal.reason), { once: true });
  if (parsed.mode === "run") return openRunEvents(parsed.request, context, controller);
  // With `stopOnAbort`, the events end with an `abort` as soon as the client goes away, for an
  // answer that is read whole before anything is sent (a non-streaming completion).
  const { events, headers } = await openEventStream(parsed.request, context, controller, options.stopOnAbort ?? false);
  return { events, headers: replayHeader(headers) };
}

/**
 * {@link openClientEvents} for a streamed answer, in arrays of the events that are ready
 * together: one model call's events per network chunk of the provider's body, or in run mode
 * every tool-loop event ready at once ({@link readyBatches}). The protocol's encoder stage turns
 * each array into one chunk of the answer.
 */
export async function openClientBatches(
  parsed: ClientRequest,
  context: RequestContext,
): Promise<{ batches: ReadableStream<readonly EncodableEvent[]>; headers: Record<string, string> }> {
  const { request } = context;
  const controller = new AbortController();
  request.signal?.addEventListener("abort", () => controller.abort(request.signal.reason), { once: true });
  if (parsed.mode === "run") {
    const { events, headers } = await openRunEvents(parsed.request, context, controller);
    return { batches: readyBatches<EncodableEvent>(events), headers };
  }
  const { batches, headers } = await openEventBatches(parsed.request, context, controller);
  return { batches: failUnreadable(batches), headers: replayHeader(headers) };
}

/** Of `/v1/stream`'s headers, only the replay's name: the protocol brings its own content type. */
function replayHeader(headers: Record<string, string>): Record<string, string> {
  const replay = headers["x-replay-recording"];
  return replay === undefined ? {} : { "x-replay-recording": replay };
}
