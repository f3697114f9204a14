/**
 * The events of a Responses stream as the encoders write them: one object type per `type`, with
 * the fields openai-node's `ResponseStreamEvent` of that type has.
 *
 * @module
 */
import type { JsonValue } from "../shared/json.ts";
import type { OpenAIResponse, OpenAIResponsesOutputItem, OpenAIResponsesOutputText } from "./openai-responses-wire.ts";

/**
 * One event of a Responses stream (the JSON of one frame of {@link OpenAIResponsesEncoderStream}),
 * a union discriminated on `type`: narrow on `event.type` to read its fields. Every event has its
 * `sequence_number` (0, 1, 2, ... in the order written) and every field openai-node's
 * `ResponseStreamEvent` of the same type has, but `error`, whose fields are in its `error` object,
 * as Open Responses writes it.
 *
 * @example
 * ```ts
 * const event = JSON.parse(data) as OpenAIResponsesStreamEvent;
 * if (event.type === "response.output_text.delta") process(event.delta);
 * else if (event.type === "response.completed") console.log(event.response.usage);
 * ```
 */
export type OpenAIResponsesStreamEvent =
  /** The response as it starts, with no output yet; then `response.in_progress`. */
  | { type: "response.created"; sequence_number: number; response: OpenAIResponse }
  /** The response, still with no output. */
  | { type: "response.in_progress"; sequence_number: number; response: OpenAIResponse }
  /** An output item begins, as it is so far. */
  | {
      type: "response.output_item.added";
      sequence_number: number;
      output_index: number;
      item: OpenAIResponsesOutputItem;
    }
  /** A content part of a message item begins, empty. */
  | {
      type: "response.content_part.added";
      sequence_number: number;
      item_id: string;
      output_index: number;
      content_index: number;
      part: OpenAIResponsesOutputText | { type: "refusal"; refusal: string };
    }
  /** A fragment of an `output_text` part's text. */
  | {
      type: "response.output_text.delta";
      sequence_number: number;
      item_id: string;
      output_index: number;
      content_index: number;
      delta: string;
      logprobs: [];
    }
  /** A citation of the text, as the provider gave it (`url_citation`, `file_citation`). */
  | {
      type: "response.output_text.annotation.added";
      sequence_number: number;
      item_id: string;
      output_index: number;
      content_index: number;
      annotation_index: number;
      annotation: Record<string, JsonValue>;
    }
  /** An `output_text` part's whole text. */
  | {
      type: "response.output_text.done";
      sequence_number: number;
      item_id: string;
      output_index: number;
      content_index: number;
      text: string;
      logprobs: [];
    }
  /** A refusal part's text, in one fragment. */
  | {
      type: "response.refusal.delta";
      sequence_number: number;
      item_id: string;
      output_index: number;
      content_index: number;
      delta: string;
    }
  /** A refusal part's whole text. */
  | {
      type: "response.refusal.done";
      sequence_number: number;
      item_id: string;
      output_index: number;
      content_index: number;
      refusal: string;
    }
  /** A content part of a message item, whole. */
  | {
      type: "response.content_part.done";
      sequence_number: number;
      item_id: string;
      output_index: number;
      content_index: number;
      part: OpenAIResponsesOutputText | { type: "refusal"; refusal: string };
    }
  /** A fragment of a `function_call` item's arguments. */
  | {
      type: "response.function_call_arguments.delta";
      sequence_number: number;
      item_id: string;
      output_index: number;
      delta: string;
    }
  /** A `function_call` item's whole arguments (as completed: a repair's closing included), with its name. */
  | {
      type: "response.function_call_arguments.done";
      sequence_number: number;
      item_id: string;
      output_index: number;
      name: string;
      arguments: string;
    }
  /** A fragment of a `custom_tool_call` item's input. */
  | {
      type: "response.custom_tool_call_input.delta";
      sequence_number: number;
      item_id: string;
      output_index: number;
      delta: string;
    }
  /** A `custom_tool_call` item's whole input. */
  | {
      type: "response.custom_tool_call_input.done";
      sequence_number: number;
      item_id: string;
      output_index: number;
      input: string;
    }
  /** A reasoning item's summary part begins, empty (`summary_index` is always 0: one summary part). */
  | {
      type: "response.reasoning_summary_part.added";
      sequence_number: number;
      item_id: string;
      output_index: number;
      summary_index: number;
      part: { type: "summary_text"; text: string };
    }
  /** A fragment of a reasoning item's summary text. */
  | {
      type: "response.reasoning_summary_text.delta";
      sequence_number: number;
      item_id: string;
      output_index: number;
      summary_index: number;
      delta: string;
    }
  /** A reasoning item's whole summary text. */
  | {
      type: "response.reasoning_summary_text.done";
      sequence_number: number;
      item_id: string;
      output_index: number;
      summary_index: number;
      text: string;
    }
  /** A reasoning item's summary part, whole. */
  | {
      type: "response.reasoning_summary_part.done";
      sequence_number: number;
      item_id: string;
      output_index: number;
      summary_index: number;
      part: { type: "summary_text"; text: string };
    }
  /** An output item is done, whole. */
  | {
      type: "response.output_item.done";
      sequence_number: number;
      output_index: number;
      item: OpenAIResponsesOutputItem;
    }
  /** The terminal event: the response completed, with its whole output and usage. */
  | { type: "response.completed"; sequence_number: number; response: OpenAIResponse }
  /** The terminal event: a length or content-filter stop cut the response (`incomplete_details`). */
  | { type: "response.incomplete"; sequence_number: number; response: OpenAIResponse }
  /** The response failed (`response.failed` follows, with the same code): the library's code, or OpenAI's for a provider's failure of a known kind, never the provider's text. */
  | {
      type: "error";
      sequence_number: number;
      error: { type: string; code: string; message: string; param: string | null };
    }
  /** The terminal event: the response failed, with its `error`. */
  | { type: "response.failed"; sequence_number: number; response: OpenAIResponse };

type OpenAIResponsesEventType = OpenAIResponsesStreamEvent["type"];

/** The fields of an event of one `type` but its `type` and `sequence_number`, which the writer adds. */
type OpenAIResponsesEventFields<T extends OpenAIResponsesEventType> = Omit<
  Extract<OpenAIResponsesStreamEvent, { type: T }>,
  "type" | "sequence_number"
>;

/** Writes an event of one `type` with its fields (the encoder numbers it). */
export type SendResponsesEvent = <T extends OpenAIResponsesEventType>(
  type: T,
  fields: OpenAIResponsesEventFields<T>,
) => void;
