// An OpenAI Responses upstream's annotations (`url_citation`, `file_citation` on an `output_text`
// part) through the Worker: POST /v1/responses, openai-node as the client, gets them on its
// `output_text` part, each announced by `response.output_text.annotation.added` with its
// `annotation_index`; POST /v1/chat/completions gets the page as a `url_citation`. The upstream's
// stream is test/providers/openai-responses/citations-recordings.ts (built from openai-node's types).
import { describe, expect, it } from "vitest";
import { ANNOTATIONS, CITED_TEXT, responsesCited } from "../providers/openai-responses/citations-recordings.ts";
import { openAIClient } from "./client-support.ts";
import { FakeUpstream } from "./support.ts";

const upstream = (): FakeUpstream => new FakeUpstream({ kind: "sse", chunks: [responsesCited()] });

describe("an OpenAI Responses upstream's annotations through the Worker", () => {
  it("POST /v1/responses: the output_text carries them, each announced with its annotation_index", async () => {
    const stream = openAIClient(upstream()).responses.stream({
      model: "openai-responses/gpt-5",
      input: "When did Ruby 3.4 come out?",
    });
    const added: { annotation_index: number; annotation: unknown }[] = [];
    for await (const event of stream) if (event.type === "response.output_text.annotation.added") added.push(event);
    const response = await stream.finalResponse();
    const message = response.output.find((item) => item.type === "message");
    expect(message?.type === "message" && message.content).toEqual([
      // openai-node's finalResponse adds `parsed` (structured outputs) to the part.
      { type: "output_text", text: CITED_TEXT, annotations: ANNOTATIONS, logprobs: [], parsed: null },
    ]);
    expect(added.map((event) => [event.annotation_index, event.annotation])).toEqual(
      ANNOTATIONS.map((annotation, i) => [i, annotation]),
    );
  });

  it("POST /v1/chat/completions: the page as a url_citation over the same text", async () => {
    const completion = await openAIClient(upstream()).chat.completions.create({
      model: "openai-responses/gpt-5",
      messages: [{ role: "user", content: "When did Ruby 3.4 come out?" }],
    });
    const { type: _type, ...page } = ANNOTATIONS[0];
    expect(completion.choices[0]?.message.content).toBe(CITED_TEXT);
    expect(completion.choices[0]?.message.annotations).toEqual([{ type: "url_citation", url_citation: page }]);
  });
});
