import { ToolCallStreamError } from "./errors.ts";
import { accumulatorInternals, ToolCallAccumulator } from "./tool-call-accumulator.ts";
import { streamAccumulator, type ToolCallAccumulatorStream } from "./tool-call-accumulator-stream.ts";
import type { OpenToolCall } from "./tool-call-registry.ts";
import type { FinishReason, InvalidToolCall, ReasoningPart, ToolCall, Usage } from "./types.ts";

// Snapshots are a separate module, reaching into the accumulator through an internal accessor,
// so that the core chain of a bundle that never snapshots does not carry this code.

/** One open call in a {@link AccumulatorSnapshot}: its fields, with the arguments as text. */
export interface SavedToolCall {
  /** The call's index, as events report it. */
  index: number;
  /** The choice it belongs to (`0` for the first). */
  choice: number;
  /** The provider's own index, the correlation key when it sends one. */
  providerIndex: number | undefined;
  /** The provider's call id, or `null` while none came. */
  id: string | null;
  /** The function name received so far. */
  name: string;
  /** The arguments text received so far; a restore feeds it again to rebuild parser state. */
  rawArguments: string;
  /** True once its `tool-call-start` was emitted. */
  started: boolean;
  /** Other fields of the open call (provider metadata, input format), kept as they were. */
  [field: string]: unknown;
}

/** The call-correlation state of a {@link AccumulatorSnapshot}. */
export interface RegistrySnapshot {
  /** Open calls, in the order they were opened. */
  open: SavedToolCall[];
  /** Per choice, the index of the most recent open call (the target of fragments with no index or id). */
  latest: [choice: number, index: number][];
  /** Per choice, the indexes already given and the next free one. */
  used: [choice: number, indexes: number[], next: number][];
  /** Calls opened so far, for the `maxToolCalls` limit. */
  count: number;
}

/**
 * The whole state of a {@link ToolCallAccumulator} between two deltas, as plain JSON, taken by
 * {@link snapshotAccumulator}: it can be stored (`JSON.stringify`) and given to
 * {@link restoreAccumulator}, and the restored accumulator continues exactly where the first one
 * stopped.
 */
export interface AccumulatorSnapshot {
  /**
   * The snapshot format: 2 since open calls no longer carry `bytes` (0.1.0 wrote 1). A restore of
   * another version is refused.
   */
  version: 2;
  /** The open calls and how fragments find them. */
  registry: RegistrySnapshot;
  /** Calls completed so far, for the `finish` event. */
  toolCalls: ToolCall[];
  /** Calls completed with invalid arguments so far, for the `finish` event. */
  invalidToolCalls: InvalidToolCall[];
  /** The provider's finish reason as sent, or `null` before it came. */
  rawReason: string | null;
  /** The normalized finish reason, once known. */
  reason?: FinishReason;
  /** True once the provider's finish came. */
  finishSeen: boolean;
  /** True once the provider reported an error in the stream. */
  providerErrorSeen: boolean;
  /** Token usage reported so far. */
  usage?: Usage;
  /** The text of the first choice so far. */
  text: string;
  /** The reasoning text of the first choice so far. */
  reasoning: string;
  /** True once the accumulator emitted its `finish` or `abort`. */
  closed: boolean;
  /** The reasoning parts so far (signed, redacted, or reasoning items), once one came. */
  reasoningParts?: ReasoningPart[];
}

/** What an accumulator keeps besides its call registry: a snapshot without `version` and `registry`. */
export type AccumulatorState = Omit<AccumulatorSnapshot, "version" | "registry">;

/**
 * The state of an accumulator, or of the accumulator inside a {@link ToolCallAccumulatorStream},
 * between two deltas (for a stream: after a write resolved), as plain JSON. Open calls keep their
 * arguments as text; a restore feeds it again, so partial values and scan state come back too.
 *
 * @example
 * ```ts
 * const saved = JSON.stringify(snapshotAccumulator(accumulatorStream));
 * // ... later, elsewhere, with the same options:
 * const resumed = restoreAccumulator(new ToolCallAccumulatorStream(options), JSON.parse(saved));
 * ```
 */
export function snapshotAccumulator(source: ToolCallAccumulator | ToolCallAccumulatorStream): AccumulatorSnapshot {
  const { state, registry } = internalsOf(source);
  const saved: RegistrySnapshot = {
    open: [...registry.open].map(({ args, ...fields }): SavedToolCall => ({ ...fields, rawArguments: args.text })),
    latest: [...registry.latest].map(([choice, call]) => [choice, call.index]),
    used: [...registry.used].map(([choice, used]) => [choice, [...used.indexes], used.next]),
    count: registry.count,
  };
  // One copy: nothing in the snapshot is shared with the accumulator that goes on.
  return structuredClone({ version: 2, registry: saved, ...state });
}

/**
 * Gives a new accumulator (or {@link ToolCallAccumulatorStream}), made with the options of the
 * one the snapshot was taken from and not yet fed anything, the state of a
 * {@link snapshotAccumulator} snapshot; fed the remaining deltas, it emits exactly the events the
 * first one would have. Returns `target`. Throws a `ToolCallStreamError` of code
 * `invalid-snapshot` for a snapshot of another version, or a target whose state is no longer that
 * of a new accumulator (it has seen calls, text, reasoning, usage, a finish or a provider error).
 *
 * @example
 * ```ts
 * const accumulator = restoreAccumulator(new ToolCallAccumulator((event) => send(event)), snapshot);
 * for (const delta of rest) accumulator.push(delta);
 * accumulator.end();
 * ```
 */
export function restoreAccumulator<T extends ToolCallAccumulator | ToolCallAccumulatorStream>(target: T, snapshot: AccumulatorSnapshot): T {
  const { state, registry } = internalsOf(target);
  if (snapshot.version !== 2) throw invalidSnapshot(`a snapshot of version ${String(snapshot.version)} cannot be restored (this version reads 2)`);
  // Restoring merges into the target's state, so it must be as a new accumulator leaves it.
  const fresh = accumulatorInternals(new ToolCallAccumulator(() => {})).state;
  if (registry.count > 0 || JSON.stringify(state) !== JSON.stringify(fresh)) {
    throw invalidSnapshot("restore into a new accumulator, whose state nothing has changed yet");
  }
  // One copy of the snapshot: the caller keeps theirs, and nothing restored shares with it.
  const { version: _version, registry: saved, ...rest } = structuredClone(snapshot);
  Object.assign(state, rest);
  for (const { rawArguments, ...fields } of saved.open) {
    const call = { ...fields, args: registry.newBuffer() } as OpenToolCall;
    call.args.append(rawArguments);
    registry.track(call);
  }
  for (const [choice, index] of saved.latest) {
    const call = [...registry.open].find((open) => open.choice === choice && open.index === index);
    if (call) registry.latest.set(choice, call);
  }
  for (const [choice, indexes, next] of saved.used) registry.used.set(choice, { indexes: new Set(indexes), next });
  registry.count = saved.count;
  return target;
}

function internalsOf(source: ToolCallAccumulator | ToolCallAccumulatorStream): ReturnType<typeof accumulatorInternals> {
  return accumulatorInternals(source instanceof ToolCallAccumulator ? source : streamAccumulator(source));
}

function invalidSnapshot(reason: string): ToolCallStreamError {
  return new ToolCallStreamError({ code: "invalid-snapshot", message: `Cannot restore the accumulator: ${reason}.` });
}
