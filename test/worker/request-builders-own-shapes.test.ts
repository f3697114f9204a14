// The request builders of the upstreams that are not OpenAI-shaped: Bedrock ConverseStream,
// Cohere v2 and Ollama's /api/chat, from the same second turn as request-builders.test.ts (an earlier
// assistant turn with two calls, and their results).
import { AwsV4Signer } from "aws4fetch";
import { describe, expect, it } from "vitest";
import { bedrockCredentials, buildBedrockRequest } from "../../worker/upstream/providers/bedrock.ts";
import { buildCohereRequest } from "../../worker/upstream/providers/cohere.ts";
import { buildOllamaRequest } from "../../worker/upstream/providers/ollama.ts";
import { providerNames } from "../../worker/upstream/providers/index.ts";
import { parseStreamRequest } from "../../worker/request/parse-stream-request.ts";
import type { StreamRequest } from "../../worker/request/stream-request.ts";
import { SettingsError } from "../../worker/env.ts";

const weather = { type: "object", properties: { city: { type: "string" } } };

/** A second turn: the model called get_weather twice, the client ran both and sends the results. */
function secondTurn(provider: string, overrides: Record<string, unknown> = {}): StreamRequest {
  return parseStreamRequest(
    {
      provider,
      model: "m-1",
      messages: [
        { role: "system", content: "Be brief." },
        { role: "user", content: "Weather in Paris and Rome?" },
        {
          role: "assistant",
          content: "Checking.",
          tool_calls: [
            { id: "call_1", name: "get_weather", arguments: { city: "Paris" } },
            { id: "call_2", name: "get_weather", arguments: { city: "Rome" } },
          ],
        },
        { role: "tool", tool_call_id: "call_1", content: '{"celsius":18}' },
        { role: "tool", tool_call_id: "call_2", content: "sunny" },
      ],
      tools: [{ type: "function", function: { name: "get_weather", description: "Weather", parameters: weather } }],
      tool_choice: "required",
      max_tokens: 300,
      temperature: 0.5,
      ...overrides,
    },
    providerNames,
  );
}
const target = { baseUrl: "https://api.example/v1", apiKey: "KEY" };
const firstTurn = (provider: string, overrides: Record<string, unknown> = {}) =>
  secondTurn(provider, { messages: [{ role: "user", content: "Weather in Paris?" }], ...overrides });

describe("Bedrock ConverseStream request", () => {
  it("system blocks apart, toolUse blocks, both toolResult blocks in one user turn, toolSpec tools, toolChoice any", () => {
    const http = buildBedrockRequest(secondTurn("bedrock"), target);
    expect(http.url).toBe("https://api.example/v1/model/m-1/converse-stream");
    expect(http.headers).toEqual({ "content-type": "application/json" });
    expect(http.responseType).toBe("application/vnd.amazon.eventstream");
    expect(http.sign, "the replay target has no credentials: nothing is signed").toBeUndefined();
    expect(http.body).toEqual({
      system: [{ text: "Be brief." }],
      messages: [
        { role: "user", content: [{ text: "Weather in Paris and Rome?" }] },
        {
          role: "assistant",
          content: [
            { text: "Checking." },
            { toolUse: { toolUseId: "call_1", name: "get_weather", input: { city: "Paris" } } },
            { toolUse: { toolUseId: "call_2", name: "get_weather", input: { city: "Rome" } } },
          ],
        },
        {
          role: "user",
          content: [
            { toolResult: { toolUseId: "call_1", content: [{ text: '{"celsius":18}' }] } },
            { toolResult: { toolUseId: "call_2", content: [{ text: "sunny" }] } },
          ],
        },
      ],
      toolConfig: {
        tools: [{ toolSpec: { name: "get_weather", description: "Weather", inputSchema: { json: weather } } }],
        toolChoice: { any: {} },
      },
      inferenceConfig: { maxTokens: 300, temperature: 0.5 },
    });
  });

  it("the model id is one encoded path segment (`:` of versions, `/` of ARNs)", () => {
    expect(buildBedrockRequest(firstTurn("bedrock", { model: "us.amazon.nova-micro-v1:0" }), target).url).toBe(
      "https://api.example/v1/model/us.amazon.nova-micro-v1%3A0/converse-stream",
    );
    const arn = "arn:aws:bedrock:us-east-1:123456789012:inference-profile/us.anthropic.claude-sonnet-4-5-20250929-v1:0";
    expect(buildBedrockRequest(firstTurn("bedrock", { model: arn }), target).url).toBe(
      `https://api.example/v1/model/${encodeURIComponent(arn)}/converse-stream`,
    );
  });

  it("tool choices: auto, a named tool; none drops the tools, and is refused once the conversation has calls, as are no tools", () => {
    expect(buildBedrockRequest(firstTurn("bedrock", { tool_choice: "auto" }), target).body["toolConfig"]).toMatchObject(
      { toolChoice: { auto: {} } },
    );
    expect(
      buildBedrockRequest(firstTurn("bedrock", { tool_choice: { name: "get_weather" } }), target).body["toolConfig"],
    ).toMatchObject({ toolChoice: { tool: { name: "get_weather" } } });
    expect(
      buildBedrockRequest(firstTurn("bedrock", { tool_choice: undefined }), target).body["toolConfig"],
    ).not.toHaveProperty("toolChoice");
    expect(buildBedrockRequest(firstTurn("bedrock", { tool_choice: "none" }), target).body).not.toHaveProperty(
      "toolConfig",
    );
    expect(() => buildBedrockRequest(secondTurn("bedrock", { tool_choice: "none" }), target)).toThrow(
      /cannot forbid tool calls/,
    );
    expect(() => buildBedrockRequest(secondTurn("bedrock", { tools: [], tool_choice: undefined }), target)).toThrow(
      /needs the tools listed/,
    );
  });

  it("blank text blocks are left out, calls without an id and temperatures over 1 are refused", () => {
    const request = secondTurn("bedrock", { temperature: undefined, max_tokens: undefined, tool_choice: undefined });
    const assistant = request.messages[2];
    if (assistant?.role === "assistant") assistant.content = " ";
    const body = buildBedrockRequest(request, target).body as { messages: { content: unknown[] }[] };
    expect(body.messages[1]!.content).toHaveLength(2);
    expect(body).not.toHaveProperty("inferenceConfig");
    if (assistant?.role === "assistant") assistant.toolCalls[1]!.id = null;
    expect(() => buildBedrockRequest(request, target)).toThrow(/id of every earlier tool call/);
    expect(() => buildBedrockRequest(firstTurn("bedrock", { temperature: 1.5 }), target)).toThrow(/from 0 to 1/);
  });

  it("credentials: none is the replay; one key without the other, a bad key id or region is a settings error that does not echo them", () => {
    expect(bedrockCredentials({})).toBeUndefined();
    expect(() => bedrockCredentials({ AWS_SECRET_ACCESS_KEY: "s3cr3t" })).toThrow(
      new SettingsError("AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY", "must be set together."),
    );
    expect(() => bedrockCredentials({ AWS_ACCESS_KEY_ID: "AKID\nX", AWS_SECRET_ACCESS_KEY: "s3cr3t" })).toThrow(
      /must be letters and digits/,
    );
    expect(() =>
      bedrockCredentials({ AWS_ACCESS_KEY_ID: "AKID", AWS_SECRET_ACCESS_KEY: "s", AWS_REGION: "evil.example/x" }),
    ).toThrow("AWS_REGION must be a region name such as us-east-1.");
    expect(() =>
      bedrockCredentials({ AWS_ACCESS_KEY_ID: "AKID", AWS_SECRET_ACCESS_KEY: "s", AWS_SESSION_TOKEN: "a b" }),
    ).toThrow("AWS_SESSION_TOKEN must be base64 text.");
    const now = () => 0;
    expect(
      bedrockCredentials({ AWS_ACCESS_KEY_ID: " AKID ", AWS_SECRET_ACCESS_KEY: "s", AWS_REGION: "eu-central-1" }, now),
    ).toEqual({
      apiKey: "",
      aws: { credentials: { accessKeyId: "AKID", secretAccessKey: "s" }, region: "eu-central-1", now },
    });
  });

  it("signs the exact body with SigV4 for service bedrock: the canonical request AWS rebuilds, and the signature an independent signer computes", async () => {
    const credentials = {
      accessKeyId: "AKIDEXAMPLE",
      secretAccessKey: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY",
      sessionToken: "FQoGZXIvYXdzEXAMPLE+token/==",
    };
    const at = Date.UTC(2026, 0, 15, 9, 30, 0);
    const http = buildBedrockRequest(firstTurn("bedrock", { model: "amazon.nova-micro-v1:0" }), {
      baseUrl: "https://bedrock-runtime.eu-west-3.amazonaws.com",
      apiKey: "",
      aws: { credentials, region: "eu-west-3", now: () => at },
    });
    const body = JSON.stringify(http.body);
    const signed = await http.sign!(http.url, http.headers, body);
    expect(Object.keys(signed).sort()).toEqual(["authorization", "x-amz-date", "x-amz-security-token"]);
    expect(signed["x-amz-date"]).toBe("20260115T093000Z");
    expect(signed["x-amz-security-token"]).toBe(credentials.sessionToken);

    const bodyHash = Array.from(
      new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(body))),
      (b) => b.toString(16).padStart(2, "0"),
    ).join("");
    const canonical = [
      "POST",
      "/model/amazon.nova-micro-v1%253A0/converse-stream",
      "",
      "content-type:application/json",
      "host:bedrock-runtime.eu-west-3.amazonaws.com",
      "x-amz-date:20260115T093000Z",
      `x-amz-security-token:${credentials.sessionToken}`,
      "",
      "content-type;host;x-amz-date;x-amz-security-token",
      bodyHash,
    ].join("\n");
    const oracle = new AwsV4Signer({
      url: http.url,
      method: "POST",
      headers: http.headers,
      body,
      ...credentials,
      service: "bedrock",
      region: "eu-west-3",
      datetime: "20260115T093000Z",
      allHeaders: true,
    });
    expect(await oracle.canonicalString()).toBe(canonical);
    expect(signed["authorization"]).toBe(await oracle.authHeader());
    expect(signed["authorization"]).toMatch(
      /^AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE\/20260115\/eu-west-3\/bedrock\/aws4_request, SignedHeaders=content-type;host;x-amz-date;x-amz-security-token, Signature=[0-9a-f]{64}$/,
    );
    expect(JSON.stringify(signed)).not.toContain(credentials.secretAccessKey);
  });
});

describe("Cohere v2 chat request", () => {
  it("messages role for role, calls with JSON-text arguments and the text before them as tool_plan, tool messages, tool_choice REQUIRED", () => {
    const http = buildCohereRequest(secondTurn("cohere"), target);
    expect(http.url).toBe("https://api.example/v1/chat");
    expect(http.headers).toEqual({
      authorization: "Bearer KEY",
      "content-type": "application/json",
      accept: "text/event-stream",
    });
    expect(http.responseType).toBeUndefined();
    expect(http.body).toEqual({
      model: "m-1",
      stream: true,
      messages: [
        { role: "system", content: "Be brief." },
        { role: "user", content: "Weather in Paris and Rome?" },
        {
          role: "assistant",
          tool_plan: "Checking.",
          tool_calls: [
            { id: "call_1", type: "function", function: { name: "get_weather", arguments: '{"city":"Paris"}' } },
            { id: "call_2", type: "function", function: { name: "get_weather", arguments: '{"city":"Rome"}' } },
          ],
        },
        { role: "tool", tool_call_id: "call_1", content: '{"celsius":18}' },
        { role: "tool", tool_call_id: "call_2", content: "sunny" },
      ],
      tools: [{ type: "function", function: { name: "get_weather", description: "Weather", parameters: weather } }],
      tool_choice: "REQUIRED",
      max_tokens: 300,
      temperature: 0.5,
    });
  });

  it("auto is no tool_choice, none is NONE, a named tool is REQUIRED with that tool alone; an assistant text turn keeps its content", () => {
    const tools = [
      { name: "get_weather", parameters: weather },
      { name: "search", parameters: { type: "object", properties: {} } },
    ];
    expect(buildCohereRequest(firstTurn("cohere", { tool_choice: "auto" }), target).body).not.toHaveProperty(
      "tool_choice",
    );
    expect(buildCohereRequest(firstTurn("cohere", { tool_choice: "none" }), target).body["tool_choice"]).toBe("NONE");
    const named = buildCohereRequest(firstTurn("cohere", { tools, tool_choice: { name: "search" } }), target).body;
    expect(named["tool_choice"]).toBe("REQUIRED");
    expect(named["tools"]).toEqual([
      { type: "function", function: { name: "search", parameters: { type: "object", properties: {} } } },
    ]);
    const chat = buildCohereRequest(
      firstTurn("cohere", {
        messages: [
          { role: "user", content: "Hi" },
          { role: "assistant", content: "Hello!" },
          { role: "user", content: "Bye" },
        ],
      }),
      target,
    );
    expect((chat.body["messages"] as unknown[])[1]).toEqual({ role: "assistant", content: "Hello!" });
  });

  it("a result without tool_call_id and a call without id are refused", () => {
    expect(() =>
      buildCohereRequest(
        secondTurn("cohere", {
          messages: [
            { role: "user", content: "x" },
            { role: "tool", name: "get_weather", content: "1" },
          ],
        }),
        target,
      ),
    ).toThrow(/tool_call_id/);
    const request = secondTurn("cohere");
    const assistant = request.messages[2];
    if (assistant?.role === "assistant") assistant.toolCalls[0]!.id = null;
    expect(() => buildCohereRequest(request, target)).toThrow(/id of every earlier tool call/);
  });
});

describe("Ollama /api/chat request", () => {
  it("messages as they are, calls with object arguments, results named with tool_name, options for the limits, NDJSON", () => {
    const http = buildOllamaRequest(secondTurn("ollama", { tool_choice: "auto" }), {
      baseUrl: "http://localhost:11434",
      apiKey: "",
    });
    expect(http.url).toBe("http://localhost:11434/api/chat");
    expect(http.headers).toEqual({ "content-type": "application/json", accept: "application/x-ndjson" });
    expect(http.responseType).toBe("application/x-ndjson");
    expect(http.body).toEqual({
      model: "m-1",
      stream: true,
      messages: [
        { role: "system", content: "Be brief." },
        { role: "user", content: "Weather in Paris and Rome?" },
        {
          role: "assistant",
          content: "Checking.",
          tool_calls: [
            { id: "call_1", function: { name: "get_weather", arguments: { city: "Paris" } } },
            { id: "call_2", function: { name: "get_weather", arguments: { city: "Rome" } } },
          ],
        },
        { role: "tool", content: '{"celsius":18}', tool_name: "get_weather", tool_call_id: "call_1" },
        { role: "tool", content: "sunny", tool_name: "get_weather", tool_call_id: "call_2" },
      ],
      tools: [{ type: "function", function: { name: "get_weather", description: "Weather", parameters: weather } }],
      options: { num_predict: 300, temperature: 0.5 },
    });
  });

  it("calls without ids (Ollama's own) go back without one, and their results are matched by name", () => {
    const request = secondTurn("ollama", {
      tool_choice: undefined,
      messages: [
        { role: "user", content: "Weather in Tokyo?" },
        {
          role: "assistant",
          content: "",
          tool_calls: [{ id: null, name: "get_weather", arguments: { city: "Tokyo" } }],
        },
        { role: "tool", name: "get_weather", content: "rain" },
      ],
    });
    expect(buildOllamaRequest(request, target).body["messages"]).toEqual([
      { role: "user", content: "Weather in Tokyo?" },
      {
        role: "assistant",
        content: "",
        tool_calls: [{ function: { name: "get_weather", arguments: { city: "Tokyo" } } }],
      },
      { role: "tool", content: "rain", tool_name: "get_weather" },
    ]);
  });

  it("a key is sent as a bearer token only when set; none offers no tools; required and a named tool are refused", () => {
    expect(buildOllamaRequest(firstTurn("ollama", { tool_choice: "auto" }), target).headers["authorization"]).toBe(
      "Bearer KEY",
    );
    expect(buildOllamaRequest(firstTurn("ollama", { tool_choice: "none" }), target).body).not.toHaveProperty("tools");
    expect(() => buildOllamaRequest(firstTurn("ollama"), target)).toThrow(/cannot be made to call a tool/);
    expect(() => buildOllamaRequest(firstTurn("ollama", { tool_choice: { name: "get_weather" } }), target)).toThrow(
      /cannot be made to call a tool/,
    );
  });

  it("a result that names no tool and answers no known call is refused", () => {
    const request = firstTurn("ollama", {
      tool_choice: undefined,
      messages: [
        { role: "user", content: "x" },
        { role: "tool", tool_call_id: "call_9", content: "1" },
      ],
    });
    expect(() => buildOllamaRequest(request, target)).toThrow(/`name` of the tool/);
  });
});
