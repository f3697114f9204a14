/** The field each joinable event type carries its fragment in (a Map: no inherited keys). */
const FRAGMENT_KEY: ReadonlyMap<string, string> = new Map([
  ["text-delta", "text"],
  ["reasoning-delta", "text"],
  ["tool-call-delta", "argumentsDelta"],
]);

/** Fields that describe the text so far, not the fragment: the later event's value holds for the joined one. */
const STATE_KEYS = new Set(["closed", "partialArguments"]);

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
    const key = FRAGMENT_KEY.get(event.type);
    let end = at + 1;
    if (key !== undefined) while (end < events.length && sameStream(event, events[end]!, key)) end++;
    if (key === undefined || end === at + 1) {
      joined?.push(event);
      continue;
    }
    joined ??= events.slice(0, at);
    let text = "";
    for (let part = at; part < end; part++) text += (events[part] as Record<string, unknown>)[key] as string;
    joined.push({ ...events[end - 1]!, [key]: text });
    at = end - 1;
  }
  return joined ?? events;
}

/** `b` continues `a`'s stream: the same type, fragments of text, and the same value of every other field. */
function sameStream(a: { readonly type: string }, b: { readonly type: string }, key: string): boolean {
  if (a.type !== b.type) return false;
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  if (typeof left[key] !== "string" || typeof right[key] !== "string") return false;
  let keys = 0;
  for (const name in left) {
    keys++;
    if (name === key || STATE_KEYS.has(name)) continue;
    const value = left[name];
    // Only primitives are compared: a field holding an object (unknown to this function) ends the run.
    if (value !== right[name] || (typeof value === "object" && value !== null) || !(name in right)) return false;
  }
  for (const _name in right) keys--;
  return keys === 0;
}
