// A Gemini answer whose server toolCall part nests 20,000 deep, and an Anthropic one whose
// web_search_tool_result does, through the Worker: the kept block is dropped (the main entry's
// `maxDepth` bound, test/pipeline/kept-depth.cases.ts), and each client gets the text and the call.
// Before, /v1/messages and /v1/responses sent the block on (in a thinking block's signature, in an
// item's encrypted_content): 120,000 characters that a client in Node cannot `JSON.stringify` back
// in its next request ("Maximum call stack size exceeded"). The deep values are written as text.
import { describe, expect, it } from "vitest";
import { workerFetch } from "./client-support.ts";
import { FakeUpstream, testEnv } from "./support.ts";

const DEEP = `${'{"a":'.repeat(20_000)}1${"}".repeat(20_000)}`;
const data = (payload: unknown, event?: string): string =>
  `${event ? `event: ${event}\n` : ""}data: ${JSON.stringify(payload).replace('"@deep@"', DEEP)}\n\n`;

const gemini = (...parts: unknown[]) => data({ candidates: [{ content: { role: "model", parts } }] });
const geminiAnswer = [
  gemini({ text: "Searching." }),
  gemini({ toolCall: { id: "tc_1", toolType: "GOOGLE_SEARCH_WEB", args: "@deep@" } }),
  gemini({ functionCall: { name: "lookup", args: { q: "tides" } } }),
  data({ candidates: [{ content: { role: "model", parts: [{ text: "" }] }, finishReason: "STOP" }] }),
];
const anthropic = (payload: Record<string, unknown>) => data(payload, String(payload["type"]));
const anthropicAnswer = [
  anthropic({ type: "message_start", message: { id: "msg_d", content: [], usage: { input_tokens: 5 } } }),
  anthropic({ type: "content_block_start", index: 0, content_block: { type: "text", text: "" } }),
  anthropic({ type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "Searching." } }),
  anthropic({ type: "content_block_stop", index: 0 }),
  anthropic({
    type: "content_block_start",
    index: 1,
    content_block: { type: "web_search_tool_result", tool_use_id: "srvtoolu_1", content: "@deep@" },
  }),
  anthropic({ type: "content_block_stop", index: 1 }),
  anthropic({
    type: "content_block_start",
    index: 2,
    content_block: { type: "tool_use", id: "toolu_1", name: "lookup", input: { q: "tides" } },
  }),
  anthropic({ type: "content_block_stop", index: 2 }),
  anthropic({ type: "message_delta", delta: { stop_reason: "tool_use" }, usage: { output_tokens: 9 } }),
  anthropic({ type: "message_stop" }),
];

const env = testEnv({
  GEMINI_API_KEY: "k",
  GEMINI_BASE_URL: "https://provider.test/v1beta",
  ANTHROPIC_API_KEY: "k",
  ANTHROPIC_BASE_URL: "https://provider.test/v1",
  CLIENT_TOKEN: "t",
});
const tools = [{ type: "function", function: { name: "lookup", parameters: { type: "object" } } }];

async function ask(path: string, body: Record<string, unknown>, chunks: string[]): Promise<[number, string]> {
  const fetch = workerFetch({ env, upstream: new FakeUpstream({ kind: "sse", chunks }) });
  const response = await fetch(`http://localhost:8787${path}`, {
    method: "POST",
    headers: { authorization: "Bearer t", "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return [response.status, await response.text()];
}

describe("kept blocks nested past maxDepth through the Worker", () => {
  for (const [provider, chunks] of [
    ["gemini", geminiAnswer],
    ["anthropic", anthropicAnswer],
  ] as const) {
    it(`${provider} upstream, /v1/chat/completions not streamed: the text and the call`, async () => {
      const messages = [{ role: "user", content: "Tides?" }];
      const [status, text] = await ask("/v1/chat/completions", { model: `${provider}/m`, messages, tools }, chunks);
      expect(status).toBe(200);
      const message = JSON.parse(text).choices[0].message;
      expect(text.length).toBeLessThan(2_000);
      expect([message.content, message.tool_calls.map((c: { function: { name: string } }) => c.function.name)]).toEqual(
        ["Searching.", ["lookup"]],
      );
    });

    it(`${provider} upstream, /v1/messages streamed: the text and the call, to message_stop`, async () => {
      const body = {
        model: `${provider}/m`,
        max_tokens: 1024,
        stream: true,
        messages: [{ role: "user", content: "Tides?" }],
        tools: [{ name: "lookup", input_schema: { type: "object" } }],
      };
      const [status, text] = await ask("/v1/messages", body, chunks);
      expect(status).toBe(200);
      expect([text.includes('"text":"Searching."'), text.includes('"name":"lookup"')]).toEqual([true, true]);
      expect(text.trimEnd().endsWith('data: {"type":"message_stop"}')).toBe(true);
      // The block (120,000 characters) went to the client before, which could not send its turn back.
      expect(text.length).toBeLessThan(20_000);
    });

    it(`${provider} upstream, /v1/responses streamed: the text and the call, to response.completed`, async () => {
      const body = {
        model: `${provider}/m`,
        stream: true,
        input: "Tides?",
        tools: [{ type: "function", name: "lookup", parameters: { type: "object" } }],
      };
      const [status, text] = await ask("/v1/responses", body, chunks);
      expect(status).toBe(200);
      expect([text.includes('"delta":"Searching."'), text.includes('"name":"lookup"')]).toEqual([true, true]);
      expect(text.includes("event: response.completed")).toBe(true);
      expect(text.length).toBeLessThan(20_000);
    });
  }
});
