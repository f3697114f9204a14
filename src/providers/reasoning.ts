/**
 * How much a model should reason, in one shape for every provider, and the one mapping between a
 * reasoning effort (OpenAI's `reasoning_effort`, Responses' `reasoning.effort`, Anthropic's
 * `output_config.effort`, Ollama's `think` level) and a token budget (Anthropic's and Bedrock
 * Claude's `budget_tokens`, Gemini's `thinkingBudget`, Cohere's `token_budget`).
 *
 * | effort  | budget (tokens) | a budget of ... is |
 * | ------- | --------------- | ------------------ |
 * | minimal | 1,024           |                    |
 * | low     | 4,096           | under 8,192        |
 * | medium  | 16,384          | 8,192 to 24,575    |
 * | high    | 32,768          | 24,576 and more    |
 * | xhigh   | 49,152          |                    |
 * | max     | 65,536          |                    |
 *
 * A budget maps back only to `low`, `medium` or `high`, the levels every reasoning model takes.
 *
 * @module
 */
import type { ReasoningPart } from "../shared/deltas.ts";

/** A reasoning effort, from the least to the most. */
export type ReasoningEffort = "minimal" | "low" | "medium" | "high" | "xhigh" | "max";

/**
 * Whether and how much the model reasons before it answers:
 * - `on`: at `effort`; `budgetTokens` when the client gave a budget (else the effort's, see the table above);
 *   `summary`, how much of the reasoning a provider that summarizes it (OpenAI Responses) returns;
 * - `adaptive`: the model decides (Anthropic's adaptive thinking, with `output_config.effort` when given);
 *   a Claude model from before adaptive thinking thinks at the effort's budget (`high` without one),
 *   and the other providers, which have no such mode, are left their default;
 * - `off`: no reasoning (sent only where disabling it is the provider's documented default-free knob: Ollama).
 */
export type RequestReasoning =
  | {
      /** The kind: reasoning at a given effort. */
      readonly type: "on";
      /** How much. */
      readonly effort: ReasoningEffort;
      /** The budget in tokens, when the client gave one. */
      readonly budgetTokens?: number | undefined;
      /** How much of the reasoning comes back as a summary (OpenAI Responses). */
      readonly summary?: "auto" | "concise" | "detailed" | undefined;
      /** Anthropic's `thinking.display`, when the client set one: see the `adaptive` kind. */
      readonly display?: "summarized" | "omitted" | undefined;
    }
  | {
      /** The kind: the model decides whether and how much. */
      readonly type: "adaptive";
      /** Anthropic's `output_config.effort`, when given. */
      readonly effort?: ReasoningEffort | undefined;
      /**
       * Anthropic's `thinking.display`: the thinking's text (`summarized`) or only its signature
       * (`omitted`). Unset, Anthropic and Claude on Bedrock get `summarized` with adaptive thinking:
       * the models from Claude Opus 4.7 on omit it by default.
       */
      readonly display?: "summarized" | "omitted" | undefined;
    }
  | {
      /** The kind: no reasoning. */
      readonly type: "off";
    };

const BUDGETS: Readonly<Record<ReasoningEffort, number>> = {
  minimal: 1024,
  low: 4096,
  medium: 16_384,
  high: 32_768,
  xhigh: 49_152,
  max: 65_536,
};

/**
 * The budget of an `on` reasoning: the client's own, else its effort's (see the table above).
 *
 * @example
 * ```ts
 * reasoningBudget({ type: "on", effort: "medium" }); // 16384
 * ```
 */
export function reasoningBudget(reasoning: Extract<RequestReasoning, { type: "on" }>): number {
  return reasoning.budgetTokens ?? BUDGETS[reasoning.effort];
}

/**
 * The effort a token budget stands for: `low` under 8,192, `medium` under 24,576, else `high`.
 *
 * @example
 * ```ts
 * effortOfBudget(31_999); // "high": Claude Code's budget
 * ```
 */
export function effortOfBudget(budget: number): ReasoningEffort {
  if (budget < 8192) return "low";
  return budget < 24_576 ? "medium" : "high";
}

/** Anthropic's smallest thinking budget. */
const MIN_THINKING_BUDGET = 1024;
/**
 * The longest answer sent with thinking when the request sets none: the smallest output limit of
 * the Claude models that think (Opus 4 and 4.1 take 32,000 tokens).
 */
const MAX_THINKING_ANSWER = 32_000;

/** What {@link anthropicThinking} reads of a request. */
interface ThinkingRequest {
  readonly model: string;
  readonly maxTokens?: number | undefined;
  readonly reasoning?: RequestReasoning | undefined;
  readonly toolChoice?: { readonly type: string } | undefined;
  readonly messages: readonly {
    readonly role: string;
    readonly reasoningParts?: readonly ReasoningPart[] | undefined;
  }[];
}

/**
 * The Claude models that think adaptively (Opus and Sonnet 4.6 and later, Claude 5): they take
 * `{type: "adaptive"}` with `output_config.effort`, and the latest refuse a budget; the earlier
 * ones (up to Opus 4.5, Sonnet 4.5, Haiku 4.5) take only `{type: "enabled", budget_tokens}`.
 * Known by the model's name, as Anthropic's and Bedrock's ids spell it.
 */
const ADAPTIVE_MODEL = /(?:opus|sonnet|haiku)-4[-.][6-9]|(?:opus|sonnet|haiku)-[5-9]|claude-[5-9]|fable|mythos/i;

/**
 * Anthropic's `thinking` (the Messages API, and Claude on Bedrock in `additionalModelRequestFields`)
 * and the `max_tokens` to send with it, or undefined when no thinking is to be sent:
 * - a model that thinks adaptively gets `{type: "adaptive", display}` (the client's `display`, else
 *   `summarized`) and the effort (`output_config.effort`, as the model takes it); an earlier model
 *   `{type: "enabled", budget_tokens}`, the budget being the client's own or its effort's (`high`
 *   for an adaptive request without one);
 * - thinking counts in `max_tokens`: a request that sets it keeps it, and the budget must be below
 *   it (lowered to `maxTokens - 1`, and thinking left out when even that is under 1,024); a request
 *   that sets none gets the effort's budget plus `answerTokens` for the answer, at most 32,000;
 * - a `toolChoice` that forces a tool is refused with thinking: thinking is left out;
 * - with thinking, the assistant turn whose tool results end the conversation must start with its
 *   signed or redacted thinking blocks: when it has none (it ran without thinking, or came from a
 *   provider that signs nothing), thinking is left out of this request rather than refused.
 */
export function anthropicThinking(
  request: ThinkingRequest,
  answerTokens: number,
): { thinking: Record<string, unknown>; effort?: ReasoningEffort; maxTokens: number } | undefined {
  const { reasoning, toolChoice } = request;
  if (reasoning === undefined || reasoning.type === "off") return undefined;
  if (toolChoice?.type === "required" || toolChoice?.type === "tool" || !signedToolLoop(request.messages))
    return undefined;
  const on = reasoning.type === "on" ? reasoning : { type: "on" as const, effort: reasoning.effort ?? "high" };
  const maxTokens = request.maxTokens ?? Math.min(reasoningBudget(on) + answerTokens, MAX_THINKING_ANSWER);
  if (ADAPTIVE_MODEL.test(request.model)) {
    const effort = claudeEffort(request.model, reasoning.effort);
    // The models from Opus 4.7 on omit the thinking's text unless asked, on Anthropic, Bedrock and
    // Vertex alike: the client's `display`, else `summarized`.
    const thinking = { type: "adaptive", display: reasoning.display ?? "summarized" };
    return effort === undefined ? { thinking, maxTokens } : { thinking, effort, maxTokens };
  }
  const room = request.maxTokens === undefined ? maxTokens - answerTokens : maxTokens - 1;
  const budget = Math.min(reasoningBudget(on), room);
  return budget < MIN_THINKING_BUDGET ? undefined : { thinking: { type: "enabled", budget_tokens: budget }, maxTokens };
}

/**
 * The Claude models that take `output_config.effort: "xhigh"` (Opus 4.7 and 4.8; Opus, Sonnet, Fable
 * and Mythos 5), by the effort page's list: the others that think adaptively (Opus and Sonnet 4.6,
 * Mythos Preview, a model not listed yet) take `low` to `high` and `max`.
 */
const XHIGH_MODEL = /opus-4[-.][7-9]|(?:opus|sonnet|fable|mythos)-[5-9]/i;

/**
 * `output_config.effort` as the model takes it (an effort it does not take is a 400): `minimal` as
 * `low`, `xhigh` as `high` on the models before it (see {@link XHIGH_MODEL}).
 */
function claudeEffort(model: string, effort: ReasoningEffort | undefined): ReasoningEffort | undefined {
  if (effort === "minimal") return "low";
  return effort === "xhigh" && !XHIGH_MODEL.test(model) ? "high" : effort;
}

/** The conversation does not end in tool results, or the turn that made the calls carries signed thinking. */
function signedToolLoop(messages: ThinkingRequest["messages"]): boolean {
  let results = false;
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i]!;
    if (message.role === "tool") results = true;
    else if (message.role === "assistant")
      return (
        !results || (message.reasoningParts ?? []).some((part) => part.type === "signed" || part.type === "redacted")
      );
  }
  return true;
}
