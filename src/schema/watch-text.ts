/** What the early check reads from a value's first character and text: its kind, whether an allowed value still fits, JSON Pointer tokens. */
import type { JsonValue } from "../shared/json.ts";

/** The kind of a value, by its first character (numbers otherwise). */
export const KINDS: Record<number, string> = {
  123: "object",
  91: "array",
  34: "string",
  116: "boolean",
  102: "boolean",
  110: "null",
};

/** Whether a value that begins with `first` can be `option`. */
export function fits(option: JsonValue, first: number): boolean {
  if (first === 0x7b) return typeof option === "object" && option !== null && !Array.isArray(option);
  if (first === 0x5b) return Array.isArray(option);
  if (first === 0x22) return typeof option === "string";
  if (first === 0x74 || first === 0x66) return option === (first === 0x74);
  if (first === 0x6e) return option === null;
  return typeof option === "number";
}

/** The strings of `options` that still begin with the text checked so far followed by `added` (that equal it, when `done`). */
export function narrow(options: string[], added: string, from: number, done: boolean): string[] {
  const length = from + added.length;
  return options.filter(
    (option) => (done ? option.length === length : option.length >= length) && option.startsWith(added, from),
  );
}

/** A key as a JSON Pointer token (RFC 6901): `~` and `/` escaped. */
export function pointerToken(key: string): string {
  return key.replace(/~/g, "~0").replace(/\//g, "~1");
}
