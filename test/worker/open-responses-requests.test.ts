// The request side of the Open Responses spec on POST /v1/responses (its `CreateResponseBody` and
// `*Param` item types): every form the spec allows is taken (its `null`s, its typeless item
// reference), and what this Worker cannot honour is a 400 in OpenAI's error shape naming the field.
import { describe, expect, it } from "vitest";
import { readConformingResponse } from "../support/open-responses.ts";
import { post } from "./client-support.ts";
import { AUTH, live, scripted, WEATHER } from "./open-responses-support.ts";
import { worker } from "./support.ts";

const send = (body: Record<string, unknown>, provider = "anthropic" as const) =>
  worker(scripted(provider, { text: "Done." })).call(
    post("/v1/responses", { model: `${provider}/test-model`, input: "Hi", ...body }, AUTH),
    live(provider),
  );

const refused = async (body: Record<string, unknown>, param: string) => {
  const answer = await send(body);
  expect(answer.status).toBe(400);
  expect(await answer.json()).toMatchObject({ error: { type: "invalid_request_error", param } });
};

describe("the spec's item reference (ItemReferenceParam: `type` optional or null)", () => {
  for (const reference of [{ id: "msg_1" }, { type: null, id: "msg_1" }])
    it(`${JSON.stringify(reference)} without stored responses: a 400 that says so, naming its id`, async () => {
      const answer = await send({ input: [reference] });
      expect(answer.status).toBe(400);
      const { error } = (await answer.json()) as { error: { param: string; message: string } };
      expect(error.param).toBe("input[0].id");
      expect(error.message).toContain("item_reference");
    });

  it("a message without a type is still a message", async () => {
    const { response } = await readConformingResponse(await send({ input: [{ role: "user", content: "Hi" }] }));
    expect(response["status"]).toBe("completed");
  });
});

it("every field the spec types as nullable taken as null", async () => {
  const nulls = Object.fromEntries(
    [
      "previous_response_id",
      "tools",
      "tool_choice",
      "metadata",
      "text",
      "temperature",
      "top_p",
      "presence_penalty",
      "frequency_penalty",
      "parallel_tool_calls",
      "stream_options",
      "max_output_tokens",
      "max_tool_calls",
      "reasoning",
      "safety_identifier",
      "prompt_cache_key",
      "instructions",
      "top_logprobs",
    ].map((field) => [field, null]),
  );
  const items = [
    { type: "message", role: "user", content: "Weather?", id: null, status: null },
    { type: "function_call", call_id: "c1", name: "get_weather", arguments: "{}", id: null, status: null },
    { type: "function_call_output", call_id: "c1", output: "18 °C", id: null, status: null },
    { type: "reasoning", id: null, summary: [], content: null, encrypted_content: null },
  ];
  const { issues, response } = await readConformingResponse(
    await send({ ...nulls, tools: [WEATHER], input: items, text: { format: null }, reasoning: { effort: null } }),
  );
  expect([issues, response["status"]]).toEqual([[], "completed"]);
});

void refused;
