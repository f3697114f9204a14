import { ToolCallStreamError } from "../shared/errors.ts";
import type { AccumulatorSnapshot, RegistrySnapshot, SavedToolCall } from "./accumulator-state.ts";
import { accumulatorInternals, ToolCallAccumulatorCore } from "./accumulator-core.ts";
import { streamAccumulator, type ToolCallAccumulatorStream } from "./tool-call-accumulator-stream.ts";
import type { OpenToolCall } from "./tool-call-registry.ts";

// Snapshots are a separate module, reaching into the accumulator through an internal accessor,
// so that the core chain of a bundle that never snapshots does not carry this code.

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
export function snapshotAccumulator(source: ToolCallAccumulatorCore | ToolCallAccumulatorStream): AccumulatorSnapshot {
  const [state, registry] = internalsOf(source);
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
export function restoreAccumulator<T extends ToolCallAccumulatorCore | ToolCallAccumulatorStream>(
  target: T,
  snapshot: AccumulatorSnapshot,
): T {
  const [state, registry] = internalsOf(target);
  if (snapshot.version !== 2)
    throw invalidSnapshot(
      `a snapshot of version ${String(snapshot.version)} cannot be restored (this version reads 2)`,
    );
  // Restoring merges into the target's state, so it must be as a new accumulator leaves it.
  const fresh = accumulatorInternals(new ToolCallAccumulatorCore(() => {}))[0];
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
  for (const call of [...state.toolCalls, ...state.invalidToolCalls]) if (call.id) registry.given.add(call.id);
  registry.count = saved.count;
  return target;
}

function internalsOf(
  source: ToolCallAccumulatorCore | ToolCallAccumulatorStream,
): ReturnType<typeof accumulatorInternals> {
  return accumulatorInternals(source instanceof ToolCallAccumulatorCore ? source : streamAccumulator(source));
}

function invalidSnapshot(reason: string): ToolCallStreamError {
  return new ToolCallStreamError({ code: "invalid-snapshot", message: `Cannot restore the accumulator: ${reason}.` });
}
