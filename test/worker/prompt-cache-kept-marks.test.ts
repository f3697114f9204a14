// The Worker's own cache marks must not break Anthropic's rules together with the marks a client's
// kept blocks carry as they came (compaction, container_upload, mcp_tool_listing, fallback, server
// tool blocks go back unchanged, cache_control included): Anthropic allows at most 4 blocks with
// cache_control, and a ttl "1h" mark must not come after a "5m" (default) one. (Found by this stop's
// per-landing review: both failed on 11569600, the commit that added the Worker's marks.)
import Anthropic from "@anthropic-ai/sdk";
import { describe, expect, it } from "vitest";
import { workerFetch } from "./client-support.ts";
import { FakeUpstream, testEnv } from "./support.ts";

const env = testEnv({
  ANTHROPIC_API_KEY: "k",
  ANTHROPIC_BASE_URL: "https://provider.test/v1",
  CLIENT_TOKEN: "t",
});

async function messagesBody(extra: Record<string, unknown>): Promise<Record<string, unknown>> {
  const fake = new FakeUpstream({ kind: "response", status: 500, body: "{}" });
  const sdk = new Anthropic({
    baseURL: "http://localhost:8787",
    apiKey: "t",
    fetch: workerFetch({ env, upstream: fake }),
    maxRetries: 0,
  });
  await sdk.messages
    .create({ model: "anthropic/claude-sonnet-4-6", max_tokens: 1024, stream: true, ...extra } as never)
    .catch(() => undefined);
  return fake.requests[0]!.body;
}

/** Every cache_control in the order Anthropic reads them (system, then messages' blocks). */
function marks(body: Record<string, unknown>): { ttl?: string }[] {
  const found: { ttl?: string }[] = [];
  const walk = (value: unknown): void => {
    if (Array.isArray(value)) for (const v of value) walk(v);
    else if (value && typeof value === "object") {
      const mark = (value as Record<string, unknown>)["cache_control"];
      if (mark) found.push(mark as { ttl?: string });
      for (const [key, v] of Object.entries(value)) if (key !== "cache_control") walk(v);
    }
  };
  walk(body["tools"]);
  walk(body["system"]);
  walk(body["messages"]);
  return found;
}

const compaction = (n: number, mark: Record<string, unknown>) => ({
  type: "compaction",
  content: `Summary ${n}.`,
  cache_control: mark,
});

describe("prompt caching: the Worker's cache marks beside a client's kept blocks' own", () => {
  it("never more than 4 marks in all", async () => {
    const mark = { type: "ephemeral" };
    const body = await messagesBody({
      system: [{ type: "text", text: "Be brief.", cache_control: mark }],
      messages: [
        { role: "user", content: "Start." },
        { role: "assistant", content: [compaction(1, mark)] },
        { role: "user", content: "Go on." },
        { role: "assistant", content: [compaction(2, mark)] },
        { role: "user", content: "Go on." },
        { role: "assistant", content: [compaction(3, mark)] },
        { role: "user", content: [{ type: "text", text: "And now?", cache_control: mark }] },
      ],
    });
    expect(marks(body).length).toBeLessThanOrEqual(4);
  });

  it("no 1h mark after a 5m one", async () => {
    const body = await messagesBody({
      system: [{ type: "text", text: "Be brief.", cache_control: { type: "ephemeral", ttl: "1h" } }],
      messages: [
        { role: "user", content: "Start." },
        { role: "assistant", content: [compaction(1, { type: "ephemeral" })] },
        { role: "user", content: [{ type: "text", text: "And now?" }] },
      ],
    });
    const ttls = marks(body).map((m) => m.ttl ?? "5m");
    const first5m = ttls.indexOf("5m");
    expect(first5m !== -1 && ttls.slice(first5m).includes("1h"), ttls.join(",")).toBe(false);
    expect(ttls).toEqual(["1h", "1h"]); // the Worker's two, at the longest ttl asked; the compaction's own taken off
  });
});
