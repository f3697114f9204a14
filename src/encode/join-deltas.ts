/** The field each joinable event type carries its fragment in; `undefined`: not joinable. */
function fragmentKey(type: string): string | undefined {
  return type === "tool-call-delta"
    ? "argumentsDelta"
    : type === "text-delta" || type === "reasoning-delta"
      ? "text"
      : undefined;
}

/** Fields that describe the text so far, not the fragment: the later event's value holds for the joined one. */
const isState = (name: string): boolean => name === "closed" || name === "partialArguments";

/**
 * A batch of ready events with each run of adjacent fragments of one stream joined into one event:
 * `text-delta`s (and `reasoning-delta`s) of one choice, `tool-call-delta`s of one call. The text
 * (and each call's arguments) that a reader puts together is the same, and so is the order of
 * everything else, but a server encodes, stores and sends one frame where the provider's chunk
 * held hundreds (a model streaming arguments 4 characters at a time), and its client parses one.
 *
 * Two fragments join when they are next to each other in the batch, are of the same type and
 * agree on every other field (`index`, `id`, `choice`, a tool loop's `step`); the joined event is
 * the later one with the fragments concatenated, so its `closed` and `partialArguments` describe
 * the text up to its end. Nothing is held back across batches: each batch is one network chunk's
 * events ({@link readyBatches}), so joining adds no latency. The input and its events are never
 * changed; without anything to join, `events` itself is returned.
 *
 * @example
 * ```ts
 * joinDeltas([
 *   { type: "tool-call-delta", index: 0, id: "call_1", argumentsDelta: '{"ci', closed: false },
 *   { type: "tool-call-delta", index: 0, id: "call_1", argumentsDelta: 'ty":"Paris"}', closed: true },
 * ]);
 * // [{ type: "tool-call-delta", index: 0, id: "call_1", argumentsDelta: '{"city":"Paris"}', closed: true }]
 * ```
 */
export function joinDeltas<E extends { readonly type: string }>(events: readonly E[]): readonly E[] {
  let joined: E[] | undefined;
  for (let at = 0; at < events.length; at++) {
    const event = events[at]!;
    const key = fragmentKey(event.type);
    const end = key === undefined ? at + 1 : runEnd(events, at, key);
    if (end === at + 1) {
      joined?.push(event);
      continue;
    }
    joined ??= events.slice(0, at);
    // Joined, not appended: one flat string, which V8's fast `JSON.stringify` takes (an appended one
    // sends the encoder's whole event down its slow path).
    const parts: string[] = [];
    for (let part = at; part < end; part++) parts.push((events[part] as Record<string, unknown>)[key!] as string);
    joined.push({ ...events[end - 1]!, [key!]: parts.join("") });
    at = end - 1;
  }
  return joined ?? events;
}

/**
 * The end of the run of fragments that starts at `events[at]`: the index of the first event after
 * it that does not continue its stream (the same type, a string in `key`, the same value of every
 * other field, no field more or less). The first event's fields are read once, not once per
 * event after it: each later one costs a load per field and a count of its keys.
 */
function runEnd(events: readonly { readonly type: string }[], at: number, key: string): number {
  const first = events[at] as Record<string, unknown>;
  if (typeof first[key] !== "string" || at + 1 === events.length) return at + 1;
  const names: string[] = [];
  const values: unknown[] = [];
  let keys = 0;
  for (const name in first) {
    keys++;
    if (name === key || isState(name)) continue;
    const value = first[name];
    // Only primitives are compared: a field holding an object (unknown to this function) ends the run.
    if (typeof value === "object" && value !== null) return at + 1;
    names.push(name);
    values.push(value);
  }
  let end = at + 1;
  for (; end < events.length; end++) {
    const next = events[end] as Record<string, unknown>;
    if (typeof next[key] !== "string") break;
    let same = true;
    for (let i = 0; i < names.length && same; i++) {
      const value = values[i];
      same = next[names[i]!] === value && (value !== undefined || names[i]! in next);
    }
    if (!same) break;
    let count = 0;
    for (const _name in next) count++;
    if (count !== keys) break;
  }
  return end;
}
