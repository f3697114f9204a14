// A tool loop whose model call fails before the provider answers (a 429, a refused key, the
// network): `runToolLoop` ends it with the step's `error` and `loop-finish` of reason
// `call-failed`, and no `abort` (no stream of that step was there to stop). The run failed: the
// encoders that show a whole loop end it with the error, never as a success.
import { AGUIEncoderStream, runToolLoop, UIMessageEncoderStream } from "../../src/index.ts";
import { countingIds, fixtureEvents } from "../support/encoders.ts";
import { recording } from "../support/fixtures.ts";
import { assert, assertEquals, group } from "../support/harness.ts";
import { expectedCalls, readAGUIEvents, readUIChunks } from "../support/protocol-readers.ts";
import { collect } from "../support/streams.ts";
import { replayModel } from "../support/tool-fakes.ts";

const STEP = recording("openai", "chat-single-tool-call-strict-usage");
const SECRET = "sk-live-SECRET0123";

/** The loop's output through `stage`: step 1 calls a tool (when `steps` is 1), the next model call throws. */
async function failedLoop(
  stage: () => TransformStream<never, Uint8Array>,
  steps: 0 | 1,
): Promise<{ text: string; runs: number }> {
  const model = replayModel(steps === 1 ? [STEP.text] : []);
  let runs = 0;
  const loop = runToolLoop({
    provider: "openai",
    messages: [{ role: "user", content: "hi" }],
    tools: { [expectedCalls(await fixtureEvents(STEP))[0]!.name]: { run: () => String(++runs) } },
    call: (request) =>
      request.step > steps ? Promise.reject(new Error(`429 Too Many Requests ${SECRET}`)) : model.call(request),
  });
  const chunks = await collect(loop.pipeThrough(stage() as unknown as TransformStream<unknown, Uint8Array>));
  return { text: chunks.map((chunk) => new TextDecoder().decode(chunk)).join(""), runs };
}

const ui = () => new UIMessageEncoderStream({ generateId: countingIds() }) as never;
const agui = () => new AGUIEncoderStream({ threadId: "t", runId: "r", generateId: countingIds() }) as never;
const FAILED = /^The request of step (\d) failed before a response/;

group("encoders over a tool loop whose model call failed before a response", (test) => {
  for (const steps of [1, 0] as const) {
    const which = steps === 1 ? "a later step's" : "the first step's";

    test(`UI message stream: ${which} failed call is an error part and finish of reason error, never a success`, async () => {
      const { text, runs } = await failedLoop(ui, steps);
      const reading = readUIChunks(text);
      assertEquals([runs, reading.errors.length, reading.finishReason], [steps, 1, "error"]);
      assertEquals(FAILED.exec(reading.errors[0]!)?.[1], String(steps + 1), "the loop's error, naming the step");
      assertEquals(
        reading.tools.map((part) => part.state),
        steps === 1 ? ["output-available"] : [],
      );
      assert(!text.includes(SECRET), "the caller's error message stays out");
    }).needs("recordings");

    test(`AG-UI: ${which} failed call is RUN_ERROR with the loop's error, never RUN_FINISHED`, async () => {
      const { text, runs } = await failedLoop(agui, steps);
      const reading = readAGUIEvents(text);
      assertEquals([runs, reading.finished, reading.error?.["code"]], [steps, undefined, "stream-failed"]);
      assertEquals(FAILED.exec(String(reading.error?.["message"]))?.[1], String(steps + 1));
      assertEquals(reading.messages.filter((m) => m.role === "tool").length, steps);
      assert(!text.includes(SECRET), "the caller's error message stays out");
    }).needs("recordings");
  }
});
