// A tool's schema under another API's name (Chat's `parameters` sent to Messages, Anthropic's
// `input_schema` sent to Responses) would reach the model as a tool without a schema: every
// endpoint names the field instead, at the path where the client wrote it, and calls no provider;
// so does /v1/messages for a tool of another API's `type: "function"`, which it would drop.
import { describe, expect, it } from "vitest";
import { FakeUpstream, liveOpenAI, testEnv, worker } from "./support.ts";

const schema = { type: "object", properties: { city: { type: "string" } } };
const messages = [{ role: "user", content: "Weather in Paris?" }];

async function refusal(
  path: string,
  body: Record<string, unknown>,
): Promise<{ status: number; text: string; upstream: number }> {
  // A provider that answers at once: a request that reached it is counted, never waited for.
  const upstream = new FakeUpstream({ kind: "response", status: 500, body: "{}" });
  const request = new Request(`http://localhost:8787${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", "anthropic-version": "2023-06-01", authorization: "Bearer t" },
    body: JSON.stringify(body),
  });
  const response = await worker(upstream).call(
    request,
    testEnv({ ...liveOpenAI, ANTHROPIC_API_KEY: "sk-ant-test", CLIENT_TOKEN: "t" }),
  );
  return { status: response.status, text: await response.text(), upstream: upstream.requests.length };
}

describe("a tool's schema under another API's name", () => {
  it("/v1/messages: `parameters`, `inputSchema` or `schema` without `input_schema` is a 400 naming it", async () => {
    for (const key of ["parameters", "inputSchema", "schema"]) {
      const answer = await refusal("/v1/messages", {
        model: "anthropic/claude-sonnet-4-6",
        max_tokens: 64,
        messages,
        tools: [{ name: "get_weather", [key]: schema }],
      });
      expect(answer).toMatchObject({ status: 400, upstream: 0 });
      expect(JSON.parse(answer.text)).toMatchObject({
        type: "error",
        error: {
          type: "invalid_request_error",
          message: `The tool's JSON Schema goes in \`input_schema\`, not \`${key}\`. (field: tools[0].${key})`,
          details: { error_code: "invalid_request" },
        },
      });
    }
  });

  it("/v1/messages: a tool of Chat Completions' or Responses' form (`type: \"function\"`) is a 400, not dropped as a server tool", async () => {
    for (const tool of [
      { type: "function", function: { name: "get_weather", parameters: schema } },
      { type: "function", name: "get_weather", parameters: schema },
    ]) {
      const answer = await refusal("/v1/messages", {
        model: "anthropic/claude-sonnet-4-6",
        max_tokens: 64,
        messages,
        tools: [tool],
      });
      expect(answer).toMatchObject({ status: 400, upstream: 0 });
      expect(JSON.parse(answer.text)).toMatchObject({
        error: {
          type: "invalid_request_error",
          message:
            "A Messages tool is `{name, description?, input_schema}`, with no `type` (or `custom`): `function` is Chat Completions' and Responses' form. (field: tools[0].type)",
        },
      });
    }
  });

  it("/v1/responses: `input_schema`, `inputSchema` or `schema` without `parameters` is a 400 naming it", async () => {
    for (const key of ["input_schema", "inputSchema", "schema"]) {
      const answer = await refusal("/v1/responses", {
        model: "openai/gpt-4o-mini",
        input: "Weather in Paris?",
        tools: [{ type: "function", name: "get_weather", [key]: schema }],
      });
      expect(answer).toMatchObject({ status: 400, upstream: 0 });
      expect(JSON.parse(answer.text)).toMatchObject({
        error: { message: `The tool's JSON Schema goes in \`parameters\`, not \`${key}\`.`, param: `tools[0].${key}` },
      });
    }
  });

  it("/v1/responses: Chat Completions' nested `function` is named, not reported as a bad name", async () => {
    const answer = await refusal("/v1/responses", {
      model: "openai/gpt-4o-mini",
      input: "Weather in Paris?",
      tools: [{ type: "function", function: { name: "get_weather", parameters: schema } }],
    });
    expect(answer).toMatchObject({ status: 400, upstream: 0 });
    expect(JSON.parse(answer.text)).toMatchObject({
      error: {
        message:
          "A Responses function tool has its `name` and `parameters` at its top level, not under `function` (Chat Completions' form).",
        param: "tools[0].function",
      },
    });
  });

  it("/v1/chat/completions: the misnamed field's path is under `function`, where the client wrote it", async () => {
    const answer = await refusal("/v1/chat/completions", {
      model: "openai/gpt-4o-mini",
      messages,
      tools: [{ type: "function", function: { name: "get_weather", input_schema: schema } }],
    });
    expect(answer).toMatchObject({ status: 400, upstream: 0 });
    expect(JSON.parse(answer.text)).toMatchObject({
      error: {
        message: "The tool's JSON Schema goes in `parameters`, not `input_schema`.",
        param: "tools[0].function.input_schema",
      },
    });
  });
});
