// POST /v1/responses: a content part in the wrong role's message, and a reasoning item's summary
// in the wrong shape, are 400s naming the param, as OpenAI answers them ("Invalid value:
// 'input_image'. Supported values are: 'output_text' and 'refusal'.", param `input[1].content[0]`)
// and as Open Responses' request items type them (`UserMessageItemParam`: input_text, input_image,
// input_file; `SystemMessageItemParam` and `DeveloperMessageItemParam`: input_text;
// `AssistantMessageItemParam`: output_text, refusal; `ReasoningItemParam.summary`: an array of
// `summary_text` parts). One mismatch OpenAI refuses is taken: `input_text` in an assistant
// message, which openai-node's own `EasyInputMessage` type allows (any role, input parts) and
// clients send (llama.cpp's server accepts it for that reason).
import OpenAI from "openai";
import { describe, expect, it } from "vitest";
import { readConformingResponse } from "../support/open-responses.ts";
import { post } from "./client-support.ts";
import { AUTH, live, scripted } from "./open-responses-support.ts";
import { worker } from "./support.ts";
import { workerFetch } from "./client-support.ts";

const send = (input: unknown[]) =>
  worker(scripted("anthropic", { text: "Done." })).call(
    post("/v1/responses", { model: "anthropic/test-model", input }, AUTH),
    live("anthropic"),
  );

const refused = async (input: unknown[], param: string) => {
  const answer = await send(input);
  expect(answer.status).toBe(400);
  expect(await answer.json()).toMatchObject({ error: { type: "invalid_request_error", param } });
};

const text = (type: string, words = "Hi.") => ({ type, text: words });
const reasoning = (summary: unknown) => ({ type: "reasoning", id: "rs_1", summary });

describe("a content part only the assistant's message may hold", () => {
  for (const role of ["user", "system", "developer"])
    it(`output_text in a ${role} message: a 400 at the part`, () =>
      refused(
        [
          { role: "user", content: "Hi." },
          { type: "message", role, content: [text("input_text"), text("output_text")] },
        ],
        "input[1].content[1]",
      ));

  it("output_text in the assistant's message, input_text in the others', are taken", async () => {
    const answer = await send([
      { role: "developer", content: [text("input_text", "Be brief.")] },
      { role: "system", content: [text("input_text", "Be kind.")] },
      { role: "user", content: [text("input_text")] },
      { role: "assistant", content: [{ ...text("output_text", "Hello."), annotations: [] }] },
      { role: "user", content: [text("input_text", "Go on.")] },
    ]);
    const { response } = await readConformingResponse(answer);
    expect(response["status"]).toBe("completed");
  });
});

describe("a part only the model writes, or only a client sends, in the other's message", () => {
  for (const role of ["user", "system", "developer"])
    it(`refusal in a ${role} message: a 400 at the part`, () =>
      refused(
        [
          { role: "user", content: "Hi." },
          { type: "message", role, content: [text("input_text"), { type: "refusal", refusal: "No." }] },
        ],
        "input[1].content[1]",
      ));

  for (const part of [
    { type: "input_image", image_url: "https://example.com/cat.png" },
    { type: "input_file", file_data: "data:application/pdf;base64,JVBERi0=", filename: "a.pdf" },
  ])
    it(`${part.type} in an assistant message: a 400 at the part, as OpenAI names it`, () =>
      refused(
        [
          { role: "user", content: "Hi." },
          { role: "assistant", content: [text("output_text", "Here."), part] },
        ],
        "input[1].content[1]",
      ));

  it("openai-node reads the refusal as a BadRequestError naming the part", async () => {
    const client = new OpenAI({
      baseURL: "http://localhost:8787/v1",
      apiKey: "t",
      maxRetries: 0,
      fetch: workerFetch({ env: live("anthropic"), upstream: scripted("anthropic", { text: "Done." }) }),
    });
    const failure = await client.responses
      .create({
        model: "anthropic/test-model",
        input: [{ type: "message", role: "user", content: [{ type: "refusal", refusal: "No." } as never] }],
      })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(OpenAI.BadRequestError);
    expect(failure).toMatchObject({ status: 400, param: "input[0].content[0]" });
  });

  it("input_text in an assistant message (openai-node's EasyInputMessage) is taken, as the model's words", async () => {
    const upstream = scripted("anthropic", { text: "Done." });
    const client = new OpenAI({
      baseURL: "http://localhost:8787/v1",
      apiKey: "t",
      maxRetries: 0,
      fetch: workerFetch({ env: live("anthropic"), upstream }),
    });
    const response = await client.responses.create({
      model: "anthropic/test-model",
      input: [
        { role: "user", content: [{ type: "input_text", text: "Hi." }] },
        { role: "assistant", content: [{ type: "input_text", text: "Hello." }] },
        { role: "user", content: "Go on." },
      ],
    });
    expect(response.status).toBe("completed");
    const sent = upstream.requests[0]!.body["messages"] as { role: string; content: unknown }[];
    expect(sent.map(({ role }) => role)).toEqual(["user", "assistant", "user"]);
    expect(JSON.stringify(sent[1]!.content)).toContain("Hello.");
  });
});

describe("a reasoning item's summary", () => {
  for (const [name, summary, param] of [
    ["a string", "I thought.", "input[1].summary"],
    ["an object", { type: "summary_text", text: "I thought." }, "input[1].summary"],
    ["a part of another type", [text("output_text", "I thought.")], "input[1].summary[0].type"],
    ["a part without its text", [{ type: "summary_text" }], "input[1].summary[0].text"],
  ] as const)
    it(`${name}: a 400 at it`, () =>
      refused([{ role: "user", content: "Hi." }, reasoning(summary), { role: "user", content: "Go on." }], param));

  for (const summary of [[], null, [text("summary_text", "I thought.")]])
    it(`${JSON.stringify(summary)} is taken`, async () => {
      const answer = await send([
        { role: "user", content: "Hi." },
        reasoning(summary),
        { role: "user", content: "Go on." },
      ]);
      const { response } = await readConformingResponse(answer);
      expect(response["status"]).toBe("completed");
    });
});
