import type { Repair } from "../accumulate/arguments-buffer.ts";
import type { ToolDefinition } from "../schema/tool-schema.ts";
import type { TypedToolCallEvent } from "../schema/tool-types.ts";
import { toolCallTimings } from "../accumulate/tool-call-timings.ts";
import { blocksOf, turnBlocks } from "../shared/turn-blocks.ts";
import { validateToolCalls } from "../accumulate/validate-tool-calls.ts";
import { parallelUnwrapper } from "../accumulate/parallel-wrapper.ts";
import { IncrementalJsonParser } from "../json/incremental-json-parser.ts";
import { repairJson, unrepaired } from "../json/json-repair.ts";
import { DetectingFraming } from "../framing/framing-detect-stream.ts";
import { SSEDecoder } from "../framing/sse-decoder-stream.ts";
import { SseOrNdjsonFraming } from "../framing/text-framing.ts";
import type { FramingClass } from "../framing/framing.ts";
import type { ProviderProtocol } from "../providers/provider-decoder.ts";
import { DetectingDecoder } from "../providers/provider-detect-stream.ts";
import { providerProtocol, type Provider } from "../providers/registry.ts";
import { ToolCallStreamError } from "../shared/errors.ts";
import { objectJsonText } from "../shared/object-json-text.ts";
import type { ChainInput } from "./chain-pump.ts";
import { withKeptBounds } from "./kept-bounds.ts";
import { hintedFraming, withProviderHint } from "./provider-hint.ts";
import { wholeFraming, withWholeResponses } from "./whole-responses.ts";
import { sdkChunks } from "./sdk-chunks.ts";
import type { StreamToolCallBatchesOptions, StreamToolCallsOptions } from "./stream-tool-calls-options.ts";
import { toolCallBatchSource, toolCallBatchStream, toolCallEventStream } from "./tool-call-streams.ts";
import { toolCallEventSource } from "./event-reader.ts";
import type { BatchReader } from "./batch-channel.ts";

// The reader of the arrays that takes them from the chain directly.
export { batchReader, type BatchReader } from "./batch-channel.ts";

/**
 * The whole chain in one call: bytes, framed messages, provider deltas, accumulated events.
 *
 * Unlike a bare `pipeThrough` chain, nothing read is lost when the input fails: a network
 * error, an SSE limit or the `signal` ends the stream with an `abort` event (after an `error`
 * event saying what happened) instead of erroring it, so every text delta and complete call
 * before the fault has been delivered and open calls are listed as discarded. A network error
 * gives first what the body cut there would (what a decoder holds until a later event, such as a
 * refusal whose end never came, included). A non-2xx
 * `Response` becomes an `error` event of code `http-error` with the provider's error object.
 * Cancelling the returned stream cancels the body, which stops the fetch.
 *
 * `input` may also be an SDK's stream of parsed chunks (`ProviderChunks`: openai-node,
 * `@anthropic-ai/sdk`, `@google/genai`, the AWS SDK's ConverseStream, cohere-ai, ollama), read by
 * the same decoders with the `provider` option naming their provider; cancelling calls the
 * iterator's `return()`, which aborts the SDK's request.
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
 * @example An SDK's stream: its parsed chunks, read without a round trip through JSON text (`provider` required)
 * ```ts
 * const stream = await openai.chat.completions.create({ model, messages, tools, stream: true });
 * for await (const event of streamToolCalls(stream, { provider: "openai" })) console.log(event.type);
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
  input: ChainInput,
  options: StreamToolCallsOptions<Tools> = {},
): ReadableStream<TypedToolCallEvent<Tools>> {
  const protocol = protocolOf(options.provider);
  return toolCallEventStream<Tools>(
    protocol,
    framingOf(protocol, options.provider),
    readable(input),
    withPlugins(options),
  );
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
  input: ChainInput,
  options: StreamToolCallBatchesOptions<Tools> = {},
): ReadableStream<TypedToolCallEvent<Tools>[]> {
  const protocol = protocolOf(options.provider);
  return toolCallBatchStream<Tools>(
    protocol,
    framingOf(protocol, options.provider),
    readable(input),
    withPlugins(options),
  );
}

/**
 * {@link streamToolCallBatches}' arrays read with no stream: `batchReader(streamToolCallBatches(input, options))`
 * (the same `read`, and a `cancel` that stops the body at once) without the stream it would
 * lock and never hand on, which is a native object to make per response in a server's runtime.
 *
 * @example
 * ```ts
 * const reader = readToolCallBatches(await fetch(url, init), { provider: "openai" });
 * for (let read = await reader.read(); !read.done; read = await reader.read()) send(read.value);
 * ```
 */
export function readToolCallBatches<const Tools extends readonly ToolDefinition[] = readonly ToolDefinition[]>(
  input: ChainInput,
  options: StreamToolCallBatchesOptions<Tools> = {},
): BatchReader<TypedToolCallEvent<Tools>[]> {
  const protocol = protocolOf(options.provider);
  return toolCallBatchSource<Tools>(
    protocol,
    framingOf(protocol, options.provider),
    readable(input),
    withPlugins(options),
  );
}

/**
 * {@link streamToolCalls}' events read with no stream, one a `read`: what `for await` over its
 * stream reads (the chain run only when no event is made yet, so the body is read only as the
 * reader asks), with a `cancel` that stops the body at once, and without the stream it would lock
 * and never hand on, which is a native object to make per response in a server's runtime.
 *
 * @example
 * ```ts
 * const reader = readToolCalls(await fetch(url, init), { provider: "openai" });
 * for (let read = await reader.read(); !read.done; read = await reader.read()) builder.add(read.value);
 * ```
 */
export function readToolCalls<const Tools extends readonly ToolDefinition[] = readonly ToolDefinition[]>(
  input: ChainInput,
  options: StreamToolCallsOptions<Tools> = {},
): BatchReader<TypedToolCallEvent<Tools>> {
  const protocol = protocolOf(options.provider);
  return toolCallEventSource<Tools>(
    protocol,
    framingOf(protocol, options.provider),
    readable(input),
    withPlugins(options),
  );
}

/**
 * The input, or for a JavaScript caller's mistake (TypeScript refuses the first) a stand-in body
 * that fails at its first read saying what went wrong and what to do: a Promise (a `fetch` not
 * awaited), or a body something else reads or read (a `Response` logged with `text()` first:
 * locked), which the reader would report only as an input that failed. The stream ends as with
 * any body that fails, with an `error` and an `abort` of reason `stream-failed`. A `Response` of
 * an error status keeps its `http-error`; an input whose inspection throws (a Proxy) is the pump's.
 */
function readable(input: ChainInput): ChainInput {
  let message: string | undefined;
  try {
    const value = input as { then?: unknown; headers?: unknown; ok?: boolean; body?: ReadableStream | null };
    if (typeof value.then === "function" && !(Symbol.asyncIterator in input || Symbol.iterator in input))
      message = "The input is a Promise: await it (`streamToolCalls(await fetch(url, init))`).";
    else if (((value.headers === undefined ? input : value.ok && value.body) as ReadableStream | null)?.locked)
      message =
        "The body is already being read, or was read (`response.text()` first): give a body nothing else reads (`response.clone()` to read it twice).";
  } catch {
    return input;
  }
  if (message === undefined) return input;
  const error = new ToolCallStreamError({ code: "stream-failed", message });
  return new ReadableStream({ start: (controller) => controller.error(error) });
}

/**
 * No protocol given: the framing is told from the content type and the first bytes, then the
 * protocol from the first message's shape (a body that gave no message, such as an HTML page, is
 * said by `withProviderHint`).
 */
const DETECTING: ProviderProtocol = withProviderHint(
  withKeptBounds(
    withWholeResponses({
      name: "detected",
      framing: DetectingFraming,
      createDecoder: (emit, limits) => new DetectingDecoder(emit, limits),
      // The protocol is told from the first message: a turn of blocks is kept for any of them.
      turnBlocks,
      // An SDK's objects are not told apart: Bedrock's and Cohere's need their provider's reading.
      messageOf: () => {
        throw new ToolCallStreamError({
          code: "unknown-provider",
          message: "An SDK's chunks are read only with the `provider` option naming their provider.",
        });
      },
    }),
  ),
  undefined,
);

/**
 * The protocol of the `provider` option. A provider that does not exist is the caller's mistake:
 * said at the call, not as a stream error. A protocol of the application's own without a framing
 * is SSE, as documented; detection (no protocol) and the built-in protocols read the content type
 * and the first bytes. A protocol without a writer of an SDK's objects gets `objectJsonText`, and
 * one of the application's own without the `turnBlocks` plug-in gets it (a built-in one names it,
 * or has turns of text, then calls). A built-in one given by its name says, with one
 * `unknown-provider` error, a body of another protocol (`withProviderHint`).
 */
function protocolOf(provider: Provider | ProviderProtocol | undefined): ProviderProtocol {
  if (provider === undefined) return DETECTING;
  const protocol = providerProtocol(provider);
  const blocks = typeof provider === "string" ? protocol.turnBlocks : blocksOf(protocol);
  // An SDK's objects are written by `JSON.stringify`'s rules (a provider subpath's, as JSON data);
  // what is kept for the next turn is bounded by `maxDepth`. Made once per protocol, apart for a
  // built-in one given by its name and one given as itself.
  const made = typeof provider === "string" ? NAMED : GIVEN;
  let written = made.get(protocol);
  if (!written) {
    written = withKeptBounds(
      withWholeResponses({ ...protocol, jsonText: protocol.jsonText ?? objectJsonText, turnBlocks: blocks }),
    );
    if (typeof provider === "string") written = withProviderHint(written, provider);
    made.set(protocol, written);
  }
  return written;
}

/** Each protocol with the writer of an SDK's objects and its plug-in for a turn of blocks: of a name, of a protocol given. */
const NAMED = new WeakMap<ProviderProtocol, ProviderProtocol>();
const GIVEN = new WeakMap<ProviderProtocol, ProviderProtocol>();

/**
 * The framing of a protocol in the main entry: its own, SSE for one of the application's that
 * names none, and for a built-in one whose bodies are SSE, SSE or (a first `{`) the NDJSON of an
 * SDK's `toReadableStream()`, which a provider subpath reads with the `framing` option, or with the
 * content type `application/json` a whole response (`SseOrNdjsonFraming`, read by `withWholeResponses`);
 * Bedrock's event stream, or a whole Converse response (`wholeFraming`). Detection's and a built-in
 * one's tell a body that gave no message (`hintedFraming`).
 */
function framingOf(protocol: ProviderProtocol, provider: Provider | ProviderProtocol | undefined): FramingClass {
  const framing = protocol.framing ?? SSEDecoder;
  if (typeof provider === "object") return framing;
  return hintedFraming(
    provider === undefined ? framing : framing === SSEDecoder ? SseOrNdjsonFraming : wholeFraming(framing),
  );
}

/** `repair: false` of the main entry: nothing repaired, where and why the text is not JSON still given. */
const positionOnly: Repair = (text, options) => unrepaired(text, options.maxDepth ?? 64);

/**
 * The main entry's options with the plug-ins it bundles: `partialArguments: true` is the
 * incremental parser, repair is on unless `repair: false` (which still gives the position of
 * arguments that are not JSON), the `clock`'s times are stamped by `toolCallTimings`, the tools
 * given by a validator are run by `validateToolCalls`, and a call of OpenAI's parallel wrapper is
 * its calls (`parallelUnwrapper`) (a provider subpath's `streamToolCalls` takes each as a plug-in,
 * so that a bundle holds them only when the app imports them).
 */
function withPlugins<Options extends StreamToolCallsOptions<readonly ToolDefinition[]>>(options: Options): Options {
  const { repair } = options;
  return {
    ...options,
    partialArguments: options.partialArguments === true ? IncrementalJsonParser : options.partialArguments,
    repair: repair === false ? positionOnly : repair === true || repair === undefined ? repairJson : repair,
    validateToolCalls: options.validateToolCalls ?? validateToolCalls,
    unwrapParallel: options.unwrapParallel ?? parallelUnwrapper,
    toolCallTimings: options.toolCallTimings ?? toolCallTimings,
    sdkChunks: options.sdkChunks ?? sdkChunks,
  };
}
