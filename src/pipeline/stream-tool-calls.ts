import type { ToolCallAccumulatorOptions } from "../accumulate/accumulator-options.ts";
import { ToolCallAccumulator } from "../accumulate/tool-call-accumulator.ts";
import type { Framing, FramedMessage } from "../framing/framing.ts";
import { SSEDecoder } from "../framing/sse-decoder-stream.ts";
import { IncrementalJsonParser } from "../json/incremental-json-parser.ts";
import { jsonErrorPosition } from "../json/json-error-position.ts";
import { earlySchemaValidator } from "../json/early-validation.ts";
import { repairJson } from "../json/json-repair.ts";
import { toolSchemaValidator, type ToolDefinition } from "../json/tool-schema.ts";
import type { ProviderDecoder, ProviderProtocol } from "../providers/provider-decoder.ts";
import { DetectingDecoder } from "../providers/provider-detect-stream.ts";
import { providerProtocol, type Provider } from "../providers/registry.ts";
import type { ProviderDelta } from "../shared/deltas.ts";
import { toErrorInfo, type StreamErrorInfo } from "../shared/errors.ts";
import type { ToolCallEvent } from "../shared/events.ts";
import { readErrorBody } from "./error-body.ts";
import type { StreamLimits } from "./stream-limits.ts";

/** Options of {@link streamToolCalls}. */
export interface StreamToolCallsOptions
  extends StreamLimits, Omit<ToolCallAccumulatorOptions, "partialArguments" | "repair" | "validate" | "earlyValidation"> {
  /**
   * Give each `tool-call-delta` the arguments parsed so far (`partialArguments`), built
   * incrementally in time linear in the arguments (the accumulator's `partialArguments` plug-in,
   * {@link IncrementalJsonParser}). The value is live: valid until the next event of that call;
   * copy it (`structuredClone`) to keep it. Off, arguments are parsed once at the end.
   * @defaultValue false
   */
  partialArguments?: boolean;
  /**
   * Repair common model mistakes in arguments at completion with `repairJson` (trailing commas,
   * single quotes, unquoted keys, Python literals, a code fence; a value cut short only when the
   * provider finished normally), reported in `tool-call.repairs`. Either way, arguments that are
   * not valid JSON in the end are an `invalid-tool-call` with the `position` of the error.
   * @defaultValue true
   */
  repair?: boolean;
  /**
   * The request's tools (OpenAI, Responses or Anthropic shape): final arguments are checked
   * against each tool's schema ({@link toolSchemaValidator}), and a violation, or a name that is
   * not a tool, is an `invalid-tool-call`.
   */
  tools?: readonly ToolDefinition[];
  /**
   * With `tools`: check each call's arguments against its tool's schema while they stream
   * (`earlySchemaValidator`, an incremental check in time linear in the arguments). A
   * `tool-call-violation` event follows the fragment after which they can no longer match, once
   * per call; the call streams on and ends as an `invalid-tool-call`. A valid call never gets one.
   * @defaultValue false
   */
  earlyValidation?: boolean;
  /**
   * With `earlyValidation`: at the first violation, cancel the body (so the provider stops
   * generating, and billing, a call that cannot be used) and end the stream with an `abort` of
   * reason `schema-violation` (its `error` is the violation), after every event before it.
   * @defaultValue false
   */
  abortOnViolation?: boolean;
  /**
   * The wire protocol of the body: a built-in provider's name, or a {@link ProviderProtocol} of
   * the application's own (its decoder, and its framing when the body is not SSE). When absent it
   * is told from the first event's shape ({@link ProviderDetectStream}); a stream it cannot
   * recognize ends with an `unknown-provider` error.
   * @defaultValue detected from the stream
   */
  provider?: Provider | ProviderProtocol;
  /** Aborting it stops reading, cancels the body (which stops the fetch) and ends with `abort`. */
  signal?: AbortSignal;
}

/**
 * The whole chain in one call: bytes, framed messages, provider deltas, accumulated events.
 *
 * Unlike a bare `pipeThrough` chain, nothing read is lost when the input fails: a network
 * error, an SSE limit or the `signal` ends the stream with an `abort` event (after an `error`
 * event saying what happened) instead of erroring it, so every text delta and complete call
 * before the fault has been delivered and open calls are listed as discarded. A non-2xx
 * `Response` becomes an `error` event of code `http-error` with the provider's error object.
 * Cancelling the returned stream cancels the body, which stops the fetch.
 *
 * @example
 * ```ts
 * const response = await fetch("https://api.openai.com/v1/chat/completions", { method: "POST", headers, body });
 * for await (const event of streamToolCalls(response)) {
 *   if (event.type === "text-delta") write(event.text);
 *   if (event.type === "tool-call") await run(event.name, event.arguments);
 * }
 * ```
 */
export function streamToolCalls(
  input: Response | ReadableStream<Uint8Array>,
  options: StreamToolCallsOptions = {},
): ReadableStream<ToolCallEvent> {
  // A provider that does not exist is the caller's mistake: said at the call, not as a stream error.
  const protocol = options.provider ? providerProtocol(options.provider) : undefined;
  // Duck-typed rather than `instanceof`: a Response from another realm or fetch polyfill
  // (workerd's test runner, undici in Node) is still a Response.
  const response = isReadableStream(input) ? undefined : input;
  const body = response ? response.body : (input as ReadableStream<Uint8Array>);
  let reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  let framing: Framing;
  let decoder: ProviderDecoder;
  /** Messages of the last network chunk, decoded one per step; `next` is the first not decoded. */
  const messages: FramedMessage[] = [];
  let next = 0;
  const stepwise = options.partialArguments === true;
  let accumulator: ToolCallAccumulator;
  let enqueued = 0;
  let closed = false;
  let close = (): void => {};
  const { signal } = options;

  const onAbort = (): void => {
    accumulator.abort("cancelled");
    void reader?.cancel(signal?.reason).catch(() => {});
    close();
  };

  let ready: Promise<void> = Promise.resolve();
  let started = false;
  return new ReadableStream<ToolCallEvent>({
    start(controller) {
      // workerd may call pull before an async start settles, so pull waits for this itself
      // (only until it has settled: an await per pull costs a turn of the microtask queue).
      ready = begin(controller).then(() => void (started = true));
      return ready;
    },
    async pull() {
      if (!started) await ready;
      // Read until this pull produced an event: a pull that enqueues nothing is not repeated.
      // Each network chunk goes through the stages' synchronous cores in one call, so a delta
      // costs no stream hop between stages.
      const before = enqueued;
      while (!closed && enqueued === before) {
        // With partial arguments, one message per step, so that a live `partialArguments`
        // value is not advanced by later messages before the consumer read the event carrying it;
        // without, the whole network chunk at once.
        if (next < messages.length) {
          const until = stepwise ? next + 1 : messages.length;
          while (next < until) decoder.decode(messages[next++]!);
          continue;
        }
        messages.length = next = 0;
        let result: ReadableStreamReadResult<Uint8Array>;
        try {
          result = await reader!.read();
        } catch (error) {
          if (closed) return;
          return failStream(toErrorInfo(error), accumulator, close);
        }
        if (closed) return;
        try {
          if (result.done) {
            framing.end();
            for (const message of messages) decoder.decode(message);
            decoder.end();
            return end(accumulator, close);
          }
          framing.feed(result.value);
        } catch (error) {
          // Everything before the fault is still delivered, then the stream ends.
          for (const message of messages) decoder.decode(message);
          void reader!.cancel(error).catch(() => {});
          return failStream(toErrorInfo(error), accumulator, close);
        }
      }
    },
    async cancel(reason) {
      closed = true;
      signal?.removeEventListener("abort", onAbort);
      await reader?.cancel(reason);
    },
  }, { highWaterMark: 0 }); // produce only on demand: nothing runs ahead of the consumer

  async function begin(controller: ReadableStreamDefaultController<ToolCallEvent>): Promise<void> {
    close = () => {
      if (closed) return;
      closed = true;
      signal?.removeEventListener("abort", onAbort);
      controller.close();
    };
    accumulator = new ToolCallAccumulator(
      (event) => {
        enqueued++;
        controller.enqueue(event);
      },
      {
        ...withoutTools(options),
        partialArguments: stepwise ? IncrementalJsonParser : undefined,
        repair: options.repair === false ? (text) => ({ ok: false, position: jsonErrorPosition(text) }) : repairJson,
        validate: options.tools && toolSchemaValidator(options.tools),
        earlyValidation: options.tools && options.earlyValidation ? earlySchemaValidator(options.tools, { abortOnViolation: options.abortOnViolation, maxDepth: options.maxDepth }) : undefined,
      },
      () => {
        // A limit was exceeded, or a call violated its schema with `abortOnViolation`.
        void reader?.cancel("the accumulator stopped the stream").catch(() => {});
        close();
      },
    );
    if (response && !response.ok) return failHttp(response, accumulator, close);
    if (!body) return end(accumulator, close);
    const push = (delta: ProviderDelta): void => accumulator.push(delta);
    decoder = protocol ? protocol.createDecoder(push) : new DetectingDecoder(push);
    framing = new (protocol?.framing ?? SSEDecoder)((message) => void messages.push(message), options);
    reader = body.getReader();
    if (signal?.aborted) return onAbort();
    signal?.addEventListener("abort", onAbort, { once: true });
  }
}

function isReadableStream(input: Response | ReadableStream<Uint8Array>): input is ReadableStream<Uint8Array> {
  return typeof (input as ReadableStream<Uint8Array>).getReader === "function";
}

function end(accumulator: ToolCallAccumulator, close: () => void): void {
  accumulator.end();
  close();
}

function failStream(error: StreamErrorInfo, accumulator: ToolCallAccumulator, close: () => void): void {
  accumulator.push({ type: "error", error });
  // The framing's limit is a limit like the accumulator's: the same reason.
  accumulator.abort(error.code === "event-too-large" ? "limit-exceeded" : "stream-failed", error);
  close();
}

async function failHttp(response: Response, accumulator: ToolCallAccumulator, close: () => void): Promise<void> {
  const error: StreamErrorInfo = {
    code: "http-error",
    status: response.status,
    message: `The provider answered with HTTP ${response.status}.`,
  };
  const data = await readErrorBody(response);
  if (data !== undefined) error.data = data;
  accumulator.push({ type: "error", error });
  accumulator.abort("provider-error", error);
  close();
}

/** The options the accumulator takes as they are: `tools` and the early checks become its plug-ins. */
function withoutTools(options: StreamToolCallsOptions): Omit<StreamToolCallsOptions, "tools" | "earlyValidation" | "abortOnViolation"> {
  const { tools: _tools, earlyValidation: _early, abortOnViolation: _abort, ...rest } = options;
  return rest;
}
