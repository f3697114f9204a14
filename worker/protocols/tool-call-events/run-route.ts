import type { RunnableTool, ToolLoopEvent } from "../../../src/index.ts";
import { demoTools } from "../../demo-tools/index.ts";
import type { Env } from "../../env.ts";
import { EVENT_STREAM_HEADERS, eventStreamBody } from "../../http/event-stream.ts";
import { withHeartbeat } from "../../http/heartbeat.ts";
import { guardedPost } from "../../http/guarded-post.ts";
import type { RequestContext } from "../../http/request-context.ts";
import { providerNames } from "../../upstream/providers/index.ts";
import { parseRunRequest, type RunRequest } from "../../request/parse-run-request.ts";
import { withRequestSettings } from "../../request/request-settings.ts";
import { responsePool, startResumableRun } from "../../resumable/response-pool.ts";
import { runStart } from "../../resumable/run-start.ts";
import type { Runtime } from "../../runtime.ts";
import { cancelling, openRunEvents, type RunEvent, toRunEvent } from "../../services/tool-loop.ts";

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
 * most once per call id (`worker/resumable/recorded-tools.ts`).
 *
 * `tools` is the set the route offers (the demo tools unless a test passes others).
 */
export function runRoute(
  request: Request,
  env: Env,
  runtime: Runtime,
  tools: Readonly<Record<string, RunnableTool>> = demoTools({ timers: runtime.timers }),
): Promise<Response> {
  return guardedPost(request, env, runtime, async (body, context) => {
    const run = withRequestSettings(context.settings, () => parseRunRequest(body, providerNames, tools));
    if (env.RESPONSES) {
      const pool = await responsePool(request, env.RESPONSES, context.settings);
      return startResumableRun(request, runStart(run, JSON.stringify(body)), pool, context.cors);
    }
    return startRun(run, context);
  });
}

async function startRun(run: RunRequest, context: RequestContext): Promise<Response> {
  const { request, runtime, cors } = context;
  // The run ends when the client goes away (its request's signal, or the answer's body cancelled).
  const runController = new AbortController();
  request.signal?.addEventListener("abort", () => runController.abort(request.signal.reason), { once: true });
  const { events, headers } = await openRunEvents(run, context, runController);
  const frames = events.pipeThrough(
    new TransformStream<ToolLoopEvent, RunEvent>({ transform: (event, out) => out.enqueue(toRunEvent(event)) }),
  );
  const body = withHeartbeat(cancelling(eventStreamBody(frames), runController), runtime.timers);
  return new Response(body, { headers: { ...cors, ...EVENT_STREAM_HEADERS, ...headers } });
}
