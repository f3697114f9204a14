import type { ErrorCode, StreamErrorInfo } from "./types.ts";

/**
 * The one error class tool-call-stream throws or errors a stream with. Switch on `code`.
 * Messages never embed model output or prompts; the raw data, where useful, is on `info.data`.
 *
 * @example
 * ```ts
 * try {
 *   for await (const event of streamToolCalls(response)) console.log(event);
 * } catch (error) {
 *   if (error instanceof ToolCallStreamError && error.code === "unknown-provider") retryWith("openai");
 * }
 * ```
 */
export class ToolCallStreamError extends Error {
  /** What went wrong. */
  readonly code: ErrorCode;
  /** The same error as a plain, serializable object. */
  readonly info: StreamErrorInfo;

  /** Wraps a {@link StreamErrorInfo}. */
  constructor(info: StreamErrorInfo, options?: { cause?: unknown }) {
    super(info.message, options);
    this.name = "ToolCallStreamError";
    this.code = info.code;
    this.info = info;
  }
}

/** Turns anything a stream failed with into a {@link StreamErrorInfo} without leaking internals. */
export function toErrorInfo(error: unknown): StreamErrorInfo {
  if (error instanceof ToolCallStreamError) return error.info;
  return { code: "stream-failed", message: "The input stream failed before the response finished." };
}
