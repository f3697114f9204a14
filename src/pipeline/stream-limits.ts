/** Limits that bound memory. Every one has a clear error when exceeded. */
export interface StreamLimits {
  /**
   * Largest message the framing holds while waiting for its end (an SSE line or event), in
   * characters.
   * @defaultValue 4194304 (4 Mi)
   */
  maxEventBytes?: number;
  /**
   * Largest arguments text of one call, in characters (UTF-16 code units, as `String.length`
   * counts them, and as `maxEventBytes` and eventsource-parser's `maxBufferSize` do): a bound on
   * memory, one per byte for ASCII JSON.
   * @defaultValue 4194304 (4 Mi)
   */
  maxArgumentsBytes?: number;
  /**
   * Most tool calls in one response.
   * @defaultValue 1024
   */
  maxToolCalls?: number;
}
