// Open Responses' offline web search (the spec's "Offline Web Search": a `web_search` tool with
// `external_web_access: false`, in which "providers MUST NOT fetch new live web content"), the
// compliance suite's `offline-web-search` case as it sends it, through POST /v1/responses with
// OPENAI_SERVER_TOOLS listing web_search. An OpenAI Responses model is sent the tool as given
// (OpenAI keeps to cached results); an OpenAI Chat search model searches the live web on every
// request and has no offline mode, so the request is a 400 naming the field, with or without the
// search forced; any other provider has no search: a forced one is a 400, else the tool is dropped.
import { describe, expect, it } from "vitest";
import type { Provider } from "../../src/index.ts";
import { readConformingResponse } from "../support/open-responses.ts";
import { post } from "./client-support.ts";
import { AUTH, live, scripted } from "./open-responses-support.ts";
import { worker } from "./support.ts";

/** The suite's request: the offline search forced, its sources asked for. */
const OFFLINE = {
  input: "Find the most relevant cached result for OpenResponses.",
  tools: [{ type: "web_search", external_web_access: false }],
  tool_choice: { type: "web_search" },
  include: ["web_search_call.action.sources"],
};

/** Sends `body` for `model` with OpenAI's search listed; the answer, and what the provider got (null: nothing). */
async function send(model: string, body: Record<string, unknown>) {
  const provider = model.split("/")[0] as Provider;
  const upstream = scripted(provider, { text: "Cached." });
  const env = { ...live(provider), OPENAI_SERVER_TOOLS: "web_search" };
  const answer = await worker(upstream).call(post("/v1/responses", { model, ...body }, AUTH), env);
  return { answer, sent: (upstream.requests[0]?.body ?? null) as Record<string, unknown> | null };
}

describe("Open Responses offline web search (external_web_access: false)", () => {
  it("an OpenAI Responses model is sent the tool as given, forced or not, and the answer conforms", async () => {
    const auto = await send("openai-responses/gpt-5", { ...OFFLINE, tool_choice: "auto" });
    expect(auto.answer.status).toBe(200);
    expect((await readConformingResponse(auto.answer)).issues).toEqual([]);
    expect(auto.sent?.["tools"]).toEqual([{ type: "web_search", external_web_access: false }]);
    // The forced search's answer repeats `tool_choice: {type: "web_search"}`, as OpenAI does and as
    // the suite's own schemas (its zod WebSearchToolChoice) take; the OpenAPI extract here lists
    // only the function, value and allowed_tools choices, so its schema check is left out.
    const forced = await send("openai-responses/gpt-5", OFFLINE);
    expect(forced.answer.status).toBe(200);
    expect(((await forced.answer.json()) as { tool_choice: unknown }).tool_choice).toEqual({ type: "web_search" });
    expect(forced.sent?.["tools"]).toEqual([{ type: "web_search", external_web_access: false }]);
  });

  for (const choice of [OFFLINE.tool_choice, "auto", "none"])
    it(`an OpenAI Chat search model, tool_choice ${JSON.stringify(choice)}: a 400 naming the field, nothing sent`, async () => {
      const { answer, sent } = await send("openai/gpt-4o-search-preview", { ...OFFLINE, tool_choice: choice });
      expect(answer.status).toBe(400);
      const { error } = (await answer.json()) as { error: { type: string; param: string } };
      expect([error.type, error.param]).toEqual(["invalid_request_error", "tools[0].external_web_access"]);
      expect(sent).toBeNull();
    });

  it("a search model with live access allowed (true, or left out) still searches", async () => {
    for (const tool of [{ type: "web_search", external_web_access: true }, { type: "web_search" }]) {
      const { answer, sent } = await send("openai/gpt-4o-search-preview", { ...OFFLINE, tools: [tool] });
      expect(answer.status).toBe(200);
      expect(sent?.["web_search_options"]).toEqual({});
    }
  });

  for (const provider of ["openai", "anthropic", "gemini"] as Provider[])
    it(`${provider}: a forced search is a 400 at tool_choice; not forced, the tool is dropped`, async () => {
      const forced = await send(`${provider}/test-model`, OFFLINE);
      expect(forced.answer.status).toBe(400);
      expect(((await forced.answer.json()) as { error: { param: string } }).error.param).toBe("tool_choice.type");
      const auto = await send(`${provider}/test-model`, { ...OFFLINE, tool_choice: "auto" });
      expect(auto.answer.status).toBe(200);
      expect(JSON.stringify(auto.sent)).not.toMatch(/search/);
    });
});
