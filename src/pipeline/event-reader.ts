import type { TypedToolCallEvent } from "../schema/tool-types.ts";
import type { ToolDefinition } from "../schema/tool-schema.ts";
import type { FramingClass } from "../framing/framing.ts";
import type { ProviderProtocol } from "../providers/provider-decoder.ts";
import type { BatchReader } from "./batch-channel.ts";
import type { ChainInput } from "./chain-pump.ts";
import type { EventChannel } from "./event-channel.ts";
import { eventChain, type ProtocolStreamOptions } from "./tool-call-streams.ts";

/**
 * `toolCallEventStream`'s events with no stream: the same chain, read one event a `read`
 * (its `start` now, the chain run only when no event is made yet, `cancel` at once).
 *
 * @example
 * ```ts
 * const reader = toolCallEventSource(openAIChatProtocol, TextFraming, response, { tools });
 * ```
 */
export function toolCallEventSource<const Tools extends readonly ToolDefinition[] = readonly ToolDefinition[]>(
  protocol: ProviderProtocol,
  framing: FramingClass,
  input: ChainInput,
  options: ProtocolStreamOptions<Tools> = {},
): BatchReader<TypedToolCallEvent<Tools>> {
  return eventChain(protocol, framing, input, options, (channel, open, cancel) => {
    channel.source();
    const reader = new EventReader(channel, cancel);
    open().catch(() => undefined); // a failed open fails the first read, whose step awaits it
    return reader;
  }) as BatchReader<TypedToolCallEvent<Tools>>;
}

/** A read of an {@link EventReader}: an event, or the end. */
type EventRead<T> = { done: false; value: T } | { done: true; value?: undefined };

/**
 * The reader of an {@link EventChannel} with no stream (`EventChannel.source`): a default reader's `read` and `cancel` over the
 * chain's events, one a read, with no stream. Reads are answered in order; once a read failed,
 * every later one fails the same; `cancel` stops the chain at once and ends reads still waiting.
 */
export class EventReader<T> implements BatchReader<T> {
  readonly #channel: EventChannel<T>;
  #cancel: ((reason: unknown) => Promise<void>) | undefined;
  /** The last read that waits for the chain: a later one waits for it in turn. */
  #ongoing: Promise<EventRead<T>> | undefined;
  #failed: { error: unknown } | undefined;
  #done = false;

  constructor(channel: EventChannel<T>, cancel: (reason: unknown) => Promise<void>) {
    this.#channel = channel;
    this.#cancel = cancel;
  }

  read(): Promise<EventRead<T>> {
    const ongoing = this.#ongoing;
    if (!ongoing) return this.#read();
    const next = (): Promise<EventRead<T>> => this.#read();
    return this.#track(ongoing.then(next, next));
  }

  cancel(reason?: unknown): Promise<void> {
    if (this.#failed) return Promise.reject(this.#failed.error);
    this.#done = true;
    const cancel = this.#cancel;
    this.#cancel = undefined;
    // Once the chain ended there is nothing to stop (a stream's cancel after its close does nothing).
    return cancel && !this.#channel.ended ? cancel(reason) : Promise.resolve();
  }

  #read(): Promise<EventRead<T>> {
    if (this.#failed) return Promise.reject(this.#failed.error);
    if (this.#done) return Promise.resolve(ENDED);
    const event = this.#channel.take();
    if (event === null) return this.#end();
    if (event !== undefined) return Promise.resolve({ done: false, value: event });
    return this.#track(
      this.#channel.step().then(
        () => {
          // A step ends once it made an event or the chain ended (or it was cancelled).
          const made = this.#done ? null : this.#channel.take();
          return made === null || made === undefined ? this.#end() : { done: false, value: made };
        },
        (error: unknown) => {
          if (!this.#done) this.#failed = { error };
          this.#done = true;
          this.#cancel = undefined;
          throw error;
        },
      ),
    );
  }

  #end(): Promise<EventRead<T>> {
    this.#done = true;
    this.#cancel = undefined;
    return Promise.resolve(ENDED);
  }

  /** Makes `read` the one later reads wait for, until it settles. */
  #track(read: Promise<EventRead<T>>): Promise<EventRead<T>> {
    this.#ongoing = read;
    const settled = (): void => {
      if (this.#ongoing === read) this.#ongoing = undefined;
    };
    read.then(settled, settled);
    return read;
  }
}

const ENDED: EventRead<never> = { done: true, value: undefined };
