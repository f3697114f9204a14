// Valid bodies of every POST endpoint of the Worker, and a check that an answer is in the
// endpoint's own error shape: the base of the hostile-input and fuzz tests.
import { expect } from "vitest";

/** An endpoint: its path, a valid body, and how its errors before the stream look. */
export interface Endpoint {
  path: string;
  valid: () => Record<string, unknown>;
  /** Asserts `response` (not 2xx) is an error in this endpoint's shape; returns the field at fault, when it names one. */
  expectError: (response: Response) => Promise<{ code: string; field?: string | null; message: string }>;
}

const PARAMETERS = { type: "object", properties: { city: { type: "string" } } };

async function workerError(response: Response) {
  expect(response.headers.get("content-type")).toMatch(/^application\/json/);
  const body = (await response.json()) as { error: { code: string; message: string; field?: string } };
  expect(Object.keys(body)).toEqual(["error"]);
  expect(body.error).toMatchObject({ code: expect.any(String), message: expect.any(String) });
  return body.error;
}

/** Every POST endpoint with a body. */
export const endpoints: Record<string, Endpoint> = {
  stream: {
    path: "/v1/stream",
    valid: () =>
      structuredClone({
        provider: "openai",
        model: "gpt-4o-mini",
        messages: [{ role: "user", content: "What is the weather in Paris?" }],
        tools: [{ name: "get_weather", parameters: PARAMETERS }],
      }),
    expectError: workerError,
  },
  // The same endpoint with the tool's parameters compiled into a validator while the calls stream.
  validated: {
    path: "/v1/stream",
    valid: () =>
      structuredClone({
        provider: "openai",
        model: "gpt-4o-mini",
        messages: [{ role: "user", content: "What is the weather in Paris?" }],
        tools: [{ name: "get_weather", parameters: { ...PARAMETERS, required: ["city"] } }],
        early_validation: true,
        abort_on_violation: true,
      }),
    expectError: workerError,
  },
  run: {
    path: "/v1/run",
    valid: () =>
      structuredClone({
        provider: "openai",
        model: "gpt-4o-mini",
        messages: [{ role: "user", content: "What is 17% of 230?" }],
        tools: ["calculate"],
        max_steps: 2,
      }),
    expectError: workerError,
  },
  chat: {
    path: "/v1/chat/completions",
    valid: () =>
      structuredClone({
        model: "openai/gpt-4o-mini",
        messages: [
          { role: "user", content: "Weather in Paris?" },
          {
            role: "assistant",
            content: null,
            tool_calls: [
              { id: "call_1", type: "function", function: { name: "get_weather", arguments: '{"city":"Paris"}' } },
            ],
          },
          { role: "tool", tool_call_id: "call_1", content: '{"celsius": 18}' },
        ],
        tools: [{ type: "function", function: { name: "get_weather", parameters: PARAMETERS } }],
      }),
    expectError: async (response) => {
      expect(response.headers.get("content-type")).toMatch(/^application\/json/);
      const body = (await response.json()) as {
        error: { message: string; type: string; param: string | null; code: string };
      };
      expect(Object.keys(body)).toEqual(["error"]);
      expect(body.error).toEqual({
        message: expect.any(String),
        type: expect.any(String),
        param: body.error.param === null ? null : expect.any(String),
        code: expect.any(String),
      });
      return { code: body.error.code, field: body.error.param, message: body.error.message };
    },
  },
  // Azure OpenAI's deployment path: Chat Completions, the deployment (openai/gpt-4o-mini) the model.
  azure: {
    path: "/openai/deployments/openai%2Fgpt-4o-mini/chat/completions",
    valid: () => CHAT.valid(),
    expectError: (response) => CHAT.expectError(response),
  },
  ui: {
    path: "/v1/ui",
    valid: () =>
      structuredClone({
        id: "chat_1",
        trigger: "submit-message",
        model: "openai/gpt-4o-mini",
        messages: [
          { id: "u1", role: "user", parts: [{ type: "text", text: "Weather in Paris?" }] },
          {
            id: "a1",
            role: "assistant",
            parts: [
              { type: "step-start" },
              {
                type: "tool-get_weather",
                toolCallId: "call_1",
                state: "output-available",
                input: { city: "Paris" },
                output: { celsius: 18 },
              },
            ],
          },
        ],
        tools: [{ name: "get_weather", parameters: PARAMETERS }],
      }),
    expectError: async (response) => {
      expect(response.headers.get("content-type")).toBe("text/plain; charset=utf-8");
      const code = response.headers.get("x-error-code");
      expect(code).toMatch(/^[a-z_]+$/);
      const message = await response.text();
      const field = /\(field: (.+)\)$/.exec(message)?.[1] ?? /^`([^`]+)`/.exec(message)?.[1];
      return { code: code!, message, ...(field !== undefined ? { field } : {}) };
    },
  },
  messages: {
    path: "/v1/messages",
    valid: () =>
      structuredClone({
        model: "openai/gpt-4o-mini",
        max_tokens: 1024,
        system: "Be brief.",
        messages: [
          { role: "user", content: "Weather in Paris?" },
          {
            role: "assistant",
            content: [{ type: "tool_use", id: "toolu_1", name: "get_weather", input: { city: "Paris" } }],
          },
          {
            role: "user",
            content: [
              { type: "tool_result", tool_use_id: "toolu_1", content: [{ type: "text", text: "18" }], is_error: false },
            ],
          },
        ],
        tools: [{ name: "get_weather", input_schema: PARAMETERS }],
        tool_choice: { type: "auto" },
      }),
    expectError: async (response) => {
      expect(response.headers.get("content-type")).toMatch(/^application\/json/);
      const body = (await response.json()) as { type: string; error: { type: string; message: string } };
      expect(Object.keys(body)).toEqual(["type", "error"]);
      // The Worker's code in Anthropic's `details.error_code` (@anthropic-ai/sdk's `errorCode`).
      const details = { error_code: expect.stringMatching(/^[a-z_]+$/) };
      expect(body).toEqual({
        type: "error",
        error: { type: expect.any(String), message: expect.any(String), details },
      });
      const field = /\(field: (.+)\)$/.exec(body.error.message)?.[1] ?? /^`([^`]+)`/.exec(body.error.message)?.[1];
      return { code: body.error.type, message: body.error.message, ...(field !== undefined ? { field } : {}) };
    },
  },
  responses: {
    path: "/v1/responses",
    valid: () =>
      structuredClone({
        model: "openai/gpt-4o-mini",
        instructions: "Be brief.",
        input: [
          { role: "user", content: [{ type: "input_text", text: "Weather in Paris?" }] },
          { type: "function_call", call_id: "call_1", name: "get_weather", arguments: '{"city":"Paris"}' },
          { type: "function_call_output", call_id: "call_1", output: '{"celsius": 18}' },
        ],
        tools: [
          { type: "function", name: "get_weather", parameters: PARAMETERS, strict: false },
          { type: "custom", name: "apply_patch" },
        ],
        tool_choice: "auto",
      }),
    expectError: async (response) => {
      expect(response.headers.get("content-type")).toMatch(/^application\/json/);
      const body = (await response.json()) as {
        error: { message: string; type: string; param: string | null; code: string };
      };
      expect(Object.keys(body)).toEqual(["error"]);
      expect(body.error).toEqual({
        message: expect.any(String),
        type: expect.any(String),
        param: body.error.param === null ? null : expect.any(String),
        code: expect.any(String),
      });
      return { code: body.error.code, field: body.error.param, message: body.error.message };
    },
  },
  agui: {
    path: "/v1/ag-ui",
    valid: () =>
      structuredClone({
        threadId: "thread_1",
        runId: "run_1",
        state: {},
        messages: [
          { id: "m1", role: "user", content: "Weather in Paris?" },
          {
            id: "m2",
            role: "assistant",
            toolCalls: [
              { id: "call_1", type: "function", function: { name: "get_weather", arguments: '{"city":"Paris"}' } },
            ],
          },
          { id: "m3", role: "tool", toolCallId: "call_1", content: '{"celsius": 18}' },
        ],
        tools: [{ name: "get_weather", description: "Weather", parameters: PARAMETERS }],
        context: [],
        forwardedProps: { model: "openai/gpt-4o-mini" },
      }),
    expectError: async (response) => {
      expect(response.headers.get("content-type")).toMatch(/^application\/json/);
      const body = (await response.json()) as { type: string; message: string; code: string };
      expect(body).toEqual({ type: "RUN_ERROR", message: expect.any(String), code: expect.any(String) });
      const field = /\(field: (.+)\)$/.exec(body.message)?.[1] ?? /^`([^`]+)`/.exec(body.message)?.[1];
      return { code: body.code, message: body.message, ...(field !== undefined ? { field } : {}) };
    },
  },
};

const CHAT = endpoints["chat"]!;
