import type { ProviderProtocol } from "../providers/provider-decoder.ts";
import { chunkReader, type ChunkReader } from "../shared/chunk-reader.ts";
import { toErrorInfo, type StreamErrorInfo } from "../shared/errors.ts";
import type { ToolCallEvent } from "../shared/events.ts";
import { readErrorBody } from "./error-body.ts";
import { ToolCallChain, type ToolCallChainOptions } from "./tool-call-chain.ts";

/** What the pump reads: a `Response` (its status checked, its content type given to the framing) or a body. */
export type ChainInput = Response | ReadableStream<Uint8Array>;

/**
 * A {@link ToolCallChain} fed from a body, one step at a time: what both pull adapters
 * (`streamToolCalls`, `streamToolCallBatches`) share. It opens the input (an HTTP error status
 * becomes the chain's `http-error`), reads the body with {@link chunkReader}, follows `signal`,
 * and calls `close` once the chain has ended and nothing is held back. Not exported by the package.
 */
export class ChainPump {
  readonly #chain: ToolCallChain;
  readonly #response: Response | undefined;
  readonly #body: ReadableStream<Uint8Array> | null;
  readonly #signal: AbortSignal | undefined;
  readonly #close: () => void;
  #reader: ChunkReader | undefined;
  /** A read not ready when the last step gave up on it: the next step takes it. */
  #pending: Promise<ReadableStreamReadResult<Uint8Array>> | undefined;
  /** The output is closed (or cancelled): nothing more goes out. */
  closed = false;

  constructor(
    input: ChainInput,
    protocol: ProviderProtocol,
    options: Omit<ToolCallChainOptions, "onStop" | "contentType">,
    emit: (event: ToolCallEvent) => void,
    close: () => void,
    signal: AbortSignal | undefined,
  ) {
    // Duck-typed rather than `instanceof`: a Response from another realm or fetch polyfill
    // (workerd's test runner, undici in Node) is still a Response.
    const response = typeof (input as ReadableStream).getReader === "function" ? undefined : (input as Response);
    this.#response = response;
    this.#body = response ? response.body : (input as ReadableStream<Uint8Array>);
    this.#signal = signal;
    this.#close = close;
    this.#chain = new ToolCallChain(protocol, emit, {
      ...options,
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
    if (response && !response.ok) return this.#failHttp(response);
    if (!this.#body) {
      this.#chain.end();
      return this.#finish();
    }
    this.#reader = chunkReader(this.#body);
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
    if (chain.queued === 0) return false;
    chain.decode(one ? 1 : undefined);
    return true;
  }

  /** The next chunk of the body (a read an earlier step gave up waiting for, if any). */
  read(): Promise<ReadableStreamReadResult<Uint8Array>> {
    const read = this.#pending ?? this.#reader!.read();
    this.#pending = undefined;
    return read;
  }

  /** Keeps a read that was not ready for the next step. */
  keep(read: Promise<ReadableStreamReadResult<Uint8Array>>): void {
    this.#pending = read;
  }

  /**
   * Takes what a read gave: a chunk is fed (and one or all of its messages decoded); the end ends
   * the chain, then (a promise) waits for what the steps hold and closes; an error of the read
   * ends the chain with an `error` and an `abort`.
   */
  take(result: ReadableStreamReadResult<Uint8Array> | { error: unknown }, one: boolean): Promise<void> | undefined {
    if (this.closed) return;
    if ("error" in result) return void this.#fail(toErrorInfo(result.error));
    if (!result.done) return void this.#chain.feed(result.value, one ? 1 : undefined);
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
    this.#chain.fail(error);
    this.#finish();
  }

  async #failHttp(response: Response): Promise<void> {
    const error: StreamErrorInfo = {
      code: "http-error",
      status: response.status,
      message: `The provider answered with HTTP ${response.status}.`,
    };
    const data = await readErrorBody(response);
    if (data !== undefined) error.data = data;
    this.#fail(error);
  }

  #finish(): void {
    if (this.closed) return;
    this.closed = true;
    this.#signal?.removeEventListener("abort", this.#onAbort);
    this.#close();
  }
}
