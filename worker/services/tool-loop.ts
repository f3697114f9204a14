/**
 * The tool loop at the edge, as `POST /v1/run`, the client protocols' run mode and the resumable
 * runs make it: the library's `runToolLoop` over the provider (or, without its key, the scripted
 * model), with the Worker's tools. Each step's calls are held to the request's `tool_choice`
 * (./call-rules.ts) before the loop reads them: a call it does not allow is never run.
 *
 * @module
 */
import { providerKit, runToolLoop, type LoopFinishEvent, type ToolLoopEvent } from "../../src/index.ts";
import { mapChunks } from "../http/batch-map.ts";
import { HttpError } from "../response/json-error.ts";
import { upstreamProvider } from "../upstream/providers/index.ts";
import { providerTarget } from "../upstream/providers/target.ts";
import type { ProviderHttpRequest } from "../upstream/providers/upstream-provider.ts";
import { SCRIPTED_MODEL, scriptedModel } from "../upstream/replay/scripted/scripted-model.ts";
import type { RunRequest } from "../request/parse-run-request.ts";
import type { WorkerContext } from "../http/request-context.ts";
import { openUpstream } from "../upstream/open-upstream.ts";
import { type ContinuationState, continuedGemini, continuingProtocol } from "../upstream/gemini-continuation.ts";
import { clientEventNames, withProviderToolNames } from "../upstream/tool-names.ts";
import { failureEvents, streamOf, type WatchedBody } from "../upstream/watched-body.ts";
import { readProtocol } from "./fragment-runs.ts";
import { withStopSequences } from "./stop-sequences.ts";
import { responseWatch } from "./model-call.ts";
import { withoutProviderData } from "./without-provider-data.ts";
import { AllowedCallsStream, limitsCalls, requestRules } from "./call-rules.ts";

/** Most tool handlers of one run running at once. */
const TOOL_CONCURRENCY = 4;
/** Longest a demo tool may run; they are pure and finish in microseconds. */
export const TOOL_TIMEOUT_MS = 5_000;
/** Largest tool result sent back to the model, in UTF-8 bytes. */
export const MAX_RESULT_BYTES = 8 * 1024;

/**
 * Starts the tool loop of a validated run request: calls the provider (or, without its key, the
 * scripted model, which calls the Worker's own tools and answers from their results) and returns
 * the loop's events with the headers to answer with. Aborting `runController` (or cancelling
 * the events) ends the loop, the provider request in flight and the running tools. Throws
 * {@link HttpError} when the first model call fails before its stream starts.
 */
export async function openRunEvents(
  run: RunRequest,
  context: WorkerContext,
  runController: AbortController,
): Promise<{ events: ReadableStream<ToolLoopEvent>; headers: Record<string, string> }> {
  const { env, settings, runtime } = context;
  const provider = upstreamProvider(run.provider);
  const { target, live } = providerTarget(provider, env);
  // The Worker's tools fit every provider's rule; an earlier turn's call may not, and goes under a short name.
  const { request: sent, names } = withProviderToolNames(run, provider.toolNames);
  const http = provider.buildRequest(sent, target);
  // A forced choice (a named tool, `required`) holds for the first step alone: its calls ran, so
  // the later steps are sent `auto` and the model may answer their results, as the OpenAI Agents
  // SDK resets it (`reset_tool_choice`); forced on every step, a model that holds to it calls
  // again until `max_steps`.
  const forced = sent.toolChoice?.type === "tool" || sent.toolChoice?.type === "required";
  const thenAuto: typeof sent = forced ? { ...sent, toolChoice: { type: "auto" } } : sent;
  const laterBody = forced ? provider.buildRequest(thenAuto, target).body : http.body;
  const field = providerKit(provider.protocol).conversationField;
  const messages = http.body[field];
  if (!Array.isArray(messages)) throw new Error("A provider request has no conversation field.");
  const send = live
    ? runtime.fetch
    : scriptedModel(provider.protocol, {
        delayMs: settings.replayDelayMs,
        timers: runtime.timers,
        ...(sent.toolChoice ? { toolChoice: sent.toolChoice } : {}),
      });
  // One idle timeout and one deadline for the whole run: every model call is read under them.
  const watch = responseWatch(settings, runtime);
  // The body being read: a stop sequence the Worker applies itself (the provider has no field for
  // it) ends that model call's request where it cuts the text (worker/services/stop-sequences.ts).
  let reading: WatchedBody | undefined;
  // Each model call's body with its content type: a whole answer's (`wholeType`) frames it as one message.
  // Each step's Gemini stream goes on over more requests as the model's long decode needs
  // (worker/upstream/gemini-continuation.ts): one state, made fresh for each step (they run one at a time).
  const continuation: ContinuationState = { on: false, hops: 1 };
  const open = async (body: ProviderHttpRequest["body"], signal: AbortSignal): Promise<[WatchedBody, string]> => {
    let type: string | undefined;
    const options = { send, idleTimeoutMs: settings.idleTimeoutMs, signal, watch, variables: provider };
    const opened = await openUpstream({ ...http, body }, { ...options, onWhole: (whole) => void (type = whole) });
    continuation.on = false;
    reading =
      provider.protocol === "gemini" && type === undefined
        ? continuedGemini(opened, { ...http, body }, options, continuation)
        : opened;
    return [reading, type ?? http.responseType ?? "text/event-stream"];
  };

  // A later step's request the provider refused: the Worker's words for it go to the client
  // ({@link worded} below), where the library names a failed request by its class and code alone.
  let refused: { step: number; error: HttpError } | undefined;
  let first: [WatchedBody, string] | undefined;
  try {
    first = await open(http.body, runController.signal);
  } catch (error) {
    watch.end();
    throw error;
  }
  runController.signal.addEventListener("abort", () => void first?.[0].return?.().catch(() => {}), { once: true });

  // The request's tool_choice held to before any tool runs (by the names the provider was sent).
  const [rules, laterRules] = [requestRules(sent), requestRules(thenAuto)];
  const read = readProtocol(provider.protocol, run.earlyValidation);
  const protocol = provider.protocol === "gemini" ? continuingProtocol(read, continuation) : read;
  const events = runToolLoop({
    provider: provider.protocol,
    // Read as /v1/stream reads it: each step's finish has the same `order`.
    protocol: run.sampling?.emulatedStop
      ? withStopSequences(protocol, run.sampling.emulatedStop, () => void reading?.return?.().catch(() => {}))
      : protocol,
    messages,
    tools: names.renamed
      ? Object.fromEntries(Object.entries(run.enabled).map(([name, tool]) => [names.toProvider(name), tool]))
      : run.enabled,
    maxSteps: run.maxSteps,
    ...(limitsCalls(rules) && {
      beforeTools: (step: number) => new AllowedCallsStream(step === 1 ? rules : laterRules),
    }),
    signal: runController.signal,
    concurrency: TOOL_CONCURRENCY,
    timeoutMs: TOOL_TIMEOUT_MS,
    maxResultBytes: MAX_RESULT_BYTES,
    // Nobody can approve a call over this one-way stream: a tool that needs approval is denied
    // (the model reads why) rather than left waiting until the client gives up.
    approve: () => false,
    timers: runtime.timers,
    maxToolCalls: settings.maxToolCalls,
    maxArgumentsLength: settings.maxArgumentsLength,
    maxEventLength: settings.maxEventLength,
    ...(run.earlyValidation ? { earlyValidation: true, abortOnViolation: run.abortOnViolation === true } : {}),
    async call({ step, messages: conversationSoFar, signal, container }) {
      // The code-execution container a step's answer named, for the next (Anthropic's alone take one).
      const reuse = container !== undefined && provider.protocol === "anthropic" ? { container } : {};
      const [body, type] =
        step === 1 && first
          ? first
          : await open(
              { ...laterBody, [field]: [...conversationSoFar] as ProviderHttpRequest["body"][string], ...reuse },
              signal,
            ).catch((error: unknown) => {
              if (error instanceof HttpError) refused = { step, error };
              throw error;
            });
      first = undefined;
      return new Response(streamOf(body), { headers: { "content-type": type } });
    },
  });
  return {
    events: clientEventNames(
      watch.events(
        withoutProviderData(
          cancelling(
            worded(events, () => refused),
            runController,
          ),
        ),
        (error, last) => {
          const step = last && "step" in last ? last.step : 1;
          return failureEvents(error).map((event) => ({ ...event, step }) as ToolLoopEvent);
        },
      ),
      names,
    ),
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

/** `stream`, aborting `controller` when its reader cancels (the client went away). */
export function cancelling<T>(stream: ReadableStream<T>, controller: AbortController): ReadableStream<T> {
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

/**
 * `events` with the `error` of a step whose request the provider refused (`refusal()`, an
 * {@link HttpError} of open-upstream.ts) in the Worker's words for that refusal, as the first
 * step's would be answered: what it is, what to do, the wait a limit names. The code stays the
 * failed call's `stream-failed`, which the encoders end the answer at.
 */
function worded(
  events: ReadableStream<ToolLoopEvent>,
  refusal: () => { step: number; error: HttpError } | undefined,
): ReadableStream<ToolLoopEvent> {
  return mapChunks(events, (event) => {
    const refused = refusal();
    if (event.type !== "error" || event.error.code !== "stream-failed" || refused?.step !== event.step) return event;
    const { message, code, headers } = refused.error;
    const wait = headers["retry-after"] === undefined ? "" : `, retry after ${headers["retry-after"]} s`;
    const why = `The request of step ${event.step} failed before a response: ${message} (${code}${wait})`;
    return { ...event, error: { code: "stream-failed", message: why } };
  });
}
