/**
 * A call's key within one response: its choice and its index, which the accumulator makes unique
 * per response. Every record kept per call after the accumulator (a step's verdicts, an encoder's
 * open calls, the tool loop's outcomes) is keyed by it, so they all agree on what "the same call" is.
 *
 * @example
 * ```ts
 * const open = new Map<string, string[]>();
 * open.set(callKey({ index: 0 }), []); // "0:0"
 * open.get(callKey({ choice: 0, index: 0 }))?.push('{"city":'); // the same call
 * ```
 */
export function callKey(call: { readonly index: number; readonly choice?: number | undefined }): string {
  return `${call.choice ?? 0}:${call.index}`;
}
