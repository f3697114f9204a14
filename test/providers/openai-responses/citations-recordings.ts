import type { ResponseOutputText } from "openai/resources/responses/responses";
import { openAISSE } from "../../support/streams.ts";

// OpenAI Responses annotations, shared by the library's cases and the encoder tests.
//
// Provenance: built by hand (no real capture) from the shapes of openai 6.49.0
// (resources/responses/responses.d.ts): a `web_search_call` item, then a `message` item whose
// `output_text` part (`ResponseOutputText`) carries `annotations` (`URLCitation`: url, title,
// start_index, end_index; `FileCitation`: file_id, filename, index), each announced by a
// `ResponseOutputTextAnnotationAddedEvent` (`response.output_text.annotation.added`: item_id,
// output_index, content_index, annotation_index, annotation) before `response.output_text.done`, then
// `response.content_part.done` and `response.output_item.done` with the whole part; the Open
// Responses schema (../shared/conformance/open-responses) has the same event and `url_citation`.
// Ids, urls and the file made up.
const ITEM = "msg_cite_1";
const at = { item_id: ITEM, output_index: 1, content_index: 0 };
const LEAD = "Ruby 3.4 came out on 25 December 2024 ";
const LINK = "([ruby-lang.org](https://www.ruby-lang.org/en/news/2024/12/25/ruby-3-4-0-released/))";
const TAIL = ". It makes Prism the default parser.";
/** The message's whole text. */
export const CITED_TEXT: string = LEAD + LINK + TAIL;
/** The annotations of its `output_text` part: the page over the link, and a file at the text's end. */
export const ANNOTATIONS: [ResponseOutputText.URLCitation, ResponseOutputText.FileCitation] = [
  {
    type: "url_citation",
    url: "https://www.ruby-lang.org/en/news/2024/12/25/ruby-3-4-0-released/",
    title: "Ruby 3.4.0 Released",
    start_index: LEAD.length,
    end_index: LEAD.length + LINK.length,
  },
  { type: "file_citation", file_id: "file-R1", filename: "release-notes.md", index: CITED_TEXT.length },
];
/**
 * A file the model made (a code interpreter's output, openai 6's `FilePath`: file_id, index), for
 * {@link responsesCited}'s `annotations`: OpenAI names it by its id alone.
 */
export const FILE_PATH = { type: "file_path", file_id: "cfile_R2", index: LEAD.length };
const SEARCH = {
  type: "web_search_call",
  id: "ws_cite_1",
  status: "completed",
  action: { type: "search", query: "Ruby 3.4 release" },
};
const part = (annotations: unknown[]) => ({ type: "output_text", text: CITED_TEXT, annotations, logprobs: [] });
const message = (status: string, content: unknown[]) => ({
  type: "message",
  id: ITEM,
  status,
  role: "assistant",
  content,
});
const response = (status: string, output: unknown[]) => ({
  id: "resp_cite_1",
  object: "response",
  created_at: 1764750000,
  status,
  model: "gpt-5",
  output,
  usage: status === "completed" ? { input_tokens: 30, output_tokens: 40, total_tokens: 70 } : null,
});

/**
 * The stream; with `announcedOnly`, the done part and item carry no annotations (only the `.added`
 * events do); `annotations` in place of {@link ANNOTATIONS}.
 */
export function responsesCited(announcedOnly = false, annotations: readonly unknown[] = ANNOTATIONS): string {
  const done = part(announcedOnly ? [] : [...annotations]);
  return openAISSE(
    [
      { type: "response.created", response: response("in_progress", []) },
      { type: "response.output_item.added", output_index: 0, item: { ...SEARCH, status: "in_progress" } },
      { type: "response.output_item.done", output_index: 0, item: SEARCH },
      { type: "response.output_item.added", output_index: 1, item: message("in_progress", []) },
      { type: "response.content_part.added", ...at, part: part([]) },
      { type: "response.output_text.delta", ...at, delta: LEAD, logprobs: [] },
      { type: "response.output_text.delta", ...at, delta: LINK, logprobs: [] },
      { type: "response.output_text.delta", ...at, delta: TAIL, logprobs: [] },
      ...annotations.map((annotation, annotation_index) => ({
        type: "response.output_text.annotation.added",
        ...at,
        annotation_index,
        annotation,
      })),
      { type: "response.output_text.done", ...at, text: CITED_TEXT, logprobs: [] },
      { type: "response.content_part.done", ...at, part: done },
      { type: "response.output_item.done", output_index: 1, item: message("completed", [done]) },
      { type: "response.completed", response: response("completed", [SEARCH, message("completed", [done])]) },
    ].map((event, sequence_number) => ({ ...event, sequence_number })),
    false,
  );
}

/** The refusal of {@link responsesCitedThenRefused}. */
export const MIXED_REFUSAL = "I can't say more than that.";

/**
 * One `message` item holding the annotated `output_text` part and then a `refusal` part
 * (`ResponseOutputMessage.content` is a list of either), or a second annotated `output_text` part
 * with `twice`: built by hand from the same SDK shapes, each part streamed and done at its
 * `content_index`.
 */
export function responsesCitedThenRefused(twice = false): string {
  const text = part(ANNOTATIONS);
  const second = twice ? text : { type: "refusal", refusal: MIXED_REFUSAL };
  const at1 = { ...at, content_index: 1 };
  const whole = message("completed", [text, second]);
  return openAISSE(
    [
      { type: "response.created", response: response("in_progress", []) },
      { type: "response.output_item.added", output_index: 1, item: message("in_progress", []) },
      { type: "response.content_part.added", ...at, part: part([]) },
      { type: "response.output_text.delta", ...at, delta: CITED_TEXT, logprobs: [] },
      { type: "response.output_text.done", ...at, text: CITED_TEXT, logprobs: [] },
      { type: "response.content_part.done", ...at, part: text },
      ...(twice
        ? [
            { type: "response.content_part.added", ...at1, part: part([]) },
            { type: "response.output_text.delta", ...at1, delta: CITED_TEXT, logprobs: [] },
            { type: "response.output_text.done", ...at1, text: CITED_TEXT, logprobs: [] },
          ]
        : [
            { type: "response.content_part.added", ...at1, part: { type: "refusal", refusal: "" } },
            { type: "response.refusal.delta", ...at1, delta: MIXED_REFUSAL },
            { type: "response.refusal.done", ...at1, refusal: MIXED_REFUSAL },
          ]),
      { type: "response.content_part.done", ...at1, part: second },
      { type: "response.output_item.done", output_index: 1, item: whole },
      { type: "response.completed", response: response("completed", [whole]) },
    ].map((event, sequence_number) => ({ ...event, sequence_number })),
    false,
  );
}
