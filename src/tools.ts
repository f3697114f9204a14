/**
 * Running tools at the edge: {@link ToolRunnerStream} runs each completed call with its
 * registered handler the moment it completes, and {@link runToolLoop} calls the model again with
 * the results until a turn ends without tool calls. The loop reads every provider, so this
 * subpath bundles every provider stage.
 *
 * @example
 * ```ts
 * import { SSEDecoderStream, ToolCallAccumulatorStream } from "tool-call-stream/core";
 * import { OpenAIChatDeltaStream } from "tool-call-stream/openai";
 * import { ToolRunnerStream } from "tool-call-stream/tools";
 *
 * const events = response.body!
 *   .pipeThrough(new SSEDecoderStream())
 *   .pipeThrough(new OpenAIChatDeltaStream())
 *   .pipeThrough(new ToolCallAccumulatorStream())
 *   .pipeThrough(new ToolRunnerStream({ tools: { get_time: { run: () => new Date().toISOString() } } }));
 * for await (const event of events) if (event.type === "tool-result") console.log(event.name, event.result);
 * ```
 *
 * @module
 */
export {
  DEFAULT_MAX_RESULT_BYTES,
  DEFAULT_MAX_SCREENSHOT_BYTES,
  DEFAULT_TOOL_CONCURRENCY,
  DEFAULT_TOOL_TIMEOUT_MS,
  defineTool,
  ToolHandlerError,
  type RunnableTool,
  type ToolHandlerContext,
  type ToolHandlerResult,
  type ToolRunnerOptions,
} from "./tools/runnable-tool.ts";
export { ToolRunner } from "./tools/tool-runner.ts";
export { ToolRunnerStream } from "./tools/tool-runner-stream.ts";
export { DEFAULT_MAX_STEPS, runToolLoop, type ToolLoopStream } from "./tools/tool-loop.ts";
export type { ToolLoopOptions, ToolLoopRequest } from "./tools/loop-options.ts";
export { toolDefinitions } from "./tools/tool-definitions.ts";
export type {
  ToolApprovalRequestEvent,
  ToolErrorCode,
  ToolErrorEvent,
  ToolErrorInfo,
  ToolResultEvent,
  ToolRunnerEvent,
} from "./tools/tool-events.ts";
export type { LoopFinishEvent, LoopFinishReason, StepFinishEvent, ToolLoopEvent } from "./tools/loop-events.ts";
export type { Timers } from "./shared/timers.ts";
export type { SafetyCheck, ToolResult } from "./providers/turn.ts";
