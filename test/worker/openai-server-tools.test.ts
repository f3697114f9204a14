// The tools OpenAI runs on its side for a client, billed to the deployment's key, reach OpenAI only
// when the operator lists their kind in OPENAI_SERVER_TOOLS (worker/protocols/openai-server-tools.ts),
// as Anthropic's need ANTHROPIC_SERVER_TOOLS (./anthropic-server-tools.test.ts): openai-node as the
// client, the body the fake provider receives asserted. Unset, a Responses client's web search, MCP
// server, server tool search, programmatic tool calling and hosted shell are dropped for an OpenAI
// Responses upstream (its own tools stay), a web search tool is not mapped to an OpenAI Chat search
// model's `web_search_options`, and a Chat client's `web_search_options` are checked and dropped; a
// `tool_choice` naming a dropped one is a 400 in OpenAI's shape naming the field and the setting.
// An OpenAI Chat search model, which searches whatever the request says, is a 400 naming `model`
// and the setting on every endpoint, in the endpoint's own error shape (./endpoint-bodies.ts).
// Listed, each goes as the client gave it, and only the kinds listed. No other provider family is
// sent a built-in tool of its own for any of them (Gemini's googleSearch, codeExecution, ...).
import OpenAI from "openai";
import type { Tool } from "openai/resources/responses/responses";
import { describe, expect, it } from "vitest";
import type { Provider } from "../../src/index.ts";
import type { Env } from "../../worker/env.ts";
import { post, workerFetch } from "./client-support.ts";
import { endpoints } from "./endpoint-bodies.ts";
import { AUTH, live, scripted } from "./open-responses-support.ts";
import { type FakeUpstream, worker } from "./support.ts";

const openai = (provider: Provider, upstream: FakeUpstream, listed?: string): OpenAI =>
  new OpenAI({
    baseURL: "http://localhost:8787/v1",
    apiKey: "t",
    fetch: workerFetch({
      env: { ...live(provider), ...(listed === undefined ? {} : { OPENAI_SERVER_TOOLS: listed }) } as Env,
      upstream,
    }),
    maxRetries: 0,
  });
const sent = (upstream: FakeUpstream): Record<string, unknown> => upstream.requests[0]!.body as Record<string, unknown>;

const FUNCTION = { type: "function", name: "lookup", parameters: { type: "object" }, strict: false } as const;
/** One tool of each kind OpenAI runs, by the kind that lists it. */
const HOSTED = {
  web_search: { type: "web_search" },
  mcp: { type: "mcp", server_label: "links", server_url: "https://links.example.com/mcp", require_approval: "never" },
  tool_search: { type: "tool_search", description: "Find tools." },
  programmatic_tool_calling: { type: "programmatic_tool_calling" },
  shell: { type: "shell", environment: { type: "container_auto" } },
} as unknown as Record<string, Tool>;
/** The client's own tools of the same types: it runs them, so no setting holds them back. */
const CLIENT_RUN = [
  { type: "tool_search", execution: "client", description: "Find tools.", parameters: { type: "object" } },
  { type: "shell", environment: { type: "local" } },
  { type: "local_shell" },
] as unknown as Tool[];

const respond = (upstream: FakeUpstream, tools: Tool[], listed?: string, extra: object = {}) =>
  openai("openai-responses", upstream, listed)
    .responses.stream({ model: "openai-responses/gpt-5", input: "Go.", tools, store: false, ...extra })
    .finalResponse();

describe("POST /v1/responses to an OpenAI Responses upstream: OPENAI_SERVER_TOOLS", () => {
  it("unset, every tool OpenAI would run is dropped; the client's function and its own built-in tools stay", async () => {
    const upstream = scripted("openai-responses", { text: "Done." });
    const response = await respond(upstream, [FUNCTION, ...Object.values(HOSTED), ...CLIENT_RUN]);
    expect(response.output_text).toBe("Done.");
    expect(sent(upstream)["tools"]).toEqual([FUNCTION, ...CLIENT_RUN]);
  });

  it("listed, each kind goes as the client gave it, and only the kinds listed", async () => {
    for (const [kind, tool] of Object.entries(HOSTED)) {
      const upstream = scripted("openai-responses", { text: "Done." });
      await respond(upstream, [FUNCTION, ...Object.values(HOSTED)], kind);
      expect(sent(upstream)["tools"], kind).toEqual([FUNCTION, tool]);
    }
    const upstream = scripted("openai-responses", { text: "Done." });
    await respond(upstream, Object.values(HOSTED), " web_search , mcp,tool_search,programmatic_tool_calling,shell ");
    expect(sent(upstream)["tools"]).toEqual(Object.values(HOSTED));
  });

  it("a tool_choice naming a dropped one is a 400 naming the field and the setting; nothing reaches OpenAI", async () => {
    const choices = [
      [[HOSTED["web_search"]!], { type: "web_search" }],
      [[HOSTED["web_search"]!], { type: "web_search_preview" }],
      [[HOSTED["mcp"]!, FUNCTION], { type: "mcp", server_label: "links" }],
      [[HOSTED["shell"]!], { type: "shell" }],
    ] as const;
    for (const [tools, tool_choice] of choices) {
      const upstream = scripted("openai-responses", { text: "Done." });
      const error = await respond(upstream, [...tools], undefined, { tool_choice }).catch((caught: unknown) => caught);
      expect(error, tool_choice.type).toMatchObject({ status: 400, param: "tool_choice.type" });
      expect((error as Error).message).toContain("OPENAI_SERVER_TOOLS");
      expect(upstream.requests).toHaveLength(0);
    }
  });

  it("a malformed hosted tool is the same 400 listed or not: checked first, then dropped", async () => {
    const malformed = [
      [{ type: "mcp", server_label: 5, server_url: 7 }, "mcp", "tools[0].server_label"],
      [{ type: "tool_search", parameters: 5 }, "tool_search", "tools[0].parameters"],
      [{ type: "programmatic_tool_calling", parameters: [] }, "programmatic_tool_calling", "tools[0].parameters"],
    ] as const;
    for (const [tool, kind, param] of malformed)
      for (const listed of [undefined, kind]) {
        const upstream = scripted("openai-responses", { text: "Done." });
        const error = await respond(upstream, [tool as unknown as Tool], listed).catch((caught: unknown) => caught);
        expect(error, `${kind} listed: ${listed}`).toMatchObject({ status: 400, param });
        expect(upstream.requests).toHaveLength(0);
      }
  });

  it("another kind listed does not let a choice of a dropped one through", async () => {
    const upstream = scripted("openai-responses", { text: "Done." });
    const error = await respond(upstream, [HOSTED["mcp"]!], "web_search", {
      tool_choice: { type: "mcp", server_label: "links" },
    }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ status: 400, param: "tool_choice.type" });
  });
});

describe("OpenAI Chat search models: OPENAI_SERVER_TOOLS web_search", () => {
  const SEARCH_MODEL = "openai/gpt-4o-search-preview";

  // A search model searches on every request, whatever it says: unlisted, no request reaches one.
  for (const [name, endpoint] of Object.entries(endpoints)) {
    const field = name === "agui" ? "forwardedProps.model" : "model";
    const body = (): Record<string, unknown> => {
      const valid = endpoint.valid();
      if (name === "agui") valid["forwardedProps"] = { model: SEARCH_MODEL };
      else valid["model"] = "provider" in valid ? "gpt-4o-search-preview" : SEARCH_MODEL;
      return valid;
    };
    // Azure's deployment path names the model itself, the body's `model` unread.
    const path = name === "azure" ? endpoint.path.replace("gpt-4o-mini", "gpt-4o-search-preview") : endpoint.path;
    it(`${path} (${name}): unset, a search model is a 400 in the protocol's shape naming ${field} and the setting; listed, it is called`, async () => {
      const upstream = scripted("openai", { text: "Done." });
      const { call } = worker(upstream);
      const refused = await call(post(path, body(), AUTH), live("openai"));
      expect(refused.status).toBe(400);
      const error = await endpoint.expectError(refused);
      expect(error.field).toBe(field);
      expect(error.message).toContain("OPENAI_SERVER_TOOLS");
      expect(upstream.requests).toHaveLength(0);
      for (const listed of ["mcp", "shell"]) {
        const other = await call(post(path, body(), AUTH), { ...live("openai"), OPENAI_SERVER_TOOLS: listed });
        expect(other.status, listed).toBe(400);
        await other.text();
      }
      const answered = await call(post(path, body(), AUTH), {
        ...live("openai"),
        OPENAI_SERVER_TOOLS: "web_search",
      });
      expect(answered.status).toBe(200);
      await answered.text();
      expect((sent(upstream)["model"] as string).endsWith("gpt-4o-search-preview")).toBe(true);
    });
  }

  it("unset, a Responses web search tool to a search model is that 400; forcing it is a 400 at tool_choice", async () => {
    const upstream = scripted("openai", { text: "Done." });
    const error = await openai("openai", upstream)
      .responses.create({ model: SEARCH_MODEL, input: "Go.", tools: [HOSTED["web_search"]!], store: false })
      .catch((caught: unknown) => caught);
    expect(error).toMatchObject({ status: 400, param: "model" });
    const forced = await openai("openai", upstream)
      .responses.create({
        model: SEARCH_MODEL,
        input: "Go.",
        tools: [HOSTED["web_search"]!],
        tool_choice: { type: "web_search" } as never,
      })
      .catch((caught: unknown) => caught);
    expect(forced).toMatchObject({ status: 400, param: "tool_choice.type" });
    expect((forced as Error).message).toContain("OPENAI_SERVER_TOOLS");
    expect(upstream.requests).toHaveLength(0);
  });

  it("a Chat client's web_search_options: unset, checked, then dropped for a model that does not search; listed, sent", async () => {
    const ask = (upstream: FakeUpstream, model: string, options: object, listed?: string) =>
      openai("openai", upstream, listed).chat.completions.create({
        model,
        messages: [{ role: "user", content: "Go." }],
        web_search_options: options,
      });
    const dropped = scripted("openai", { text: "Done." });
    await ask(dropped, "openai/gpt-4o-mini", { search_context_size: "low" });
    expect(sent(dropped)).not.toHaveProperty("web_search_options");
    const bad = scripted("openai", { text: "Done." });
    await expect(ask(bad, "openai/gpt-4o-mini", { search_context_size: "huge" })).rejects.toMatchObject({
      status: 400,
      param: "web_search_options.search_context_size",
    });
    const refused = scripted("openai", { text: "Done." });
    await expect(ask(refused, SEARCH_MODEL, { search_context_size: "low" })).rejects.toMatchObject({
      status: 400,
      param: "model",
    });
    expect(refused.requests).toHaveLength(0);
    const listed = scripted("openai", { text: "Done." });
    await ask(listed, SEARCH_MODEL, { search_context_size: "low" }, "web_search");
    expect(sent(listed)["web_search_options"]).toEqual({ search_context_size: "low" });
  });
});

describe("the other provider families: no built-in tool of their own, listed or not", () => {
  // Gemini's googleSearch, codeExecution, urlContext, fileSearch, googleMaps; Bedrock's and Cohere's
  // none: a client's OpenAI search reaches none of them as a tool they would run.
  const BUILT_IN = /google_?search|code_?execution|url_?context|file_?search|google_?maps|systemTool|connectors/i;
  for (const provider of ["gemini", "gemini-interactions", "bedrock", "cohere", "anthropic"] as const)
    it(`${provider}: a Responses web search tool is dropped; the client's function alone is sent`, async () => {
      const upstream = scripted(provider, { text: "Done." });
      await openai(provider, upstream, "web_search")
        .responses.stream({
          model: `${provider}/m`,
          input: "Go.",
          tools: [FUNCTION, HOSTED["web_search"]!],
          store: false,
        })
        .finalResponse();
      const body = JSON.stringify(sent(upstream));
      expect(body).toContain("lookup");
      expect(body).not.toMatch(BUILT_IN);
      expect(body).not.toContain("web_search");
    });
});
