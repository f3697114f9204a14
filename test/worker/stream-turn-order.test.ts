// POST /v1/stream's assistant message takes the stream's `finish.order` (and each call's `index`),
// so that the Worker's upstream gets the turn in the order the provider streamed it (issue 34):
// an OpenAI Responses reasoning item right before the item that followed it, Anthropic's text after
// the call it came after. A malformed `order` is a 400 naming the field. /v1/responses gives a
// Responses client's items their order, so Codex's turn reaches an OpenAI upstream as it came, and
// /v1/messages Claude Code's blocks theirs.
import Anthropic from "@anthropic-ai/sdk";
import type { ResponseInputItem } from "openai/resources/responses/responses";
import { describe, expect, it } from "vitest";
import { parseStreamRequest } from "../../worker/request/parse-stream-request.ts";
import { providerNames } from "../../worker/upstream/providers/index.ts";
import { requestBody } from "../../worker/upstream/providers/request-body.ts";
import { HttpError } from "../../worker/response/json-error.ts";
import { OPENAI_ANTHROPIC_ENV, openAIClient, workerFetch } from "./client-support.ts";
import { FakeUpstream } from "./support.ts";

const weather = { type: "object", properties: { city: { type: "string" } } };
const assistant = {
  role: "assistant",
  content: "Checking.",
  tool_calls: [{ id: "call_1", name: "get_weather", arguments: { city: "Brest" }, index: 3 }],
  reasoning_parts: [
    { type: "item", id: "rs_1", encryptedContent: "enc-1", summary: [] },
    { type: "item", id: "rs_2", encryptedContent: "enc-2", summary: [] },
  ],
  order: [
    { type: "reasoning-parts", count: 1 },
    { type: "text", length: 9 },
    { type: "reasoning-parts", count: 1 },
    { type: "tool-call", index: 3 },
  ],
};
const body = (provider: string, message: Record<string, unknown> = assistant) => ({
  provider,
  model: "m-1",
  messages: [
    { role: "user", content: "Weather in Brest?" },
    message,
    { role: "tool", tool_call_id: "call_1", content: "sunny" },
  ],
  tools: [{ name: "get_weather", parameters: weather }],
});

describe("/v1/stream: an assistant message's order", () => {
  it("an OpenAI Responses upstream gets each reasoning item right before the item that followed it", () => {
    const request = parseStreamRequest(body("openai-responses"), providerNames);
    const input = requestBody("openai-responses", request)["input"] as Record<string, unknown>[];
    expect(input.slice(1, 5).map((item) => item["type"] ?? item["role"])).toEqual([
      "reasoning",
      "assistant",
      "reasoning",
      "function_call",
    ]);
  });

  it("an Anthropic upstream gets the text after the call it came after", () => {
    const message = {
      role: "assistant",
      content: "Done.",
      tool_calls: [{ id: "toolu_1", name: "get_weather", arguments: { city: "Brest" }, index: 0 }],
      order: [
        { type: "tool-call", index: 0 },
        { type: "text", length: 5 },
      ],
    };
    const request = parseStreamRequest(body("anthropic", message), providerNames);
    const messages = requestBody("anthropic", request)["messages"] as { content: { type: string }[] }[];
    expect(messages[1]!.content.map((block) => block.type)).toEqual(["tool_use", "text"]);
  });

  it("a malformed order is a 400 naming the field; one that does not match the message goes back in the usual order", () => {
    const fault = (order: unknown, call: Record<string, unknown> = {}): string | undefined => {
      try {
        const tool_calls = [{ ...assistant.tool_calls[0], ...call }];
        parseStreamRequest(body("openai-responses", { ...assistant, tool_calls, order }), providerNames);
      } catch (error) {
        return error instanceof HttpError ? (error.body as { field?: string }).field : String(error);
      }
      return undefined;
    };
    expect(fault("first")).toBe("messages[1].order");
    expect(fault([{ type: "image", length: 1 }])).toBe("messages[1].order[0].type");
    expect(fault([{ type: "text", length: -1 }])).toBe("messages[1].order[0].length");
    expect(fault(Array.from({ length: 8 }, () => ({ type: "text", length: 1 })))).toBe("messages[1].order");
    expect(fault(assistant.order, { index: "3" })).toBe("messages[1].tool_calls[0].index");
    const changed = parseStreamRequest(
      body("openai-responses", { ...assistant, content: "Checking the weather." }),
      providerNames,
    );
    const input = requestBody("openai-responses", changed)["input"] as Record<string, unknown>[];
    expect(input.slice(1, 5).map((item) => item["type"] ?? item["role"])).toEqual([
      "reasoning",
      "reasoning",
      "assistant",
      "function_call",
    ]);
  });
});

describe("/v1/stream: the blocks the decoders keep are taken back", () => {
  // What the library keeps since issue 34's documented variants: Gemini 3's server tool parts
  // (`toolCall`, `toolResponse`, no `type`), Anthropic's `mcp_tool_listing` and `container_upload`,
  // OpenAI's `compaction` item; each goes back to its own provider, never a 400.
  const turn = (blocks: Record<string, unknown>[]) => ({
    role: "assistant",
    content: "",
    tool_calls: [{ id: "call_1", name: "get_weather", arguments: { city: "Brest" } }],
    reasoning_parts: blocks.map((block) => ({ type: "block", block })),
  });
  const sent = (provider: "gemini" | "anthropic" | "openai-responses", blocks: Record<string, unknown>[]) =>
    requestBody(provider, parseStreamRequest(body(provider, turn(blocks)), providerNames));

  it("Gemini's toolCall and toolResponse parts go back before the call", () => {
    const parts = [
      {
        toolCall: { id: "tc_1", toolType: "GOOGLE_SEARCH_WEB", args: { queries: ["Brest"] } },
        thoughtSignature: "c2ln",
      },
      { toolResponse: { id: "tc_1", toolType: "GOOGLE_SEARCH_WEB", response: { search_suggestions: "Brest" } } },
    ];
    const contents = sent("gemini", parts)["contents"] as { parts: Record<string, unknown>[] }[];
    expect(contents[1]!.parts.slice(0, 2)).toEqual(parts);
  });

  it("Gemini's generated image (inlineData) goes back with its signature", () => {
    const image = { inlineData: { mimeType: "image/png", data: "iVBORw0KGgo=" }, thoughtSignature: "c2ln" };
    const contents = sent("gemini", [image])["contents"] as { parts: Record<string, unknown>[] }[];
    expect(contents[1]!.parts[0]).toEqual(image);
  });

  it("OpenAI's refusal (a refusal field part) goes back as the assistant message's refusal", () => {
    const refusal = {
      role: "assistant",
      content: "",
      reasoning_parts: [{ type: "field", field: "refusal", value: "No." }],
    };
    const messages = requestBody("openai", parseStreamRequest(body("openai", refusal), providerNames))["messages"];
    expect((messages as Record<string, unknown>[])[1]).toMatchObject({ role: "assistant", refusal: "No." });
  });

  it("Anthropic's mcp_tool_listing and container_upload blocks and OpenAI's compaction item go back", () => {
    const listing = { type: "mcp_tool_listing", mcp_server_name: "tickets", tools: [] };
    const upload = { type: "container_upload", file_id: "file_011" };
    const messages = sent("anthropic", [listing, upload])["messages"] as { content: Record<string, unknown>[] }[];
    expect(messages[1]!.content.slice(0, 2)).toEqual([listing, upload]);
    const compaction = { type: "compaction", id: "cmp_1", encrypted_content: "gAAA" };
    const input = sent("openai-responses", [compaction])["input"] as Record<string, unknown>[];
    expect(input[1]).toEqual(compaction);
  });
});

describe("/v1/responses: a Responses client's turn goes to the upstream in its order", () => {
  it("Codex's reasoning, message, reasoning and call reach an OpenAI Responses upstream in that order", async () => {
    const upstream = new FakeUpstream({ kind: "response", status: 500, body: "{}" });
    const input: ResponseInputItem[] = [
      { role: "user", content: "Weather in Brest?" },
      { type: "reasoning", id: "rs_1", summary: [], encrypted_content: "enc-1" },
      { type: "message", role: "assistant", content: "Checking." } as ResponseInputItem,
      { type: "reasoning", id: "rs_2", summary: [], encrypted_content: "enc-2" },
      { type: "function_call", call_id: "call_1", name: "get_weather", arguments: '{"city":"Brest"}' },
      { type: "function_call_output", call_id: "call_1", output: "sunny" },
    ];
    await openAIClient(upstream)
      .responses.create({
        model: "openai-responses/gpt-5.6",
        input,
        tools: [{ type: "function", name: "get_weather", parameters: weather, strict: false }],
      })
      .catch(() => undefined);
    const sent = upstream.requests[0]!.body as { input: Record<string, unknown>[] };
    expect(sent.input.map((item) => item["type"] ?? item["role"])).toEqual([
      "user",
      "reasoning",
      "assistant",
      "reasoning",
      "function_call",
      "function_call_output",
    ]);
  });
});

describe("/v1/messages: Claude Code's turn goes to the upstream in its block order", () => {
  it("a text block after a tool_use stays after it", async () => {
    const upstream = new FakeUpstream({ kind: "response", status: 500, body: "{}" });
    const anthropic = new Anthropic({
      baseURL: "http://localhost:8787",
      apiKey: "t",
      fetch: workerFetch({ env: OPENAI_ANTHROPIC_ENV, upstream }),
      maxRetries: 0,
    });
    await anthropic.messages
      .create({
        model: "anthropic/claude-x",
        max_tokens: 1024,
        tools: [{ name: "get_weather", input_schema: { type: "object" } }],
        messages: [
          { role: "user", content: "Weather in Brest?" },
          {
            role: "assistant",
            content: [
              { type: "thinking", thinking: "Brest.", signature: "sig-1" },
              { type: "tool_use", id: "toolu_1", name: "get_weather", input: { city: "Brest" } },
              { type: "text", text: "Asked." },
            ],
          },
          { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_1", content: "sunny" }] },
        ],
      })
      .catch(() => undefined);
    const sent = upstream.requests[0]!.body as { messages: { content: { type: string }[] }[] };
    expect(sent.messages[1]!.content.map((block) => block.type)).toEqual(["thinking", "tool_use", "text"]);
  });
});
