// Offline (no provider key), every client protocol answers a request that declares a tool no
// recording knows with a call to that tool, its arguments valid against the tool's schema (a
// pattern, enums, a nested object, an array of objects) and taken from the prompt where they fit,
// then answers the tool's result with text: the scripted model (worker/upstream/replay/scripted/).
// POST /v1/run, which runs the Worker's own tools only: test/worker/run-replay.test.ts.
import { afterEach, describe, expect, it, vi } from "vitest";
import { checkToolArguments, type ToolSchema } from "../../src/index.ts";
import { providerNames } from "../../worker/upstream/providers/index.ts";
import { Filler } from "../../worker/upstream/replay/scripted/arguments/schema-fill.ts";
import { readSSE, streamRequest, worker } from "./support.ts";

const SCHEMA = {
  type: "object",
  additionalProperties: false,
  properties: {
    order_id: { type: "string", pattern: "^ORD-[0-9]+$", description: "The order's id." },
    include: { type: "string", enum: ["items", "shipping", "billing"] },
    customer: {
      type: "object",
      properties: { email: { type: "string", format: "email" }, tier: { enum: ["basic", "gold"] } },
      required: ["tier"],
    },
    lines: {
      type: "array",
      minItems: 1,
      items: {
        type: "object",
        properties: { sku: { type: "string", pattern: "^[A-Z]{3}-\\d{3}$" }, qty: { type: "integer", minimum: 1 } },
        required: ["sku", "qty"],
      },
    },
  },
  required: ["order_id", "include", "customer", "lines"],
} as const;
const TOOL = { name: "lookup_order", description: "Look up an order by its id.", parameters: SCHEMA };
const PROMPT = "Where is my order ORD-1234? Show me the shipping details.";
const RESULT = JSON.stringify({ status: "shipped", carrier: "DHL" });

/** A call the model made: it is to the declared tool, with arguments the library's checker accepts, from the prompt. */
function expectCall(name: string, args: unknown): void {
  expect(name).toBe("lookup_order");
  expect(checkToolArguments(args as never, SCHEMA as unknown as ToolSchema, { assertFormats: true })).toEqual([]);
  expect(args).toMatchObject({ order_id: "ORD-1234", include: "shipping", customer: { tier: "basic" } });
}

/** The text answer to the result: written from it. */
function expectAnswer(text: string): void {
  expect(text).toContain("lookup_order");
  expect(text).toContain("shipped");
}

const post = (path: string, body: unknown) =>
  worker().call(
    new Request(`http://127.0.0.1:8787${path}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    }),
  );

/** The `data:` payloads of an SSE answer, as JSON. */
async function dataOf(response: Response): Promise<Record<string, unknown>[]> {
  expect(response.status).toBe(200);
  const text = await response.text();
  return [...text.matchAll(/^data: (.*)$/gm)]
    .map((m) => m[1]!)
    .filter((data) => data.startsWith("{"))
    .map((data) => JSON.parse(data) as Record<string, unknown>);
}

describe("offline, every protocol calls the request's own tool with schema-valid arguments, then answers its result", () => {
  for (const provider of providerNames) {
    it(`POST /v1/stream, provider ${provider}`, async () => {
      const messages: unknown[] = [{ role: "user", content: PROMPT }];
      const first = await worker().call(streamRequest({ provider, model: "any-model", messages, tools: [TOOL] }));
      expect(first.headers.get("x-replay-recording")).toBe("scripted-model");
      const finish = (await readSSE(first)).events.at(-1)!;
      if (finish.type !== "finish") throw new Error(`ends with ${finish.type}`);
      expect(finish.toolCalls).toHaveLength(1);
      const call = finish.toolCalls[0]!;
      expectCall(call.name, call.arguments);
      // The event's own id, sent back as it is: null for a provider without call ids (Gemini,
      // Ollama), which the tool message then names by `name` (a 400 before).
      const id = call.id;
      messages.push(
        { role: "assistant", content: "", tool_calls: [{ id, name: call.name, arguments: call.arguments }] },
        { role: "tool", tool_call_id: id, name: call.name, content: RESULT },
      );
      const second = await worker().call(streamRequest({ provider, model: "any-model", messages, tools: [TOOL] }));
      const end = (await readSSE(second)).events.at(-1)!;
      if (end.type !== "finish") throw new Error(`ends with ${end.type}`);
      expect(end.toolCalls).toEqual([]);
      expectAnswer(end.text);
    });
  }

  it("POST /v1/chat/completions (OpenAI Chat Completions)", async () => {
    const messages: unknown[] = [{ role: "user", content: PROMPT }];
    const tools = [{ type: "function", function: TOOL }];
    const first = (await (
      await post("/v1/chat/completions", { model: "openai/gpt-4o-mini", messages, tools })
    ).json()) as {
      choices: { message: { tool_calls: { id: string; function: { name: string; arguments: string } }[] } }[];
    };
    const [call] = first.choices[0]!.message.tool_calls;
    expectCall(call!.function.name, JSON.parse(call!.function.arguments));
    messages.push(first.choices[0]!.message, { role: "tool", tool_call_id: call!.id, content: RESULT });
    const second = (await (
      await post("/v1/chat/completions", { model: "openai/gpt-4o-mini", messages, tools })
    ).json()) as {
      choices: { message: { content: string; tool_calls?: unknown } }[];
    };
    expect(second.choices[0]!.message.tool_calls).toBeUndefined();
    expectAnswer(second.choices[0]!.message.content);
  });

  it("POST /v1/messages (Anthropic Messages), with Claude Code's own model name", async () => {
    const tools = [{ name: TOOL.name, description: TOOL.description, input_schema: SCHEMA }];
    const messages: unknown[] = [{ role: "user", content: PROMPT }];
    const body = { model: "claude-opus-5-5", max_tokens: 1024, tools };
    const first = (await (await post("/v1/messages", { ...body, messages })).json()) as {
      content: { type: string; id: string; name: string; input: unknown }[];
      stop_reason: string;
    };
    expect(first.stop_reason).toBe("tool_use");
    const use = first.content.find((block) => block.type === "tool_use")!;
    expectCall(use.name, use.input);
    messages.push(
      { role: "assistant", content: first.content },
      { role: "user", content: [{ type: "tool_result", tool_use_id: use.id, content: RESULT }] },
    );
    const second = (await (await post("/v1/messages", { ...body, messages })).json()) as {
      content: { type: string; text: string }[];
      stop_reason: string;
    };
    expect(second.stop_reason).toBe("end_turn");
    expectAnswer(second.content.map((block) => block.text).join(""));
  });

  it("POST /v1/responses (OpenAI Responses), with a model name of its own", async () => {
    const tools = [{ type: "function", name: TOOL.name, description: TOOL.description, parameters: SCHEMA }];
    const input: unknown[] = [{ role: "user", content: PROMPT }];
    const first = (await (await post("/v1/responses", { model: "gpt-5-codex", input, tools })).json()) as {
      output: { type: string; call_id: string; name: string; arguments: string }[];
    };
    const call = first.output.find((item) => item.type === "function_call")!;
    expectCall(call.name, JSON.parse(call.arguments));
    input.push(
      { type: "function_call", call_id: call.call_id, name: call.name, arguments: call.arguments },
      { type: "function_call_output", call_id: call.call_id, output: RESULT },
    );
    const second = (await (await post("/v1/responses", { model: "gpt-5-codex", input, tools })).json()) as {
      output: { type: string; content?: { type: string; text: string }[] }[];
    };
    expect(second.output.some((item) => item.type === "function_call")).toBe(false);
    const message = second.output.find((item) => item.type === "message")!;
    expectAnswer(message.content!.map((part) => part.text).join(""));
  });

  it("POST /v1/ui (the AI SDK's UI message stream)", async () => {
    const user = { id: "u1", role: "user", parts: [{ type: "text", text: PROMPT }] };
    const body = { id: "chat-1", trigger: "submit-message", model: "gemini/gemini-2.5-flash", tools: [TOOL] };
    const first = await dataOf(await post("/v1/ui", { ...body, messages: [user] }));
    const input = first.find((part) => part["type"] === "tool-input-available")!;
    expectCall(input["toolName"] as string, input["input"]);
    const assistant = {
      id: "a1",
      role: "assistant",
      parts: [
        {
          type: `tool-${TOOL.name}`,
          toolCallId: input["toolCallId"],
          state: "output-available",
          input: input["input"],
          output: JSON.parse(RESULT),
        },
      ],
    };
    const second = await dataOf(await post("/v1/ui", { ...body, messages: [user, assistant] }));
    expect(second.some((part) => part["type"] === "tool-input-available")).toBe(false);
    expectAnswer(second.flatMap((part) => (part["type"] === "text-delta" ? [part["delta"] as string] : [])).join(""));
  });

  it("POST /v1/ag-ui (AG-UI)", async () => {
    const base = { threadId: "t1", runId: "r1", tools: [TOOL], context: [], state: {} };
    const forwardedProps = { model: "anthropic/claude-sonnet-4-5" };
    const user = { id: "m1", role: "user", content: PROMPT };
    const first = await dataOf(await post("/v1/ag-ui", { ...base, forwardedProps, messages: [user] }));
    const start = first.find((event) => event["type"] === "TOOL_CALL_START")!;
    const args = first
      .filter((event) => event["type"] === "TOOL_CALL_ARGS" && event["toolCallId"] === start["toolCallId"])
      .map((event) => event["delta"])
      .join("");
    expectCall(start["toolCallName"] as string, JSON.parse(args));
    const id = start["toolCallId"] as string;
    const messages = [
      user,
      {
        id: "m2",
        role: "assistant",
        toolCalls: [{ id, type: "function", function: { name: TOOL.name, arguments: args } }],
      },
      { id: "m3", role: "tool", toolCallId: id, content: RESULT },
    ];
    const second = await dataOf(await post("/v1/ag-ui", { ...base, runId: "r2", forwardedProps, messages }));
    expect(second.some((event) => event["type"] === "TOOL_CALL_START")).toBe(false);
    expectAnswer(
      second.flatMap((event) => (event["type"] === "TEXT_MESSAGE_CONTENT" ? [event["delta"] as string] : [])).join(""),
    );
  });
});

describe("a failure of the scripted model itself", () => {
  afterEach(() => vi.restoreAllMocks());

  it("is a 500 in each protocol's error shape that says nothing of internals, logged, never a 502 upstream_unreachable", async () => {
    vi.spyOn(Filler.prototype, "value").mockImplementation(() => {
      throw new TypeError("secret-internals ORD-1234");
    });
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    const messages = [{ role: "user", content: PROMPT }];
    const answers = {
      "/v1/chat/completions": await post("/v1/chat/completions", {
        model: "openai/gpt-4o-mini",
        messages,
        tools: [{ type: "function", function: TOOL }],
      }),
      "/v1/messages": await post("/v1/messages", {
        model: "claude-opus-5-5",
        max_tokens: 1024,
        messages,
        tools: [{ name: TOOL.name, input_schema: SCHEMA }],
      }),
      "/v1/responses": await post("/v1/responses", {
        model: "gpt-5-codex",
        input: PROMPT,
        tools: [{ type: "function", name: TOOL.name, parameters: SCHEMA }],
      }),
      "/v1/stream": await worker().call(streamRequest({ provider: "gemini", model: "m", messages, tools: [TOOL] })),
    };
    for (const [path, response] of Object.entries(answers)) {
      const text = await response.text();
      expect(response.status, path).toBe(500);
      expect(text, path).not.toMatch(/secret|ORD-1234|upstream_unreachable|TypeError/);
      const body = JSON.parse(text) as { type?: string; error: { message: string } };
      expect(body.error.message, path).toMatch(/scripted model failed/);
      if (path === "/v1/messages") expect(body).toMatchObject({ type: "error", error: { type: "api_error" } });
    }
    const lines = logged.mock.calls.map((call) => String(call[0]));
    expect(lines.filter((line) => line.includes("unexpected TypeError in the offline scripted model"))).toHaveLength(4);
    expect(lines.join("\n")).not.toContain("secret");
  });
});
