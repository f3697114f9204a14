// A Messages client's Anthropic web search tool (web_search_20250305, web_search_20260209) through
// /v1/messages to an OpenAI upstream, @anthropic-ai/sdk as the client, when the deployment lists
// `web_search` in ANTHROPIC_SERVER_TOOLS (the search bills the operator's key, as Anthropic's
// does; an OpenAI Chat search model, which always searches, needs OPENAI_SERVER_TOOLS to list it
// too): an OpenAI Responses model gets the `web_search` tool (`user_location` flat,
// `allowed_domains` as `filters.allowed_domains`), an OpenAI Chat search model
// `web_search_options` (`user_location` nested); Claude Code's forced search becomes
// `tool_choice: "required"` (Responses) or none (a search model always searches). A tool limited in
// a way the upstream cannot say is not sent to a Responses model (`blocked_domains`): no search
// rather than an unlimited one, and a choice that forces it is the 400 it was; to a Chat search
// model, which searches everywhere on every request, it is a 400 naming the limit (`allowed_domains`
// or `blocked_domains`), whatever the choice. The answers are the citations recordings of
// test/providers (built from openai-node's types).
import Anthropic from "@anthropic-ai/sdk";
import type { WebSearchTool20250305, WebSearchTool20260209 } from "@anthropic-ai/sdk/resources/messages/messages";
import { describe, expect, it } from "vitest";
import type { Env } from "../../worker/env.ts";
import { CHAT_CITED_TEXT, chatCited } from "../providers/openai-chat/citations-recordings.ts";
import { CITED_TEXT, responsesCited } from "../providers/openai-responses/citations-recordings.ts";
import { OPENAI_ANTHROPIC_ENV, workerFetch } from "./client-support.ts";
import { FakeUpstream } from "./support.ts";

// An OpenAI Chat search model is called at all only when OPENAI_SERVER_TOOLS lists web_search (it always searches).
const ENV: Env = { ...OPENAI_ANTHROPIC_ENV, ANTHROPIC_SERVER_TOOLS: "web_search", OPENAI_SERVER_TOOLS: "web_search" };
const TOKYO = { city: "Tokyo", region: "Tokyo", country: "JP", timezone: "Asia/Tokyo" };
const SEARCH: WebSearchTool20250305 = {
  type: "web_search_20250305",
  name: "web_search",
  max_uses: 8,
  user_location: { type: "approximate", ...TOKYO },
};
const RESPONSES = "openai-responses/gpt-5";
const CHAT_SEARCH = "openai/gpt-4o-search-preview";
const QUESTION: Anthropic.MessageParam = { role: "user", content: "Perform a web search for the query: Ruby 3.4" };
const OWN = { name: "read_file", description: "Reads a file.", input_schema: { type: "object" as const } };

/** What the upstream got (undefined when nothing reached it), and the text the client read or its error. */
async function ask(
  model: string,
  tools: Anthropic.ToolUnion[],
  choice: Anthropic.ToolChoice = { type: "tool", name: "web_search" },
  env: Env = ENV,
  messages: Anthropic.MessageParam[] = [QUESTION],
): Promise<{
  body: Record<string, unknown> | undefined;
  text?: string;
  content?: Anthropic.ContentBlock[];
  error?: unknown;
}> {
  const upstream = new FakeUpstream({
    kind: "sse",
    chunks: [model.startsWith("openai-responses/") ? responsesCited() : chatCited()],
  });
  const client = new Anthropic({
    baseURL: "http://localhost:8787",
    apiKey: "t",
    fetch: workerFetch({ env, upstream }),
    maxRetries: 0,
  });
  try {
    const message = await client.messages
      .stream({
        model,
        max_tokens: 1024,
        messages,
        tools,
        tool_choice: choice,
      })
      .finalMessage();
    const text = message.content.flatMap((block) => (block.type === "text" ? [block.text] : [])).join("");
    return { body: upstream.requests[0]?.body as Record<string, unknown> | undefined, text, content: message.content };
  } catch (error) {
    return { body: upstream.requests[0]?.body as Record<string, unknown> | undefined, error };
  }
}

describe("/v1/messages with Anthropic's web search, to an OpenAI upstream", () => {
  it("an OpenAI Responses model gets its web_search tool, forced as required, and the answer comes back", async () => {
    const limited: WebSearchTool20260209 = {
      type: "web_search_20260209",
      name: "web_search",
      allowed_domains: ["ruby-lang.org"],
      user_location: { type: "approximate", city: "Paris" },
    };
    for (const [tool, sent] of [
      [SEARCH, { type: "web_search", user_location: { type: "approximate", ...TOKYO } }],
      [
        limited,
        {
          type: "web_search",
          user_location: { type: "approximate", city: "Paris" },
          filters: { allowed_domains: ["ruby-lang.org"] },
        },
      ],
    ] as const) {
      const { body, text } = await ask(RESPONSES, [tool]);
      expect([body?.["tools"], body?.["tool_choice"]], tool.type).toEqual([[sent], "required"]);
      expect(text).toBe(CITED_TEXT);
    }
    // Beside the client's own tools, at its own place, and not forced when the client does not force it.
    const { body } = await ask(RESPONSES, [OWN, SEARCH], { type: "auto" });
    expect(
      (body?.["tools"] as { type: string; name?: string }[] | undefined)?.map((tool) => tool.name ?? tool.type),
    ).toEqual(["read_file", "web_search"]);
    expect(body?.["tool_choice"]).toBe("auto");
  });

  it("an OpenAI Responses model's web_search_call goes back to it in its place on the next turn", async () => {
    const { content } = await ask(RESPONSES, [SEARCH]);
    // The call reaches the client sealed in a thinking block (as the other tools OpenAI ran), then the text.
    expect(content?.map((block) => block.type)).toEqual(["thinking", "text"]);
    const turns = [
      QUESTION,
      { role: "assistant" as const, content: content! },
      { role: "user" as const, content: "And 3.5?" },
    ];
    const { body } = await ask(RESPONSES, [SEARCH], { type: "auto" }, ENV, turns);
    const input = body?.["input"] as Record<string, unknown>[];
    expect(input.map((item) => item["type"] ?? item["role"])).toEqual(["user", "web_search_call", "assistant", "user"]);
    expect(input[1]).toMatchObject({ type: "web_search_call", id: "ws_cite_1" });
  });

  it("an OpenAI Chat search model gets web_search_options with the location nested, and no tool choice", async () => {
    const { body, text } = await ask(CHAT_SEARCH, [SEARCH]);
    expect(body?.["web_search_options"]).toEqual({ user_location: { type: "approximate", approximate: TOKYO } });
    expect([body?.["tools"], body?.["tool_choice"]]).toEqual([undefined, undefined]);
    expect(text).toBe(CHAT_CITED_TEXT);
  });

  it("an OpenAI Chat search model given a tool limited to some domains: a 400 naming the limit, whatever the choice", async () => {
    const choices: Anthropic.ToolChoice[] = [
      { type: "tool", name: "web_search" },
      { type: "auto" },
      { type: "any" },
      { type: "none" },
    ];
    for (const [key, domains] of [
      ["allowed_domains", ["ruby-lang.org"]],
      ["blocked_domains", ["example.com"]],
    ] as const)
      for (const choice of choices) {
        const { body, error } = await ask(CHAT_SEARCH, [OWN, { ...SEARCH, [key]: domains }], choice);
        expect([body, error], `${key} ${choice.type}`).toEqual([undefined, expect.objectContaining({ status: 400 })]);
        const { message } = error as Error;
        expect(message).toContain(`tools[1].${key}`);
        expect(message).toContain("openai-responses/");
      }
    // Also when ANTHROPIC_SERVER_TOOLS does not list web_search: the tool was dropped, the model
    // still searching the whole web.
    const unlisted: Env = { ...ENV, ANTHROPIC_SERVER_TOOLS: "" };
    const { body, error } = await ask(
      CHAT_SEARCH,
      [{ ...SEARCH, allowed_domains: ["ruby-lang.org"] }],
      { type: "auto" },
      unlisted,
    );
    expect([body, error]).toEqual([undefined, expect.objectContaining({ status: 400 })]);
    expect((error as Error).message).toContain("tools[0].allowed_domains");
  });

  it("no search where the upstream cannot limit it as asked, has none, is not listed, or the client says none", async () => {
    const blocked = { ...SEARCH, blocked_domains: ["example.com"] };
    const allowed = { ...SEARCH, allowed_domains: ["ruby-lang.org"] };
    const cases: [string, Anthropic.ToolUnion, Env][] = [
      [RESPONSES, blocked, ENV],
      ["openai/gpt-4o", SEARCH, ENV], // no search model: OpenAI refuses web_search_options
      ["openai/gpt-4o", allowed, ENV], // nor does it search without them: no search at all
      ["openai/gpt-4o", blocked, ENV],
      [RESPONSES, SEARCH, OPENAI_ANTHROPIC_ENV], // not listed in ANTHROPIC_SERVER_TOOLS
    ];
    for (const [model, tool, env] of cases) {
      // Forced: the 400 naming tool_choice.name, nothing sent; not forced: sent without the search.
      const forced = await ask(model, [tool], undefined, env);
      expect([forced.body, forced.error], `${model} ${JSON.stringify(tool)}`).toEqual([
        undefined,
        expect.objectContaining({ status: 400 }),
      ]);
      expect(String((forced.error as Error).message)).toContain("tool_choice.name");
      const { body } = await ask(model, [tool], { type: "auto" }, env);
      expect(JSON.stringify(body), `${model} ${JSON.stringify(tool)}`).not.toContain("web_search");
    }
    const none = await ask(RESPONSES, [OWN, SEARCH], { type: "none" });
    expect(JSON.stringify(none.body)).not.toContain("web_search");
  });

  it("tool_choice none with a web search tool, to an OpenAI Chat search model (it searches anyway): a 400 at tool_choice.type, listed or not", async () => {
    for (const env of [ENV, { ...ENV, ANTHROPIC_SERVER_TOOLS: "" }]) {
      const { body, error } = await ask(CHAT_SEARCH, [OWN, SEARCH], { type: "none" }, env);
      expect([body, error]).toEqual([undefined, expect.objectContaining({ status: 400 })]);
      expect((error as Error).message).toContain("tool_choice.type");
    }
    // No search tool: no search was asked against; the model the client chose searches.
    const { error } = await ask(CHAT_SEARCH, [OWN], { type: "none" });
    expect(error).toBeUndefined();
  });

  it("tool_choice any beside a web search tool, to an OpenAI Chat search model (its search is the call asked for): auto for the client's tools, listed or not", async () => {
    for (const env of [ENV, { ...ENV, ANTHROPIC_SERVER_TOOLS: "" }]) {
      const { body, error } = await ask(CHAT_SEARCH, [OWN, SEARCH], { type: "any" }, env);
      expect(error).toBeUndefined();
      expect([body?.["tool_choice"], (body?.["tools"] as unknown[] | undefined)?.length]).toEqual(["auto", 1]);
      const alone = await ask(CHAT_SEARCH, [SEARCH], { type: "any" }, env);
      expect([alone.error, alone.body?.["tool_choice"], alone.body?.["tools"]]).toEqual([
        undefined,
        undefined,
        undefined,
      ]);
    }
    // A model that does not search is asked for a call of the client's tools, as before.
    expect((await ask("openai/gpt-4o", [OWN, SEARCH], { type: "any" })).body?.["tool_choice"]).toBe("required");
  });

  it("tool_choice forcing another tool beside a web search tool, to an OpenAI Chat search model (it searches first): a 400 at tool_choice.name, listed or not", async () => {
    for (const env of [ENV, { ...ENV, ANTHROPIC_SERVER_TOOLS: "" }]) {
      const { body, error } = await ask(CHAT_SEARCH, [OWN, SEARCH], { type: "tool", name: OWN.name }, env);
      expect([body, error]).toEqual([undefined, expect.objectContaining({ status: 400 })]);
      expect((error as Error).message).toContain("tool_choice.name");
      expect((error as Error).message).toContain("searches the web on every request");
    }
    // Forcing the search itself is what the model does; without a search tool, nothing asks against it.
    expect((await ask(CHAT_SEARCH, [OWN, SEARCH])).error).toBeUndefined();
    expect((await ask(CHAT_SEARCH, [OWN], { type: "tool", name: OWN.name })).error).toBeUndefined();
  });
});
