// An OpenAI Chat upstream's url_citation annotations (a search model's `delta.annotations`, kept
// by ChatCitations) through the Worker: POST /v1/chat/completions, openai-node as the client, gets
// them on its message as OpenAI sent them; POST /v1/responses gets them on the `output_text` part,
// each announced by `response.output_text.annotation.added`. The upstream's stream is
// test/providers/openai-chat/citations-recordings.ts (built from openai-node's types and the
// clients that read `delta.annotations`).
import { describe, expect, it } from "vitest";
import {
  CHAT_ANNOTATION,
  CHAT_ANNOTATION_FLAT,
  CHAT_CITED_TEXT,
  chatCited,
} from "../providers/openai-chat/citations-recordings.ts";
import { OPENAI_ANTHROPIC_ENV, openAIClient } from "./client-support.ts";
import { FakeUpstream } from "./support.ts";

const upstream = (): FakeUpstream => new FakeUpstream({ kind: "sse", chunks: [chatCited(true)] });
const MODEL = "openai/gpt-4o-search-preview";
/** A search model searches on the deployment's key: called only when the operator lists web_search. */
const ENV = { ...OPENAI_ANTHROPIC_ENV, OPENAI_SERVER_TOOLS: "web_search" };
const QUESTION = "When did Ruby 3.4 come out?";

describe("an OpenAI Chat upstream's annotations through the Worker", () => {
  it("POST /v1/chat/completions: the message carries its url_citation, once, whole or streamed", async () => {
    const completion = await openAIClient(upstream(), ENV).chat.completions.create({
      model: MODEL,
      messages: [{ role: "user", content: QUESTION }],
    });
    expect(completion.choices[0]?.message.content).toBe(CHAT_CITED_TEXT);
    expect(completion.choices[0]?.message.annotations).toEqual([CHAT_ANNOTATION]);
    const stream = openAIClient(upstream(), ENV).chat.completions.stream({
      model: MODEL,
      messages: [{ role: "user", content: QUESTION }],
    });
    const streamed: unknown[] = [];
    for await (const chunk of stream) {
      const delta = chunk.choices[0]?.delta as { annotations?: unknown[] } | undefined;
      streamed.push(...(delta?.annotations ?? []));
    }
    expect(streamed).toEqual([CHAT_ANNOTATION]);
  });

  it("POST /v1/responses: the output_text carries it, announced with its annotation_index", async () => {
    const stream = openAIClient(upstream(), ENV).responses.stream({ model: MODEL, input: QUESTION });
    const added: { annotation_index: number; annotation: unknown }[] = [];
    for await (const event of stream) if (event.type === "response.output_text.annotation.added") added.push(event);
    const response = await stream.finalResponse();
    const message = response.output.find((item) => item.type === "message");
    expect(message?.type === "message" && message.content).toEqual([
      // openai-node's finalResponse adds `parsed` (structured outputs) to the part.
      { type: "output_text", text: CHAT_CITED_TEXT, annotations: [CHAT_ANNOTATION_FLAT], logprobs: [], parsed: null },
    ]);
    expect(added.map((event) => [event.annotation_index, event.annotation])).toEqual([[0, CHAT_ANNOTATION_FLAT]]);
  });
});
