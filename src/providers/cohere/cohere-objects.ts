import type { FramedMessage } from "../../framing/framing.ts";

/**
 * How deep keys are renamed: the decoder reads nothing deeper (a call's `function` is at depth 4,
 * the usage's `billed_units` at 3); deeper values are kept as they are.
 */
const RENAME_DEPTH = 8;

/**
 * The fields whose values are not the SDK's but the application's or the model's: a cited
 * document, a tool's output (both records the SDK passes through unrenamed) and a call's
 * arguments. Their keys are kept as given (`publishedAt` stays `publishedAt`).
 */
const PAYLOADS = new Set(["document", "toolOutput", "tool_output", "arguments"]);

/**
 * The message of one event `cohere-ai` yields from `v2.chatStream`: the SDK renames the wire's
 * snake_case fields to camelCase (`toolCalls`, `finishReason`, `billedUnits`), so the names are
 * turned back into the wire's before the decoder reads them. Values are left as they are, and so
 * are the keys of what the envelope carries ({@link PAYLOADS}).
 */
export function cohereMessageOf(value: unknown): FramedMessage {
  return { data: "", value: snakeKeys(value, 0, new Map()) };
}

/**
 * A copy of `value` whose object keys are snake_case (`toolCalls` -> `tool_calls`), down to
 * {@link RENAME_DEPTH} and not inside {@link PAYLOADS}. Each object is copied once (`copies`): a part shared many times, or a
 * cycle, costs one copy, and the recursion is as deep as the renaming at most.
 */
function snakeKeys(value: unknown, depth: number, copies: Map<object, unknown>): unknown {
  if (typeof value !== "object" || value === null || depth > RENAME_DEPTH) return value;
  const known = copies.get(value);
  if (known !== undefined) return known;
  if (Array.isArray(value)) {
    const items: unknown[] = [];
    copies.set(value, items);
    for (const item of value) items.push(snakeKeys(item, depth + 1, copies));
    return items;
  }
  const copy: Record<string, unknown> = {};
  copies.set(value, copy);
  for (const [key, item] of Object.entries(value)) {
    // Defined, not assigned: an own `__proto__` key (JSON.parse makes one) stays a key, not the copy's prototype.
    Object.defineProperty(
      copy,
      key.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`),
      {
        value: PAYLOADS.has(key) ? item : snakeKeys(item, depth + 1, copies),
        enumerable: true,
        writable: true,
        configurable: true,
      },
    );
  }
  return copy;
}
