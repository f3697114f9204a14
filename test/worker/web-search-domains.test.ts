// A web search tool's domain lists must be lists of domain names: a Responses `web_search` tool's
// `filters.allowed_domains` (openai 6's WebSearchTool.Filters: `Array<string> | null`) and an
// Anthropic web search tool's `allowed_domains` / `blocked_domains` (@anthropic-ai/sdk's
// WebSearchTool20250305: `Array<string> | null`). Anything else is a 400 in the protocol's own error
// shape naming the field, whatever the upstream (forwarded, mapped or dropped): a string was read
// as no limit and an OpenAI Chat search model searched the whole web, and a forwarded one was the
// provider's 400 that no client reads, or a tool that nobody checked. So is an Anthropic tool with
// both lists (Anthropic's API takes one or the other). Real clients: openai-node and @anthropic-ai/sdk.
import type { Tool } from "openai/resources/responses/responses";
import type Anthropic from "@anthropic-ai/sdk";
import { describe, expect, it } from "vitest";
import type { Env } from "../../worker/env.ts";
import { chatCited } from "../providers/openai-chat/citations-recordings.ts";
import { anthropicClient, OPENAI_ANTHROPIC_ENV, openAIClient } from "./client-support.ts";
import { FakeUpstream } from "./support.ts";

const MODELS = [
  "openai/gpt-4o-search-preview", // a Chat search model: a limit it cannot keep is a 400 anyway
  "openai-responses/gpt-5", // sent the tool as given
  "openai/gpt-4o", // no search: the tool dropped
  "anthropic/claude-sonnet-4-5", // no OpenAI search: dropped
];
const LISTED: Env = {
  ...OPENAI_ANTHROPIC_ENV,
  OPENAI_SERVER_TOOLS: "web_search",
  ANTHROPIC_SERVER_TOOLS: "web_search",
};
const UNLISTED: Env = OPENAI_ANTHROPIC_ENV;

/** Runs `ask` for each env (listed or not), model and malformed case, with a fresh upstream that must get nothing. */
async function eachUpstream<Case>(
  cases: readonly Case[],
  ask: (upstream: FakeUpstream, env: Env, model: string, malformed: Case) => Promise<void>,
): Promise<void> {
  for (const env of [LISTED, UNLISTED])
    for (const model of MODELS)
      for (const malformed of cases) {
        const upstream = new FakeUpstream({ kind: "sse", chunks: [chatCited()] });
        await ask(upstream, env, model, malformed);
        expect(upstream.requests, `${model} ${JSON.stringify(malformed)}`).toEqual([]);
      }
}

describe("POST /v1/responses: a web search tool's filters", () => {
  const malformed: [unknown, string][] = [
    [{ allowed_domains: "ruby-lang.org" }, "tools[1].filters.allowed_domains"],
    [{ allowed_domains: { "0": "ruby-lang.org" } }, "tools[1].filters.allowed_domains"],
    [{ allowed_domains: ["ruby-lang.org", 7] }, "tools[1].filters.allowed_domains[1]"],
    ["ruby-lang.org", "tools[1].filters"],
  ];

  it("is a 400 naming the field, to every upstream, listed or not, nothing sent", async () => {
    await eachUpstream(malformed, async (upstream, env, model, [filters, param]) => {
      const tools = [
        { type: "function", name: "lookup", parameters: { type: "object" }, strict: false },
        { type: "web_search", filters } as Tool,
      ] as Tool[];
      const stream = openAIClient(upstream, env).responses.stream({ model, input: "Ruby 3.4?", tools });
      await expect(stream.finalResponse(), `${model} ${JSON.stringify(filters)}`).rejects.toMatchObject({
        status: 400,
        type: "invalid_request_error",
        param,
      });
    });
  });
});

describe("POST /v1/messages: an Anthropic web search tool's domain lists", () => {
  const SEARCH = { type: "web_search_20250305", name: "web_search" } as const;
  const QUESTION = [{ role: "user" as const, content: "Ruby 3.4?" }];
  const malformed: [Record<string, unknown>, string][] = [
    [{ allowed_domains: "ruby-lang.org" }, "tools[1].allowed_domains"],
    [{ blocked_domains: "example.com" }, "tools[1].blocked_domains"],
    [{ blocked_domains: [null] }, "tools[1].blocked_domains[0]"],
  ];

  /** A request of `model` offering a function and the search tool with `fields`, through @anthropic-ai/sdk. */
  const ask = (upstream: FakeUpstream, env: Env, model: string, fields: Record<string, unknown>) =>
    anthropicClient(upstream, env).messages.create({
      model,
      max_tokens: 64,
      messages: QUESTION,
      tools: [
        { name: "read_file", input_schema: { type: "object" } },
        { ...SEARCH, ...fields },
      ] as Anthropic.ToolUnion[],
    });

  it("is a 400 in Anthropic's shape naming the field, to every upstream, listed or not, nothing sent", async () => {
    await eachUpstream(malformed, async (upstream, env, model, [fields, field]) => {
      const request = ask(upstream, env, model, fields);
      const context = `${model} ${JSON.stringify(fields)}`;
      await expect(request, context).rejects.toMatchObject({
        status: 400,
        error: { type: "error", error: { type: "invalid_request_error" } },
      });
      await expect(request, context).rejects.toThrow(field);
    });
  });

  it("with both allowed_domains and blocked_domains (Anthropic takes one or the other), a 400 naming them, to every upstream, listed or not", async () => {
    const both = { allowed_domains: ["ruby-lang.org"], blocked_domains: ["example.com"] };
    await eachUpstream([both], async (upstream, env, model) => {
      const request = ask(upstream, env, model, both);
      await expect(request, model).rejects.toMatchObject({
        status: 400,
        error: { type: "error", error: { type: "invalid_request_error" } },
      });
      await expect(request, model).rejects.toThrow(/tools\[1\]\.blocked_domains.*tools\[1\]\.allowed_domains/);
    });
    // Either list alone (or one empty beside the other) is taken, as before.
    for (const lists of [{ allowed_domains: ["ruby-lang.org"] }, { allowed_domains: [], blocked_domains: ["a.org"] }]) {
      const upstream = new FakeUpstream({ kind: "sse", chunks: [chatCited()] });
      // The request is sent (the answer, a Chat recording, is not what is checked here).
      await ask(upstream, LISTED, "anthropic/claude-sonnet-4-5", lists).catch(() => undefined);
      expect(upstream.requests, JSON.stringify(lists)).toHaveLength(1);
    }
  });
});
