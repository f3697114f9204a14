import type { FramedMessage, FramingClass } from "../framing/framing.ts";
import type { ProviderProtocol } from "../providers/provider-decoder.ts";
import { chunkReader } from "../shared/chunk-reader.ts";
import { httpErrorInfo } from "../shared/error-body.ts";
import { toErrorInfo, ToolCallStreamError, type StreamErrorInfo } from "../shared/errors.ts";
import type { ToolCallEvent } from "../shared/events.ts";
import { FramedChain, type ToolCallChainOptions } from "./framed-chain.ts";
import type { ChainInput, InputRead, InputReader, SdkChunkReading, SdkChunks } from "./sdk-chunks.ts";

export type { ChainInput, InputRead } from "./sdk-chunks.ts";

/** The error of an SDK's chunks given without the plug-in that reads them. */
const NO_SDK_CHUNKS: StreamErrorInfo = {
  code: "unknown-provider",
  message: "An SDK's chunks need `sdkChunks` (from tool-call-stream/core).",
};

/** Why the body is cancelled once the provider's own end of the response was read. */
const ENDED = "The response ended.";

/**
 * A {@link ToolCallChain} fed from a body, one step at a time: what both pull adapters
 * (`streamToolCalls`, `streamToolCallBatches`) share. It opens the input (an HTTP error status
 * becomes the chain's `http-error`), reads the body with {@link chunkReader}, follows `signal`,
 * and calls `close` once the chain has ended and nothing is held back. Not exported by the package.
 */
export class ChainPump {
  readonly #chain: FramedChain;
  readonly #response: Response | undefined;
  readonly #body: ReadableStream<unknown> | AsyncIterable<unknown> | Iterable<unknown> | null;
  /** How the protocol's SDK objects are read (the `sdkChunks` plug-in), if given. */
  readonly #sdk: SdkChunkReading | undefined;
  /** What inspecting or opening the input threw. */
  #inputError: unknown;
  /** The input gave an SDK's objects (not bytes). */
  #objects = false;
  readonly #signal: AbortSignal | undefined;
  readonly #close: () => void;
  #reader: InputReader | undefined;
  /** The output is closed (or cancelled): nothing more goes out. */
  closed = false;

  constructor(
    input: ChainInput,
    protocol: ProviderProtocol,
    framing: FramingClass,
    options: Omit<ToolCallChainOptions, "onStop" | "contentType"> & { sdkChunks?: SdkChunks | undefined },
    emit: (event: ToolCallEvent) => void,
    close: () => void,
    signal: AbortSignal | undefined,
  ) {
    // Duck-typed rather than `instanceof`: a Response from another realm or fetch polyfill
    // (workerd's test runner, undici in Node) is still a Response. A Response is not iterable;
    // a stream and an SDK's stream are. An object without `headers` is no Response either: an
    // SDK's whole answer (asked for without `stream: true`), which the objects' reader refuses.
    let body = true;
    try {
      body =
        typeof (input as ReadableStream).getReader === "function" ||
        Symbol.asyncIterator in input ||
        Symbol.iterator in input ||
        !(input as Response).headers;
    } catch (error) {
      // A Proxy whose trap throws: `start` ends the chain with the error.
      this.#inputError = error;
    }
    const response = body ? undefined : (input as Response);
    this.#response = response;
    this.#body = response
      ? response.body
      : (input as ReadableStream<unknown> | AsyncIterable<unknown> | Iterable<unknown>);
    this.#sdk = options.sdkChunks?.(protocol);
    this.#signal = signal;
    this.#close = close;
    this.#chain = new FramedChain(protocol, framing, emit, {
      ...options,
      // What a turn of blocks holds is kept for the protocols of such turns: the protocol names the plug-in.
      turnBlocks: protocol.turnBlocks,
      contentType: response?.headers.get("content-type") ?? undefined,
      onStop: (reason) => {
        // A limit was exceeded, the bytes could not be framed, or a call violated its schema with `abortOnViolation`.
        void this.#reader?.cancel(reason).catch(() => {});
        this.#finish();
      },
    });
  }

  /** Opens the input: an HTTP error status or a missing body ends the chain at once. */
  async start(): Promise<void> {
    const response = this.#response;
    if (response && !response.ok) {
      // The error body is read as the body would be: a cancel or an abort meanwhile cancels it.
      const info = await httpErrorInfo(response, (reader) => {
        this.#reader = reader as InputReader;
        if (this.#signal?.aborted) return this.#onAbort();
        this.#signal?.addEventListener("abort", this.#onAbort, { once: true });
      });
      if (this.closed) return;
      return this.#fail(info);
    }
    if (!this.#body) {
      this.#chain.end();
      return this.#finish();
    }
    const body = this.#body;
    try {
      if (this.#inputError !== undefined) throw this.#inputError;
      if (typeof (body as ReadableStream).getReader === "function")
        this.#reader = chunkReader(body as ReadableStream<Uint8Array>) as InputReader;
      else if (this.#sdk) this.#reader = this.#sdk.reader(body as AsyncIterable<unknown> | Iterable<unknown>);
      else throw new ToolCallStreamError(NO_SDK_CHUNKS);
    } catch (error) {
      return this.#fail(toErrorInfo(error));
    }
    if (this.#signal?.aborted) return this.#onAbort();
    this.#signal?.addEventListener("abort", this.#onAbort, { once: true });
  }

  /**
   * The work a step can do at once: decodes queued messages (one with `one`) and returns `true`;
   * else a promise while a step holds events back (then step again); else `false`: read.
   */
  work(one: boolean): PromiseLike<void> | boolean {
    const chain = this.#chain;
    if (chain.held) return chain.released();
    if (chain.closed) {
      // The provider ended its response (`[DONE]`, `message_stop`, its in-stream error): a body it
      // keeps open after that is cancelled, not waited on.
      void this.#reader?.cancel(ENDED).catch(() => {});
      this.#finish();
      return true;
    }
    if (chain.queued === 0) return false;
    chain.decode(one ? 1 : undefined);
    return true;
  }

  /**
   * The next chunk of the body, or the error the read failed with (a network error), for
   * {@link ChainPump.take}: it never rejects.
   */
  read(): Promise<InputRead | { error: unknown }> {
    return this.#reader!.read().then(undefined, (error: unknown) => ({ error }));
  }

  /**
   * Takes what a read gave: a chunk is fed (and one or all of its messages decoded); the end ends
   * the chain, then (a promise) waits for what the steps hold and closes; an error of the read
   * ends the chain with an `error` and an `abort`.
   */
  take(result: InputRead | { error: unknown }, one: boolean): Promise<void> | undefined {
    if (this.closed) return;
    if ("error" in result) return void this.#fail(toErrorInfo(result.error));
    if (!result.done) {
      const value = result.value;
      if (ArrayBuffer.isView(value)) return void this.#chain.feed(value as Uint8Array, one ? 1 : undefined);
      let message: FramedMessage;
      try {
        if (!this.#sdk) throw new ToolCallStreamError(NO_SDK_CHUNKS);
        message = this.#sdk.message(value);
      } catch (error) {
        // An SDK's object whose getter or Proxy trap threw: not a payload (the error may quote it).
        void this.#reader?.cancel(error).catch(() => {});
        return void this.#fail(toErrorInfo(error));
      }
      this.#objects = true;
      return void this.#chain.push(message);
    }
    const end = this.#objects && this.#sdk?.end;
    if (end) this.#chain.push(end);
    this.#chain.end();
    return this.#chain.released().then(() => this.#finish());
  }

  /** The output was cancelled: the body is cancelled too (which stops a fetch). */
  async cancel(reason: unknown): Promise<void> {
    this.closed = true;
    this.#signal?.removeEventListener("abort", this.#onAbort);
    await this.#reader?.cancel(reason);
  }

  readonly #onAbort = (): void => {
    this.#chain.abort();
    void this.#reader?.cancel(this.#signal?.reason).catch(() => {});
    this.#finish();
  };

  #fail(error: StreamErrorInfo): void {
    this.#chain.end(error);
    this.#finish();
  }

  #finish(): void {
    if (this.closed) return;
    this.closed = true;
    this.#signal?.removeEventListener("abort", this.#onAbort);
    this.#close();
  }
}
