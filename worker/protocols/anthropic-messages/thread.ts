/**
 * Anthropic's message threads (`thread`, which `@anthropic-ai/sdk` sends from
 * `beta.messages.toolRunner()` and `beta.messages.thread()`): the server holds the conversation
 * under a reply's `id`, so that each later turn sends only its new messages. The Worker holds none
 * (every request stands alone, whatever the provider), so it answers as Anthropic does a thread it
 * has lost:
 *
 * - `{"type": "create"}` carries the whole conversation: answered as any request;
 * - `{"type": "continue", "previous_message_id": ...}` is a 404 `not_found_error` with
 *   `details.error_code` `thread_not_found` (the SDK's `ThreadNotFoundError`), before any provider
 *   is asked: the SDK then sends the whole conversation again under `create`, and its tool runner,
 *   after a second loss, stops sending `thread`. Ignoring `thread` instead answered the new
 *   messages alone, a `tool_result` whose `tool_use` the Worker never saw: a 400 the SDK could not
 *   recover from.
 *
 * @module
 */
import { HttpError, invalidField } from "../../response/json-error.ts";
import { isObject, own } from "../../request/json-fields.ts";

/** Throws the `thread` field's answer when a Messages body has one the Worker cannot serve as it is. */
export function checkThread(body: unknown): void {
  const thread = isObject(body) ? own(body, "thread") : undefined;
  if (thread === undefined || thread === null) return;
  const type = isObject(thread) ? own(thread, "type") : undefined;
  if (type === "create") return;
  if (type !== "continue") throw invalidField("thread.type", '`thread.type` must be "create" or "continue".');
  if (typeof own(thread as Record<string, unknown>, "previous_message_id") !== "string")
    throw invalidField("thread.previous_message_id", "`thread.previous_message_id` must be a string.");
  throw new HttpError(404, {
    code: "thread_not_found",
    message:
      'This Worker keeps no message threads: send the whole conversation, with `thread` {"type": "create"} or without `thread`.',
    field: "thread.previous_message_id",
  });
}
