import { ToolCallStreamError } from "../../shared/errors.ts";
import type { JsonWriter } from "../../shared/json-text.ts";
import { isRecord, nonEmptyString } from "../../shared/values.ts";
import type { Emit } from "../provider-decoder.ts";

type Payload = Record<string, unknown>;

/** One server-side step as it streamed: the call's or the result's fields, merged from its start and deltas. */
interface ServerStep {
  /** The step's fields (its `type`, `id` or `call_id`, `arguments` or `result`, `signature`, ...). */
  fields: Payload;
  /** A call: its step index, which is the call's index; a result: the index of the call it answers. */
  callIndex: number | undefined;
  /** The length of its deltas so far, as JSON text: bounded by `maxArgumentsLength`. */
  length?: number;
}

/**
 * A server-side call step (`google_search_call`, `code_execution_call`, `url_context_call`, ...); not `function_call`.
 *
 * @example
 * ```ts
 * isServerCall("google_search_call"); // true
 * isServerCall("function_call"); // false
 * ```
 */
export const isServerCall = (type: unknown): type is string =>
  typeof type === "string" && type.endsWith("_call") && type !== "function_call";

/** A server-side result step (`google_search_result`, ...); not `function_result`. */
const isServerResult = (type: unknown): type is string =>
  typeof type === "string" && type.endsWith("_result") && type !== "function_result";

/**
 * A built-in tool's step, its call's or its result's (`google_search_call`, `google_search_result`, ...).
 *
 * @example
 * ```ts
 * isServerStep({ type: "code_execution_result", call_id: "c1", result: "1024" }); // true
 * ```
 */
export const isServerStep = (step: { readonly [key: string]: unknown }): boolean =>
  isServerCall(step["type"]) || isServerResult(step["type"]);

/** The objects and arrays a step owns (copies of a payload's): merged into in place, not copied again. */
const owned = new WeakSet<object>();

/** `fields[key]`, a copy the step owns (made once, so that the payload it came from is never changed). */
function ownedAt<T extends object>(fields: Payload, key: string, value: T): T {
  if (owned.has(value)) return value;
  const copy = (Array.isArray(value) ? [...value] : { ...value }) as T;
  owned.add(copy);
  fields[key] = copy;
  return copy;
}

/**
 * Merges one delta's fields into a step's: objects key by key, strings and arrays appended, the
 * rest replaced. Each delta costs its own size: what the step holds is not copied again.
 */
function merge(fields: Payload, delta: Payload): void {
  for (const [key, value] of Object.entries(delta)) {
    if (key === "type" || value === "" || value === undefined) continue;
    const before = fields[key];
    if (key === "signature" || key === "is_error") fields[key] = value;
    else if (isRecord(before) && isRecord(value)) Object.assign(ownedAt(fields, key, before), value);
    else if (typeof before === "string" && typeof value === "string") fields[key] = before + value;
    else if (Array.isArray(before) && Array.isArray(value)) {
      const items = ownedAt(fields, key, before);
      for (const item of value) items.push(item);
    } else fields[key] = value;
  }
}

/**
 * The steps of the Interactions API's built-in tools, which the provider runs itself: a
 * `*_call` step (`google_search_call`, `code_execution_call`, `url_context_call`,
 * `google_maps_call`, `file_search_call`, `retrieval_call`, `mcp_server_tool_call`, ...) is a
 * `providerExecuted` call named after its tool (the step type without `_call`; an MCP call keeps
 * its tool's `name`), whose arguments are the step's `arguments` object. It completes when its
 * `*_result` step (matched by `call_id`) stops, so that the result is on it, or at the
 * interaction's end when no result came. Its `providerMetadata` holds its `signature`, the call
 * step (`step`) and the result step (`result`) as they streamed, which the next turn sends back
 * in place when the conversation is sent whole.
 *
 * @example
 * ```ts
 * const server = new InteractionsServerSteps(emit, jsonText);
 * server.start(0, { type: "google_search_call", id: "s1", arguments: { queries: ["tides"] } });
 * server.stop(0);
 * ```
 */
export class InteractionsServerSteps {
  readonly #emit: Emit;
  #write: JsonWriter;
  /** The open or awaiting steps, by step index. */
  readonly #steps = new Map<number, ServerStep>();
  /** Calls whose step stopped and which wait for their result, by call id (or by index when they have none). */
  readonly #awaiting = new Map<string, number>();

  /** The most a step's deltas may take, as JSON text (the accumulator's `maxArgumentsLength`). */
  readonly #max: number;

  /**
   * Reports through `emit`, writing arguments with `write`; a step's deltas past `max` characters
   * as JSON text (4 Mi by default) end the stream.
   */
  constructor(emit: Emit, write: JsonWriter, max = 4194304) {
    this.#emit = emit;
    this.#write = write;
    this.#max = max;
  }

  /** The JSON writer of the current message. */
  set writer(write: JsonWriter) {
    this.#write = write;
  }

  /** The step at `index` is a server-side call or result this reads. */
  has(index: number): boolean {
    return this.#steps.has(index);
  }

  /** `step.start` of a server-side call or result step; false for any other step. */
  start(index: number, step: Payload): boolean {
    const type = step["type"];
    if (isServerCall(type)) {
      const fields: Payload = { type };
      merge(fields, step);
      this.#steps.set(index, { fields, callIndex: index });
      const id = nonEmptyString(step["id"]);
      const name = type === "mcp_server_tool_call" ? nonEmptyString(step["name"]) : type.slice(0, -"_call".length);
      this.#emit({
        type: "tool-call-chunk",
        index,
        providerExecuted: true,
        ...(id !== undefined ? { id } : {}),
        ...(name !== undefined ? { name } : {}),
      });
      return true;
    }
    if (!isServerResult(type)) return false;
    const fields: Payload = { type };
    merge(fields, step);
    this.#steps.set(index, { fields, callIndex: undefined });
    return true;
  }

  /**
   * `step.delta` of a server-side step: its fields merged into the step's. A step goes out whole
   * only at its stop, carried by no delta: kept whole as a call's arguments are, it is bounded as
   * they are (past `maxArgumentsLength`, a `ToolCallStreamError` of code `arguments-too-large`).
   */
  delta(index: number, delta: Payload): void {
    const step = this.#steps.get(index);
    if (!step) return;
    if ((step.length = (step.length ?? 0) + (this.#write(delta)?.length ?? 0)) > this.#max)
      throw new ToolCallStreamError({
        code: "arguments-too-large",
        message: `A server tool's step is over maxArgumentsLength (${this.#max}).`,
      });
    merge(step.fields, delta);
  }

  /** `step.stop`: a call's arguments go out and it waits for its result; a result completes its call. */
  stop(index: number): void {
    const step = this.#steps.get(index);
    if (!step) return;
    const { fields } = step;
    if (step.callIndex === index) {
      const args = fields["arguments"];
      this.#emit({ type: "tool-call-chunk", index, argumentsDelta: this.#write(isRecord(args) ? args : {}) ?? "{}" });
      this.#awaiting.set(nonEmptyString(fields["id"]) ?? `#${index}`, index);
      return;
    }
    this.#steps.delete(index);
    const callId = nonEmptyString(fields["call_id"]);
    const key = callId !== undefined && this.#awaiting.has(callId) ? callId : this.#latest(String(fields["type"]));
    const call = key === undefined ? undefined : this.#awaiting.get(key);
    if (key === undefined || call === undefined) return;
    this.#awaiting.delete(key);
    this.#end(call, fields);
  }

  /** The interaction completed: a call step never stopped stops now, and calls still without a result complete without one. */
  complete(): void {
    const waiting = new Set(this.#awaiting.values());
    for (const [index, step] of [...this.#steps]) {
      if (step.callIndex === index && !waiting.has(index)) this.stop(index);
      else if (step.callIndex !== index) this.#steps.delete(index);
    }
    for (const index of this.#awaiting.values()) this.#end(index, undefined);
    this.#awaiting.clear();
  }

  /** The most recent call awaiting a result of `resultType`'s tool (a result without `call_id`). */
  #latest(resultType: string): string | undefined {
    const tool = resultType.slice(0, -"_result".length);
    let found: string | undefined;
    for (const [key, index] of this.#awaiting)
      if (String(this.#steps.get(index)?.fields["type"]).startsWith(tool)) found = key;
    return found;
  }

  #end(index: number, result: Payload | undefined): void {
    const call = this.#steps.get(index);
    this.#steps.delete(index);
    const signature = nonEmptyString(call?.fields["signature"]);
    this.#emit({
      type: "tool-call-chunk",
      index,
      providerMetadata: {
        ...(signature !== undefined ? { signature } : {}),
        ...(call ? { step: call.fields } : {}),
        ...(result ? { result } : {}),
      },
    });
    this.#emit({ type: "tool-call-end", index });
  }
}
