// Anthropic's MCP connector (`mcp_servers` with an `mcp_toolset` tool, beta `mcp-client-2025-11-20`)
// through `/v1/messages`: the Worker forwards neither to any upstream, so a request that uses it is
// a 400 in Anthropic's error shape naming the field, not an answer from a model that never saw the
// MCP server's tools (they were dropped before) nor a 500. A tool `type` Anthropic has not got
// (every one but `custom` and `mcp_toolset` carries a date) is the same 400, as at Anthropic.
import Anthropic from "@anthropic-ai/sdk";
import { describe, expect, it } from "vitest";
import { textTurn } from "./anthropic-blocks.ts";
import { OPENAI_ANTHROPIC_ENV, workerFetch } from "./client-support.ts";
import { FakeUpstream } from "./support.ts";

const answer = (): FakeUpstream => new FakeUpstream({ kind: "sse", chunks: textTurn("Done.") });
const OWN = { name: "read_file", input_schema: { type: "object" as const } };
const SERVERS = [{ type: "url", url: "https://mcp.example.com/sse", name: "docs" }];

/** What `body` gives at `/v1/messages` through @anthropic-ai/sdk: the error thrown, or undefined. */
async function send(body: Record<string, unknown>, model: string, upstream: FakeUpstream) {
  const sdk = new Anthropic({
    baseURL: "http://localhost:8787",
    apiKey: "t",
    fetch: workerFetch({ env: OPENAI_ANTHROPIC_ENV, upstream }),
    maxRetries: 0,
  });
  const request = { model, max_tokens: 256, messages: [{ role: "user", content: "List the docs." }], ...body };
  return sdk.beta.messages.create(request as unknown as Anthropic.Beta.MessageCreateParamsNonStreaming).then(
    () => undefined,
    (e: unknown) => e,
  );
}

const messageOf = (error: unknown): string => {
  expect(error).toBeInstanceOf(Anthropic.BadRequestError);
  const body = (error as InstanceType<typeof Anthropic.BadRequestError>).error as {
    type: string;
    error: { type: string; message: string };
  };
  expect([body.type, body.error.type]).toEqual(["error", "invalid_request_error"]);
  return body.error.message;
};

describe("/v1/messages with Anthropic's MCP connector", () => {
  for (const model of ["anthropic/claude-x", "openai/gpt-x"]) {
    it(`${model}: an mcp_toolset tool is a 400 naming tools[i].type, and nothing reaches the provider`, async () => {
      const upstream = answer();
      const tools = [OWN, { type: "mcp_toolset", mcp_server_name: "docs" }];
      const message = messageOf(await send({ tools }, model, upstream));
      expect(message).toContain("(field: tools[1].type)");
      expect(message).toContain("mcp_toolset");
      expect(upstream.requests).toHaveLength(0);
    });

    it(`${model}: mcp_servers is a 400 naming it`, async () => {
      const upstream = answer();
      const message = messageOf(await send({ mcp_servers: SERVERS, tools: [OWN] }, model, upstream));
      expect(message).toMatch(/^`mcp_servers` /); // names the field, so no "(field: ...)" is appended
      expect(upstream.requests).toHaveLength(0);
    });

    it(`${model}: a tool type Anthropic has not got is a 400 naming it`, async () => {
      for (const type of ["function", "bogus", 7]) {
        const upstream = answer();
        const message = messageOf(await send({ tools: [{ type, name: "x", input_schema: {} }] }, model, upstream));
        expect(message).toContain("(field: tools[0].type)");
        expect(upstream.requests).toHaveLength(0);
      }
    });
  }

  it("none of it given (or mcp_servers empty): the client's tools still reach the provider", async () => {
    const upstream = answer();
    expect(
      await send(
        { tools: [OWN, { type: "custom", ...OWN, name: "b" }], mcp_servers: [] },
        "anthropic/claude-x",
        upstream,
      ),
    ).toBeUndefined();
    expect((upstream.requests[0]!.body["tools"] as { name: string }[]).map((tool) => tool.name)).toEqual([
      "read_file",
      "b",
    ]);
    expect(upstream.requests[0]!.body).not.toHaveProperty("mcp_servers");
  });
});
