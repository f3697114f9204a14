/**
 * The calls a user approved whose tool has not run (ai 6/7: a tool part in state
 * `approval-responded`, `approved: true`, no output), in the last message of a `POST /v1/ui`
 * request. ai's `streamText` runs such a call's tool before it calls the model, streams its
 * output, and sends the model the call with its result; a tool without `execute` it leaves
 * without a result, which a provider refuses. The Worker, in run mode, runs the ones of its own
 * tools the same way ({@link runApproved}); otherwise they go back to the client, input available,
 * for its `onToolCall` / `addToolOutput` ({@link clientCallsAnswer}), and no model is called.
 *
 * @module
 */
import {
  type JsonValue,
  type RunnableTool,
  type Timers,
  ToolRunner,
  type ToolRunnerEvent,
} from "../../../src/index.ts";
import { invalidField } from "../../response/json-error.ts";
import { resultText } from "../client-request.ts";
import { MAX_RESULT_BYTES, TOOL_TIMEOUT_MS } from "../../services/tool-loop.ts";
import type { ApprovedCall } from "./request.ts";

const encoder = new TextEncoder();
const sse = (chunk: Record<string, unknown>): string => `data: ${JSON.stringify(chunk)}\n\n`;

/**
 * The answer that hands approved calls back to the client: each call's `tool-input-available`,
 * on the part it has (no `start-step`, so the part stays in the message's last step, where
 * `sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithToolCalls` looks once it has an output).
 */
export function clientCallsAnswer(
  calls: readonly ApprovedCall[],
  messageId: string | undefined,
): ReadableStream<Uint8Array> {
  const chunks = [
    { type: "start", ...(messageId === undefined ? {} : { messageId }) },
    ...calls.map((call) => ({
      type: "tool-input-available",
      toolCallId: call.id,
      toolName: call.name,
      input: call.input,
      ...(call.dynamic ? { dynamic: true } : {}),
    })),
    { type: "finish" },
  ];
  const text = `${chunks.map(sse).join("")}data: [DONE]\n\n`;
  return new ReadableStream({
    start(controller) {
      controller.enqueue(encoder.encode(text));
      controller.close();
    },
  });
}

/**
 * Runs approved calls with the Worker's tools, under the tool loop's timeout and result bound
 * (they were approved: a `needsApproval` tool runs). Returns each call's result as the model
 * reads it (an error's message, as an `output-error` part's), and the UI chunks that give the
 * client its output. A call of a tool the run does not enable is a 400 naming its part.
 */
export async function runApproved(
  calls: readonly ApprovedCall[],
  enabled: Readonly<Record<string, RunnableTool>>,
  signal: AbortSignal,
  timers: Timers,
): Promise<{ ran: Map<string, string>; chunks: string }> {
  for (const call of calls)
    if (!Object.hasOwn(enabled, call.name))
      throw invalidField(
        call.path,
        `An approved call of a tool this run does not have (\`${call.name}\`): send its output, or name the tool in \`tools\`.`,
      );
  const outcomes: ToolRunnerEvent[] = [];
  const runner = new ToolRunner((event) => void outcomes.push(event), {
    tools: enabled,
    timeoutMs: TOOL_TIMEOUT_MS,
    maxResultBytes: MAX_RESULT_BYTES,
    approve: () => true,
    signal,
    timers,
  });
  calls.forEach((call, index) =>
    runner.push({
      type: "tool-call",
      index,
      id: call.id,
      name: call.name,
      arguments: call.input,
      rawArguments: JSON.stringify(call.input),
    }),
  );
  await runner.idle();
  const ran = new Map<string, string>();
  let chunks = "";
  for (const event of outcomes) {
    if ((event.type !== "tool-result" && event.type !== "tool-error") || event.id === null) continue;
    if (event.type === "tool-result") {
      if (event.preliminary) continue;
      ran.set(event.id, resultText(event.result as JsonValue));
      chunks += sse({ type: "tool-output-available", toolCallId: event.id, output: event.result });
    } else {
      ran.set(event.id, event.error.message);
      chunks += sse({ type: "tool-output-error", toolCallId: event.id, errorText: event.error.message });
    }
  }
  return { ran, chunks };
}

/**
 * The approved calls' outputs (`head`), then the failure that kept the model from answering, as
 * the stream's `error` chunk: the client keeps the outputs, so no approved tool runs twice when
 * it sends again (ai's `streamText` streams them before the model's call, and its failure after).
 */
export function failedAfter(head: string, errorText: string): ReadableStream<Uint8Array> {
  const text = `${head}${sse({ type: "error", errorText })}data: [DONE]\n\n`;
  return new ReadableStream({
    start(controller) {
      controller.enqueue(encoder.encode(text));
      controller.close();
    },
  });
}

/** `rest` after `head`, read as the reader asks; cancelling it cancels `rest`. `rest` itself without a `head`. */
export function after(head: string, rest: ReadableStream<Uint8Array>): ReadableStream<Uint8Array> {
  if (head === "") return rest; // the answer's own stream, whose steps the heartbeat composes
  const reader = rest.getReader();
  let sent = head === "";
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (!sent) {
          sent = true;
          return controller.enqueue(encoder.encode(head));
        }
        const { done, value } = await reader.read();
        if (done) controller.close();
        else controller.enqueue(value);
      },
      cancel: (reason) => reader.cancel(reason),
    },
    { highWaterMark: 0 },
  );
}
