import { repairJson } from "../json/json-repair.ts";
import { ArgumentsBuffer, type ArgumentsResult } from "./arguments-buffer.ts";

/**
 * Parses complete arguments text as `streamToolCalls` does: empty is `{}`, and invalid JSON is
 * repaired (without closing a truncated value) or reported with its position.
 *
 * @example
 * ```ts
 * parseArguments("{'city': 'Paris'}"); // { ok: true, value: { city: "Paris" }, repairs: ["single-quotes"] }
 * parseArguments('{"city": 1} x'); // { ok: false, error: { code: "trailing-data", position: 12, ... } }
 * ```
 */
export function parseArguments(text: string): ArgumentsResult {
  const buffer = new ArgumentsBuffer();
  buffer.append(text);
  return buffer.parse({ repair: repairJson, closeTruncated: false });
}
