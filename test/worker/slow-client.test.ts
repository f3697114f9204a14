// A slow client and a fast provider: the provider's next chunk is always ready, and the Worker
// reads it only as the client reads its answer, 64 KiB of the provider's body at most ahead of it
// (one array of the chain's batches), on every endpoint that answers in one connection. Before,
// an array read on for up to 4096 events, whatever their size: megabytes held for one client.
import { describe, expect, it } from "vitest";
import { chatChunk } from "../support/streams.ts";
import { workerFetch } from "./client-support.ts";
import { eventually, FakeUpstream, responses, settled, testEnv } from "./support.ts";

const env = testEnv({ CLIENT_TOKEN: "t", OPENAI_API_KEY: "k", OPENAI_BASE_URL: "https://provider.test/v1" });
/** Text deltas of about 130 bytes each: far more than 4096 of them, every one ready at once. */
const chunks = Array.from(
  { length: 20_000 },
  (_, i) => `data: ${JSON.stringify(chatChunk({ content: `w${i} ` }))}\n\n`,
);
const CHUNK_BYTES = new TextEncoder().encode(chunks[0]!).length;
const user = [{ role: "user", content: "hi" }];

const uiMessages = [{ id: "u", role: "user", parts: [{ type: "text", text: "hi" }] }];
/** An AG-UI run input whose `forwardedProps` are `props`. */
const agUI = (props: Record<string, unknown>) => ({
  threadId: "t",
  runId: "r",
  messages: [{ id: "u", ...user[0] }],
  tools: [],
  context: [],
  state: {},
  forwardedProps: { model: "openai/gpt-x", ...props },
});
const runMode = { run: true, tools: ["calculate"] };

const endpoints: [string, string, Record<string, unknown>][] = [
  ["/v1/stream", "/v1/stream", { provider: "openai", model: "gpt-x", messages: user }],
  ["/v1/chat/completions", "/v1/chat/completions", { model: "openai/gpt-x", stream: true, messages: user }],
  ["/v1/messages", "/v1/messages", { model: "openai/gpt-x", stream: true, max_tokens: 9, messages: user }],
  ["/v1/responses, store: false", "/v1/responses", { model: "openai/gpt-x", stream: true, store: false, input: "hi" }],
  ["/v1/responses, stored", "/v1/responses", { model: "openai/gpt-x", stream: true, input: "hi" }],
  ["/v1/ui", "/v1/ui", { model: "openai/gpt-x", messages: uiMessages }],
  ["/v1/ag-ui", "/v1/ag-ui", agUI({})],
  // The tool-running endpoints: the loop's model call is read the same way.
  ["/v1/run", "/v1/run", { provider: "openai", model: "gpt-x", messages: user, tools: ["calculate"] }],
  ["/v1/ui, run mode", "/v1/ui", { model: "openai/gpt-x", messages: uiMessages, ...runMode }],
  ["/v1/ag-ui, run mode", "/v1/ag-ui", agUI(runMode)],
];

describe("a client that reads slowly from a fast provider", () => {
  for (const [name, path, body] of endpoints)
    it(`${name}: at most 64 KiB of the provider's body is read ahead of it, and its leaving cancels the rest`, async () => {
      const upstream = new FakeUpstream({ kind: "sse", chunks, then: "stall", bytes: true });
      const fetch = workerFetch({ env: name.endsWith("stored") ? { ...env, RESPONSES: responses } : env, upstream });
      const response = await fetch(`http://localhost:8787${path}`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: "Bearer t" },
        body: JSON.stringify(body),
      });
      expect(response.status).toBe(200);
      const reader = response.body!.getReader();
      await reader.read();
      // The client reads no more: whatever the Worker reads now, it reads ahead of the client.
      for (let i = 0; i < 20; i++) await settled();
      const ahead = upstream.pulled;
      for (let i = 0; i < 20; i++) await settled();
      expect(upstream.pulled, "nothing more is read while the client reads nothing").toBe(ahead);
      expect(ahead * CHUNK_BYTES).toBeLessThanOrEqual(64 * 1024 + 4 * CHUNK_BYTES);
      await reader.cancel("client went away");
      expect(await eventually(() => upstream.cancelled !== undefined)).toBe(true);
    });
});
