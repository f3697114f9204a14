// Every client route, and how its answer ends in success and in error, for the tests of a provider
// whose body stays open after its end (test/worker/provider-end-open-body.test.ts,
// test/worker/terminal-event-held-open.test.ts), and the answer read while only the batch
// window's timers fire: a wait for the idle timeout is a hang there.
import { EVERY_PROVIDER_ENV, post } from "./client-support.ts";
import { FakeUpstream, ManualTimers, settled, worker } from "./support.ts";

const user = [{ role: "user", content: "hi" }];
const split = (model: string) => ({ provider: model.split("/")[0], model: model.slice(model.indexOf("/") + 1) });

/** A route: its path (and label), a body for a `provider/model`, and its answer's success and error. */
export interface HeldOpenRoute {
  label: string;
  path: string;
  body: (model: string) => Record<string, unknown>;
  success: RegExp;
  failure: RegExp;
}

/** Every route that answers from a provider's stream: the library's own, the agent protocols' (streamed Chat, Messages, Responses, and Chat whole), UI and AG-UI. */
export const HELD_OPEN_ROUTES: HeldOpenRoute[] = [
  {
    path: "/v1/stream",
    body: (model: string) => ({ ...split(model), messages: user }),
    success: /event: finish\n/,
    failure: /"type":"abort","reason":"provider-error"|"type":"finish","reason":"error"/,
  },
  {
    path: "/v1/run",
    body: (model: string) => ({ ...split(model), messages: user, tools: [] }),
    success: /"type":"loop-finish","steps":1,"reason":"no-tool-calls"/,
    failure: /"type":"loop-finish","steps":1,"reason":"(aborted|call-failed)"/,
  },
  {
    path: "/v1/chat/completions",
    label: "/v1/chat/completions (streamed)",
    body: (model: string) => ({ model, messages: user, stream: true }),
    success: /"finish_reason":"(stop|length)"[\s\S]*data: \[DONE\]/,
    failure: /"error":\{/,
  },
  {
    path: "/v1/chat/completions",
    label: "/v1/chat/completions (whole)",
    body: (model: string) => ({ model, messages: user }),
    success: /"finish_reason":"(stop|length)"/,
    failure: /^\{"error":\{/,
  },
  {
    path: "/v1/messages",
    body: (model: string) => ({ model, max_tokens: 64, messages: user, stream: true }),
    success: /event: message_stop/,
    failure: /event: error/,
  },
  {
    path: "/v1/responses",
    body: (model: string) => ({ model, input: "hi", stream: true }),
    success: /"type":"response\.(completed|incomplete)"/,
    failure: /"type":"response\.failed"/,
  },
  {
    path: "/v1/ui",
    body: (model: string) => ({
      id: "c",
      trigger: "submit-message",
      model,
      messages: [{ id: "u", role: "user", parts: [{ type: "text", text: "hi" }] }],
    }),
    success: /"type":"finish"/,
    failure: /"type":"error"/,
  },
  {
    path: "/v1/ag-ui",
    body: (model: string) => ({
      threadId: "t",
      runId: "r",
      state: {},
      context: [],
      tools: [],
      messages: [{ id: "u", role: "user", content: "hi" }],
      forwardedProps: { model },
    }),
    success: /"type":"RUN_FINISHED"/,
    failure: /"type":"RUN_ERROR"/,
  },
].map((route) => ({ label: route.path, ...route }));

/**
 * The answer's whole text (`undefined`: it never ended) and status, the provider's body of
 * `chunks` (of `contentType`) stalled after them, and whether that body was cancelled.
 */
export async function answerHeldOpen(
  route: HeldOpenRoute,
  model: string,
  contentType: string,
  chunks: (string | Uint8Array)[],
) {
  const upstream = new FakeUpstream({ kind: "sse", chunks, headers: { "content-type": contentType }, then: "stall" });
  const timers = new ManualTimers();
  const response = await worker(upstream, timers).call(
    post(route.path, route.body(model), { headers: { authorization: "Bearer t" } }),
    EVERY_PROVIDER_ENV,
  );
  let text: string | undefined;
  const reading = response.text().then((read) => void (text = read));
  for (let turn = 0; turn < 200 && text === undefined; turn++) {
    await settled();
    timers.fireWhere((ms) => ms < 1000);
  }
  if (text !== undefined) await reading;
  return { text, status: response.status, cancelled: upstream.cancelled !== undefined };
}
