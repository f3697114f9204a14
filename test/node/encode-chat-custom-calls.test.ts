// A free-text call (`inputFormat: "text"`) through the OpenAI Chat encoders is a custom tool's call,
// as OpenAI writes one: streamed as `tool_calls[{index, id, type: "custom", custom: {name, input}}]`
// then `custom.input` fragments, and in the completion as `{id, type: "custom", custom: {name, input}}`
// (openai-node's ChatCompletionMessageCustomToolCall). Read by openai-node 7's `stream()` (6's
// finalizes only function calls) and by both majors' `create()`. The events are vercel/ai's
// recording of an OpenAI Responses custom_tool_call (../shared/external-fixtures): the encoders
// wrote it as a function call whose arguments were the text.
import OpenAI6 from "openai";
import OpenAI7 from "openai-v7";
import { describe, expect, it } from "vitest";
import { OpenAIChatEncoderStream, readOpenAIChatCompletion, streamToolCalls } from "../../src/index.ts";
import { countingIds } from "../support/encoders.ts";
import { externalBodies, externalFixtures } from "../support/external-fixtures.ts";
import { readChatChunks } from "../support/protocol-readers.ts";
import { collect, fromChunks } from "../support/streams.ts";

const fixture = externalFixtures.find((f) => f.provider === "openai-responses" && f.name === "openai-custom-tool.1");
const INPUT = "SELECT * FROM users WHERE age > 25";
const options = () => ({ model: "gpt-5.2-codex", generateId: countingIds() });
const request = { model: "gpt-5.2-codex", messages: [{ role: "user" as const, content: "Users over 25?" }] };
const fetchOf = (body: () => BodyInit) => async () =>
  new Response(body(), { headers: { "content-type": "text/event-stream" } });

describe.skipIf(!fixture)("OpenAI Chat encoders: a free-text call is a custom tool's call", () => {
  const events = () => collect(streamToolCalls(fromChunks(externalBodies(fixture!)), { provider: "openai-responses" }));
  const sse = async () =>
    new Response(fromChunks(await events()).pipeThrough(new OpenAIChatEncoderStream(options()))).text();

  it("streamed: a strict reader, openai-node 7's stream() and 6's create({stream: true}) read a custom call", async () => {
    const text = await sse();
    const reading = readChatChunks(text);
    expect(reading.choices.get(0)!.calls).toEqual([
      { id: "call_custom_sql_001", name: "write_sql", arguments: INPUT, custom: true },
    ]);
    expect(reading.choices.get(0)!.finishReason).toBe("tool_calls");
    const v7 = new OpenAI7({ apiKey: "k", baseURL: "http://127.0.0.1:9/v1", fetch: fetchOf(() => text) });
    const final = await v7.chat.completions.stream(request).finalChatCompletion();
    expect(final.choices[0]!.message.tool_calls).toEqual([
      { id: "call_custom_sql_001", type: "custom", custom: { name: "write_sql", input: INPUT } },
    ]);
    const v6 = new OpenAI6({ apiKey: "k", baseURL: "http://127.0.0.1:9/v1", fetch: fetchOf(() => text) });
    const deltas: unknown[] = [];
    for await (const chunk of await v6.chat.completions.create({ ...request, stream: true }))
      deltas.push(...(chunk.choices[0]?.delta.tool_calls ?? []));
    expect(deltas[0]).toEqual({
      index: 0,
      id: "call_custom_sql_001",
      type: "custom",
      custom: { name: "write_sql", input: expect.any(String) },
    });
  });

  it("not streamed: the completion's call is { type: custom, custom: { name, input } } for both majors", async () => {
    const result = await readOpenAIChatCompletion(fromChunks(await events()), options());
    if (result.type !== "completion") throw new Error("a completion");
    const call = { id: "call_custom_sql_001", type: "custom", custom: { name: "write_sql", input: INPUT } };
    expect(result.completion.choices[0]!.message.tool_calls).toEqual([call]);
    for (const OpenAI of [OpenAI6, OpenAI7]) {
      const fetch = async () => Response.json(result.completion);
      // Typed as openai-node 6 (a union of both majors' overloads is not callable); each runs as itself.
      const sdk = new OpenAI({ apiKey: "k", baseURL: "http://127.0.0.1:9/v1", fetch }) as unknown as OpenAI6;
      const completion = await sdk.chat.completions.create(request);
      expect(completion.choices[0]!.message.tool_calls).toEqual([call]);
    }
  });
});
