// `/v1/stream`: an assistant message's call the provider ran itself (`providerExecuted: true`, as
// `finish.toolCalls` lists an Anthropic server tool's call) goes back as the provider's own block
// with its result, as the library's request builders send it, never as a call of the client's:
// Anthropic refuses a `tool_use` without a `tool_result` after it, and another provider would be
// asked for a result of a tool it never offered.
import { describe, expect, it } from "vitest";
import { FakeUpstream, streamRequest, testEnv, worker } from "./support.ts";

const env = testEnv({ CLIENT_TOKEN: "t", ANTHROPIC_API_KEY: "k", GEMINI_API_KEY: "g" });
const HITS = {
  type: "web_search_tool_result",
  tool_use_id: "srvtoolu_1",
  content: [{ type: "web_search_result", url: "https://tides.example", title: "Tides", encrypted_content: "Eo8B" }],
};
/** The search turn as `finish` gave it: the call, its result block, the text. */
const searched = (call: Record<string, unknown>, provider: string) => ({
  role: "assistant",
  content: "High tide at 14:05.",
  tool_calls: [
    {
      id: "srvtoolu_1",
      name: "web_search",
      arguments: { query: "tides Oban" },
      providerMetadata: { anthropicBlock: { type: "server_tool_use" } },
      ...call,
    },
  ],
  ...(provider === "anthropic" && { reasoning_parts: [{ type: "block", block: HITS }] }),
});

async function send(provider: string, call: Record<string, unknown>) {
  const upstream = new FakeUpstream({ kind: "response", status: 500, body: "{}" });
  const response = await worker(upstream).call(
    streamRequest(
      {
        provider,
        model: "m",
        messages: [
          { role: "user", content: "Tides in Oban?" },
          searched(call, provider),
          { role: "user", content: "And tomorrow?" },
        ],
      },
      { headers: { authorization: "Bearer t" } },
    ),
    env,
  );
  return { status: response.status, text: await response.text(), body: upstream.requests[0]?.body };
}

describe("/v1/stream: a call the provider ran (providerExecuted)", () => {
  it("Anthropic: goes back as its server_tool_use with its result, not as a tool_use", async () => {
    const { body } = await send("anthropic", { providerExecuted: true });
    const messages = body!["messages"] as { content: { type: string; id?: string }[] }[];
    expect(messages[1]!.content.map((block) => block.type)).toEqual([
      "text",
      "server_tool_use",
      "web_search_tool_result",
    ]);
    expect(messages[1]!.content[1]).toEqual({
      type: "server_tool_use",
      id: "srvtoolu_1",
      name: "web_search",
      input: { query: "tides Oban" },
    });
  });

  it("another provider: left out, never a call of the client's", async () => {
    const { body } = await send("gemini", { providerExecuted: true });
    expect(JSON.stringify(body)).not.toContain("web_search");
  });

  it("false is as absent; another value is a 400 naming the field, and nothing is sent", async () => {
    const { body } = await send("gemini", { providerExecuted: false });
    expect(JSON.stringify(body)).toContain("web_search");
    const refused = await send("anthropic", { providerExecuted: "yes" });
    expect(refused.status).toBe(400);
    expect(JSON.parse(refused.text).error.field).toBe("messages[1].tool_calls[0].providerExecuted");
    expect(refused.body).toBeUndefined();
  });
});
