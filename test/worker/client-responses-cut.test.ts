// POST /v1/responses when the upstream stops for its token limit while a call is still open (OpenAI
// Chat's `finish_reason: "length"`): openai-node, the client, reads the cut call's item
// `incomplete` in `response.incomplete`, never `completed` (a call to run), and the call whose
// arguments came whole `completed`. The stream follows the Open Responses spec.
import { describe, expect, it } from "vitest";
import { readConformingStream } from "../support/open-responses.ts";
import { chatChunk, openAISSE } from "../support/streams.ts";
import { openAIClient, post } from "./client-support.ts";
import { AUTH, live, WEATHER } from "./open-responses-support.ts";
import { FakeUpstream, worker } from "./support.ts";

const call = (index: number, id: string, args: string) =>
  chatChunk({ tool_calls: [{ index, id, type: "function", function: { name: "get_weather", arguments: args } }] });

/** Two calls, the second cut by the token limit. */
const cut = () =>
  new FakeUpstream({
    kind: "sse",
    chunks: [
      openAISSE([
        call(0, "call_1", '{"location":"SF"}'),
        call(1, "call_2", '{"location":"New Yo'),
        chatChunk({}, "length"),
      ]),
    ],
  });

const request = { model: "openai/test-model", input: "Weather?", tools: [WEATHER], store: false };

describe("POST /v1/responses: a call cut by the upstream's token limit", () => {
  it("openai-node reads the cut call incomplete and the whole one completed, in an incomplete response", async () => {
    const final = await openAIClient(cut(), live("openai"))
      .responses.stream({ ...request, tools: [{ ...WEATHER, type: "function", strict: false }] })
      .finalResponse();
    expect([final.status, final.incomplete_details?.reason]).toEqual(["incomplete", "max_output_tokens"]);
    expect(final.output).toMatchObject([
      { type: "function_call", call_id: "call_1", arguments: '{"location":"SF"}', status: "completed" },
      { type: "function_call", call_id: "call_2", arguments: '{"location":"New Yo', status: "incomplete" },
    ]);
  });

  it("the stream conforms to the spec: the cut call's output_item.done comes before response.incomplete", async () => {
    const answer = await worker(cut()).call(post("/v1/responses", { ...request, stream: true }, AUTH), live("openai"));
    const { issues, events } = await readConformingStream(answer);
    expect(issues).toEqual([]);
    const done = events.filter((e) => e["type"] === "response.output_item.done").map((e) => e["item"]);
    expect(done).toMatchObject([{ status: "completed" }, { status: "incomplete" }]);
    expect(events.at(-1)!["type"]).toBe("response.incomplete");
  });
});
