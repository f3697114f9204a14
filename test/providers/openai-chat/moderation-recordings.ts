import type { ChatCompletionChunk } from "openai-v7/resources/chat/completions/completions";
import type { Response } from "openai-v7/resources/responses/responses";
import { openAISSE } from "../../support/streams.ts";
import { responsesSse } from "../openai-responses/built-in-calls-recordings.ts";

// OpenAI's moderated completions (a request's `moderation: {model, policy}`) as the answers carry
// the results. Built by hand (no real capture) from openai 7.59.0 (openai-v7)'s types:
// resources/chat/completions/completions.d.ts, `ChatCompletionChunk.moderation` ("Present on the
// moderation chunk when moderated completions are requested": `{input, output}`, each a
// `moderation_results` with its `model` and `results`, or an `error`) and `ChatCompletion.moderation`;
// resources/responses/responses.d.ts, `Response.moderation` (each side one `moderation_result`, or an
// `error`). The chunk is put where the chunks of no choice go (`choices: []`, as the usage chunk):
// after the finish. A blocked answer is a `content_filter` stop (`finish_reason`; a response
// `incomplete` with `incomplete_details.reason: "content_filter"`, the SDK's one reason for it).

const MODEL = "omni-moderation-2024-09-26";
const scores = (flagged: boolean) => ({
  type: "moderation_result" as const,
  model: MODEL,
  flagged,
  categories: { harassment: false, violence: flagged },
  category_scores: { harassment: 0.0002, violence: flagged ? 0.91 : 0.0011 },
  category_applied_input_types: { harassment: ["text" as const], violence: ["text" as const] },
});

/** A Responses response's `moderation`: the input passed, the output flagged when `flagged`. */
export const responsesModeration = (flagged = false): NonNullable<Response["moderation"]> => ({
  input: scores(false),
  output: scores(flagged),
});

/** The same results as a Chat chunk's `moderation` (each side a `moderation_results` of one result). */
export const chatModeration = (flagged = false): NonNullable<ChatCompletionChunk["moderation"]> => ({
  input: { type: "moderation_results", model: MODEL, results: [scores(false)] },
  output: { type: "moderation_results", model: MODEL, results: [scores(flagged)] },
});

const chunk = (fields: Partial<ChatCompletionChunk>): ChatCompletionChunk => ({
  id: "chatcmpl-moderated",
  object: "chat.completion.chunk",
  created: 1764892800,
  model: "gpt-5.6",
  choices: [],
  ...fields,
});
const delta = (content: string, finish: "stop" | "content_filter" | null = null) =>
  chunk({ choices: [{ index: 0, delta: { content }, finish_reason: finish, logprobs: null }] });

/** A moderated Chat stream: its text, the finish (`content_filter` when `flagged`), the moderation chunk, usage. */
export const chatModerated = (flagged = false): string =>
  openAISSE([
    delta("Bolts are "),
    delta(flagged ? "" : "12 cents.", flagged ? "content_filter" : null),
    ...(flagged ? [] : [delta("", "stop")]),
    chunk({ moderation: chatModeration(flagged) }),
    chunk({ usage: { prompt_tokens: 9, completion_tokens: 5, total_tokens: 14 } }),
  ]);

const response = (status: Response["status"], extra: Partial<Response> = {}) => ({
  id: "resp_moderated",
  object: "response",
  created_at: 1764892800,
  status,
  model: "gpt-5.6",
  output: [],
  moderation: null,
  ...extra,
});
const AT = { item_id: "msg_moderated", output_index: 0, content_index: 0 };

/** A moderated Responses stream: its text, then `response.completed` (`.incomplete`, cut by the filter, when `flagged`) with the results. */
export const responsesModerated = (flagged = false): string => {
  const message = { type: "message", id: AT.item_id, role: "assistant", status: "in_progress", content: [] };
  const end = flagged
    ? response("incomplete", { incomplete_details: { reason: "content_filter" } })
    : response("completed");
  return responsesSse([
    { type: "response.created", response: response("in_progress") },
    { type: "response.output_item.added", output_index: 0, item: message },
    { type: "response.output_text.delta", ...AT, delta: "Bolts are " },
    {
      type: `response.${end.status}`,
      response: {
        ...end,
        moderation: responsesModeration(flagged),
        usage: { input_tokens: 9, output_tokens: 5, total_tokens: 14 },
      },
    },
  ]);
};
