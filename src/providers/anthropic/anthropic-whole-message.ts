import { arrayOf, isRecord } from "../../shared/values.ts";

/**
 * The stream events a whole Messages response stands for (a request without `stream: true`:
 * `{ type: "message", content, stop_reason, usage }`, the SDK's `Message`), or `undefined` for any
 * other payload (a stream's event): `message_start` with the message less its blocks and stop,
 * each block whole between its `content_block_start` and `content_block_stop` (the decoder reads a
 * block whole at its start as it reads one a continuation's `message_start` holds: a call's input at
 * its stop, a thinking block's text and signature, a server tool's result, a text block's
 * citations), then `message_delta` with the stop and the usage, and `message_stop`.
 *
 * @example
 * ```ts
 * anthropicMessageEvents({ type: "message", content: [{ type: "text", text: "Hi" }], stop_reason: "end_turn", usage });
 * // message_start, content_block_start, content_block_stop, message_delta, message_stop
 * ```
 */
export function anthropicMessageEvents(body: Record<string, unknown>): Record<string, unknown>[] | undefined {
  if (body["type"] !== "message") return undefined;
  const { content, stop_reason, stop_sequence, stop_details, usage } = body;
  const events: Record<string, unknown>[] = [
    {
      type: "message_start",
      message: { ...body, content: [], stop_reason: null, stop_sequence: null, stop_details: null },
    },
  ];
  arrayOf(content).forEach((block: unknown, index) => {
    if (!isRecord(block)) return;
    events.push({ type: "content_block_start", index, content_block: block }, { type: "content_block_stop", index });
  });
  events.push(
    {
      type: "message_delta",
      delta: { stop_reason, stop_sequence, stop_details },
      ...(isRecord(usage) ? { usage } : {}),
    },
    { type: "message_stop" },
  );
  return events;
}
