import { runToolLoop, type LoopFinishEvent, type RunnableTool, type ToolLoopEvent } from "../../src/index.ts";
import type { Env, Settings } from "../env.ts";
import { guardedPost } from "../http/guarded-post.ts";
import type { HttpError } from "../response/json-error.ts";
import { providerNames, upstreamProvider, type WorkerProvider } from "../upstream/providers/index.ts";
import { providerTarget } from "../upstream/providers/target.ts";
import type { ProviderHttpRequest } from "../upstream/providers/upstream-provider.ts";
import { SCRIPTED_MODEL, scriptedModel } from "../upstream/replay/scripted/scripted-model.ts";
import { parseRunRequest, type RunRequest } from "../request/parse-run-request.ts";
import type { Runtime } from "../runtime.ts";
import { demoTools } from "../demo-tools/index.ts";
import { openUpstream } from "../upstream/open-upstream.ts";
import { EVENT_STREAM_HEADERS, eventStreamBody } from "../response/event-stream.ts";
import { withoutProviderData } from "../response/without-provider-data.ts";
import { responsePool, startResumableRun } from "./resume.ts";

/** Where each provider's request body keeps the conversation. */
const CONVERSATION_FIELD: { readonly [P in WorkerProvider]: string } = {
  openai: "messages",
  anthropic: "messages",
  gemini: "contents",
  "openai-responses": "input",
  bedrock: "messages",
  cohere: "messages",
  ollama: "messages",
};

/** Most tool handlers of one run running at once. */
const TOOL_CONCURRENCY = 4;
/** Longest a demo tool may run; they are pure and finish in microseconds. */
const TOOL_TIMEOUT_MS = 5_000;
/** Largest tool result sent back to the model, in UTF-8 bytes. */
const MAX_RESULT_BYTES = 8 * 1024;

/**
 * `POST /v1/run`: the request of `POST /v1/stream`, with `tools` naming the Worker's own tools
 * (worker/demo-tools/). The Worker runs the loop at the edge: it calls the model, runs each tool the
 * moment its call completes, sends the results back in the provider's shape and calls again,
 * until the model answers without calls or `max_steps` calls were made. Every event of every
 * step is one SSE frame, tagged with its `step`; each step ends with `step-finish` (the messages
 * it added) and the run with `loop-finish` (`steps`, `reason`).
 *
 * Checks, errors and headers are those of `/v1/stream`: the first model call is made before the
 * answer starts, so that its failures are JSON errors; a later one that fails ends the stream
 * with an `error` event and `loop-finish` of reason `call-failed`. A client that goes away
 * cancels the loop, the provider request in flight and the running tools.
 *
 * With the `RESPONSES` Durable Objects the run is resumable like `/v1/stream`: it runs in one of
 * the pool's objects, its id comes back in `x-response-id`, `GET /v1/run/<id>` with
 * `Last-Event-ID` gets the rest (a client that goes away no longer cancels it: the detached limit
 * does), and a `POST` of the same body with `x-response-id` retries it, each tool call running at
 * most once per call id (`worker/durable/recorded-tools.ts`).
 *
 * `tools` is the set the route offers (the demo tools unless a test passes others).
 */
export function runRoute(
  request: Request,
  env: Env,
  runtime: Runtime,
  tools: Readonly<Record<string, RunnableTool>> = demoTools({ timers: runtime.timers }),
): Promise<Response> {
  return guardedPost(request, env, (body, settings, cors) => {
    const run = parseRunRequest(body, providerNames, tools);
    if (env.RESPONSES)
      return startResumableRun(request, JSON.stringify(body), responsePool(request, env.RESPONSES, settings), cors);
    return startRun(request, run, env, settings, runtime, cors);
  });
}

async function startRun(
  request: Request,
  run: RunRequest,
  env: Env,
  settings: Settings,
  runtime: Runtime,
  cors: Record<string, string>,
): Promise<Response> {
  // The run ends when the client goes away (its request's signal, or the answer's body cancelled).
  const runController = new AbortController();
  request.signal?.addEventListener("abort", () => runController.abort(request.signal.reason), { once: true });
  const { events, headers } = await openRunEvents(run, env, settings, runtime, runController);
  const frames = events.pipeThrough(
    new TransformStream<ToolLoopEvent, RunEvent>({ transform: (event, out) => out.enqueue(toRunEvent(event)) }),
  );
  const body = cancelling(eventStreamBody(frames), runController);
  return new Response(body, { headers: { ...cors, ...EVENT_STREAM_HEADERS, ...headers } });
}

/**
 * Starts the tool loop of a validated run request: calls the provider (or, without its key, the
 * scripted model, which calls the Worker's own tools and answers from their results) and returns
 * the loop's events with the headers to answer with. Aborting `runController` (or cancelling
 * the events) ends the loop, the provider request in flight and the running tools. Throws
 * {@link HttpError} when the first model call fails before its stream starts.
 */
export async function openRunEvents(
  run: RunRequest,
  env: Env,
  settings: Settings,
  runtime: Runtime,
  runController: AbortController,
): Promise<{ events: ReadableStream<ToolLoopEvent>; headers: Record<string, string> }> {
  const provider = upstreamProvider(run.provider);
  const { target, live } = providerTarget(provider, env);
  const http = provider.buildRequest(run, target);
  const field = CONVERSATION_FIELD[provider.protocol];
  const messages = http.body[field];
  if (!Array.isArray(messages)) throw new Error("A provider request has no conversation field.");
  const send = live
    ? runtime.fetch
    : scriptedModel(provider.protocol, { delayMs: settings.replayDelayMs, timers: runtime.timers });
  const open = (body: ProviderHttpRequest["body"], signal: AbortSignal): Promise<ReadableStream<Uint8Array>> =>
    openUpstream(
      { ...http, body },
      { send, timers: runtime.timers, idleTimeoutMs: settings.idleTimeoutMs, controller: linkedController(signal) },
    );

  let first: ReadableStream<Uint8Array> | undefined = await open(http.body, runController.signal);
  runController.signal.addEventListener("abort", () => void first?.cancel().catch(() => {}), { once: true });

  const events = runToolLoop({
    provider: provider.protocol,
    messages,
    tools: run.enabled,
    maxSteps: run.maxSteps,
    signal: runController.signal,
    concurrency: TOOL_CONCURRENCY,
    timeoutMs: TOOL_TIMEOUT_MS,
    maxResultBytes: MAX_RESULT_BYTES,
    // Nobody can approve a call over this one-way stream: a tool that needs approval is denied
    // (the model reads why) rather than left waiting until the client gives up.
    approve: () => false,
    setTimeout: (callback, ms) => runtime.timers.setTimeout(callback, ms),
    clearTimeout: (handle) => runtime.timers.clearTimeout(handle),
    maxToolCalls: settings.maxToolCalls,
    maxArgumentsBytes: settings.maxArgumentsBytes,
    maxEventBytes: settings.maxEventBytes,
    ...(run.earlyValidation ? { earlyValidation: true, abortOnViolation: run.abortOnViolation === true } : {}),
    async call({ step, messages: conversationSoFar, signal }) {
      const body =
        step === 1 && first
          ? first
          : await open(
              { ...http.body, [field]: [...conversationSoFar] as ProviderHttpRequest["body"][string] },
              signal,
            );
      first = undefined;
      return new Response(body, { headers: { "content-type": http.responseType ?? "text/event-stream" } });
    },
  });
  return {
    events: withoutProviderData(cancelling(events, runController)),
    headers: live ? {} : { "x-replay-recording": SCRIPTED_MODEL },
  };
}

/** What `POST /v1/run` streams: the loop's events, `loop-finish` without the conversation. */
export type RunEvent = Exclude<ToolLoopEvent, LoopFinishEvent> | Omit<LoopFinishEvent, "messages">;

/**
 * The event as `POST /v1/run` sends it: `loop-finish` repeats the whole conversation, which the
 * client sent and the `step-finish` events already carry; it is sent without it.
 */
export function toRunEvent(event: ToolLoopEvent): RunEvent {
  if (event.type !== "loop-finish") return event;
  const { messages: _conversation, ...rest } = event;
  return rest;
}

/** An abort controller that also aborts when `signal` does (a step's request ends with the run). */
function linkedController(signal: AbortSignal): AbortController {
  const controller = new AbortController();
  if (signal.aborted) controller.abort(signal.reason);
  else signal.addEventListener("abort", () => controller.abort(signal.reason), { once: true });
  return controller;
}

/** `stream`, aborting `controller` when its reader cancels (the client went away). */
function cancelling<T>(stream: ReadableStream<T>, controller: AbortController): ReadableStream<T> {
  const reader = stream.getReader();
  return new ReadableStream<T>(
    {
      async pull(out) {
        const { done, value } = await reader.read();
        if (done) out.close();
        else out.enqueue(value);
      },
      async cancel(reason) {
        controller.abort(reason);
        await reader.cancel(reason);
      },
    },
    { highWaterMark: 0 },
  );
}
