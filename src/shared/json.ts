/**
 * JSON as the chain carries it: the value type of parsed arguments, and the names of the repairs
 * applied to arguments before they parsed.
 *
 * @module
 */

/** A JSON value as produced by `JSON.parse`. */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** A repair applied to tool arguments, as reported in `tool-call.repairs`. */
export type JsonRepair =
  | "code-fence"
  | "python-literals"
  | "single-quotes"
  | "unquoted-keys"
  | "trailing-commas"
  | "truncated";
