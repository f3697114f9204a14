import { chatChunk, openAISSE } from "../../support/streams.ts";

// OpenAI Chat Completions url_citation annotations (web search: gpt-4o-search-preview,
// gpt-5-search-api with `web_search_options`), shared by the library's cases and the Worker's.
//
// Provenance: built by hand (no real capture) from openai 6.49.0's
// resources/chat/completions/completions.d.ts: `ChatCompletionMessage.annotations`
// (`{ type: "url_citation", url_citation: { start_index, end_index, url, title } }`, "The index of
// the last character of the URL citation in the message"). `ChatCompletionChunk.Choice.Delta`
// declares no `annotations`; the stream carries them in a chunk's `delta.annotations` all the
// same, as the clients that read them report (openai/openai-agents-js #1617: "text-bearing and
// later annotation-only chunks", exact repeats; openai/openai-agents-python #4252: "`annotations`
// is not a declared field on `ChoiceDelta`"; vercel/ai #7754 reads `delta.annotations`). Here:
// the text in three chunks, the annotation with the chunk of the cited link (`repeat`: sent again
// in a later annotation-only chunk), then the finish, usage and `[DONE]`. Urls and ids made up.
const LEAD = "Ruby 3.4 came out on 25 December 2024 ";
const LINK = "([ruby-lang.org](https://www.ruby-lang.org/en/news/2024/12/25/ruby-3-4-0-released/))";
const TAIL = ". It makes Prism the default parser.";
/** The message's whole text. */
export const CHAT_CITED_TEXT: string = LEAD + LINK + TAIL;
/** The annotation as Chat Completions sends it. */
export const CHAT_ANNOTATION = {
  type: "url_citation",
  url_citation: {
    end_index: LEAD.length + LINK.length,
    start_index: LEAD.length,
    title: "Ruby 3.4.0 Released",
    url: "https://www.ruby-lang.org/en/news/2024/12/25/ruby-3-4-0-released/",
  },
} as const;
/** The same as the turn keeps it: OpenAI Responses' flat `url_citation`. */
export const CHAT_ANNOTATION_FLAT = {
  type: "url_citation",
  url: CHAT_ANNOTATION.url_citation.url,
  title: CHAT_ANNOTATION.url_citation.title,
  start_index: LEAD.length,
  end_index: LEAD.length + LINK.length,
};
const MODEL = { model: "gpt-4o-search-preview-2025-03-11" };

/** The stream; with `repeat`, the annotations come again in an annotation-only chunk after the text. */
export function chatCited(repeat = false, annotations: readonly unknown[] = [CHAT_ANNOTATION]): string {
  return openAISSE([
    chatChunk({ role: "assistant", content: "", refusal: null }, null, MODEL),
    chatChunk({ content: LEAD }, null, MODEL),
    chatChunk({ content: LINK, annotations }, null, MODEL),
    chatChunk({ content: TAIL }, null, MODEL),
    ...(repeat ? [chatChunk({ annotations }, null, MODEL)] : []),
    chatChunk({}, "stop", MODEL),
    {
      ...(chatChunk({}, null, MODEL) as object),
      choices: [],
      usage: { prompt_tokens: 12, completion_tokens: 40, total_tokens: 52 },
    },
  ]);
}
