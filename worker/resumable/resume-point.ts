import { HttpError } from "../response/json-error.ts";

/**
 * Why a resume cannot start after `lastSeen` in a log that keeps the frames `first` to `next - 1`,
 * or `undefined` when it can: an id the response never sent (at or past `next`) is the client's
 * mistake, a 400; an id before what is kept, a 410 (the events after it were dropped).
 *
 * @example
 * ```ts
 * const refused = resumeRefusal(lastSeen, log.first, log.next);
 * if (refused) throw refused;
 * ```
 */
export function resumeRefusal(lastSeen: number, first: number, next: number): HttpError | undefined {
  if (Number.isInteger(lastSeen) && lastSeen >= next) {
    return new HttpError(400, {
      code: "invalid_request",
      message: `Last-Event-ID ${lastSeen} is past the last event this response sent (${next - 1}).`,
    });
  }
  if (!Number.isInteger(lastSeen) || lastSeen + 1 < first) {
    return new HttpError(410, {
      code: "resume_window_passed",
      message: "The events after this Last-Event-ID are no longer kept.",
    });
  }
  return undefined;
}
