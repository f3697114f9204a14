import { openAISSE } from "../../support/streams.ts";

// A refusal on OpenAI Responses, in the event shapes of openai 6.49.0
// (resources/responses/responses.d.ts): a `message` output item whose content part is a
// `ResponseOutputRefusal` (`{ type: "refusal", refusal }`, "A refusal from the model"), streamed as
// `ResponseRefusalDeltaEvent`s (`response.refusal.delta`: item_id, output_index, content_index,
// delta) and ended by a `ResponseRefusalDoneEvent` (`response.refusal.done`: the whole `refusal`).
// It goes back as the `ResponseOutputMessage` input item (`ResponseInputItem`), with its id.
const ITEM = "msg_refusal_1";
const at = { item_id: ITEM, output_index: 0, content_index: 0 };
const response = (status: string, output: unknown[]) => ({
  id: "resp_refusal_1",
  object: "response",
  created_at: 1764750000,
  status,
  model: "gpt-4o-2024-08-06",
  output,
  usage: status === "completed" ? { input_tokens: 12, output_tokens: 11, total_tokens: 23 } : null,
});
const message = (status: string, refusal?: string) => ({
  type: "message",
  id: ITEM,
  status,
  role: "assistant",
  content: refusal === undefined ? [] : [{ type: "refusal", refusal }],
});

/** The refusal's whole text. */
export const RESPONSES_REFUSAL = "I'm sorry, I can't help with that.";

/** The stream's events: the message item, two refusal deltas, their `.done`, the item's end, `response.completed`. */
const EVENTS = [
  { type: "response.created", response: response("in_progress", []) },
  { type: "response.in_progress", response: response("in_progress", []) },
  { type: "response.output_item.added", output_index: 0, item: message("in_progress") },
  { type: "response.content_part.added", ...at, part: { type: "refusal", refusal: "" } },
  { type: "response.refusal.delta", ...at, delta: "I'm sorry, " },
  { type: "response.refusal.delta", ...at, delta: "I can't help with that." },
  { type: "response.refusal.done", ...at, refusal: RESPONSES_REFUSAL },
  { type: "response.content_part.done", ...at, part: { type: "refusal", refusal: RESPONSES_REFUSAL } },
  { type: "response.output_item.done", output_index: 0, item: message("completed", RESPONSES_REFUSAL) },
  { type: "response.completed", response: response("completed", [message("completed", RESPONSES_REFUSAL)]) },
];

/**
 * The stream, or its first `upTo` events without those of the types in `without` (a stream cut
 * before its end, or whose `.done` never came), numbered as they go.
 */
export const responsesRefusal = (upTo = EVENTS.length, without: readonly string[] = []): string =>
  openAISSE(
    EVENTS.slice(0, upTo)
      .filter((event) => !without.includes(event.type))
      .map((event, sequence_number) => ({ ...event, sequence_number })),
    false,
  );

/** The whole stream. */
export const responsesRefused: string = responsesRefusal();
