import type { FramedMessage } from "../framing/framing.ts";
import type { ProviderProtocol } from "../providers/provider-decoder.ts";
import { isInstance, ToolCallStreamError } from "../shared/errors.ts";

/**
 * What an SDK's streaming call yields: its parsed chunks or events, as an async iterable (an
 * SDK's `Stream`), a `ReadableStream` of objects, or objects already at hand (an array).
 */
export type ProviderChunks = AsyncIterable<object> | Iterable<object> | ReadableStream<object>;

/**
 * What `streamToolCalls` reads: a `Response` (its status checked, its content type given to the
 * framing), a body, or an SDK's parsed chunks ({@link ProviderChunks}, with the {@link sdkChunks}
 * plug-in), which skip the framing.
 */
export type ChainInput = Response | ReadableStream<Uint8Array> | ProviderChunks;

/** A read of the input: bytes, or an SDK's object. */
export type InputRead = { done: false; value: unknown } | { done: true; value?: unknown };

/** How the pump reads its input: a reader's `read` and `cancel`. */
export interface InputReader {
  /** The next chunk or object; `done` at the end. */
  read(): Promise<InputRead>;
  /** Stops the input (an SDK's iterator returned, which aborts its request). */
  cancel(reason?: unknown): Promise<void>;
}

/** How `streamToolCalls` reads one protocol's SDK objects: what {@link SdkChunks} makes of a protocol. */
export interface SdkChunkReading {
  /** A reader of an SDK's async iterable (its `Stream`) or an iterable of objects at hand. */
  reader(iterable: AsyncIterable<unknown> | Iterable<unknown>): InputReader;
  /** The message of one object; throws a `ToolCallStreamError` for one that cannot be read. */
  message(value: unknown): FramedMessage;
  /** The message after the last object, when the protocol's bytes end with one (OpenAI Chat's `[DONE]`). */
  end: FramedMessage | undefined;
}

/**
 * The plug-in that reads an SDK's parsed chunks (an async iterable, an iterable, or a
 * `ReadableStream` of objects) in `streamToolCalls`: given a protocol, how its objects become
 * messages. The main entry's `streamToolCalls` brings it; a provider subpath's takes it as
 * `sdkChunks` (from `tool-call-stream/core`), so that a bundle that reads bytes alone holds none
 * of it. Without it, a subpath given an SDK's chunks ends with an `unknown-provider` error naming it.
 */
export type SdkChunks = (protocol: ProviderProtocol) => SdkChunkReading;

/** The error of an SDK's object that could not be read. */
const UNREADABLE = "An SDK's chunk could not be read; the stream ended.";

/** The error of an input that is no stream: most often an SDK's whole answer (a JavaScript caller's). */
const NOT_A_STREAM = {
  code: "stream-failed",
  message:
    "The input is not a Response, a body or an SDK's stream (a whole response, asked for without `stream: true`?).",
} as const;

/**
 * A reader of an async iterable. Cancelling calls the iterator's `return()` (an SDK's stream
 * aborts its request there) without waiting for it: a read still pending may never settle.
 */
function iterableReader(iterable: AsyncIterable<unknown> | Iterable<unknown>): InputReader {
  if (!(Symbol.asyncIterator in iterable || Symbol.iterator in iterable)) throw new ToolCallStreamError(NOT_A_STREAM);
  const iterator = Symbol.asyncIterator in iterable ? iterable[Symbol.asyncIterator]() : iterable[Symbol.iterator]();
  return {
    read: async () => {
      const result = await iterator.next();
      return result.done ? { done: true, value: undefined } : { done: false, value: result.value };
    },
    cancel: async (reason) => {
      // The reason goes along as `return`'s value: an iterator of the application's own (a body
      // read under a watch) passes it on to what it cancels; an SDK's ignores it. A `return` that
      // throws or rejects has nothing left to stop: the stream has ended either way.
      try {
        const returned = iterator.return?.(reason);
        if (returned) void Promise.resolve(returned).catch(() => {});
      } catch {
        return;
      }
    },
  };
}

/**
 * Reads an SDK's parsed chunks for `streamToolCalls`: each object is a message of the protocol
 * (its own `messageOf`, else the object as the payload), its objects' arguments written by the
 * protocol's `jsonText` when it has one, and the protocol's `endOfObjects` after the last. An
 * object whose getter or Proxy trap throws ends the stream with a `malformed-payload` error (the
 * thrown error may quote the data: never passed on).
 *
 * @example
 * ```ts
 * import { sdkChunks } from "tool-call-stream/core";
 * import { streamToolCalls } from "tool-call-stream/openai";
 * const stream = await openai.chat.completions.create({ model, messages, tools, stream: true });
 * for await (const event of streamToolCalls(stream, { sdkChunks })) console.log(event.type);
 * ```
 */
export const sdkChunks: SdkChunks = (protocol: ProviderProtocol): SdkChunkReading => {
  const { messageOf = (value: unknown): FramedMessage => ({ data: "", value }), jsonText } = protocol;
  return {
    reader: iterableReader,
    message(value: unknown): FramedMessage {
      try {
        return jsonText ? { ...messageOf(value), jsonText } : messageOf(value);
      } catch (error) {
        if (isInstance(error, ToolCallStreamError)) throw error;
        throw new ToolCallStreamError({ code: "malformed-payload", message: UNREADABLE });
      }
    },
    end: protocol.endOfObjects,
  };
};
