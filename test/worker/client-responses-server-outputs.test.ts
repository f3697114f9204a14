// The outputs of tools OpenAI runs itself (a program's `program_output`, programmatic tool calling)
// through POST /v1/responses, openai-node as the client, a fake OpenAI Responses upstream: the
// client gets the output sealed in a reasoning item (the Worker's encrypted_content), sends it back
// as it came, and OpenAI is sent the `program_output` item again, in its place before the answer.
import OpenAI from "openai";
import { describe, expect, it } from "vitest";
import { responsesSse } from "../providers/openai-responses/built-in-calls-recordings.ts";
import { workerFetch } from "./client-support.ts";
import { FakeUpstream, testEnv } from "./support.ts";

const ENV = testEnv({ OPENAI_API_KEY: "k", OPENAI_BASE_URL: "https://provider.test/v1", CLIENT_TOKEN: "t" });
const client = (upstream: FakeUpstream) =>
  new OpenAI({
    baseURL: "http://localhost:8787/v1",
    apiKey: "t",
    fetch: workerFetch({ env: ENV, upstream }),
    maxRetries: 0,
  });
const RESULT = '{"bolt":12,"nut":40}';
const OUTPUT = { id: "cmo_74", type: "program_output", status: "completed", call_id: "call_prog", result: RESULT };
const answer = (id: string, text: string, first: Record<string, unknown>[] = []) =>
  responsesSse([
    { type: "response.created", response: { id, object: "response", status: "in_progress", output: [] } },
    ...first,
    {
      type: "response.output_item.added",
      output_index: first.length / 2,
      item: { id: `msg_${id}`, type: "message", status: "in_progress", role: "assistant", content: [] },
    },
    {
      type: "response.output_text.delta",
      item_id: `msg_${id}`,
      output_index: first.length / 2,
      content_index: 0,
      delta: text,
    },
    { type: "response.completed", response: { id, object: "response", status: "completed", output: [], usage: null } },
  ]);
const sse = (body: string) => new FakeUpstream({ kind: "sse", chunks: [body] });

async function turn(upstream: FakeUpstream, input: OpenAI.Responses.ResponseInput) {
  const stream = client(upstream).responses.stream({ model: "openai-responses/gpt-5.6", input, store: false });
  for await (const _event of stream);
  return { response: await stream.finalResponse(), body: upstream.requests[0]!.body };
}

describe("POST /v1/responses with the outputs of OpenAI's own tools", () => {
  it("a program_output reaches OpenAI again on the next turn, in its place before the answer", async () => {
    const first = await turn(
      sse(
        answer("resp_1", "52 in stock.", [
          { type: "response.output_item.added", output_index: 0, item: { ...OUTPUT, result: "" } },
          { type: "response.output_item.done", output_index: 0, item: OUTPUT },
        ]),
      ),
      [{ role: "user", content: "Stock of bolts and nuts?" }],
    );
    const sealed = first.response.output.find((item) => item.type === "reasoning");
    expect(sealed?.encrypted_content).toEqual(expect.any(String));
    expect(JSON.stringify(first.response.output)).not.toContain(RESULT); // sealed, not shown

    const upstream = sse(answer("resp_2", "Yes."));
    const second = await turn(upstream, [
      { role: "user", content: "Stock of bolts and nuts?" },
      ...(first.response.output as OpenAI.Responses.ResponseInputItem[]),
      { role: "user", content: "Enough for 50?" },
    ]);
    expect((second.body["input"] as unknown[]).slice(1)).toEqual([
      OUTPUT,
      { role: "assistant", content: "52 in stock." },
      { role: "user", content: "Enough for 50?" },
    ]);
  });
});
