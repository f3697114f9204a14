// OpenAI Chat Completions `custom` tools on POST /v1/chat/completions, through the real openai-node
// (7's `stream()`, which reads custom calls; 6's `create({stream: true})`; both majors' `create()`),
// against scripted OpenAI, Anthropic and Gemini upstreams: the tool reaches each provider as a
// function of one string (as on /v1/responses), the provider's call of it comes back as
// `{type: "custom", custom: {name, input}}`, a second turn sends the call and its result back as the
// provider's function call and tool result, `tool_choice` and `allowed_tools` name custom tools,
// and bad shapes are 400s in OpenAI's shape naming the field.
import OpenAI6 from "openai";
import OpenAI7 from "openai-v7";
import { describe, expect, it } from "vitest";
import type { Provider } from "../../src/index.ts";
import type { Env } from "../../worker/env.ts";
import { workerFetch } from "./client-support.ts";
import { live, scripted, WEATHER } from "./open-responses-support.ts";
import type { FakeUpstream } from "./support.ts";

const PATCH = '*** Begin Patch\n*** Add File: a.txt\n+say "hi"\n*** End Patch';
const APPLY_PATCH: OpenAI6.ChatCompletionCustomTool = {
  type: "custom",
  custom: { name: "apply_patch", description: "Apply a patch.", format: { type: "text" } },
};
const WEATHER_TOOL: OpenAI6.ChatCompletionFunctionTool = {
  type: "function",
  function: { name: WEATHER.name, parameters: WEATHER.parameters },
};
const PROVIDERS: Provider[] = ["openai", "anthropic", "gemini"];
const request = (provider: Provider) => ({
  model: `${provider}/test-model`,
  messages: [{ role: "user" as const, content: "Add a.txt." }],
  tools: [APPLY_PATCH, WEATHER_TOOL],
});
/** The provider calls the custom tool as the function it was sent: its text in `input`. */
const patching = (provider: Provider) =>
  scripted(provider, { calls: [{ name: "apply_patch", arguments: { input: PATCH } }] });
/** openai-node of `major`, typed as 6 (a union of both majors' overloads is not callable); each runs as itself. */
const sdk = (major: 6 | 7, upstream: FakeUpstream, provider: Provider): OpenAI6 =>
  new (major === 6 ? OpenAI6 : OpenAI7)({
    baseURL: "http://localhost:8787/v1",
    apiKey: "t",
    maxRetries: 0,
    fetch: workerFetch({ env: live(provider) as Env, upstream }),
  }) as unknown as OpenAI6;
const customCall = (input: string) => ({ type: "custom", custom: { name: "apply_patch", input } });

describe("openai-node on POST /v1/chat/completions: custom tools", () => {
  for (const provider of PROVIDERS)
    it(`${provider}: the call of a custom tool is a custom call, streamed (7's stream(), 6's create) and not`, async () => {
      const upstream = patching(provider);
      const final = await sdk(7, upstream, provider).chat.completions.stream(request(provider)).finalChatCompletion();
      expect(final.choices[0]!.message.tool_calls).toEqual([{ id: expect.any(String), ...customCall(PATCH) }]);
      expect(final.choices[0]!.finish_reason).toBe("tool_calls");

      const deltas: { index: number; type?: string; custom?: { name?: string; input?: string } }[] = [];
      for await (const chunk of await sdk(6, upstream, provider).chat.completions.create({
        ...request(provider),
        stream: true,
      }))
        deltas.push(...((chunk.choices[0]?.delta.tool_calls ?? []) as typeof deltas));
      expect(deltas[0]).toMatchObject({ index: 0, ...customCall("") });
      expect(deltas.map((delta) => delta.custom?.input ?? "").join("")).toBe(PATCH);
      expect(deltas.every((delta) => !("function" in delta))).toBe(true);

      for (const major of [6, 7] as const) {
        const whole = await sdk(major, upstream, provider).chat.completions.create(request(provider));
        expect(whole.choices[0]!.message.tool_calls).toEqual([{ id: expect.any(String), ...customCall(PATCH) }]);
      }
      // The provider was offered the custom tool as a function of one string, beside the function tool.
      const sent = JSON.stringify(upstream.requests[0]!.body);
      expect(sent).toContain('"apply_patch"');
      expect(sent).toContain('"required":["input"]');
      expect(sent).toContain('"get_weather"');
    });

  for (const provider of PROVIDERS)
    it(`${provider}: the next turn sends the custom call and its tool result back as the provider's call and result`, async () => {
      const upstream = scripted(provider, { text: "Done." });
      const first = await sdk(6, patching(provider), provider).chat.completions.create(request(provider));
      const call = first.choices[0]!.message.tool_calls![0]!;
      const answer = await sdk(6, upstream, provider).chat.completions.create({
        ...request(provider),
        messages: [
          ...request(provider).messages,
          { role: "assistant", content: null, tool_calls: [call] },
          { role: "tool", tool_call_id: call.id, content: "Added a.txt." },
        ],
      });
      expect(answer.choices[0]!.message.content).toBe("Done.");
      const sent = JSON.stringify(upstream.requests[0]!.body);
      // The call's text as the function's `input` (an object to Anthropic and Gemini, JSON text to OpenAI).
      const input = provider === "openai" ? JSON.stringify(JSON.stringify({ input: PATCH })) : JSON.stringify(PATCH);
      expect(sent).toContain(input);
      expect(sent).toContain("Added a.txt.");
    });

  it("tool_choice names a custom tool: the provider is told to call it, and a call of another is left out", async () => {
    for (const provider of ["openai", "anthropic"] as const) {
      const upstream = scripted(provider, {
        calls: [
          { name: "get_weather", arguments: { location: "Paris" } },
          { name: "apply_patch", arguments: { input: PATCH } },
        ],
      });
      const choices: OpenAI6.ChatCompletionToolChoiceOption[] = [
        { type: "custom", custom: { name: "apply_patch" } },
        {
          type: "allowed_tools",
          allowed_tools: { mode: "required", tools: [{ type: "custom", custom: { name: "apply_patch" } }] },
        },
      ];
      for (const tool_choice of choices) {
        const whole = await sdk(6, upstream, provider).chat.completions.create({ ...request(provider), tool_choice });
        expect(whole.choices[0]!.message.tool_calls).toEqual([{ id: expect.any(String), ...customCall(PATCH) }]);
      }
      const [forced, allowed] = upstream.requests.map((seen) => seen.body as Record<string, unknown>);
      expect(forced!["tool_choice"]).toEqual(
        provider === "openai"
          ? { type: "function", function: { name: "apply_patch" } }
          : { type: "tool", name: "apply_patch" },
      );
      // `allowed_tools`: the provider is offered the listed tool alone.
      expect(JSON.stringify(allowed!["tools"])).not.toContain("get_weather");
    }
  });

  it("a grammar format is accepted and, as on /v1/responses, not enforced: the tool goes as a function of one string", async () => {
    const upstream = patching("openai");
    const grammar: OpenAI6.ChatCompletionCustomTool = {
      type: "custom",
      custom: {
        name: "apply_patch",
        format: { type: "grammar", grammar: { definition: "start: /.+/", syntax: "lark" } },
      },
    };
    const whole = await sdk(6, upstream, "openai").chat.completions.create({ ...request("openai"), tools: [grammar] });
    expect(whole.choices[0]!.message.tool_calls).toEqual([{ id: expect.any(String), ...customCall(PATCH) }]);
    const tools = (upstream.requests[0]!.body as { tools: { function: { name: string; parameters: unknown } }[] })
      .tools;
    expect(tools[0]!.function).toMatchObject({ name: "apply_patch", parameters: { required: ["input"] } });
  });

  it("bad shapes are 400s in OpenAI's shape naming the field", async () => {
    const client = sdk(6, patching("openai"), "openai");
    const base = request("openai");
    const cases: [Record<string, unknown>, string][] = [
      [{ tools: [{ type: "custom", custom: {} }] }, "tools[0].custom.name"],
      [{ tools: [{ type: "custom", custom: { name: "has space" } }] }, "tools[0].custom.name"],
      [{ tools: [{ type: "custom" }] }, "tools[0].custom"],
      [{ tools: [{ type: "custom", custom: { name: "x", description: 7 } }] }, "tools[0].custom.description"],
      [{ tools: [{ type: "custom", custom: { name: "x", format: { type: "json" } } }] }, "tools[0].custom.format.type"],
      [
        {
          tools: [
            {
              type: "custom",
              custom: { name: "x", format: { type: "grammar", grammar: { definition: "a", syntax: "ebnf" } } },
            },
          ],
        },
        "tools[0].custom.format.grammar.syntax",
      ],
      [{ tools: [WEATHER_TOOL, { type: "custom", custom: { name: "get_weather" } }] }, "tools"],
      [{ tools: [{ type: "web_search" }] }, "tools[0].type"],
      [{ tool_choice: { type: "custom", custom: { name: "get_weather" } } }, "tool_choice.custom.name"],
      [
        {
          tool_choice: {
            type: "allowed_tools",
            allowed_tools: { mode: "auto", tools: [{ type: "custom", custom: {} }] },
          },
        },
        "tool_choice.allowed_tools.tools[0].custom.name",
      ],
      [
        {
          messages: [
            ...base.messages,
            {
              role: "assistant",
              tool_calls: [{ id: "call_1", type: "custom", custom: { name: "apply_patch", input: 1 } }],
            },
          ],
        },
        "messages[1].tool_calls[0].custom.input",
      ],
    ];
    for (const [fields, param] of cases) {
      const error = await client.chat.completions
        .create({ ...base, ...fields } as unknown as OpenAI6.ChatCompletionCreateParamsNonStreaming)
        .catch((thrown: unknown) => thrown);
      expect(error, param).toBeInstanceOf(OpenAI6.BadRequestError);
      expect((error as InstanceType<typeof OpenAI6.BadRequestError>).param, JSON.stringify(fields)).toBe(param);
    }
  });
});
