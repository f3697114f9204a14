// Web search a client asks for in its own protocol, through the Worker to an OpenAI Chat search
// model as `web_search_options` (openai 6's ChatCompletionCreateParams.WebSearchOptions:
// `search_context_size`, `user_location: {type: "approximate", approximate: {...}}`), openai-node
// as the client: Chat Completions' own `web_search_options`, and an OpenAI Responses `web_search`
// / `web_search_preview` tool (its flat `user_location`). Where OpenAI refuses it (a model that is
// no search model) or the provider has none, the Responses tool is dropped, as clients send it by
// default, and Chat's field is a 400 naming it; a tool limited to some domains is a 400 naming
// them with a search model, which searches on every request and has no place for the limit. The
// search model's answer is test/providers/openai-chat/citations-recordings.ts (built from
// openai-node's types). An OpenAI Responses upstream is sent the Responses tool itself, and answers with
// test/providers/openai-responses/citations-recordings.ts (a web_search_call, then the cited text).
import type { ResponseCreateParamsStreaming, ResponseInputItem, Tool } from "openai/resources/responses/responses";
import { describe, expect, it } from "vitest";
import {
  CHAT_ANNOTATION,
  CHAT_ANNOTATION_FLAT,
  CHAT_CITED_TEXT,
  chatCited,
} from "../providers/openai-chat/citations-recordings.ts";
import { ANNOTATIONS, CITED_TEXT, responsesCited } from "../providers/openai-responses/citations-recordings.ts";
import { EMPTY_TURN } from "./anthropic-blocks.ts";
import { OPENAI_ANTHROPIC_ENV, openAIClient } from "./client-support.ts";
import { FakeUpstream } from "./support.ts";

const SEARCH_MODEL = "openai/gpt-4o-search-preview";
/** OpenAI's search bills the deployment's key: it runs only when the operator lists it (unset: never). */
const ENV = { ...OPENAI_ANTHROPIC_ENV, OPENAI_SERVER_TOOLS: "web_search" };
/** The Responses tool types of web search (openai 6's WebSearchTool and WebSearchPreviewTool). */
const SEARCH_TYPES = [
  "web_search_preview",
  "web_search_preview_2025_03_11",
  "web_search",
  "web_search_2025_08_26",
] as const;
const QUESTION = "When did Ruby 3.4 come out?";
const messages = [{ role: "user" as const, content: QUESTION }];
const TOKYO = { country: "JP", city: "Tokyo", region: "Tokyo", timezone: "Asia/Tokyo" };
/** A search limited to some domains, which Chat's `web_search_options` cannot say. */
const LIMITED: Tool = { type: "web_search", filters: { allowed_domains: ["ruby-lang.org"] } };

const searchModel = (): FakeUpstream => new FakeUpstream({ kind: "sse", chunks: [chatCited()] });
/** The body the upstream got. */
const sent = (upstream: FakeUpstream): Record<string, unknown> => upstream.requests[0]!.body as Record<string, unknown>;

/** A Responses request through the Worker; what the upstream got, and the output_text the client read. */
async function responses(
  model: string,
  tools: Tool[],
  choice?: ResponseCreateParamsStreaming["tool_choice"],
): Promise<{ body: Record<string, unknown>; content: unknown }> {
  const upstream = model.startsWith("anthropic/")
    ? new FakeUpstream({ kind: "sse", chunks: EMPTY_TURN })
    : searchModel();
  const stream = openAIClient(upstream, ENV).responses.stream({
    model,
    input: QUESTION,
    tools,
    store: false,
    ...(choice ? { tool_choice: choice } : {}),
  });
  const response = await stream.finalResponse();
  const message = response.output.find((item) => item.type === "message");
  return { body: sent(upstream), content: message?.type === "message" ? message.content : undefined };
}

describe("POST /v1/chat/completions with web_search_options", () => {
  it("reaches an OpenAI Chat upstream as the client sent it, and the search's citation comes back", async () => {
    const options = {
      search_context_size: "low",
      user_location: { type: "approximate", approximate: TOKYO },
    } as const;
    const upstream = searchModel();
    const completion = await openAIClient(upstream, ENV).chat.completions.create({
      model: SEARCH_MODEL,
      messages,
      web_search_options: options,
    });
    expect(sent(upstream)["web_search_options"]).toEqual(options);
    expect(completion.choices[0]?.message.content).toBe(CHAT_CITED_TEXT);
    expect(completion.choices[0]?.message.annotations).toEqual([CHAT_ANNOTATION]);
    const empty = searchModel();
    await openAIClient(empty, ENV).chat.completions.create({ model: SEARCH_MODEL, messages, web_search_options: {} });
    expect(sent(empty)["web_search_options"]).toEqual({});
  });

  it("is a 400 naming it with another provider, or naming the field of it at fault", async () => {
    const ask = (model: string, options: unknown) =>
      openAIClient(searchModel(), ENV).chat.completions.create({
        model,
        messages,
        web_search_options: options as { search_context_size: "low" },
      });
    await expect(ask("anthropic/claude-sonnet-4-5", {})).rejects.toMatchObject({
      status: 400,
      param: "web_search_options",
    });
    for (const [options, param] of [
      [{ search_context_size: "huge" }, "web_search_options.search_context_size"],
      [{ user_location: { type: "exact", approximate: {} } }, "web_search_options.user_location.type"],
      [
        { user_location: { type: "approximate", approximate: { street: "1 Main St" } } },
        "web_search_options.user_location.approximate.street",
      ],
      [
        { user_location: { type: "approximate", approximate: { city: 7 } } },
        "web_search_options.user_location.approximate.city",
      ],
      [{ domains: ["example.com"] }, "web_search_options.domains"],
    ] as const)
      await expect(ask(SEARCH_MODEL, options)).rejects.toMatchObject({ status: 400, param });
  });
});

describe("POST /v1/responses with a web search tool", () => {
  it("reaches an OpenAI Chat search model as web_search_options, its location as Chat nests it", async () => {
    for (const type of SEARCH_TYPES) {
      const { body, content } = await responses(SEARCH_MODEL, [
        { type, search_context_size: "high", user_location: { type: "approximate", ...TOKYO } },
      ]);
      expect(body["web_search_options"], type).toEqual({
        search_context_size: "high",
        user_location: { type: "approximate", approximate: TOKYO },
      });
      expect(content).toMatchObject([
        { type: "output_text", text: CHAT_CITED_TEXT, annotations: [CHAT_ANNOTATION_FLAT] },
      ]);
    }
    const { body } = await responses(SEARCH_MODEL, [{ type: "web_search", user_location: { city: "Paris" } }]);
    expect(body["web_search_options"]).toEqual({
      user_location: { type: "approximate", approximate: { city: "Paris" } },
    });
  });

  it("is dropped, as before, where OpenAI would refuse it or the provider has none", async () => {
    const search: Tool = { type: "web_search" };
    const cases: [string, Tool, ResponseCreateParamsStreaming["tool_choice"]][] = [
      ["openai/gpt-4o", search, undefined], // no search model: OpenAI refuses web_search_options
      ["openai/gpt-4o", LIMITED, undefined], // nor does it search without them: no search at all
      ["anthropic/claude-sonnet-4-5", search, undefined],
      ["anthropic/claude-sonnet-4-5", LIMITED, undefined],
    ];
    for (const [model, tool, choice] of cases) {
      const { body } = await responses(model, [tool], choice);
      expect(JSON.stringify(body), `${model} ${JSON.stringify(tool)} ${choice}`).not.toContain("web_search");
    }
  });

  it("limited to some domains, is a 400 naming them with a search model, which would search everywhere, whatever the choice", async () => {
    const choices: ResponseCreateParamsStreaming["tool_choice"][] = [
      undefined,
      "auto",
      "none",
      "required",
      { type: "web_search_preview" },
      { type: "allowed_tools", mode: "auto", tools: [{ type: "function", name: "lookup" }] },
    ];
    const lookup: Tool = { type: "function", name: "lookup", parameters: { type: "object" }, strict: false };
    for (const choice of choices) {
      const upstream = searchModel();
      const stream = openAIClient(upstream, ENV).responses.stream({
        model: SEARCH_MODEL,
        input: QUESTION,
        tools: [lookup, LIMITED],
        ...(choice ? { tool_choice: choice } : {}),
      });
      await expect(stream.finalResponse(), JSON.stringify(choice)).rejects.toMatchObject({
        status: 400,
        param: "tools[1].filters.allowed_domains",
        message: expect.stringContaining("openai-responses/"),
      });
      expect(upstream.requests).toEqual([]);
    }
    // After a search tool that is not limited: still the 400, at its own place.
    await expect(responses(SEARCH_MODEL, [{ type: "web_search_preview" }, LIMITED])).rejects.toMatchObject({
      status: 400,
      param: "tools[1].filters.allowed_domains",
    });
    // An empty list limits nothing: the search is sent.
    const { body } = await responses(SEARCH_MODEL, [{ type: "web_search", filters: { allowed_domains: [] } }]);
    expect(body["web_search_options"]).toEqual({});
  });

  it("with tool_choice none, is a 400 naming tool_choice with a search model, which searches anyway (OpenAI's web search guide)", async () => {
    const upstream = searchModel();
    const stream = openAIClient(upstream, ENV).responses.stream({
      model: SEARCH_MODEL,
      input: QUESTION,
      tools: [{ type: "web_search" }],
      tool_choice: "none",
    });
    await expect(stream.finalResponse()).rejects.toMatchObject({
      status: 400,
      param: "tool_choice",
      message: expect.stringContaining("searches the web on every request"),
    });
    expect(upstream.requests).toEqual([]);
    // Without a search tool nothing asks for no search: the model the client chose searches.
    const lookup: Tool = { type: "function", name: "lookup", parameters: { type: "object" }, strict: false };
    const { body } = await responses(SEARCH_MODEL, [lookup], "none");
    expect(body["web_search_options"]).toBeUndefined();
  });

  it("with tool_choice required, to a search model (its search is the call asked for): auto for the functions, no choice alone", async () => {
    const lookup: Tool = { type: "function", name: "lookup", parameters: { type: "object" }, strict: false };
    const { body } = await responses(SEARCH_MODEL, [lookup, { type: "web_search" }], "required");
    expect([body["tool_choice"], (body["tools"] as unknown[]).length, body["web_search_options"]]).toEqual([
      "auto",
      1,
      {},
    ]);
    const alone = await responses(SEARCH_MODEL, [{ type: "web_search" }], "required");
    expect([alone.body["tool_choice"], alone.body["tools"]]).toEqual([undefined, undefined]);
  });

  it("with allowed_tools that leave it out, is a 400 naming tool_choice.tools with a search model, which searches anyway", async () => {
    const lookup: Tool = { type: "function", name: "lookup", parameters: { type: "object" }, strict: false };
    const leftOut: NonNullable<ResponseCreateParamsStreaming["tool_choice"]>[] = [
      { type: "allowed_tools", mode: "auto", tools: [{ type: "function", name: "lookup" }] },
      { type: "allowed_tools", mode: "required", tools: [{ type: "function", name: "lookup" }] },
    ];
    for (const choice of leftOut) {
      const upstream = searchModel();
      const stream = openAIClient(upstream, ENV).responses.stream({
        model: SEARCH_MODEL,
        input: QUESTION,
        tools: [lookup, { type: "web_search" }],
        tool_choice: choice,
      });
      await expect(stream.finalResponse(), JSON.stringify(choice)).rejects.toMatchObject({
        status: 400,
        param: "tool_choice.tools",
        message: expect.stringContaining("searches the web on every request"),
      });
      expect(upstream.requests).toEqual([]);
    }
    // Listed, the search is allowed: the model is sent it, its function offered beside it.
    for (const type of ["web_search", "web_search_preview"] as const) {
      const allowed = { type: "allowed_tools", mode: "auto", tools: [{ type }, { type: "function", name: "lookup" }] };
      const { body } = await responses(SEARCH_MODEL, [lookup, { type, search_context_size: "low" }], allowed as never);
      expect([body["web_search_options"], body["tools"]], type).toEqual([
        { search_context_size: "low" },
        [{ type: "function", function: { name: "lookup", parameters: { type: "object" } } }],
      ]);
    }
    // An OpenAI Responses model is sent the listed search among the allowed tools.
    const upstream = new FakeUpstream({ kind: "sse", chunks: [responsesCited()] });
    await openAIClient(upstream, ENV)
      .responses.stream({
        model: "openai-responses/gpt-5",
        input: QUESTION,
        tools: [lookup, { type: "web_search" }],
        tool_choice: { type: "allowed_tools", mode: "auto", tools: [{ type: "web_search" }] },
      })
      .finalResponse();
    expect(sent(upstream)["tools"]).toEqual([{ type: "web_search" }]);
    // A search listed that `tools` does not offer is a 400 naming it, as a function would be.
    await expect(
      responses(SEARCH_MODEL, [lookup], {
        type: "allowed_tools",
        mode: "auto",
        tools: [{ type: "web_search" }],
      } as never),
    ).rejects.toMatchObject({ status: 400, param: "tool_choice.tools[0].type" });
  });

  it("with a forced function or custom tool beside it, is a 400 naming tool_choice with a search model, which searches anyway", async () => {
    const lookup: Tool = { type: "function", name: "lookup", parameters: { type: "object" }, strict: false };
    const note: Tool = { type: "custom", name: "note" };
    const forced: [NonNullable<ResponseCreateParamsStreaming["tool_choice"]>, string][] = [
      [{ type: "function", name: "lookup" }, "tool_choice.name"],
      [{ type: "custom", name: "note" }, "tool_choice.name"],
    ];
    for (const [choice, param] of forced) {
      const upstream = searchModel();
      const stream = openAIClient(upstream, ENV).responses.stream({
        model: SEARCH_MODEL,
        input: QUESTION,
        tools: [lookup, note, { type: "web_search" }],
        tool_choice: choice,
      });
      await expect(stream.finalResponse(), JSON.stringify(choice)).rejects.toMatchObject({
        status: 400,
        param,
        message: expect.stringContaining("searches the web on every request"),
      });
      expect(upstream.requests).toEqual([]);
    }
    // Forcing the search itself is what the model does anyway; without a search tool, nothing asks against it.
    const searched = await responses(SEARCH_MODEL, [lookup, { type: "web_search" }], { type: "web_search" } as never);
    expect(searched.body["web_search_options"]).toEqual({});
    const { body } = await responses(SEARCH_MODEL, [lookup], { type: "function", name: "lookup" });
    expect(body["web_search_options"]).toBeUndefined();
  });

  it("with allowed_tools of mode required listing the search alone, a search model is sent the search, no tool and no choice", async () => {
    const lookup: Tool = { type: "function", name: "lookup", parameters: { type: "object" }, strict: false };
    for (const mode of ["required", "auto"])
      for (const tools of [[{ type: "web_search" }], [lookup, { type: "web_search" }]] as Tool[][]) {
        const only = { type: "allowed_tools", mode, tools: [{ type: "web_search" }] } as never;
        const { body, content } = await responses(SEARCH_MODEL, tools, only);
        const got = [body["web_search_options"], body["tools"], body["tool_choice"]];
        expect(got, `${mode} ${JSON.stringify(tools)}`).toEqual([{}, undefined, undefined]);
        expect(JSON.stringify(content)).toContain(CHAT_CITED_TEXT.slice(0, 20));
      }
    // The search and a function, required: the search is the call required, so the function is the model's choice.
    const both = {
      type: "allowed_tools",
      mode: "required",
      tools: [{ type: "web_search" }, { type: "function", name: "lookup" }],
    };
    const { body } = await responses(SEARCH_MODEL, [lookup, { type: "web_search" }], both as never);
    expect([body["web_search_options"], body["tool_choice"]]).toEqual([{}, "auto"]);
  });

  it("is a 400 naming the field of the tool at fault", async () => {
    await expect(
      openAIClient(searchModel(), ENV)
        .responses.stream({
          model: SEARCH_MODEL,
          input: QUESTION,
          tools: [{ type: "web_search", search_context_size: "huge" as "low" }],
        })
        .finalResponse(),
    ).rejects.toMatchObject({ status: 400, param: "tools[0].search_context_size" });
  });
});

describe("POST /v1/responses with a web search tool, to an OpenAI Responses model", () => {
  const MODEL = "openai-responses/gpt-5";
  const TOOLS: Tool[] = [
    {
      type: "web_search",
      search_context_size: "low",
      user_location: { type: "approximate", ...TOKYO },
      filters: { allowed_domains: ["ruby-lang.org"] },
    },
    { type: "web_search_preview", search_context_size: "high" },
    { type: "function", name: "lookup", parameters: { type: "object" }, strict: false },
  ];

  it("is sent as the client gave it; the cited answer comes back, and the search goes back to OpenAI in place", async () => {
    const upstream = new FakeUpstream({ kind: "sse", chunks: [responsesCited()] });
    const response = await openAIClient(upstream, ENV)
      .responses.stream({ model: MODEL, input: QUESTION, tools: TOOLS, store: false })
      .finalResponse();
    expect((sent(upstream)["tools"] as unknown[]).slice(0, 2)).toEqual(TOOLS.slice(0, 2));
    const message = response.output.find((item) => item.type === "message");
    expect(message?.type === "message" && message.content).toMatchObject([
      { type: "output_text", text: CITED_TEXT, annotations: ANNOTATIONS },
    ]);
    // The web_search_call reaches the client in the item that carries what OpenAI ran (sealed), and
    // goes back to OpenAI as it came, before the answer, on the next turn.
    const next = new FakeUpstream({ kind: "sse", chunks: [responsesCited()] });
    const input: ResponseInputItem[] = [
      { role: "user", content: QUESTION },
      ...(response.output as ResponseInputItem[]),
      { role: "user", content: "And 3.5?" },
    ];
    await openAIClient(next, ENV).responses.stream({ model: MODEL, input, tools: TOOLS, store: false }).finalResponse();
    const items = sent(next)["input"] as Record<string, unknown>[];
    expect(items.map((item) => item["type"] ?? item["role"])).toEqual(["user", "web_search_call", "assistant", "user"]);
    expect(items[1]).toMatchObject({ type: "web_search_call", id: "ws_cite_1", status: "completed" });
  });

  it("is dropped, as before, for a provider that has no web search", async () => {
    const { body } = await responses("anthropic/claude-sonnet-4-5", TOOLS.slice(0, 2));
    expect(JSON.stringify(body)).not.toContain("web_search");
  });
});
