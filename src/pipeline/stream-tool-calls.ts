import type { EventSink } from "../accumulate/event-step.ts";
import { ToolCallAccumulator } from "../accumulate/tool-call-accumulator.ts";
import { toolCallTimings } from "../accumulate/tool-call-timings.ts";
import { validateToolCalls } from "../accumulate/validate-tool-calls.ts";
import type { Framing, FramedMessage } from "../framing/framing.ts";
import { DetectingFraming } from "../framing/framing-detect-stream.ts";
import { SSEDecoder } from "../framing/sse-decoder-stream.ts";
import { IncrementalJsonParser } from "../json/incremental-json-parser.ts";
import { jsonErrorPosition } from "../json/json-error-position.ts";
import { earlySchemaValidator } from "../schema/early-validation.ts";
import { repairJson } from "../json/json-repair.ts";
import { toolSchemaValidator, type ToolDefinition } from "../schema/tool-schema.ts";
import type { TypedToolCallEvent } from "../schema/tool-types.ts";
import type { ProviderDecoder } from "../providers/provider-decoder.ts";
import { DetectingDecoder } from "../providers/provider-detect-stream.ts";
import { providerProtocol } from "../providers/registry.ts";
import { chunkReader, type ChunkReader } from "../shared/chunk-reader.ts";
import type { ProviderDelta } from "../shared/deltas.ts";
import { toErrorInfo, type StreamErrorInfo } from "../shared/errors.ts";
import { settlesSoon } from "../shared/settles-soon.ts";
import type { ToolCallEvent } from "../shared/events.ts";
import { readErrorBody } from "./error-body.ts";
import type { StreamToolCallsOptions } from "./stream-tool-calls-options.ts";

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
 *
 * @example Tools given by validators type the calls
 * ```ts
 * const tools = [{ name: "get_weather", schema: z.object({ city: z.string(), unit: z.enum(["c", "f"]).default("c") }) }];
 * for await (const event of streamToolCalls(response, { tools })) {
 *   if (event.type === "tool-call" && event.name === "get_weather") forecast(event.arguments.city, event.arguments.unit);
 * }
 * ```
 */
export function streamToolCalls<const Tools extends readonly ToolDefinition[] = readonly ToolDefinition[]>(
  input: Response | ReadableStream<Uint8Array>,
  options: StreamToolCallsOptions<Tools> = {},
): ReadableStream<TypedToolCallEvent<Tools>> {
  return chain(input, options, false) as ReadableStream<TypedToolCallEvent<Tools>>;
}

/**
 * {@link streamToolCalls} with its events in arrays: each array holds the events of every
 * network chunk the body had ready (read without waiting), passed on as soon as the body has
 * nothing more ready, so no event waits for the next chunk (the first array holds only the events
 * of the body's first message, which go out as early as they would one by one). For a server that
 * turns events into bytes: one array becomes one string, one UTF-8 encoding and one chunk of its
 * response, with no read per event. Same options, same events in the same order, same errors
 * and cancellation; the arrays are never empty.
 *
 * @example
 * ```ts
 * const body = streamToolCallBatches(await fetch(url, init), { provider: "openai" })
 *   .pipeThrough(new ToolCallEventEncoderStream()); // one chunk per array
 * return new Response(body, { headers: { "content-type": "text/event-stream" } });
 * ```
 */
export function streamToolCallBatches<const Tools extends readonly ToolDefinition[] = readonly ToolDefinition[]>(
  input: Response | ReadableStream<Uint8Array>,
  options: StreamToolCallsOptions<Tools> = {},
): ReadableStream<TypedToolCallEvent<Tools>[]> {
  return chain(input, options, true) as ReadableStream<TypedToolCallEvent<Tools>[]>;
}

/** The chain behind both: one event per chunk of the output, or with `batched` one array per ready stretch of the body. */
function chain(
  input: Response | ReadableStream<Uint8Array>,
  options: StreamToolCallsOptions,
  batched: boolean,
): ReadableStream<ToolCallEvent | ToolCallEvent[]> {
  // A provider that does not exist is the caller's mistake: said at the call, not as a stream error.
  const protocol = options.provider ? providerProtocol(options.provider) : undefined;
  // Duck-typed rather than `instanceof`: a Response from another realm or fetch polyfill
  // (workerd's test runner, undici in Node) is still a Response.
  const response = isReadableStream(input) ? undefined : input;
  const body = response ? response.body : (input as ReadableStream<Uint8Array>);
  let reader: ChunkReader | undefined;
  let framing: Framing;
  let decoder: ProviderDecoder;
  /** Messages of the last network chunk, decoded one per step; `next` is the first not decoded. */
  const messages: FramedMessage[] = [];
  let next = 0;
  const stepwise = options.partialArguments === true;
  let accumulator: ToolCallAccumulator;
  let enqueued = 0;
  /** What the steps said of the last event: a promise while a validator holds events back. */
  let held: PromiseLike<void> | void;
  let closed = false;
  let close = (): void => {};
  /** With `batched`: the events of this pull, passed on as one array by `flush`. */
  let batch: ToolCallEvent[] = [];
  /** With `batched`: a read of the body that was not ready when the last array was passed on. */
  let pendingRead: Promise<ReadableStreamReadResult<Uint8Array>> | undefined;
  let flush = (): void => {};
  const { signal } = options;
  /** Waits until the steps hold nothing back: held events then count as produced. */
  const released = async (): Promise<void> => {
    while (held) {
      const waiting = held;
      await waiting;
      if (held === waiting) held = undefined;
    }
  };

  /** Takes the accumulator's events: the steps (validators, timings), then the output. */
  let sink: EventSink;
  const onAbort = (): void => {
    if (!accumulator.closed) accumulator.abort("cancelled");
    // The finish may be made already and wait behind a validator: the abort replaces it.
    else if (held) sink({ type: "abort", reason: "cancelled", discarded: [] });
    void reader?.cancel(signal?.reason).catch(() => {});
    close();
  };

  let ready: Promise<void> = Promise.resolve();
  let started = false;
  const events = new ReadableStream<ToolCallEvent | ToolCallEvent[]>(
    {
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
        // Events a validator released after the last pull ended go out before anything is read.
        if (batch.length > 0) return flush();
        const before = enqueued;
        // Batched, after the first event: on while the body has its next chunk ready, up to a bound.
        while (!closed && (enqueued === before || (batched && before > 0 && batch.length < MAX_BATCH))) {
          // A call waiting for its validator holds back the events after it: read no further
          // until they are released (backpressure instead of a growing queue).
          if (held) {
            await released();
            continue;
          }
          // With partial arguments, one message per step, so that a live `partialArguments`
          // value is not advanced by later messages before the consumer read the event carrying it;
          // without, the whole network chunk at once.
          if (next < messages.length) {
            // The first message's events of a batched response go out alone, as early as one by one.
            const until = stepwise || (batched && enqueued === 0) ? next + 1 : messages.length;
            while (next < until) decoder.decode(messages[next++]!);
            continue;
          }
          messages.length = next = 0;
          let result: ReadableStreamReadResult<Uint8Array>;
          try {
            if (enqueued === before) {
              result = await (pendingRead ?? reader!.read());
              pendingRead = undefined;
            } else {
              // Events to pass on: read on only if the next chunk is ready, else the next pull takes it.
              const read = reader!.read();
              if (!(await settlesSoon(read))) {
                pendingRead = read;
                break;
              }
              result = await read;
            }
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
              accumulator.end();
              await released();
              return close();
            }
            framing.feed(result.value);
          } catch (error) {
            // Everything before the fault is still delivered, then the stream ends.
            for (const message of messages) decoder.decode(message);
            void reader!.cancel(error).catch(() => {});
            return failStream(toErrorInfo(error), accumulator, close);
          }
        }
        flush();
      },
      async cancel(reason) {
        closed = true;
        signal?.removeEventListener("abort", onAbort);
        await reader?.cancel(reason);
      },
    },
    { highWaterMark: 0 },
  ); // produce only on demand: nothing runs ahead of the consumer
  return events;

  async function begin(controller: ReadableStreamDefaultController<ToolCallEvent | ToolCallEvent[]>): Promise<void> {
    flush = () => {
      if (batch.length === 0) return;
      controller.enqueue(batch);
      batch = [];
    };
    close = () => {
      if (closed) return;
      closed = true;
      signal?.removeEventListener("abort", onAbort);
      flush();
      controller.close();
    };
    sink = batched
      ? (event) => {
          enqueued++;
          batch.push(event);
        }
      : (event) => {
          enqueued++;
          controller.enqueue(event);
        };
    // The steps between the accumulator and the output: timings first (taken as each event is
    // made), then the validators, which may hold events back until they settle.
    if (options.tools) sink = validateToolCalls(options.tools, options)(sink);
    if (options.clock) sink = toolCallTimings(options.clock)(sink);
    accumulator = new ToolCallAccumulator(
      (event) => void (held = sink(event)),
      {
        ...withoutTools(options),
        partialArguments: stepwise ? IncrementalJsonParser : undefined,
        repair: options.repair === false ? (text) => ({ ok: false, position: jsonErrorPosition(text) }) : repairJson,
        validate: options.tools && toolSchemaValidator(options.tools),
        earlyValidation:
          options.tools && options.earlyValidation
            ? earlySchemaValidator(options.tools, {
                abortOnViolation: options.abortOnViolation,
                maxDepth: options.maxDepth,
              })
            : undefined,
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
    // A protocol of the application's own without a framing is SSE, as documented; detection
    // (no protocol) and the built-in protocols read the content type and the first bytes.
    const Framing = protocol ? (protocol.framing ?? SSEDecoder) : DetectingFraming;
    framing = new Framing((message) => void messages.push(message), {
      ...options,
      contentType: response?.headers.get("content-type") ?? undefined,
    });
    reader = chunkReader(body);
    if (signal?.aborted) return onAbort();
    signal?.addEventListener("abort", onAbort, { once: true });
  }
}

/** Most events in one array of `streamToolCallBatches` before it is passed on, ready chunks or not. */
const MAX_BATCH = 4096;

const isReadableStream = (input: Response | ReadableStream<Uint8Array>): input is ReadableStream<Uint8Array> =>
  typeof (input as ReadableStream<Uint8Array>).getReader === "function";

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
function withoutTools(
  options: StreamToolCallsOptions,
): Omit<StreamToolCallsOptions, "tools" | "earlyValidation" | "abortOnViolation"> {
  const { tools: _tools, earlyValidation: _early, abortOnViolation: _abort, ...rest } = options;
  return rest;
}
