import type { FinishReason } from "../shared/deltas.ts";
import { ownValue } from "../shared/values.ts";
import { providerKit, PROVIDERS } from "./registry.ts";

/**
 * Normalizes a provider's finish reason, whichever provider sent it (the stages do this with their
 * own table): the first kit of the registry whose table lists the raw value gives it, so a provider
 * added to the registry is known here too. A response that stopped normally with complete calls is
 * `tool-calls`: OpenAI says `stop` when `tool_choice` forces a function, Gemini always says `STOP`.
 *
 * @example
 * ```ts
 * normalizeFinishReason("tool_calls", true); // "tool-calls"
 * normalizeFinishReason("STOP", true); // "tool-calls": Gemini says STOP after calls
 * normalizeFinishReason("max_tokens", false); // "length"
 * normalizeFinishReason("requires_action", true); // "tool-calls": Gemini Interactions' status
 * ```
 */
export function normalizeFinishReason(raw: string | null, hasToolCalls: boolean): FinishReason {
  let reason: FinishReason = "other";
  if (raw !== null) {
    for (const provider of PROVIDERS) {
      const found = ownValue(providerKit(provider).finishReasons, raw);
      if (found !== undefined) {
        reason = found;
        break;
      }
    }
  }
  if (hasToolCalls && (reason === "stop" || raw === null)) return "tool-calls";
  return reason;
}
