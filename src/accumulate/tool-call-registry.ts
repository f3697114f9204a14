import { ArgumentsBuffer, type ArgumentsBufferOptions } from "./arguments-buffer.ts";
import type { ToolCallChunkDelta, ToolCallWholeDelta } from "../shared/deltas.ts";
import type { DiscardedToolCall } from "../shared/events.ts";
import { withChoice } from "../shared/values.ts";

/** The accumulator's state of one call that has not completed yet. */
export interface OpenToolCall {
  /** The provider's index when it has one that no other call of the choice used, else the next free one. */
  readonly index: number;
  readonly choice: number;
  /** The provider's index, the correlation key when it sends one. */
  readonly providerIndex: number | undefined;
  id: string | null;
  /** The id the provider gave when it had given it to an earlier call of the response: `id` is then that id with a suffix. */
  providerId?: string;
  name: string;
  args: ArgumentsBuffer;
  started: boolean;
  providerMetadata?: Record<string, unknown>;
  providerExecuted?: true;
  inputFormat?: "text";
  /** Another call took its index before its arguments closed (a block started twice, a retry spliced in): never closed by repair. */
  cut?: true;
  /** Known to be whole though not ended (`tool-call-whole`, or another call took its index once its arguments closed): completed, not discarded, at a stop before the finish. */
  whole?: boolean;
  /** A payload was skipped while its arguments were open: a fragment may be missing, so only the provider's final text completes it. */
  lost?: true;
}

/**
 * Which open call a fragment belongs to. The rules, in order:
 *
 * 1. The provider's `index` within the fragment's choice; else a non-empty `id` already seen;
 *    else, with neither, the most recent open call of that choice.
 * 2. A fragment that carries a name starts a new call when it cannot be the same one: its id
 *    differs from the call's (Ollama sends every parallel call whole at index 0, each with its
 *    own id), or, with no id to compare, the call's arguments are already one closed JSON value.
 *    A fragment without a name never starts a call at an index that is open, even with a fresh
 *    id (LM Studio has sent a new id on every fragment of one call).
 * 3. An empty id or name never overwrites a value (Qwen, Azure, Mistral send `""`); a name
 *    repeated in full is not appended again (OpenRouter/Kimi), a name split across fragments is
 *    joined.
 */
export class ToolCallRegistry {
  readonly #maxCalls: number;
  /** Open calls by choice, then provider index (numeric keys: no key string built per fragment). */
  readonly #byKey = new Map<number, Map<number, OpenToolCall>>();
  readonly #byId = new Map<string, OpenToolCall>();
  // The state below is public for the snapshot functions (accumulator-snapshot.ts), which keep
  // their code out of bundles that do not use them; the class is not exported by the package.
  /** The most recent open call of each choice: where a fragment with neither index nor id goes. */
  readonly latest: Map<number, OpenToolCall> = new Map();
  /** Open calls in index order. */
  readonly open: Set<OpenToolCall> = new Set();
  /** Event indexes already given, per choice: an index is never given to two calls. */
  readonly used: Map<number, { indexes: Set<number>; next: number }> = new Map();
  /** Calls opened so far, for the limit. */
  count = 0;
  /** The ids given to the response's calls, open or completed: an id names one call (a restore adds the completed ones'). */
  readonly given: Set<string> = new Set();
  /** The next suffix to try for an id given again. */
  readonly #suffixes = new Map<string, number>();

  readonly #bufferOptions: ArgumentsBufferOptions;
  readonly #onOpen: ((call: OpenToolCall) => void) | undefined;

  /** Creates a registry that refuses to open more than `maxCalls` calls, and tells `onOpen` of each call it opens. */
  constructor(maxCalls: number, bufferOptions: ArgumentsBufferOptions = {}, onOpen?: (call: OpenToolCall) => void) {
    this.#maxCalls = maxCalls;
    this.#bufferOptions = bufferOptions;
    this.#onOpen = onOpen;
  }

  /**
   * An `error` of `code` came: when it tells of a payload skipped (not JSON, or events that never
   * arrived), each open call whose arguments are not one closed value may have lost a fragment of it
   * (what is left can still parse: `rm -rf /tmp/x` of `rm -rf /tmp/x/y`), and is marked `lost`.
   */
  skipped(code: string): void {
    if (code === "malformed-payload" || code === "sequence-gap")
      for (const call of this.open) if (!call.whole && !call.args.isClosedValue) call.lost = true;
  }

  /** A new, empty arguments buffer with this registry's options. */
  newBuffer(): ArgumentsBuffer {
    return new ArgumentsBuffer(this.#bufferOptions);
  }

  /**
   * Finds or opens the call a fragment belongs to and merges its id, name and provider metadata;
   * `undefined` past the limit. A second, different call under an id an earlier call of the
   * response had (open or completed: {@link given}) gets that id with the first free suffix (`call_1_2`), kept as
   * its `id`, the provider's as `providerId`: a tool result answers a call by its id, so no two calls
   * of a response share one (DeepSeek, GLM and Kimi have given parallel calls one id). Such a
   * fragment has a name, and an index where no call of that id is open; the same call's id again
   * (its later fragments, a whole call resent at its index) is none.
   */
  resolve(fragment: ToolCallChunkDelta): OpenToolCall | undefined {
    const choice = fragment.choice ?? 0;
    const id = fragment.id;
    let providerId: string | undefined;
    if (id && fragment.name && fragment.index !== undefined) {
      const at = this.find(choice, fragment.index);
      // The registry's ids are the response's, as #byId's are: a server gives each choice's calls their own.
      if ((!at || (at.id !== null && (at.providerId ?? at.id) !== id)) && this.given.has(id)) {
        // The search goes on from the last suffix given for this id: a server that gives every call one id costs no more per call.
        let n = this.#suffixes.get(id) ?? 2;
        while (this.given.has(`${id}_${n}`)) n++;
        this.#suffixes.set(id, n + 1);
        providerId = id;
        fragment = { ...fragment, id: `${id}_${n}` };
      }
    }
    let call = this.#locate(fragment, choice);
    if (call && this.#startsAnother(call, fragment)) {
      // A call of another id at its index (Ollama sends each call whole at index 0) ends it: whole if its value closed.
      if (call.args.isClosedValue) call.whole = true;
      else if (call.args.length) call.cut = true;
      call = undefined;
    }
    call ??= this.#openCall(choice, fragment.index);
    if (!call) return undefined;
    if (fragment.id && call.id === null) {
      call.id = fragment.id;
      if (providerId) call.providerId = providerId;
      this.#byId.set(fragment.id, call);
      this.given.add(fragment.id);
    }
    if (fragment.name) call.name = mergeName(call, fragment.name);
    withCallFields(call, fragment);
    return call;
  }

  /** The open call at a provider index, if any. */
  find(choice: number, providerIndex: number): OpenToolCall | undefined {
    return this.#byKey.get(choice)?.get(providerIndex);
  }

  /** Marks the open call a `tool-call-whole` names as whole, or no longer. */
  mark(delta: ToolCallWholeDelta): void {
    const call = this.find(delta.choice ?? 0, delta.index);
    // Only a closed value: an interleaving server may come back to a call a later index followed.
    if (call) call.whole = delta.whole && (call.inputFormat === "text" || call.args.isClosedValue);
  }

  /** Open calls of one choice (or of all), in index order. */
  openCalls(choice?: number): OpenToolCall[] {
    return [...this.open].filter((call) => choice === undefined || call.choice === choice);
  }

  /** Forgets a call that has completed: a later fragment with its index opens a new call. */
  close(call: OpenToolCall): void {
    this.open.delete(call);
    // A call without a provider index or id is never under one (`get` gives `undefined` for it).
    const calls = this.#byKey.get(call.choice);
    if (calls?.get(call.providerIndex!) === call) calls.delete(call.providerIndex!);
    if (this.#byId.get(call.id!) === call) this.#byId.delete(call.id!);
    if (this.latest.get(call.choice) === call) this.latest.delete(call.choice);
  }

  /** Removes and returns every open call, in index order. */
  drain(): OpenToolCall[] {
    const calls = [...this.open];
    for (const call of calls) this.close(call);
    return calls;
  }

  /** Makes an open call findable by its provider index and id. */
  track(call: OpenToolCall): void {
    this.open.add(call);
    if (call.providerIndex !== undefined) {
      let calls = this.#byKey.get(call.choice);
      if (!calls) this.#byKey.set(call.choice, (calls = new Map()));
      calls.set(call.providerIndex, call);
    }
    if (call.id !== null) {
      this.#byId.set(call.id, call);
      this.given.add(call.id);
    }
  }

  #locate(fragment: ToolCallChunkDelta, choice: number): OpenToolCall | undefined {
    if (fragment.index !== undefined) {
      return this.find(choice, fragment.index) ?? (fragment.id ? this.#byId.get(fragment.id) : undefined);
    }
    if (fragment.id) {
      const byId = this.#byId.get(fragment.id);
      if (byId) return byId;
      if (fragment.name) return undefined;
    }
    return this.latest.get(choice);
  }

  #startsAnother(call: OpenToolCall, fragment: ToolCallChunkDelta): boolean {
    if (!fragment.name) return false;
    if (fragment.id && call.id !== null) return fragment.id !== call.id && fragment.id !== call.providerId;
    return !!call.name && call.args.isClosedValue;
  }

  /**
   * The event index of a new call: the provider's own when it is free, so events match what the
   * provider documents (Anthropic block index, Responses output index); otherwise (no index, or
   * one already given: Ollama sends every call at 0, a reused index) the next after the highest.
   */
  #claimIndex(choice: number, providerIndex: number | undefined): number {
    let used = this.used.get(choice);
    if (!used) this.used.set(choice, (used = { indexes: new Set(), next: 0 }));
    // An absent provider index (`undefined`) is never `>= 0`.
    const index = providerIndex! >= 0 && !used.indexes.has(providerIndex!) ? providerIndex! : used.next;
    used.indexes.add(index);
    used.next = Math.max(used.next, index + 1);
    return index;
  }

  #openCall(choice: number, providerIndex: number | undefined): OpenToolCall | undefined {
    if (this.count >= this.#maxCalls) return undefined;
    this.count++;
    const call: OpenToolCall = {
      index: this.#claimIndex(choice, providerIndex),
      choice,
      providerIndex,
      id: null,
      name: "",
      args: this.newBuffer(),
      started: false,
    };
    this.latest.set(choice, call);
    this.track(call);
    this.#onOpen?.(call);
    return call;
  }
}

/** Joins a split name, keeps a name repeated in full (or resent cumulatively) from doubling. */
function mergeName(call: OpenToolCall, name: string): string {
  if (!call.name || name.startsWith(call.name)) return name;
  if (call.name.endsWith(name) || call.args.length) return call.name;
  return call.name + name;
}

/** Orders calls (or reports of them) by choice, then index: the `finish` event's lists. */
export const byIndex = (a: { index: number; choice?: number }, b: { index: number; choice?: number }): number =>
  (a.choice ?? 0) - (b.choice ?? 0) || a.index - b.index;

/** What every report of a call has: its index, id, name, arguments text and choice. */
export function summary(call: OpenToolCall): DiscardedToolCall {
  return withChoice({ index: call.index, id: call.id, name: call.name, rawArguments: call.args.text }, call.choice);
}

/** What {@link withCallFields} copies. */
interface CallFields {
  providerMetadata?: Record<string, unknown>;
  providerExecuted?: true;
  inputFormat?: "text";
}

/**
 * Copies `providerMetadata` (merged into the target's), `providerExecuted` and `inputFormat` from a
 * fragment onto its call, or from a call onto an event, when set.
 */
export function withCallFields<T extends object>(target: T, source: CallFields): T & CallFields {
  const fields = target as CallFields;
  if (source.providerMetadata) fields.providerMetadata = { ...fields.providerMetadata, ...source.providerMetadata };
  if (source.providerExecuted) fields.providerExecuted = true;
  if (source.inputFormat) fields.inputFormat = source.inputFormat;
  return target;
}
