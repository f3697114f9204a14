// Anthropic's server-side fallback (a refused turn handed to another model, a `fallback` block
// withdrawing the call before it) happens only when the request sets `fallbacks` (with the
// `server-side-fallback-2026-07-01` beta). A `/v1/responses` client may already hold that call's
// `function_call` item (Responses cannot take an item back) and run it, so the Worker never
// forwards a client's `fallbacks`: each provider request body is the Worker's own, written from
// its fields (src/providers/anthropic/anthropic-request.ts), never from the client's. Here every
// client protocol sends `fallbacks`, the beta allowed by ANTHROPIC_BETAS, and the request that
// reaches Anthropic has no `fallbacks` (the beta alone turns nothing on).
import { describe, expect, it } from "vitest";
import { textTurn } from "./anthropic-blocks.ts";
import { post } from "./client-support.ts";
import { FakeUpstream, streamRequest, testEnv, worker } from "./support.ts";

const BETA = "server-side-fallback-2026-07-01";
const env = testEnv({
  ANTHROPIC_API_KEY: "k",
  ANTHROPIC_BASE_URL: "https://provider.test/v1",
  ANTHROPIC_BETAS: BETA,
  CLIENT_TOKEN: "t",
});
const headers = { authorization: "Bearer t", "x-api-key": "t", "anthropic-beta": BETA };
const answer = (): FakeUpstream => new FakeUpstream({ kind: "sse", chunks: textTurn("Hi.") });
const tools = [{ type: "function", function: { name: "run_scan", parameters: { type: "object" } } }];

/**
 * Each client protocol's request, `fallbacks` set as its clients would set it, and its answer:
 * the agent endpoints accept a field they have no use for (never a 400 for Claude Code or Codex)
 * and drop it; the others refuse a field they do not know, naming it.
 */
const REQUESTS: [string, 200 | 400, () => Request][] = [
  [
    "/v1/messages",
    200,
    () =>
      post(
        "/v1/messages?beta=true",
        {
          model: "anthropic/claude-fable-5",
          max_tokens: 256,
          fallbacks: "default",
          messages: [{ role: "user", content: "Scan my hosts." }],
          tools: [{ name: "run_scan", input_schema: { type: "object" } }],
          stream: true,
        },
        { headers },
      ),
  ],
  [
    "/v1/responses",
    200,
    () =>
      post(
        "/v1/responses",
        {
          model: "anthropic/claude-fable-5",
          fallbacks: [{ model: "claude-opus-5" }],
          input: "Scan my hosts.",
          tools: [{ type: "function", name: "run_scan", parameters: { type: "object" } }],
          stream: true,
        },
        { headers },
      ),
  ],
  [
    "/v1/chat/completions",
    400,
    () =>
      post(
        "/v1/chat/completions",
        {
          model: "anthropic/claude-fable-5",
          fallbacks: "default",
          messages: [{ role: "user", content: "Scan my hosts." }],
          tools,
          stream: true,
        },
        { headers },
      ),
  ],
  [
    "/v1/stream",
    400,
    () =>
      streamRequest(
        {
          provider: "anthropic",
          model: "claude-fable-5",
          fallbacks: "default",
          messages: [{ role: "user", content: "Scan my hosts." }],
          tools: [{ name: "run_scan", parameters: { type: "object" } }],
        },
        { headers },
      ),
  ],
];

describe("a client's `fallbacks` never reaches Anthropic (so no fallback block can withdraw a call a Responses client holds)", () => {
  for (const [path, status, request] of REQUESTS) {
    it(`${path}: ${status === 400 ? "refused with a 400 naming it" : "answered, Anthropic asked without it"}`, async () => {
      const upstream = answer();
      const response = await worker(upstream).call(request(), env);
      const text = await response.text();
      expect(response.status, text).toBe(status);
      if (status === 400) {
        // Refused before Anthropic is called: the error names the field.
        expect(text).toContain("fallbacks");
        expect(upstream.requests).toEqual([]);
        return;
      }
      const [sent] = upstream.requests;
      expect(sent?.url).toBe("https://provider.test/v1/messages");
      expect(sent?.body).not.toHaveProperty("fallbacks");
      expect(JSON.stringify(sent?.body)).not.toContain("claude-opus-5");
      // A Messages client's allowed beta goes on (ANTHROPIC_BETAS), and turns nothing on without `fallbacks`.
      expect(sent?.headers.get("anthropic-beta")).toBe(path === "/v1/messages" ? BETA : null);
    });
  }
});
