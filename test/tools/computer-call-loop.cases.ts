// runToolLoop and OpenAI Responses' computer tool (issue 34): the next-turn rules of OpenAI's
// computer use guide and of ResponseInputItem.ComputerCallOutput. A `computer_call` that came with
// `pending_safety_checks` runs only once the application's `approve` hook confirms them, and its
// `computer_call_output` sends them back as `acknowledged_safety_checks`; without a hook, or when it
// says no or fails, the loop ends (`approval`, the call in `unanswered`) and the call never runs.
// The output is a `computer_screenshot` and nothing else: a failing handler (or one that gives
// anything but a screenshot, or one over `maxScreenshotBytes`) ends the loop (`no-screenshot`), and
// its error text is never sent as a screenshot's `image_url`. A screenshot is not text for the
// model to read: `maxResultBytes` never cuts it.
//
// Provenance: the streams are BUILT FROM THE DOCUMENTED SHAPE of the `openai` SDK 6.49's types
// (ResponseComputerToolCall: `call_id`, `actions` of the GA `computer` tool, `pending_safety_checks`
// of `{ id, code, message }`), which the expected items are typed against. Ids, coordinates and
// the check's text are made up.
import type { ResponseInputItem } from "openai/resources/responses/responses";
import {
  runToolLoop,
  type JsonValue,
  type LoopFinishEvent,
  type RunnableTool,
  type ToolApprovalRequestEvent,
  type ToolLoopEvent,
} from "../../src/index.ts";
import { responsesSse, shellStream } from "../providers/openai-responses/built-in-calls-recordings.ts";
import { assert, assertEquals, group } from "../support/harness.ts";
import { collect } from "../support/streams.ts";
import { replayModel } from "../support/tool-fakes.ts";

const CHECK = { id: "cu_sc_1", code: "malicious_instructions", message: "The page asks you to ignore your task." };
const CLICK = { type: "click", button: "left", x: 412, y: 96 };
const SHOT = "data:image/png;base64,iVBORw0KGgo=";

const computerItem = (checks: (typeof CHECK)[], status: string) => ({
  type: "computer_call",
  id: "cu_1",
  call_id: "call_cu_1",
  actions: [CLICK],
  pending_safety_checks: checks,
  status,
});
/** Step 1: one computer call, with the checks given. */
const computerTurn = (checks: (typeof CHECK)[]): string =>
  responsesSse([
    { type: "response.created", response: { id: "r_cu", object: "response", status: "in_progress", output: [] } },
    { type: "response.output_item.added", output_index: 0, item: computerItem(checks, "in_progress") },
    { type: "response.output_item.done", output_index: 0, item: computerItem(checks, "completed") },
    {
      type: "response.completed",
      response: { id: "r_cu", object: "response", status: "completed", output: [computerItem(checks, "completed")] },
    },
  ]);
const MESSAGE = { type: "message", id: "msg_2", role: "assistant", status: "completed", content: [] };
/** Step 2: the answer. */
const doneTurn: string = responsesSse([
  { type: "response.created", response: { id: "r_done", object: "response", status: "in_progress", output: [] } },
  { type: "response.output_item.added", output_index: 0, item: MESSAGE },
  { type: "response.output_text.delta", item_id: "msg_2", output_index: 0, content_index: 0, delta: "Clicked." },
  {
    type: "response.output_item.done",
    output_index: 0,
    item: { ...MESSAGE, content: [{ type: "output_text", text: "Clicked.", annotations: [] }] },
  },
  { type: "response.completed", response: { id: "r_done", object: "response", status: "completed", output: [] } },
]);

/** The conversation's items after step 1: the computer call as it came. */
const CALL_ITEM: ResponseInputItem = {
  type: "computer_call",
  id: "cu_1",
  call_id: "call_cu_1",
  actions: [{ type: "click", button: "left", x: 412, y: 96 }],
  pending_safety_checks: [CHECK],
  status: "completed",
};
const USER = { role: "user", content: "Open the settings." };

/** A computer whose every action returns `result` (or throws it), counting its runs. */
function computer(result: () => JsonValue): RunnableTool & { runs: JsonValue[] } {
  const runs: JsonValue[] = [];
  return { runs, run: (args) => (runs.push(args), result()) };
}

async function loop(
  bodies: string[],
  tool: RunnableTool,
  extra: {
    approve?: (request: ToolApprovalRequestEvent) => boolean | Promise<boolean>;
    maxResultBytes?: number;
    maxScreenshotBytes?: number;
  } = {},
  name = "computer",
) {
  const model = replayModel(bodies);
  const events: ToolLoopEvent[] = await collect(
    runToolLoop({
      provider: "openai-responses",
      messages: [USER],
      tools: { [name]: tool },
      call: model.call,
      ...extra,
    }),
  );
  const final = events.at(-1);
  assert(final?.type === "loop-finish", `ends with loop-finish: ${JSON.stringify(final)}`);
  return { model, events, final: final as LoopFinishEvent };
}

/** The loop stopped at the computer call: its turn is in the conversation, no output for it is. */
function assertStopped(final: LoopFinishEvent, reason: LoopFinishEvent["reason"]): void {
  assertEquals(final.reason, reason);
  assertEquals(final.steps, 1);
  assertEquals(final.messages, [USER, CALL_ITEM]);
  assertEquals(
    final.unanswered?.map((call) => [call.id, call.name]),
    [["call_cu_1", "computer"]],
  );
}

group("runToolLoop: OpenAI Responses computer calls", (test) => {
  test("a call with safety checks and no approve hook never runs: the loop ends with approval", async () => {
    const tool = computer(() => SHOT);
    const { model, events, final } = await loop([computerTurn([CHECK]), doneTurn], tool);
    assertEquals(tool.runs, [], "the action never ran");
    assertEquals(model.requests.length, 1, "nothing went back to the model");
    const request = events.find((event) => event.type === "tool-approval-request");
    assertEquals(request?.type === "tool-approval-request" ? request.safetyChecks : undefined, [CHECK]);
    assertStopped(final, "approval");
    assertEquals(final.unanswered?.[0]?.safetyChecks, [CHECK], "the checks to confirm come with the call");
  });

  test("a safety check without an id still asks (fails closed): no hook, the call never runs", async () => {
    const unnamed = { code: CHECK.code, message: CHECK.message } as unknown as typeof CHECK;
    const tool = computer(() => SHOT);
    const { model, events, final } = await loop([computerTurn([unnamed]), doneTurn], tool);
    assertEquals(tool.runs, [], "the action never ran");
    assertEquals(model.requests.length, 1, "nothing went back to the model");
    const request = events.find((event) => event.type === "tool-approval-request");
    assertEquals(request?.type === "tool-approval-request" ? request.safetyChecks : undefined, [
      { id: "", code: CHECK.code, message: CHECK.message },
    ]);
    assertEquals(final.reason, "approval");
  });

  test("the approve hook is asked with the checks; when it says no or fails, the call never runs (approval)", async () => {
    for (const answer of [false, "throws"] as const) {
      const asked: ToolApprovalRequestEvent[] = [];
      const tool = computer(() => SHOT);
      const { final } = await loop([computerTurn([CHECK]), doneTurn], tool, {
        approve: (request) => (asked.push(request), answer === false ? false : Promise.reject(new Error("down"))),
      });
      assertEquals(
        asked.map((request) => [request.id, request.name, request.safetyChecks]),
        [["call_cu_1", "computer", [CHECK]]],
      );
      assertEquals(tool.runs, []);
      assertStopped(final, "approval");
    }
  });

  test("confirmed checks: the call runs and its computer_call_output carries them as acknowledged_safety_checks", async () => {
    const tool = computer(() => SHOT);
    const { model, events, final } = await loop([computerTurn([CHECK]), doneTurn], tool, { approve: () => true });
    assertEquals(tool.runs, [{ actions: [CLICK] }]);
    const result = events.find((event) => event.type === "tool-result");
    assertEquals(result?.type === "tool-result" ? result.acknowledgedSafetyChecks : undefined, [CHECK]);
    const output: ResponseInputItem = {
      type: "computer_call_output",
      call_id: "call_cu_1",
      output: { type: "computer_screenshot", image_url: SHOT },
      acknowledged_safety_checks: [CHECK],
    };
    assertEquals(model.requests[1]?.messages, [USER, CALL_ITEM, output]);
    assertEquals([final.reason, final.steps, final.unanswered], ["no-tool-calls", 2, undefined]);
  });

  test("a call without safety checks runs without asking, and its output acknowledges nothing", async () => {
    let asked = 0;
    const tool = computer(() => ({ file_id: "file_shot" }));
    const { model } = await loop([computerTurn([]), doneTurn], tool, { approve: () => (asked++, true) });
    assertEquals([asked, tool.runs.length], [0, 1]);
    const output: ResponseInputItem = {
      type: "computer_call_output",
      call_id: "call_cu_1",
      output: { type: "computer_screenshot", file_id: "file_shot" },
    };
    assertEquals(model.requests[1]?.messages.at(-1), output);
  });

  test("a failing handler's error is never sent as a screenshot: the loop ends with no-screenshot", async () => {
    const failing = computer(() => {
      throw new Error("the browser closed");
    });
    const { model, events, final } = await loop([computerTurn([CHECK]), doneTurn], failing, { approve: () => true });
    assertEquals(failing.runs.length, 1);
    assertEquals(model.requests.length, 1);
    assert(
      events.some((event) => event.type === "tool-error" && event.error.code === "handler-failed"),
      "the handler's tool-error is reported",
    );
    assertStopped(final, "no-screenshot");
  });

  test("a result that is no screenshot (text, a file: URL) ends the loop with no-screenshot", async () => {
    for (const output of ["Clicked the button.", { image_url: "file:///tmp/shot.png" }]) {
      const tool = computer(() => output);
      const { model, final } = await loop([computerTurn([]), doneTurn], tool);
      assertEquals(model.requests.length, 1, JSON.stringify(output));
      assertEquals([final.reason, final.unanswered?.length], ["no-screenshot", 1]);
      assert(
        !JSON.stringify(final.messages).includes("computer_call_output"),
        "no computer_call_output was sent for it",
      );
    }
  });

  test("a data URL screenshot far over maxResultBytes goes back whole: a screenshot is never cut as text", async () => {
    // 300 KiB of base64, as a real PNG of a 1024x768 page would be; the default maxResultBytes is 16 KiB.
    const shot = `data:image/png;base64,${"iVBORw0KGgo".repeat(28_000)}`;
    for (const output of [shot, { image_url: shot }]) {
      const tool = computer(() => output);
      const { model, events, final } = await loop([computerTurn([]), doneTurn], tool);
      const result = events.find((event) => event.type === "tool-result");
      assertEquals(result?.type === "tool-result" ? [result.result, result.truncated] : undefined, [output, undefined]);
      const sent: ResponseInputItem = {
        type: "computer_call_output",
        call_id: "call_cu_1",
        output: { type: "computer_screenshot", image_url: shot },
      };
      assertEquals(model.requests[1]?.messages.at(-1), sent);
      assertEquals([final.reason, final.steps], ["no-tool-calls", 2]);
    }
  });

  test("a screenshot over maxScreenshotBytes is not cut: its tool-error says why and the loop ends with no-screenshot", async () => {
    const shot = `data:image/png;base64,${"A".repeat(4096)}`;
    const tool = computer(() => shot);
    const { model, events, final } = await loop([computerTurn([CHECK]), doneTurn], tool, {
      approve: () => true,
      maxScreenshotBytes: 1024,
    });
    assertEquals(model.requests.length, 1);
    const error = events.find((event) => event.type === "tool-error");
    assert(
      error?.type === "tool-error" &&
        error.error.code === "handler-failed" &&
        error.error.message.includes("4118 bytes") &&
        error.error.message.includes("1024"),
      `the error names the screenshot's size and the limit: ${JSON.stringify(error)}`,
    );
    assert(!events.some((event) => event.type === "tool-result"), "no cut screenshot is reported as a result");
    assertStopped(final, "no-screenshot");
  });

  test("a built-in call the loop has no tool for goes back with its input, never with {}", async () => {
    // An invalid call is answered with `{}` as its arguments; its item must still carry what the
    // model sent (OpenAI refuses a computer_call without its action, a shell_call without commands).
    const { final } = await loop([computerTurn([CHECK]), doneTurn], { run: () => SHOT }, {}, "lookup");
    assertStopped(final, "no-screenshot");
    const model = replayModel([shellStream, doneTurn]);
    await collect(runToolLoop({ provider: "openai-responses", messages: [USER], tools: {}, call: model.call }));
    const shell = model.requests[1]?.messages.find((item) => (item as { type?: string }).type === "shell_call");
    assertEquals((shell as { action?: unknown } | undefined)?.action, {
      commands: ["ls -la", 'grep -n "TODO" src/*.py'],
      timeout_ms: 120000,
      max_output_length: 4096,
    });
  });

  test("a file_id or an https URL, a few bytes, passes a small screenshot limit and goes back as it is", async () => {
    for (const output of [{ file_id: "file_shot" }, "https://shots.example/1.png"]) {
      const tool = computer(() => output);
      const { model, final } = await loop([computerTurn([]), doneTurn], tool, { maxScreenshotBytes: 64 });
      const screenshot = typeof output === "string" ? { image_url: output } : output;
      assertEquals(model.requests[1]?.messages.at(-1), {
        type: "computer_call_output",
        call_id: "call_cu_1",
        output: { type: "computer_screenshot", ...screenshot },
      });
      assertEquals(final.reason, "no-tool-calls");
    }
  });
});
