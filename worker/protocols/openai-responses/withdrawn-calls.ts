/**
 * Anthropic's server-side fallback through `/v1/responses`. Responses has no item for Anthropic's
 * `fallback` block, so it travels as a reasoning item whose `encrypted_content` seals it
 * (../reasoning-state.ts), in its place among the items; the call right before it is the one the
 * refusal may have cut off, which the library reports as withdrawn (and the encoder shows only if
 * it had begun to). Anthropic's `fallback` Param doc: "Some blocks from before the turn's final
 * `fallback` block must be left out when you send the turn back, and no `tool_result` is sent for
 * a `tool_use` block you left out." So when a client sends the turn back, that call and its
 * output are left out, whatever the client did with it.
 *
 * @module
 */
import { isObject, own } from "../../request/json-fields.ts";
import { unsealPart } from "../reasoning-state.ts";

const CALLS: ReadonlySet<unknown> = new Set(["function_call", "custom_tool_call"]);
const OUTPUTS: ReadonlySet<unknown> = new Set(["function_call_output", "custom_tool_call_output"]);

/** Whether an input item is a reasoning item that carries Anthropic's `fallback` block. */
function isFallback(item: unknown): boolean {
  if (!isObject(item) || own(item, "type") !== "reasoning") return false;
  const encrypted = own(item, "encrypted_content");
  const part = typeof encrypted === "string" ? unsealPart(encrypted) : undefined;
  return part?.type === "block" && part.block["type"] === "fallback";
}

/**
 * The positions of the items to leave out of `earlier` (the items of a stored previous response)
 * and of `input` (the request's), read as one list: each call right before a fallback item, and
 * every output of one of those calls.
 *
 * @example
 * ```ts
 * const [, left] = withdrawnItems([], input);
 * input.forEach((item, i) => left.has(i) || addItem(item));
 * ```
 */
export function withdrawnItems(earlier: readonly unknown[], input: readonly unknown[]): [Set<number>, Set<number>] {
  const items = [...earlier, ...input];
  const left = new Set<number>();
  const withdrawn = new Set<unknown>();
  items.forEach((item, i) => {
    if (!isObject(item)) return;
    if (OUTPUTS.has(own(item, "type")) && withdrawn.has(own(item, "call_id"))) left.add(i);
    const before = items[i - 1];
    if (i > 0 && isObject(before) && CALLS.has(own(before, "type")) && isFallback(item)) {
      left.add(i - 1);
      withdrawn.add(own(before, "call_id"));
    }
  });
  const split = earlier.length;
  return [
    new Set([...left].filter((i) => i < split)),
    new Set([...left].filter((i) => i >= split).map((i) => i - split)),
  ];
}
