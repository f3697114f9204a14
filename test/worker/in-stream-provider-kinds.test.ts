// A provider's failure reported inside its stream reaches the client as its protocol's own kind,
// where the client acts on it, and nothing else of the provider's payload: an Anthropic
// `overloaded_error` is `overloaded_error` on /v1/messages (clients back off on it), an OpenAI
// Responses `response.failed` with `context_length_exceeded` keeps that code on /v1/responses (Codex
// compacts on it), and an Anthropic stop for the context window, `model_context_window_exceeded`,
// stays that stop_reason on /v1/messages (it was `max_tokens`).
import Anthropic from "@anthropic-ai/sdk";
import { describe, expect, it } from "vitest";
import { workerFetch } from "./client-support.ts";
import { FakeUpstream, testEnv } from "./support.ts";

const key = "sk-ant-SECRETKEY0123456789";
const env = testEnv({ OPENAI_API_KEY: key, ANTHROPIC_API_KEY: key, CLIENT_TOKEN: "t" });
const sse = (events: [string, unknown][]) =>
  events.map(([event, data]) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);

const clientFetch = (chunks: string[]) => workerFetch({ env, upstream: new FakeUpstream({ kind: "sse", chunks }) });

const messageStart = {
  type: "message_start",
  message: {
    id: "msg_1",
    type: "message",
    role: "assistant",
    model: "claude-x",
    content: [],
    stop_reason: null,
    usage: { input_tokens: 5, output_tokens: 0 },
  },
};

describe("a provider's failure inside the stream, in the client's protocol", () => {
  for (const [kind, expected, said] of [
    ["overloaded_error", "overloaded_error", "Overloaded"],
    ["api_error", "api_error", "Internal server error"],
  ] as const) {
    it(`an Anthropic ${kind} mid-stream reaches /v1/messages (@anthropic-ai/sdk) as ${expected}, without its message`, async () => {
      const fetch = clientFetch(
        sse([
          ["message_start", messageStart],
          ["error", { type: "error", error: { type: kind, message: `${said} ${key}` } }],
        ]),
      );
      const anthropic = new Anthropic({ baseURL: "http://localhost:8787", apiKey: "t", fetch, maxRetries: 0 });
      const failed = await anthropic.messages
        .stream({ model: "anthropic/claude-x", max_tokens: 64, messages: [{ role: "user", content: "hi" }] })
        .finalMessage()
        .catch((caught: unknown) => caught);
      expect(failed).toBeInstanceOf(Anthropic.APIError);
      const body = (failed as { error: { type: string; error: { type: string; message: string } } }).error;
      expect(body.error.type).toBe(expected);
      expect(JSON.stringify(body)).not.toContain("SECRETKEY");
    });
  }

  it("an OpenAI Responses response.failed with context_length_exceeded keeps that code on /v1/responses", async () => {
    const response = { id: "resp_1", object: "response", status: "in_progress", output: [] };
    const fetch = clientFetch(
      sse([
        ["response.created", { type: "response.created", sequence_number: 0, response }],
        [
          "response.failed",
          {
            type: "response.failed",
            sequence_number: 1,
            response: {
              ...response,
              status: "failed",
              error: { code: "context_length_exceeded", message: `Your input exceeds the context window ${key}` },
            },
          },
        ],
      ]),
    );
    // Read as sent: openai-node raises the `error` event that comes first; Codex reads both.
    const answer = await fetch("http://localhost:8787/v1/responses", {
      method: "POST",
      headers: { "content-type": "application/json", authorization: "Bearer t" },
      body: JSON.stringify({ model: "openai-responses/gpt-5", input: "hi", stream: true }),
    });
    const events = (await answer.text())
      .split("\n")
      .filter((line) => line.startsWith("data: {"))
      .map(
        (line) =>
          JSON.parse(line.slice(6)) as {
            type: string;
            error?: { code: string };
            response?: { error?: { code: string } };
          },
      );
    expect(events.find((event) => event.type === "error")?.error?.code).toBe("context_length_exceeded");
    const failed = events.find((event) => event.type === "response.failed");
    expect(failed?.response?.error?.code).toBe("context_length_exceeded");
    expect(JSON.stringify(events)).not.toContain("SECRETKEY");
  });

  it("an Anthropic stop_reason model_context_window_exceeded reaches /v1/messages (@anthropic-ai/sdk) as itself, max_tokens as max_tokens", async () => {
    for (const reason of ["model_context_window_exceeded", "max_tokens"]) {
      const fetch = clientFetch(
        sse([
          ["message_start", messageStart],
          ["content_block_start", { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } }],
          ["content_block_delta", { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "So" } }],
          ["content_block_stop", { type: "content_block_stop", index: 0 }],
          [
            "message_delta",
            { type: "message_delta", delta: { stop_reason: reason, stop_sequence: null }, usage: { output_tokens: 1 } },
          ],
          ["message_stop", { type: "message_stop" }],
        ]),
      );
      const anthropic = new Anthropic({ baseURL: "http://localhost:8787", apiKey: "t", fetch, maxRetries: 0 });
      const message = await anthropic.messages
        .stream({ model: "anthropic/claude-x", max_tokens: 64, messages: [{ role: "user", content: "hi" }] })
        .finalMessage();
      expect(message.stop_reason).toBe(reason);
    }
  });
});
