import { ProtocolEncoderStream, readyBatches, type EncodableEvent, type ProtocolEncoder } from "../../src/index.ts";
import type { Env, Settings } from "../env.ts";
import type { ClientRequest } from "../request/client-request.ts";
import type { Runtime } from "../runtime.ts";
import { openRunEvents } from "./run.ts";
import { openEventBatches, openEventStream } from "./stream.ts";

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
  request: Request,
  env: Env,
  settings: Settings,
  runtime: Runtime,
  options: { stopOnAbort?: boolean } = {},
): Promise<{ events: ReadableStream<EncodableEvent>; headers: Record<string, string> }> {
  const controller = new AbortController();
  request.signal?.addEventListener("abort", () => controller.abort(request.signal.reason), { once: true });
  if (parsed.mode === "run") return openRunEvents(parsed.request, env, settings, runtime, controller);
  // With `stopOnAbort`, the events end with an `abort` as soon as the client goes away, for an
  // answer that is read whole before anything is sent (a non-streaming completion).
  const { events, headers } = await openEventStream(
    parsed.request,
    env,
    settings,
    runtime,
    controller,
    options.stopOnAbort ?? false,
  );
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
  request: Request,
  env: Env,
  settings: Settings,
  runtime: Runtime,
): Promise<{ batches: ReadableStream<readonly EncodableEvent[]>; headers: Record<string, string> }> {
  const controller = new AbortController();
  request.signal?.addEventListener("abort", () => controller.abort(request.signal.reason), { once: true });
  if (parsed.mode === "run") {
    const { events, headers } = await openRunEvents(parsed.request, env, settings, runtime, controller);
    return { batches: readyBatches<EncodableEvent>(events), headers };
  }
  const { batches, headers } = await openEventBatches(parsed.request, env, settings, runtime, controller);
  return { batches, headers: replayHeader(headers) };
}

/**
 * The answer's bytes: each array of ready events as one chunk of `encoder`'s protocol, adjacent
 * fragments of one call (or of text) joined into one protocol delta (`joinDeltas`), so a model
 * that streams arguments a few characters at a time costs a delta per network chunk.
 */
export function encodeAnswer(
  batches: ReadableStream<readonly EncodableEvent[]>,
  encoder: ProtocolEncoder<EncodableEvent>,
): ReadableStream<Uint8Array> {
  return batches.pipeThrough(new ProtocolEncoderStream(encoder, { joinDeltas: true }));
}

/** Of `/v1/stream`'s headers, only the replay's name: the protocol brings its own content type. */
function replayHeader(headers: Record<string, string>): Record<string, string> {
  const replay = headers["x-replay-recording"];
  return replay === undefined ? {} : { "x-replay-recording": replay };
}

/** The headers of a streamed answer: CORS, the protocol's own, and the replay's name (readable cross-origin). */
export function answerHeaders(
  cors: Record<string, string>,
  protocol: Readonly<Record<string, string>>,
  extra: Record<string, string>,
): Record<string, string> {
  const headers: Record<string, string> = { ...cors, ...protocol, ...extra, "x-content-type-options": "nosniff" };
  if (cors["access-control-allow-origin"] !== undefined && extra["x-replay-recording"] !== undefined) {
    headers["access-control-expose-headers"] =
      `${cors["access-control-expose-headers"] ?? "retry-after"}, x-replay-recording`;
  }
  return headers;
}
