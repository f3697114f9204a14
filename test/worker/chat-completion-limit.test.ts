// A non-streaming Chat Completion is held whole before it is sent: its text is bounded by
// MAX_COMPLETION_LENGTH, past which the answer is OpenAI's error shape and the provider is cancelled.
import { describe, expect, it } from "vitest";
import { post } from "./client-support.ts";
import { chatChunk, eventually, FakeUpstream, liveOpenAI, testEnv, worker } from "./support.ts";

const env = (limit: string) => testEnv({ ...liveOpenAI, CLIENT_TOKEN: "t", MAX_COMPLETION_LENGTH: limit });
const request = (stream?: boolean) =>
  post(
    "/v1/chat/completions",
    {
      model: "openai/gpt-4o-mini",
      messages: [{ role: "user", content: "Write a lot." }],
      ...(stream ? { stream } : {}),
    },
    { headers: { authorization: "Bearer t" } },
  );
/** Ten chunks of 15 characters of text, then a provider that never ends. */
const endless = () =>
  new FakeUpstream({
    kind: "sse",
    chunks: Array.from({ length: 10 }, () => `data: ${JSON.stringify(chatChunk({ content: "é".repeat(15) }))}\n\n`),
    then: "stall",
  });

describe("POST /v1/chat/completions without stream: MAX_COMPLETION_LENGTH", () => {
  it("past the limit (in characters), the answer is a 502 completion_too_large in OpenAI's shape and the provider request is cancelled", async () => {
    const upstream = endless();
    const response = await worker(upstream).call(request(), env("50"));
    expect(response.status).toBe(502);
    expect(await response.json()).toEqual({
      error: {
        message: expect.stringContaining("MAX_COMPLETION_LENGTH"),
        type: "server_error",
        param: null,
        code: "completion_too_large",
      },
    });
    expect(await eventually(() => upstream.cancelled !== undefined)).toBe(true);
    expect(upstream.pulled).toBeLessThanOrEqual(5);
  });

  it("within the limit, the completion is whole", async () => {
    const upstream = new FakeUpstream({
      kind: "sse",
      chunks: [
        `data: ${JSON.stringify(chatChunk({ content: "é".repeat(15) }))}\n\n`,
        `data: ${JSON.stringify(chatChunk({}, "stop"))}\n\n`,
        "data: [DONE]\n\n",
      ],
    });
    const response = await worker(upstream).call(request(), env("15"));
    expect(response.status).toBe(200);
    expect(
      ((await response.json()) as { choices: { message: { content: string } }[] }).choices[0]!.message.content,
    ).toBe("é".repeat(15));
  });

  it("a streamed completion is not held, so the limit does not apply", async () => {
    const upstream = new FakeUpstream({
      kind: "sse",
      chunks: [
        `data: ${JSON.stringify(chatChunk({ content: "é".repeat(15) }))}\n\n`,
        `data: ${JSON.stringify(chatChunk({}, "stop"))}\n\n`,
        "data: [DONE]\n\n",
      ],
    });
    const response = await worker(upstream).call(request(true), env("10"));
    expect(response.status).toBe(200);
    expect(await response.text()).toContain("é".repeat(15));
  });
});
