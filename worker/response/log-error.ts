/**
 * The one log line of an unexpected error: what failed, where, never what it carried.
 *
 * @module
 */

/**
 * Logs an error the Worker did not expect (a bug, a platform failure) with its name and its stack
 * frames, never its message: messages of errors from parsing or validation can quote the request
 * or the model's output (`Unexpected token ... in JSON`), and logs must not hold prompts or keys.
 * The client gets a 500 or an `error` event that says nothing of internals; this line is what the
 * operator reads in `wrangler tail`.
 *
 * @example
 * ```ts
 * logUnexpected(error, "POST /v1/stream");
 * ```
 */
export function logUnexpected(error: unknown, where: string): void {
  const name = error instanceof Error ? error.name : typeof error;
  const stack = error instanceof Error && typeof error.stack === "string" ? error.stack : "";
  const frames = stack
    .split("\n")
    .filter((line) => /^\s+at /.test(line))
    .join("\n");
  console.error(`tool-call-stream: unexpected ${name} in ${where}${frames ? `\n${frames}` : ""}`);
}
