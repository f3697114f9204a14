import type { TypedToolCallEvent } from "../schema/tool-types.ts";
import type { ToolDefinition } from "../schema/tool-schema.ts";
import type { FramingClass } from "../framing/framing.ts";
import type { ProviderProtocol } from "../providers/provider-decoder.ts";
import type { ToolCallEvent } from "../shared/events.ts";
import { settlesSoon } from "../shared/settles-soon.ts";
import { chainOptions } from "./chain-options.ts";
import { ChainPump, type ChainInput } from "./chain-pump.ts";
import { BatchChannel, type BatchReader } from "./batch-channel.ts";
import { EventChannel } from "./event-channel.ts";
import type { StreamToolCallBatchesOptions, StreamToolCallsOptions } from "./stream-tool-calls-options.ts";
import { platformTimers } from "../shared/timers.ts";

/** Options of a `streamToolCalls` bound to one protocol: those of `streamToolCalls` but `provider`. */
export type ProtocolStreamOptions<Tools extends readonly ToolDefinition[] = readonly ToolDefinition[]> = Omit<
  StreamToolCallsOptions<Tools>,
  "provider"
>;

/** Options of a `streamToolCallBatches` bound to one protocol: those of `streamToolCallBatches` but `provider`. */
export type ProtocolBatchOptions<Tools extends readonly ToolDefinition[] = readonly ToolDefinition[]> = Omit<
  StreamToolCallBatchesOptions<Tools>,
  "provider"
>;

/** Most events in one array of `streamToolCallBatches` before it is passed on, ready chunks or not. */
const MAX_BATCH = 4096;
/**
 * Most bytes of the body one array of `streamToolCallBatches` reads on for (one full read of
 * `chunkReader`): a fast provider always has its next chunk ready, so without it a consumer that
 * does not read (a slow client) would have megabytes of the body read ahead of it, and held.
 */
const MAX_BATCH_BYTES = 64 * 1024;

/**
 * The pull adapter of events: `streamToolCalls` over the chain of `protocol`, read with the
 * `framing` option or else `framing` (the protocol's own, or SSE for one that names none: the
 * caller's choice, so that a bundle holds no framing it does not read). A pull reads until
 * it produced an event (a pull that enqueues nothing is not repeated); each network chunk goes
 * through the chain's synchronous core in one call, so a delta costs no stream hop between stages.
 * With partial arguments, one message per step, so that a live `partialArguments` value is not
 * advanced by later messages before the consumer read the event carrying it.
 *
 * @example
 * ```ts
 * const events = toolCallEventStream(openAIChatProtocol, TextFraming, response, { tools });
 * ```
 */
export function toolCallEventStream<const Tools extends readonly ToolDefinition[] = readonly ToolDefinition[]>(
  protocol: ProviderProtocol,
  framing: FramingClass,
  input: ChainInput,
  options: ProtocolStreamOptions<Tools> = {},
): ReadableStream<TypedToolCallEvent<Tools>> {
  // `for await` reads the chain's events without a read of the stream per event (see EventChannel).
  return eventChain(protocol, framing, input, options, (channel, open, cancel) =>
    channel.stream(open, cancel),
  ) as ReadableStream<TypedToolCallEvent<Tools>>;
}

/**
 * What `make` makes of the channel of a chain of events, its `start` and its `cancel`: the stream of
 * `toolCallEventStream`, the reader of `toolCallEventSource`.
 *
 * @example
 * ```ts
 * const stream = eventChain(openAIChatProtocol, TextFraming, response, {}, (channel, open, cancel) => channel.stream(open, cancel));
 * ```
 */
export function eventChain<R>(
  protocol: ProviderProtocol,
  framing: FramingClass,
  input: ChainInput,
  options: ProtocolStreamOptions<readonly ToolDefinition[]>,
  make: (
    channel: EventChannel<ToolCallEvent>,
    open: () => Promise<void>,
    cancel: (reason: unknown) => Promise<void>,
  ) => R,
): R {
  const stepwise = !!options.partialArguments;
  // Made here, not in `start`: options it cannot take throw at the call in every runtime.
  const chain = chainOptions(options);
  let pump: ChainPump;
  /** The input being opened (`start`), until it is. */
  let opening: Promise<void> | undefined;
  const channel = new EventChannel<ToolCallEvent>(async () => {
    if (opening) await opening;
    const before = channel.emitted;
    while (!pump.closed && channel.emitted === before) {
      const work = pump.work(stepwise);
      if (work === true) continue;
      if (work !== false) {
        await work;
        continue;
      }
      const ended = pump.take(await pump.read(), stepwise);
      if (ended) await ended;
    }
  });
  return make(
    channel,
    (): Promise<void> => {
      pump = new ChainPump(
        input,
        protocol,
        options.framing ?? framing,
        chain,
        channel.emit,
        channel.close,
        options.signal,
      );
      // workerd may call pull before an async start settles, so pull waits for this itself
      // (only until it has settled: an await per pull costs a turn of the microtask queue).
      opening = pump.start().then(() => void (opening = undefined));
      return opening;
    },
    (reason) => pump.cancel(reason),
  );
}

/**
 * The pull adapter of arrays: `streamToolCallBatches` over the chain of `protocol`. A pull reads
 * on while the body has its next chunk ready (up to 4096 events or 64 KiB of the body) and passes on what it made as one
 * array; the first message's events go out alone, as early as they would one by one. With
 * `batchWindowMs`, an array made within the window after the last one is held while the pull
 * reads on, and a timer passes it on when the window closes (the pull ends then, so a consumer
 * that does not read holds at most one array in the queue and nothing more is read).
 *
 * @example
 * ```ts
 * const batches = toolCallBatchStream(anthropicProtocol, TextFraming, response, { batchWindowMs: 25 });
 * ```
 */
export function toolCallBatchStream<const Tools extends readonly ToolDefinition[] = readonly ToolDefinition[]>(
  protocol: ProviderProtocol,
  framing: FramingClass,
  input: ChainInput,
  options: ProtocolBatchOptions<Tools> = {},
): ReadableStream<TypedToolCallEvent<Tools>[]> {
  const { channel, open, cancel } = batchChain(protocol, framing, input, options);
  // `batchReader` reads the arrays without a read of the stream per array (see BatchChannel).
  return channel.stream(open, cancel) as ReadableStream<TypedToolCallEvent<Tools>[]>;
}

/**
 * {@link toolCallBatchStream}'s arrays with no stream: the same chain, read as `batchReader`
 * reads its stream (its `start` now, its pulls on `read`, `cancel` at once).
 *
 * @example
 * ```ts
 * const reader = toolCallBatchSource(anthropicProtocol, TextFraming, response, { batchWindowMs: 25 });
 * ```
 */
export function toolCallBatchSource<const Tools extends readonly ToolDefinition[] = readonly ToolDefinition[]>(
  protocol: ProviderProtocol,
  framing: FramingClass,
  input: ChainInput,
  options: ProtocolBatchOptions<Tools> = {},
): BatchReader<TypedToolCallEvent<Tools>[]> {
  const { channel, open, cancel } = batchChain(protocol, framing, input, options);
  return channel.source(open, cancel) as BatchReader<TypedToolCallEvent<Tools>[]>;
}

/** The channel of a chain of arrays, and its `start` and `cancel`. */
function batchChain(
  protocol: ProviderProtocol,
  framing: FramingClass,
  input: ChainInput,
  options: ProtocolBatchOptions<readonly ToolDefinition[]>,
): { channel: BatchChannel<ToolCallEvent[]>; open: () => Promise<void>; cancel: (reason: unknown) => Promise<void> } {
  const stepwise = !!options.partialArguments;
  const chain = chainOptions(options);
  const windowMs = options.batchWindowMs ?? 0;
  const timers = options.timers ?? platformTimers;
  const now = (): number => (timers.now ? timers.now() : Date.now());
  let pump: ChainPump;
  let enqueued = 0;
  let batch: ToolCallEvent[] = [];
  /** Arrays passed on: a pull ends once one went (by itself, or by the window's timer). */
  let passed = 0;
  let lastPassed = Number.NEGATIVE_INFINITY;
  let timer: unknown;
  /** A read not ready when the last pull gave up on it: the next pull takes it. */
  let pending: ReturnType<ChainPump["read"]> | undefined;
  const clear = (): void => {
    if (timer !== undefined) timers.clearTimeout(timer);
    timer = undefined;
  };
  /** An array now would come within the window after the last one. */
  const holding = (): boolean => windowMs > 0 && now() - lastPassed < windowMs;
  let ready: Promise<void> = Promise.resolve();
  let started = false;
  const channel = new BatchChannel<ToolCallEvent[]>(async () => {
    if (!started) await ready;
    // Events a validator released, or a window held, after the last pull ended: they go now,
    // or when their window closes while this pull reads on.
    if (batch.length > 0 && !holding()) return flush();
    const before = enqueued;
    const passedBefore = passed;
    let bytes = 0;
    while (
      !pump.closed &&
      passed === passedBefore &&
      (enqueued === before || (before > 0 && batch.length < MAX_BATCH && bytes < MAX_BATCH_BYTES))
    ) {
      // The first message's events of a response go out alone, as early as one by one.
      const one = stepwise || enqueued === 0;
      const work = pump.work(one);
      if (work === true) continue;
      if (work !== false) {
        await work;
        continue;
      }
      const read = pending ?? pump.read();
      pending = undefined;
      // Events to pass on, and the next chunk not ready: a window holds them while this reads
      // on (its timer passes them on), else they go now. A ready read arms no timer (a small
      // answer's rest or end comes in the same turns: a timer set and cleared at once).
      if (batch.length > 0 && !(await settlesSoon(read))) {
        if (holding()) timer ??= timers.setTimeout(flush, lastPassed + windowMs - now());
        else {
          pending = read;
          break;
        }
      }
      const result = await read;
      if ("value" in result && ArrayBuffer.isView(result.value)) bytes += result.value.byteLength;
      const ended = pump.take(result, one);
      if (ended) await ended;
    }
    // Unless the window's timer passed an array on meanwhile, what was made goes now: the loop
    // ends holding events only when they are due (nothing ready, window closed) or too many.
    if (passed === passedBefore) flush();
  });
  const flush = (): void => {
    clear();
    if (batch.length === 0) return;
    const out = batch;
    batch = [];
    passed++;
    if (windowMs > 0) lastPassed = now();
    channel.emit(out);
  };
  const open = (): Promise<void> => {
    const emit = (event: ToolCallEvent): void => {
      enqueued++;
      batch.push(event);
    };
    const close = (): void => {
      flush();
      channel.close();
    };
    pump = new ChainPump(input, protocol, options.framing ?? framing, chain, emit, close, options.signal);
    ready = pump.start().then(() => void (started = true));
    return ready;
  };
  const cancel = (reason: unknown): Promise<void> => {
    clear();
    return pump.cancel(reason);
  };
  return { channel, open, cancel };
}
