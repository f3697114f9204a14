import { readyBatches, type EncodableEvent } from "../../src/index.ts";
import type { RequestContext } from "../http/request-context.ts";
import type { RunRequest } from "../request/parse-run-request.ts";
import type { StreamRequest } from "../request/stream-request.ts";
import { openAnswerEvents, openEventBatches } from "./model-call.ts";
import { failUnreadable } from "./payload-tally.ts";
import { openRunEvents } from "./tool-loop.ts";
import { allowedCalls, requestRules } from "./call-rules.ts";

/** A validated client request: one model call, or a tool loop with the Worker's tools. */
export type ClientRequest = { mode: "stream"; request: StreamRequest } | { mode: "run"; request: RunRequest };

/**
 * The events a client-protocol endpoint encodes, for a streamed answer: one model call, as
 * `POST /v1/stream` makes it, or in run mode the tool loop of `POST /v1/run` (the Worker's tools
 * at the edge; offline, the scripted model). The provider request (and in run mode the loop and
 * its tools) stops when the client goes away: its request's signal aborts, or the answer's body is
 * cancelled, which cancels these events. Throws `HttpError` when the provider fails before its
 * stream starts.
 *
 * The events come in arrays of those that are ready together: one model call's events per network
 * chunk of the provider's body (at most one array per write window), or in run mode every
 * tool-loop event ready at once ({@link readyBatches}). The protocol's encoder stage turns each
 * array into one chunk of the answer.
 *
 * @returns the arrays, and `x-replay-recording` when a replay answers.
 */
export async function openClientBatches(
  parsed: ClientRequest,
  context: RequestContext,
): Promise<{ batches: ReadableStream<readonly EncodableEvent[]>; headers: Record<string, string> }> {
  const { signal } = context.request;
  if (parsed.mode === "run") return openRunBatches(parsed.request, context);
  // The client's own signal cancels the provider request: no controller of its own per request.
  const { batches, headers } = await openEventBatches(parsed.request, context, signal);
  return { batches: failUnreadable(batches), headers: replayHeader(headers) };
}

/**
 * {@link openClientBatches} with the answer's calls held to the request's `tool_choice`
 * (./call-rules.ts), for a protocol that has no other rule on them (the AI SDK's UI stream,
 * AG-UI): a call it does not allow is left out, and an answer of those calls alone is an error.
 * In run mode the loop holds to them itself, before any tool runs (./tool-loop.ts).
 */
export async function openHeldBatches(
  parsed: ClientRequest,
  context: RequestContext,
): Promise<{ batches: ReadableStream<readonly EncodableEvent[]>; headers: Record<string, string> }> {
  const opened = await openClientBatches(parsed, context);
  if (parsed.mode === "run") return opened;
  return { ...opened, batches: allowedCalls(opened.batches, requestRules(parsed.request)) };
}

/**
 * {@link openClientBatches} for an answer read whole before anything is sent (a non-streaming
 * completion, message or response): the arrays, but of one event each, read as the reader asks
 * (the reader checks its limits at each event, and a limit passed cancels the provider at once:
 * see `openAnswerEvents`), ending with an `abort` as soon as the client goes away.
 */
export async function openClientAnswer(
  parsed: ClientRequest,
  context: RequestContext,
): Promise<{ batches: ReadableStream<readonly EncodableEvent[]>; headers: Record<string, string> }> {
  const { signal } = context.request;
  if (parsed.mode === "run") return openRunBatches(parsed.request, context);
  const { batches, headers } = await openAnswerEvents(parsed.request, context, signal);
  return { batches, headers: replayHeader(headers) };
}

/** The tool loop's events, every one ready at once in an array. */
async function openRunBatches(request: RunRequest, context: RequestContext) {
  const { events, headers } = await openRunEvents(request, context, runController(context.request.signal));
  return { batches: readyBatches<EncodableEvent>(events), headers };
}

/** A run's controller (its loop aborts it when its reader cancels), aborted when the client's request is. */
function runController(signal: AbortSignal | undefined): AbortController {
  const controller = new AbortController();
  signal?.addEventListener("abort", () => controller.abort(signal.reason), { once: true });
  return controller;
}

/** Of `/v1/stream`'s headers, only the replay's name: the protocol brings its own content type. */
function replayHeader(headers: Record<string, string>): Record<string, string> {
  const replay = headers["x-replay-recording"];
  return replay === undefined ? {} : { "x-replay-recording": replay };
}
