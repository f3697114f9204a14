/**
 * The shapes of the formats the library's checker reads as annotations only (`hostname`,
 * `duration`): the scripted model writes only values of that shape, as a validator that asserts
 * them (Ajv with ajv-formats) would accept.
 *
 * @module
 */
import type { JsonValue } from "../../../../../src/index.ts";

/** A JSON Schema object. */
type Schema = { [key: string]: JsonValue };

/** A host name (RFC 1123 labels), which the library's checker does not assert. */
export const HOSTNAME =
  /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/i;
/** ISO 8601 durations, which the library's checker does not assert either. */
const DURATION = /^P(?!$)(?:\d+Y)?(?:\d+M)?(?:\d+W)?(?:\d+D)?(?:T(?=\d)(?:\d+H)?(?:\d+M)?(?:\d+S)?)?$/;

/** Whether a string has the shape of the schema's `format` where the library's checker reads it as an annotation only (`hostname`, `duration`). */
export function formatShaped(schema: Schema, value: JsonValue): boolean {
  if (typeof value !== "string") return true;
  const format = schema["format"];
  // A dotted name, not a number nor a word: "8080" is a port, "Run" a word.
  if (format === "hostname" || format === "idn-hostname")
    return HOSTNAME.test(value) && /\p{L}/u.test(value) && value.includes(".");
  if (format === "duration") return DURATION.test(value);
  return true;
}
