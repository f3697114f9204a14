/**
 * One model call, as every endpoint makes it: the provider request (or, without its key, the
 * replay upstream), read through the library's chain into accumulated events, without the
 * provider's own error data. `POST /v1/stream`, the client protocols and the resumable responses
 * all open their events here. A call is cancelled by an `AbortSignal`: the client's request's own
 * where nothing else cancels it (no controller per request to forward it), else its owner's.
 *
 * @module
 */
import {
  jsonSchema,
  readToolCallBatches,
  readToolCalls,
  type StreamToolCallsOptions,
  type ToolCallEvent,
  type ToolSchema,
} from "../../src/index.ts";
import type { Settings } from "../env.ts";
import { mapChunks } from "../http/batch-map.ts";
import { EVENT_STREAM_HEADERS } from "../http/event-stream.ts";
import type { HttpError } from "../response/json-error.ts";
import { upstreamProvider } from "../upstream/providers/index.ts";
import { providerTarget } from "../upstream/providers/target.ts";
import { pickRecording } from "../upstream/replay/recording.ts";
import { replayUpstream } from "../upstream/replay/replay-upstream.ts";
import { SCRIPTED_MODEL, scriptedModel } from "../upstream/replay/scripted/scripted-model.ts";
import type { StreamRequest } from "../request/stream-request.ts";
import type { WorkerContext } from "../http/request-context.ts";
import type { Runtime } from "../runtime.ts";
import { openUpstream } from "../upstream/open-upstream.ts";
import { type ContinuationState, continuedGemini, continuingProtocol } from "../upstream/gemini-continuation.ts";
import { clientNames, type ToolNames, withProviderToolNames } from "../upstream/tool-names.ts";
import { ResponseWatch } from "../upstream/response-watch.ts";
import { failureEvents, streamOf, type WatchedBody } from "../upstream/watched-body.ts";
import { readProtocol } from "./fragment-runs.ts";
import { type StopState, withStopSequence, withStopSequences } from "./stop-sequences.ts";
import { withoutProviderDataInBatches } from "./without-provider-data.ts";

/**
 * Calls the provider (or the replay upstream) and returns its accumulated events, without the
 * provider's own error data and with the client's tool names, with the headers to answer with.
 * `signal` aborts the provider request; with `withSignal`, it also ends the events with an
 * `abort` that lists the calls still open (a detached response cancelled by the Durable Object, an
 * answer read whole whose client went away). Throws {@link HttpError} for upstream failures before
 * the stream starts. The events come in arrays (`streamToolCallBatches`), at most one per
 * `windowMs` (`WRITE_WINDOW_MS` by default; the chain's `batchWindowMs`): what a route that encodes
 * them to bytes reads, one chunk of its answer (or one write of a resumable log) per array and no
 * read per event. 0: one array per network chunk, or per run of chunks ready together.
 */
export async function openEventBatches(
  streamRequest: StreamRequest,
  context: WorkerContext,
  signal: AbortSignal | undefined,
  withSignal = false,
  windowMs: number = context.settings.writeWindowMs,
): Promise<{ batches: ReadableStream<ToolCallEvent[]>; headers: Record<string, string> }> {
  const { body, options, headers, watch, names, stops } = await openChain(streamRequest, context, signal, withSignal);
  // Windowed inside the chain's own read loop, so that each later stage runs once per window, not
  // once per network chunk; progress is then noted per window, at most `windowMs` late.
  // Read with no stream of the chain's own: the answer's first step reads its arrays directly.
  const chain = readToolCallBatches(body, { ...options, batchWindowMs: windowMs, timers: context.runtime.timers });
  const batches = watch.events(chain, (error) => [failureEvents(error)]);
  return { batches: clientNames(withoutProviderDataInBatches(stopped(batches, stops)), names), headers };
}

/**
 * {@link openEventBatches} for an answer read whole before anything is sent: one event per array,
 * each read from the chain as the reader asks for it (`readToolCalls`, which reads the body only
 * on demand, with no stream), so that a limit the reader checks (`MAX_COMPLETION_LENGTH`) cancels the provider at
 * the event that passed it, no chunk read ahead. The Worker's steps over them (the provider data
 * stripped, the tool names given back, the route's tally) compose into one function over that
 * stream: one read per event in all. The events end with an `abort` when `signal` aborts.
 */
export async function openAnswerEvents(
  streamRequest: StreamRequest,
  context: WorkerContext,
  signal: AbortSignal | undefined,
): Promise<{ batches: ReadableStream<ToolCallEvent[]>; headers: Record<string, string> }> {
  const { body, options, headers, watch, names, stops } = await openChain(streamRequest, context, signal, true);
  // Read with no stream of the chain's own, one event a read (readEach reads it directly).
  const events = watch.events(readToolCalls(body, options), failureEvents);
  const batches = mapChunks(events, (event): ToolCallEvent[] => [event]);
  return { batches: clientNames(withoutProviderDataInBatches(stopped(batches, stops)), names), headers };
}

/** The events with the stop sequence they stopped at on their `finish`, when it is known (`withStopSequence`). */
function stopped(
  batches: ReadableStream<ToolCallEvent[]>,
  stops: StopState | undefined,
): ReadableStream<ToolCallEvent[]> {
  return stops ? withStopSequence(batches, stops) : batches;
}

/**
 * The provider's body (or the replay's), the chain's options for this request, the headers to
 * answer with, the tool names the provider was sent (a name it refuses goes under a short one,
 * worker/upstream/tool-names.ts; the events get the client's back), and what its stop sequences
 * came to, where it can be known (worker/services/stop-sequences.ts).
 */
async function openChain(
  streamRequest: StreamRequest,
  context: WorkerContext,
  signal: AbortSignal | undefined,
  withSignal: boolean,
): Promise<{
  body: WatchedBody | Response;
  options: StreamToolCallsOptions;
  headers: Record<string, string>;
  watch: ResponseWatch;
  names: ToolNames;
  stops: StopState | undefined;
}> {
  const { env, settings, runtime } = context;
  const provider = upstreamProvider(streamRequest.provider);
  const { target, live } = providerTarget(provider, env);
  const { request: sent, names } = withProviderToolNames(streamRequest, provider.toolNames);
  const http = provider.buildRequest(sent, target);
  // Offline, a request with tools gets the recording its prompt names, or, with tool_choice auto,
  // one whose calls the request could have asked for: to its tools, valid against their schemas,
  // their short values and the recording's keywords in the prompt (recording.ts); any other gets
  // the scripted model, which calls the request's own tools with arguments valid against their
  // schemas (scripted/tool-plan.ts), or answers with text. So does one that carries tool results
  // last: the scripted model answers them with text, so a client that runs tools (an agent,
  // openai-node's runTools) gets an answer and stops.
  const replay = { delayMs: settings.replayDelayMs, timers: runtime.timers };
  const answersResults = streamRequest.messages.at(-1)?.role === "tool";
  const recording =
    live || answersResults || streamRequest.tools.length === 0
      ? undefined
      : await pickRecording(
          provider.recordings,
          lastUserText(streamRequest),
          streamRequest.tools,
          provider.protocol,
          streamRequest.toolChoice,
        );
  const scripted = !live && recording === undefined;
  const send = scripted
    ? scriptedModel(provider.protocol, { ...replay, ...(sent.toolChoice ? { toolChoice: sent.toolChoice } : {}) })
    : recording
      ? replayUpstream(recording, replay)
      : runtime.fetch;
  const watch = responseWatch(settings, runtime);
  let watched: WatchedBody;
  let body: WatchedBody | Response;
  let whole = undefined as string | undefined;
  const continuation: ContinuationState = { on: false, hops: 1 };
  // The chain decodes each chunk before it reads the next.
  const upstream = { send, idleTimeoutMs: settings.idleTimeoutMs, signal, watch, variables: provider, reuse: true };
  try {
    body = watched = await openUpstream(http, {
      ...upstream,
      onWhole: (type) => {
        whole = type;
      },
    });
    // A whole answer goes to the chain with its content type, which frames it as one message.
    if (whole !== undefined) body = new Response(streamOf(body), { headers: { "content-type": whole } });
    // Gemini's long decodes go on over more requests (./gemini-continuation.ts), each under the
    // same clocks and cancel; a whole answer (no `alt=sse`) is not continued: its finish says `length`.
    else if (provider.protocol === "gemini") body = watched = continuedGemini(watched, http, upstream, continuation);
  } catch (error) {
    watch.end();
    throw error;
  }
  const read = readProtocol(provider.protocol, streamRequest.earlyValidation);
  const protocol = provider.protocol === "gemini" ? continuingProtocol(read, continuation) : read;
  // Stop sequences the provider has no field for: the text is cut at the first, and the provider
  // request ended there (its body's `return()` aborts it). One the provider took says only that it
  // stopped at one (the reason `stop_sequence`, Anthropic's and Bedrock's): one sent is that one.
  const emulated = streamRequest.sampling?.emulatedStop;
  const native = streamRequest.sampling?.stop;
  const stops: StopState | undefined = emulated ? {} : native?.length === 1 ? { matched: native[0]! } : undefined;
  const options: StreamToolCallsOptions = {
    // A run of fragments from one read as one delta (what the answer joins them into anyway), except
    // where early validation reads each provider event.
    provider:
      emulated && stops
        ? withStopSequences(protocol, emulated, (stop) => {
            stops.matched = stop;
            void watched.return?.().catch(() => {});
          })
        : protocol,
    maxToolCalls: settings.maxToolCalls,
    maxArgumentsLength: settings.maxArgumentsLength,
    maxEventLength: settings.maxEventLength,
    ...(withSignal && signal ? { signal } : {}),
    // The tools' JSON Schemas are checked wherever the chain has them (the library checks only
    // their names without the plug-in): the Worker's answers name the violated rule.
    jsonSchema,
    // The request's tools are a contract: a call to any other name is an `invalid-tool-call`
    // (a request without tools keeps every call). Their parameters are checked only when it asks.
    ...(streamRequest.earlyValidation
      ? {
          tools: sent.tools.map((tool) => ({ name: tool.name, parameters: tool.parameters as ToolSchema })),
          earlyValidation: true,
          abortOnViolation: streamRequest.abortOnViolation === true,
        }
      : sent.tools.length > 0
        ? { tools: sent.tools.map((tool) => ({ name: tool.name })) }
        : {}),
  };
  const headers = { ...EVENT_STREAM_HEADERS };
  if (recording) headers["x-replay-recording"] = recording.name;
  if (scripted) headers["x-replay-recording"] = SCRIPTED_MODEL;
  return { body, options, headers, watch, names, stops };
}

/** The clocks of one response: `IDLE_TIMEOUT_MS` between events, `MAX_RESPONSE_MS` in all. */
export function responseWatch(settings: Settings, runtime: Runtime): ResponseWatch {
  return new ResponseWatch({
    timers: runtime.timers,
    idleTimeoutMs: settings.idleTimeoutMs,
    maxResponseMs: settings.maxResponseMs,
  });
}

function lastUserText(request: StreamRequest): string {
  const users = request.messages.filter((message) => message.role === "user");
  return users.at(-1)?.content ?? "";
}
