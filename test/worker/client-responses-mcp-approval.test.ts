// OpenAI's remote MCP approvals through POST /v1/responses, openai-node as the client, a fake
// OpenAI Responses upstream streaming the documented shapes (test/recordings/openai-responses/):
// the `mcp` tool reaches OpenAI as the client gave it, the `mcp_approval_request` reaches the
// client as its own item (before: dropped, the turn looked finished), and the next turn's request
// and the client's `mcp_approval_response` reach OpenAI in place; another provider refuses them by path.
import OpenAI from "openai";
import { describe, expect, it } from "vitest";
import approvedStream from "../recordings/openai-responses/mcp-approval-approved.sse?raw";
import requestStream from "../recordings/openai-responses/mcp-approval-request.sse?raw";
import { workerFetch } from "./client-support.ts";
import { FakeUpstream, testEnv } from "./support.ts";

const ENV = testEnv({
  OPENAI_API_KEY: "k",
  OPENAI_BASE_URL: "https://provider.test/v1",
  ANTHROPIC_API_KEY: "k",
  ANTHROPIC_BASE_URL: "https://provider.test",
  CLIENT_TOKEN: "t",
  OPENAI_SERVER_TOOLS: "mcp", // OpenAI calls the MCP server on the deployment's key: listed (unset: never)
});
const client = (upstream: FakeUpstream) =>
  new OpenAI({
    baseURL: "http://localhost:8787/v1",
    apiKey: "t",
    fetch: workerFetch({ env: ENV, upstream }),
    maxRetries: 0,
  });
const MCP: OpenAI.Responses.Tool = {
  type: "mcp",
  server_label: "links",
  server_url: "https://links.example.com/mcp",
  require_approval: "always",
};
const ask = "Shorten https://example.com/a/very/long/path?q=café as docs.";
const ARGS = JSON.stringify({ url: "https://example.com/a/very/long/path?q=café", alias: "docs" });
const sse = (body: string) => new FakeUpstream({ kind: "sse", chunks: [body] });
/** The documented stream's `mcp_list_tools` item (openai 7's `ResponseOutputItem.McpListTools`). */
const LISTED: OpenAI.Responses.ResponseInputItem.McpListTools = {
  id: "mcpl_tcs_01",
  type: "mcp_list_tools",
  server_label: "links",
  tools: [
    {
      name: "shorten",
      description: "Shorten a URL.",
      input_schema: {
        type: "object",
        properties: { url: { type: "string" }, alias: { type: "string" } },
        required: ["url"],
      },
      annotations: { read_only: false },
    },
  ],
};

async function turn(upstream: FakeUpstream, model: string, input: OpenAI.Responses.ResponseInput | string) {
  const stream = client(upstream).responses.stream({ model, tools: [MCP], input, store: false });
  for await (const _event of stream);
  return { response: await stream.finalResponse(), body: upstream.requests[0]!.body };
}

describe("POST /v1/responses with OpenAI's remote MCP approvals", () => {
  it("the request reaches the client as its item; its answer reaches OpenAI after it, and OpenAI's answer comes back", async () => {
    const first = await turn(sse(requestStream), "openai-responses/gpt-5-mini", ask);
    expect(first.body["tools"]).toEqual([MCP]);
    const request = first.response.output.find((item) => item.type === "mcp_approval_request");
    expect(request).toEqual({
      type: "mcp_approval_request",
      id: "mcpr_tcs_02",
      server_label: "links",
      name: "shorten",
      arguments: ARGS,
    });
    expect(first.response.status).toBe("completed");

    const upstream = sse(approvedStream);
    const second = await turn(upstream, "openai-responses/gpt-5-mini", [
      { role: "user", content: ask },
      ...(first.response.output as OpenAI.Responses.ResponseInputItem[]),
      { type: "mcp_approval_response", approval_request_id: "mcpr_tcs_02", approve: true, reason: "Fine." },
    ]);
    expect(second.body["tools"]).toEqual([MCP]);
    // The server's tool list came back sealed in a reasoning item, and reaches OpenAI as it came, in its
    // place (openai 7's ResponseInputItem.McpListTools): with it OpenAI does not list the tools again.
    expect((second.body["input"] as unknown[]).slice(1)).toEqual([
      LISTED,
      { type: "mcp_approval_request", id: "mcpr_tcs_02", server_label: "links", name: "shorten", arguments: ARGS },
      { type: "mcp_approval_response", approval_request_id: "mcpr_tcs_02", approve: true, reason: "Fine." },
    ]);
    expect(second.response.output_text).toBe("Here is your short link: https://lnk.example/docs");
  });

  it("a client's own mcp_list_tools item reaches OpenAI as it came, in its place (it was left out)", async () => {
    const upstream = sse(approvedStream);
    const { body } = await turn(upstream, "openai-responses/gpt-5-mini", [
      { role: "user", content: ask },
      LISTED,
      { type: "mcp_approval_request", id: "mcpr_tcs_02", server_label: "links", name: "shorten", arguments: ARGS },
      { type: "mcp_approval_response", approval_request_id: "mcpr_tcs_02", approve: true },
    ]);
    expect((body["input"] as { type?: string }[]).map((item) => item.type ?? "message")).toEqual([
      "message",
      "mcp_list_tools",
      "mcp_approval_request",
      "mcp_approval_response",
    ]);
    expect((body["input"] as unknown[])[1]).toEqual(LISTED);
  });

  it("a denial goes as approve: false; an answer to no earlier request, or MCP for another provider, is a 400 by path", async () => {
    const upstream = sse(approvedStream);
    const { body } = await turn(upstream, "openai-responses/gpt-5-mini", [
      { role: "user", content: ask },
      { type: "mcp_approval_request", id: "mcpr_tcs_02", server_label: "links", name: "shorten", arguments: ARGS },
      { type: "mcp_approval_response", approval_request_id: "mcpr_tcs_02", approve: false },
    ]);
    expect((body["input"] as unknown[]).at(-1)).toEqual({
      type: "mcp_approval_response",
      approval_request_id: "mcpr_tcs_02",
      approve: false,
    });

    const refused = async (model: string, input: OpenAI.Responses.ResponseInput) => {
      const error = await client(sse(approvedStream))
        .responses.create({ model, tools: [MCP], input })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(OpenAI.BadRequestError);
      return (error as InstanceType<typeof OpenAI.BadRequestError>).param;
    };
    expect(
      await refused("openai-responses/gpt-5-mini", [
        { role: "user", content: ask },
        { type: "mcp_approval_response", approval_request_id: "mcpr_unknown", approve: true },
      ]),
    ).toBe("input[1].approval_request_id");
    // An answer names a request and an output a call, never the other way round.
    const call = { type: "function_call", call_id: "call_7", name: "shorten_local", arguments: "{}" } as const;
    expect(
      await refused("openai-responses/gpt-5-mini", [
        { role: "user", content: ask },
        call,
        { type: "mcp_approval_response", approval_request_id: "call_7", approve: true },
      ]),
    ).toBe("input[2].approval_request_id");
    expect(
      await refused("openai-responses/gpt-5-mini", [
        { role: "user", content: ask },
        { type: "mcp_approval_request", id: "mcpr_tcs_02", server_label: "links", name: "shorten", arguments: ARGS },
        { type: "function_call_output", call_id: "mcpr_tcs_02", output: '{"approve":true}' },
      ]),
    ).toBe("input[2].call_id");
    expect(await refused("anthropic/claude-sonnet-4-5", [{ role: "user", content: ask }])).toBe("tools[0].type");
  });
});
