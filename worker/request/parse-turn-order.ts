/**
 * An assistant message's `order` in a `/v1/stream` body: where the turn's text runs, calls and
 * reasoning parts came, as the stream's `finish.order` gave it (the library's `TurnOrderEntry`).
 *
 * @module
 */
import type { TurnOrderEntry } from "../../src/index.ts";
import { invalidField } from "../response/json-error.ts";
import { isObject, own } from "./json-fields.ts";

/** The number field of each kind of entry. */
const FIELDS: Readonly<Record<TurnOrderEntry["type"], string>> = {
  text: "length",
  "tool-call": "index",
  "reasoning-parts": "count",
};

/**
 * The entries of an `order`, or a 400 naming the field at fault: at most `max` of them (a turn's
 * order has one per call, at most one per reasoning part, and the runs of text between them).
 *
 * @example
 * ```ts
 * message.order = turnOrderAt(value, "messages[2].order", 2 * (calls + parts) + 1);
 * ```
 */
export function turnOrderAt(value: unknown, path: string, max: number): TurnOrderEntry[] {
  if (!Array.isArray(value)) throw invalidField(path, "`order` must be an array of entries.");
  if (value.length > max)
    throw invalidField(path, `\`order\` has more than ${max} entries for the message's calls and reasoning parts.`);
  return value.map((entry, i) => {
    const at = `${path}[${i}]`;
    const type = isObject(entry) ? own(entry, "type") : undefined;
    if (type !== "text" && type !== "tool-call" && type !== "reasoning-parts")
      throw invalidField(`${at}.type`, "An `order` entry's `type` is text, tool-call or reasoning-parts.");
    const field = FIELDS[type];
    const number = own(entry as Record<string, unknown>, field);
    if (typeof number !== "number" || !Number.isSafeInteger(number) || number < 0)
      throw invalidField(`${at}.${field}`, `\`${field}\` must be a whole number, 0 or more.`);
    return { type, [field]: number } as TurnOrderEntry;
  });
}
