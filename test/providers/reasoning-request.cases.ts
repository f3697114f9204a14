// Reasoning in each provider's own knob (src/providers/reasoning.ts): one effort <-> budget
// mapping, each kit's field, and Anthropic's rules (budget below max_tokens, no forced tool, no
// temperature, the signed thinking of a tool loop's turn).
import {
  effortOfBudget,
  providerKit,
  reasoningBudget,
  type Provider,
  type ProviderRequest,
  type ReasoningEffort,
  type RequestMessage,
  type RequestReasoning,
} from "../../src/index.ts";
import { assertEquals, group } from "../support/harness.ts";

const weather = { name: "get_weather", parameters: { type: "object" } };
const ask: RequestMessage[] = [{ role: "user", content: "Weather in Paris?" }];
const body = (provider: Provider, request: Partial<ProviderRequest>) =>
  providerKit(provider).requestBody({ model: "m-1", messages: ask, tools: [weather], ...request });
const high: RequestReasoning = { type: "on", effort: "high" };

/** A tool loop: the model called get_weather (with `parts` before it), and the result ends the conversation. */
function toolLoop(parts: NonNullable<Extract<RequestMessage, { role: "assistant" }>["reasoningParts"]>) {
  const messages: RequestMessage[] = [
    ...ask,
    {
      role: "assistant",
      content: "",
      toolCalls: [{ id: "toolu_1", name: "get_weather", arguments: { city: "Paris" } }],
      reasoningParts: parts,
    },
    { role: "tool", toolCallId: "toolu_1", content: "18 °C" },
  ];
  return messages;
}

group("Reasoning: the effort <-> budget mapping", (test) => {
  test("each effort has a budget, and a budget maps back to low, medium or high", () => {
    const budgets = (["minimal", "low", "medium", "high", "xhigh", "max"] as const).map((effort) =>
      reasoningBudget({ type: "on", effort }),
    );
    assertEquals(budgets, [1024, 4096, 16_384, 32_768, 49_152, 65_536]);
    assertEquals([1024, 8191, 8192, 24_575, 24_576, 31_999, 65_536].map(effortOfBudget), [
      "low",
      "low",
      "medium",
      "medium",
      "high",
      "high",
      "high",
    ]);
    assertEquals(reasoningBudget({ type: "on", effort: "high", budgetTokens: 5000 }), 5000);
  });
});

group("Reasoning: each provider's knob", (test) => {
  test("an effort is each provider's own field", () => {
    const on: RequestReasoning = { type: "on", effort: "medium", summary: "auto" };
    assertEquals(body("openai", { reasoning: on })["reasoning_effort"], "medium");
    const responses = body("openai-responses", { reasoning: on });
    assertEquals(responses["reasoning"], { effort: "medium", summary: "auto" });
    assertEquals(responses["include"], ["reasoning.encrypted_content"]);
    assertEquals(body("anthropic", { reasoning: on, maxTokens: 32_000 })["thinking"], {
      type: "enabled",
      budget_tokens: 16_384,
    });
    assertEquals(body("gemini", { reasoning: on })["generationConfig"], {
      thinkingConfig: { includeThoughts: true, thinkingBudget: 16_384 },
    });
    assertEquals(body("gemini", { model: "gemini-3-pro-preview", reasoning: on })["generationConfig"], {
      thinkingConfig: { includeThoughts: true, thinkingLevel: "high" },
    });
    assertEquals(body("cohere", { reasoning: on })["thinking"], { type: "enabled", token_budget: 16_384 });
    assertEquals(body("ollama", { reasoning: on })["think"], true);
    assertEquals(body("ollama", { model: "gpt-oss:20b", reasoning: on })["think"], "medium");
    assertEquals(body("ollama", { reasoning: { type: "off" } })["think"], false);
    const claude = body("bedrock", { model: "us.anthropic.claude-sonnet-4-5-20250929-v1:0", reasoning: on });
    assertEquals(claude["additionalModelRequestFields"], { thinking: { type: "enabled", budget_tokens: 16_384 } });
    assertEquals(claude["inferenceConfig"], { maxTokens: 20_480 });
  });

  test("a budget goes as it is where budgets are taken, as its effort elsewhere; Gemini 2.5 caps it", () => {
    const budget: RequestReasoning = { type: "on", effort: effortOfBudget(31_999), budgetTokens: 31_999 };
    assertEquals(body("anthropic", { reasoning: budget, maxTokens: 32_000 })["thinking"], {
      type: "enabled",
      budget_tokens: 31_999,
    });
    assertEquals(body("openai", { reasoning: budget })["reasoning_effort"], "high");
    assertEquals(body("gemini", { reasoning: budget })["generationConfig"], {
      thinkingConfig: { includeThoughts: true, thinkingBudget: 24_576 },
    });
  });

  test("Bedrock's Nova 2 and gpt-oss get their own knob in additionalModelRequestFields", () => {
    // docs.aws.amazon.com/nova/latest/nova2-userguide/extended-thinking.html: off unless asked, then
    // `reasoningConfig: {type: "enabled", maxReasoningEffort}`; gpt-oss takes `reasoning_effort`; low to high both.
    const fields = (model: string, effort: ReasoningEffort) =>
      body("bedrock", { model, reasoning: { type: "on", effort } })["additionalModelRequestFields"];
    const nova = "us.amazon.nova-2-lite-v1:0";
    assertEquals(fields(nova, "medium"), { reasoningConfig: { type: "enabled", maxReasoningEffort: "medium" } });
    assertEquals(fields(nova, "minimal"), { reasoningConfig: { type: "enabled", maxReasoningEffort: "low" } });
    assertEquals(fields(nova, "max"), { reasoningConfig: { type: "enabled", maxReasoningEffort: "high" } });
    assertEquals(fields("openai.gpt-oss-120b-1:0", "xhigh"), { reasoning_effort: "high" });
    assertEquals(fields("amazon.nova-pro-v1:0", "high"), undefined);
    const adaptive = body("bedrock", { model: nova, reasoning: { type: "adaptive", effort: "high" } });
    assertEquals(adaptive["additionalModelRequestFields"], undefined);
    // Nova 2 refuses a temperature with reasoning, and a maxTokens at high (review76): the temperature gives
    // way; the client's bound stays, at medium.
    const limits = { temperature: 0.2, maxTokens: 1000 };
    const at = (effort: ReasoningEffort, request: Partial<ProviderRequest> = limits) =>
      body("bedrock", { model: nova, reasoning: { type: "on", effort }, ...request });
    assertEquals(
      [at("high")["inferenceConfig"], at("high")["additionalModelRequestFields"]],
      [{ maxTokens: 1000 }, { reasoningConfig: { type: "enabled", maxReasoningEffort: "medium" } }],
    );
    assertEquals(at("high", {})["additionalModelRequestFields"], {
      reasoningConfig: { type: "enabled", maxReasoningEffort: "high" },
    });
    assertEquals(at("low")["inferenceConfig"], { maxTokens: 1000 });
    assertEquals(body("bedrock", { model: nova, ...limits })["inferenceConfig"], limits);
  });

  test("Gemini 3 gets the level nearest the effort that its model takes", () => {
    const level = (model: string, effort: ReasoningEffort) =>
      (body("gemini", { model, reasoning: { type: "on", effort } })["generationConfig"] as Record<string, unknown>)[
        "thinkingConfig"
      ];
    const levels = (model: string) =>
      (["minimal", "low", "medium", "high", "xhigh", "max"] as const).map(
        (effort) => (level(model, effort) as { thinkingLevel: string }).thinkingLevel,
      );
    // Gemini 3 Pro takes low and high; 3 Flash, the Flash-Lites and 3.6 Flash minimal to high; 3.1 Pro and the
    // later Flash low to high; Gemini 4 low to xhigh (review76 found the Flash-Lites' minimal and Gemini 4's xhigh).
    assertEquals(levels("gemini-3-pro-preview"), ["low", "low", "high", "high", "high", "high"]);
    assertEquals(levels("gemini-3-flash-preview"), ["minimal", "low", "medium", "high", "high", "high"]);
    assertEquals(levels("gemini-3.1-flash-lite-preview"), ["minimal", "low", "medium", "high", "high", "high"]);
    assertEquals(levels("gemini-3.6-flash"), ["minimal", "low", "medium", "high", "high", "high"]);
    assertEquals(levels("gemini-3.1-pro-preview"), ["low", "low", "medium", "high", "high", "high"]);
    assertEquals(levels("gemini-3.7-flash"), ["low", "low", "medium", "high", "high", "high"]);
    assertEquals(levels("gemini-3.5-flash"), ["minimal", "low", "medium", "high", "high", "high"]);
    assertEquals(levels("gemini-4-neon"), ["low", "low", "medium", "high", "xhigh", "xhigh"]);
    assertEquals(levels("gemini-4-hydrogen"), ["low", "low", "medium", "high", "xhigh", "xhigh"]);
    assertEquals(levels("gemini-4-carbon"), ["low", "low", "medium", "high", "high", "high"]);
    assertEquals(levels("gemini-4-argon"), ["low", "low", "medium", "high", "high", "high"]);
    assertEquals(level("gemini-3.1-pro-preview", "medium"), { includeThoughts: true, thinkingLevel: "medium" });
  });

  test("adaptive and off leave every provider but Anthropic its default, but Ollama (off)", () => {
    const providers: Provider[] = ["openai", "openai-responses", "gemini", "cohere", "ollama", "bedrock"];
    const adaptive: RequestReasoning = { type: "adaptive", effort: "high" };
    for (const provider of providers)
      assertEquals(body(provider, { reasoning: adaptive }), body(provider, {}), `${provider}: adaptive`);
    for (const provider of providers.filter((p) => p !== "ollama"))
      assertEquals(body(provider, { reasoning: { type: "off" } }), body(provider, {}), `${provider}: off`);
    assertEquals(body("anthropic", { reasoning: { type: "off" } }), body("anthropic", {}));
    assertEquals(body("bedrock", { model: "amazon.nova-pro-v1:0", reasoning: high }), body("bedrock", {}));
  });
});

group("Reasoning: Anthropic's rules for thinking", (test) => {
  test("without max_tokens the answer gets 4,096 tokens beyond the budget, at most 32,000 in all", () => {
    const sent = (effort: "minimal" | "medium" | "high") => {
      const request = body("anthropic", { reasoning: { type: "on", effort } });
      return [request["max_tokens"], (request["thinking"] as { budget_tokens: number }).budget_tokens];
    };
    assertEquals(
      [sent("minimal"), sent("medium"), sent("high")],
      [
        [5120, 1024],
        [20_480, 16_384],
        [32_000, 27_904],
      ],
    );
    const adaptive = body("anthropic", { model: "claude-opus-4-7", reasoning: { type: "adaptive", effort: "low" } });
    assertEquals(adaptive["max_tokens"], 8192);
  });

  test("the budget stays below the request's max_tokens, and under 1,024 tokens thinking is left out", () => {
    assertEquals(body("anthropic", { reasoning: high, maxTokens: 8000 })["thinking"], {
      type: "enabled",
      budget_tokens: 7999,
    });
    assertEquals(body("anthropic", { reasoning: high, maxTokens: 1024 })["thinking"], undefined);
  });

  test("a forced tool leaves thinking out; thinking leaves the temperature out", () => {
    for (const toolChoice of [{ type: "required" }, { type: "tool", name: "get_weather" }] as const)
      assertEquals(body("anthropic", { reasoning: high, toolChoice })["thinking"], undefined);
    const hot = body("anthropic", { reasoning: high, temperature: 0.2 });
    assertEquals([hot["temperature"], hot["thinking"] !== undefined], [undefined, true]);
    assertEquals(body("anthropic", { temperature: 0.2 })["temperature"], 0.2);
  });

  test("tool results after a turn without signed thinking leave thinking out; with it, thinking stays", () => {
    assertEquals(body("anthropic", { reasoning: high, messages: toolLoop([]) })["thinking"], undefined);
    const signed = body("anthropic", {
      reasoning: high,
      messages: toolLoop([{ type: "signed", text: "Let me check.", signature: "sig" }]),
    });
    assertEquals(signed["thinking"], { type: "enabled", budget_tokens: 27_904 });
    const redacted = body("anthropic", { reasoning: high, messages: toolLoop([{ type: "redacted", data: "opaque" }]) });
    assertEquals(redacted["thinking"], { type: "enabled", budget_tokens: 27_904 });
  });
});

group("Reasoning: adaptive thinking on the Claude models that have it", (test) => {
  test("the effort goes as the model takes it: xhigh from Opus 4.7 on, max on every model of adaptive thinking", () => {
    // platform.claude.com/docs/en/build-with-claude/effort: xhigh on Opus 4.7, 4.8 and the 5 models, max from
    // Opus and Sonnet 4.6 on and on Mythos Preview; an effort the model does not take is a 400 (Codex's xhigh
    // through the Worker to Sonnet 4.6). review76 found Mythos Preview's xhigh and Sonnet 4.6's max.
    const efforts = ["minimal", "low", "medium", "high", "xhigh", "max"] as const;
    const sent = (provider: Provider, model: string) =>
      efforts.map((effort) => {
        const request = body(provider, { model, reasoning: { type: "adaptive", effort } });
        const fields =
          provider === "bedrock" ? (request["additionalModelRequestFields"] as Record<string, unknown>) : request;
        return (fields["output_config"] as { effort: string }).effort;
      });
    const before = ["low", "low", "medium", "high", "high", "max"];
    const after = ["low", "low", "medium", "high", "xhigh", "max"];
    assertEquals(sent("anthropic", "claude-sonnet-4-6"), before);
    assertEquals(sent("anthropic", "claude-opus-4-6"), before);
    assertEquals(sent("bedrock", "global.anthropic.claude-sonnet-4-6"), before);
    assertEquals(sent("anthropic", "claude-mythos-preview"), before);
    assertEquals(sent("bedrock", "anthropic.claude-mythos-preview"), before);
    assertEquals(sent("anthropic", "claude-opus-4-7"), after);
    assertEquals(sent("bedrock", "us.anthropic.claude-opus-4-8-v1"), after);
    assertEquals(sent("anthropic", "claude-sonnet-5"), after);
    assertEquals(sent("anthropic", "claude-mythos-5"), after);
  });

  test("Opus and Sonnet 4.6 and later think adaptively at the effort; earlier models at a budget", () => {
    const on: RequestReasoning = { type: "on", effort: "minimal", budgetTokens: 2048 };
    for (const model of ["claude-opus-4-7", "claude-sonnet-4-6", "claude-opus-5"]) {
      const adaptive = body("anthropic", { model, reasoning: { type: "adaptive", effort: "xhigh" } });
      assertEquals(
        [adaptive["thinking"], adaptive["output_config"]],
        [{ type: "adaptive", display: "summarized" }, { effort: model === "claude-sonnet-4-6" ? "high" : "xhigh" }],
      );
      const budget = body("anthropic", { model, reasoning: on });
      assertEquals(
        [budget["thinking"], budget["output_config"]],
        [{ type: "adaptive", display: "summarized" }, { effort: "low" }],
        model,
      );
    }
    // Claude on Bedrock takes Anthropic's own fields in `additionalModelRequestFields`, the effort's `output_config`
    // with them (docs.aws.amazon.com/bedrock/latest/userguide/claude-messages-adaptive-thinking.html: "Use
    // thinking.type: "adaptive" with output_config.effort"); before, the effort was dropped and the model thought at its default.
    // With its `display`, as on Anthropic: the models from Opus 4.7 on omit the thinking's text there too
    // unless asked (Claude Code on Bedrock without it streams thinking blocks of no text:
    // anthropics/claude-agent-sdk-python#1068), so without one it is `summarized`.
    const bedrock = body("bedrock", { model: "global.anthropic.claude-opus-4-6-v1", reasoning: on });
    assertEquals(bedrock["additionalModelRequestFields"], {
      thinking: { type: "adaptive", display: "summarized" },
      output_config: { effort: "low" },
    });
    const omitted = body("bedrock", {
      model: "us.anthropic.claude-opus-4-7",
      reasoning: { type: "adaptive", effort: "high", display: "omitted" },
    });
    assertEquals(omitted["additionalModelRequestFields"], {
      thinking: { type: "adaptive", display: "omitted" },
      output_config: { effort: "high" },
    });
    const xhigh = body("bedrock", {
      model: "anthropic.claude-opus-4-7",
      reasoning: { type: "adaptive", effort: "xhigh" },
    });
    assertEquals(xhigh["additionalModelRequestFields"], {
      thinking: { type: "adaptive", display: "summarized" },
      output_config: { effort: "xhigh" },
    });
    const none = body("bedrock", { model: "anthropic.claude-sonnet-4-6", reasoning: { type: "adaptive" } });
    assertEquals(none["additionalModelRequestFields"], { thinking: { type: "adaptive", display: "summarized" } });
    // A budget's thinking, for the earlier Claude models, goes without it.
    const earlier = body("bedrock", { model: "us.anthropic.claude-sonnet-4-5-20250929-v1:0", reasoning: on });
    assertEquals((earlier["additionalModelRequestFields"] as { thinking: unknown }).thinking, {
      type: "enabled",
      budget_tokens: 2048,
    });
    for (const model of ["claude-sonnet-4-5", "claude-opus-4-5-20251101", "claude-haiku-4-5", "claude-3-7-sonnet"]) {
      const earlier = body("anthropic", {
        model,
        maxTokens: 32_000,
        reasoning: { type: "adaptive", effort: "medium" },
      });
      assertEquals(
        [earlier["thinking"], earlier["output_config"]],
        [{ type: "enabled", budget_tokens: 16_384 }, undefined],
      );
      const none = body("anthropic", { model, maxTokens: 32_000, reasoning: { type: "adaptive" } });
      assertEquals(none["thinking"], { type: "enabled", budget_tokens: 31_999 }, model);
    }
  });
});

group("Reasoning: each provider takes back its own kind of reasoning, and only that", (test) => {
  const signed = { type: "signed" as const, text: "Let me check.", signature: "sig" };
  const redacted = { type: "redacted" as const, data: "opaque" };
  const item = { type: "item" as const, id: "rs_1", encryptedContent: "gAAAA", summary: [] };
  const bare = { type: "item" as const, id: "rs_2" };
  const turn = (provider: Provider, model = "m-1") => {
    const sent = body(provider, { model, messages: toolLoop([signed, item, redacted, bare]) });
    return JSON.stringify(sent[providerKit(provider).conversationField]);
  };

  test("Anthropic: the signed and redacted blocks, first in the turn; Claude on Bedrock: the same as reasoningContent", () => {
    const anthropic = body("anthropic", { messages: toolLoop([signed, item, redacted, bare]) });
    assertEquals((anthropic["messages"] as { content: unknown[] }[])[1]!.content, [
      { type: "thinking", thinking: "Let me check.", signature: "sig" },
      { type: "redacted_thinking", data: "opaque" },
      { type: "tool_use", id: "toolu_1", name: "get_weather", input: { city: "Paris" } },
    ]);
    const bedrock = body("bedrock", {
      model: "anthropic.claude-sonnet-4-5",
      messages: toolLoop([signed, item, redacted]),
    });
    assertEquals((bedrock["messages"] as { content: unknown[] }[])[1]!.content, [
      { reasoningContent: { reasoningText: { text: "Let me check.", signature: "sig" } } },
      { reasoningContent: { redactedContent: "opaque" } },
      { toolUse: { toolUseId: "toolu_1", name: "get_weather", input: { city: "Paris" } } },
    ]);
    assertEquals(turn("bedrock", "amazon.nova-pro-v1:0").includes("reasoningContent"), false);
  });

  test("OpenAI Responses: the items, before the calls they reasoned for; one of no encrypted content by its id", () => {
    const input = body("openai-responses", { messages: toolLoop([signed, item, redacted, bare]) })["input"];
    // A stored response's item (store absent or true) goes back by its id, which OpenAI looks up.
    assertEquals((input as unknown[]).slice(1, 4), [
      { type: "reasoning", id: "rs_1", summary: [], encrypted_content: "gAAAA" },
      { type: "reasoning", id: "rs_2", summary: [] },
      { type: "function_call", call_id: "toolu_1", name: "get_weather", arguments: '{"city":"Paris"}' },
    ]);
    const alone: RequestMessage[] = [...ask, { role: "assistant", content: "", toolCalls: [], reasoningParts: [item] }];
    assertEquals(JSON.stringify(body("openai-responses", { messages: alone })).includes("reasoning"), false);
  });

  test("OpenAI Responses: a reasoning item of no encrypted content keeps its summary and raw content; with store: false it is left out", () => {
    const summary = [{ type: "summary_text", text: "**Checking the weather**" }];
    const content = [{ type: "reasoning_text", text: "Paris, so metric." }];
    const stored = { type: "item" as const, id: "rs_3", summary };
    const raw = { type: "item" as const, id: "rs_4", summary: [], content };
    const input = (store?: boolean) =>
      (
        body("openai-responses", {
          messages: toolLoop([stored, raw, item]),
          ...(store === undefined ? {} : { store }),
        })["input"] as unknown[]
      ).slice(1, -2);
    const all = [
      { type: "reasoning", id: "rs_3", summary },
      { type: "reasoning", id: "rs_4", summary: [], content },
      { type: "reasoning", id: "rs_1", summary: [], encrypted_content: "gAAAA" },
    ];
    assertEquals(input(), all);
    assertEquals(input(true), all);
    // Not stored, OpenAI cannot find rs_3 by its id (a 404); rs_4 carries its own reasoning.
    assertEquals(input(false), all.slice(1));
  });

  test("the other providers are sent no reasoning state; Ollama takes the reasoning text back as thinking", () => {
    for (const provider of ["openai", "gemini", "cohere", "ollama"] as const)
      for (const state of ["sig", "opaque", "gAAAA", "rs_"])
        assertEquals(turn(provider).includes(state), false, provider);
    const thought: RequestMessage[] = [
      ...ask,
      { role: "assistant", content: "Sunny.", toolCalls: [], reasoning: "Paris is usually mild." },
    ];
    const ollama = body("ollama", { messages: thought })["messages"] as Record<string, unknown>[];
    assertEquals(ollama[1], { role: "assistant", content: "Sunny.", thinking: "Paris is usually mild." });
    for (const provider of ["openai", "openai-responses", "anthropic", "gemini", "bedrock", "cohere"] as const)
      assertEquals(JSON.stringify(body(provider, { messages: thought })).includes("mild"), false, provider);
  });
});
