// A sealed reasoning value holding one of OpenAI's conversation-state items (`compaction_trigger`),
// sent back to a provider that has no such state, is a 400 naming the field of the client's own
// request that carried it (AG-UI's `encryptedValue`, a UI part's `providerMetadata`, a thinking
// block's `signature`, a reasoning item's `encrypted_content`), in the protocol's error shape, as
// every other 400 of these routes names its field; it named only `messages` (`input`), the path of
// the translated /v1/stream body being no path of the client's.
import { describe, expect, it } from "vitest";
import { sealPart } from "../../worker/protocols/reasoning-state.ts";
import { workerFetch } from "./client-support.ts";
import { FakeUpstream, testEnv } from "./support.ts";

const SEAL = sealPart({ type: "block", block: { type: "compaction_trigger" } });
const MODEL = "anthropic/claude-x";

/** POSTs `body` to `path`: the status and body of the answer; the provider is never asked. */
async function post(path: string, body: Record<string, unknown>) {
  const upstream = new FakeUpstream({ kind: "hang" });
  const env = testEnv({ ANTHROPIC_API_KEY: "k", CLIENT_TOKEN: "t" });
  const answer = await workerFetch({ env, upstream })(`http://localhost:8787${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: "Bearer t" },
    body: JSON.stringify(body),
  });
  expect(upstream.requests).toHaveLength(0);
  return { status: answer.status, text: await answer.text() };
}

describe("an OpenAI state item in a sealed reasoning value: a 400 naming the client's field", () => {
  it("/v1/ag-ui: the reasoning message's encryptedValue", async () => {
    const messages = [
      { id: "u1", role: "user", content: "hi" },
      { id: "a1", role: "assistant", content: "ok" },
      { id: "r1", role: "reasoning", content: "", encryptedValue: SEAL },
      { id: "u2", role: "user", content: "more" },
    ];
    const body = {
      threadId: "th",
      runId: "r",
      state: {},
      context: [],
      tools: [],
      forwardedProps: { model: MODEL },
      messages,
    };
    const { status, text } = await post("/v1/ag-ui", body);
    expect(status).toBe(400);
    expect(JSON.parse(text)).toMatchObject({
      type: "RUN_ERROR",
      message: expect.stringContaining("(field: messages[2].encryptedValue)"),
    });
  });

  it("/v1/ui: the reasoning part's providerMetadata", async () => {
    const parts = [
      { type: "reasoning", text: "", providerMetadata: { toolCallStream: { state: SEAL } } },
      { type: "text", text: "ok" },
    ];
    const messages = [
      { id: "u1", role: "user", parts: [{ type: "text", text: "hi" }] },
      { id: "a1", role: "assistant", parts },
      { id: "u2", role: "user", parts: [{ type: "text", text: "more" }] },
    ];
    const { status, text } = await post("/v1/ui", { model: MODEL, messages });
    expect(status).toBe(400);
    expect(text).toContain("(field: messages[1].parts[0].providerMetadata.toolCallStream.state)");
  });

  it("/v1/messages: the thinking block's signature", async () => {
    const messages = [
      { role: "user", content: "hi" },
      {
        role: "assistant",
        content: [
          { type: "thinking", thinking: "", signature: SEAL },
          { type: "text", text: "ok" },
        ],
      },
      { role: "user", content: "more" },
    ];
    const { status, text } = await post("/v1/messages", { model: MODEL, max_tokens: 10, messages });
    expect(status).toBe(400);
    expect(JSON.parse(text)).toMatchObject({
      type: "error",
      error: {
        type: "invalid_request_error",
        message: expect.stringContaining("(field: messages[1].content[0].signature)"),
      },
    });
  });

  it("/v1/responses: the reasoning item's encrypted_content", async () => {
    const input = [
      { role: "user", content: "hi" },
      { type: "reasoning", summary: [], encrypted_content: SEAL },
      { role: "assistant", content: "ok" },
      { role: "user", content: "more" },
    ];
    const { status, text } = await post("/v1/responses", { model: MODEL, input });
    expect(status).toBe(400);
    expect(JSON.parse(text)).toMatchObject({
      error: { type: "invalid_request_error", param: "input[1].encrypted_content" },
    });
  });
});
