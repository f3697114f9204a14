import type { StreamLimits } from "../pipeline/stream-limits.ts";
import type { ProviderProtocol } from "../providers/provider-decoder.ts";
import type { Provider } from "../providers/registry.ts";
import { RUNNER_OPTIONS, type RunnableTool, type ToolRunnerOptions } from "./runnable-tool.ts";
import type { StreamToolCallsOptions } from "../pipeline/stream-tool-calls-options.ts";
import { jsonSchema } from "../schema/json-schema-plugin.ts";
import type { ToolDefinition, ToolSchema } from "../schema/tool-schema.ts";
import type { ToolCallEvent } from "../shared/events.ts";

/** What `call` is given for each step. */
export interface ToolLoopRequest {
  /** The step, from 1. */
  step: number;
  /** The whole conversation so far, in the provider's own shape: send it as the request's messages (`contents` for Gemini, `input` for Responses). */
  messages: readonly unknown[];
  /** Aborted when the loop is cancelled: pass it to `fetch`. */
  signal: AbortSignal;
  /** The code-execution container the latest response that named one ran in (Anthropic's `finish.container.id`): send it as the request's `container` (a programmatic tool calling continuation needs it). */
  container?: string;
}

/** Options of {@link runToolLoop}. */
export interface ToolLoopOptions
  extends Omit<ToolRunnerOptions, "tools" | "signal">,
    StreamLimits,
    Pick<StreamToolCallsOptions, "partialArguments" | "repair" | "maxDepth" | "earlyValidation" | "abortOnViolation"> {
  /** The wire protocol of the responses, and the shape of the messages the loop appends. */
  provider: Provider;
  /**
   * The protocol the responses are read with, when not `provider`'s by its name: its object
   * (`providerProtocol(provider)`, which `streamToolCalls` gives the whole `turnBlocks` plug-in, so
   * each `finish` has its `order` for any provider) or a wrapper of it.
   * @defaultValue `provider`
   */
  protocol?: ProviderProtocol | undefined;
  /** The conversation so far, in the provider's own shape (Chat messages, Anthropic messages, Gemini contents, Responses input items). */
  messages: readonly unknown[];
  /** The handlers, by tool name (send them to the model with {@link toolDefinitions}). */
  tools: Readonly<Record<string, RunnableTool>>;
  /** Builds and sends the provider request for one step; resolves with the streamed response. */
  call(request: ToolLoopRequest): Promise<Response>;
  /**
   * Most model calls in one run.
   * @defaultValue 8
   */
  maxSteps?: number | undefined;
  /** Aborting it aborts the request in flight and the running handlers, and ends the loop (`cancelled`). */
  signal?: AbortSignal | undefined;
  /**
   * A stage each step's events pass through before the loop reads them, made anew for each step
   * (a step's call indexes start at 0 again): a call it leaves out is never run, nor sent back in
   * the next request, as if the model had not made it. A server holds the model to what the
   * request allowed with it (a `tool_choice` of none or of one tool, which a provider or a
   * compatible server may call past).
   * @defaultValue none: every call the model made is the loop's
   */
  beforeTools?: ((step: number) => TransformStream<ToolCallEvent, ToolCallEvent>) | undefined;
}

/**
 * Every option of {@link runToolLoop}, for `checkOptionNames` (a misspelt `maxSteps` would leave
 * the loop at 8 steps). Typed as the options' keys, so that an option added to them and not here
 * does not compile.
 */
export const LOOP_OPTIONS: Record<keyof ToolLoopOptions, 0> = {
  provider: 0,
  protocol: 0,
  messages: 0,
  tools: 0,
  call: 0,
  maxSteps: 0,
  signal: 0,
  beforeTools: 0,
  concurrency: 0,
  timeoutMs: 0,
  maxResultBytes: 0,
  maxScreenshotBytes: 0,
  approve: 0,
  clock: 0,
  validationTimeoutMs: 0,
  timers: 0,
  maxEventLength: 0,
  maxArgumentsLength: 0,
  maxToolCalls: 0,
  partialArguments: 0,
  repair: 0,
  maxDepth: 0,
  earlyValidation: 0,
  abortOnViolation: 0,
};

/** The options the loop passes on to `streamToolCalls` as they are. */
const PASSED = [
  "maxEventLength",
  "maxArgumentsLength",
  "maxToolCalls",
  "partialArguments",
  "repair",
  "maxDepth",
  "clock",
  "earlyValidation",
  "abortOnViolation",
] as const;

/** The options of `streamToolCalls` among the loop's: its tools' names as `tools`, with their parameters under `earlyValidation`. */
export function streamOptions(options: ToolLoopOptions, signal: AbortSignal): StreamToolCallsOptions {
  const picked: StreamToolCallsOptions = { provider: options.protocol ?? options.provider, signal };
  for (const name of PASSED) if (options[name] !== undefined) (picked as Record<string, unknown>)[name] = options[name];
  const { earlyValidation } = options;
  // The loop's tools are a contract: a call to any other name is an `invalid-tool-call`. Their
  // parameters are checked by the chain only with `earlyValidation` (else by each tool's runner,
  // which checks them with the same checker: the loop brings the JSON Schema plug-in itself).
  picked.tools = Object.entries(options.tools).map(
    ([name, tool]): ToolDefinition =>
      earlyValidation && tool.parameters ? { name, parameters: tool.parameters as ToolSchema } : { name },
  );
  if (earlyValidation) picked.jsonSchema = jsonSchema;
  return picked;
}

/** The options of `ToolRunnerStream` among the loop's, with the loop's own `signal` (the stage takes no other name). */
export function runnerOptions(options: ToolLoopOptions, signal: AbortSignal): ToolRunnerOptions {
  const picked: Record<string, unknown> = { signal };
  for (const name of Object.keys(RUNNER_OPTIONS) as (keyof ToolRunnerOptions)[])
    if (name !== "signal" && options[name] !== undefined) picked[name] = options[name];
  return picked as unknown as ToolRunnerOptions;
}
