// The recorded multi-step tool conversations, by provider; data only (see each file's source).
import type { Provider } from "../../../src/index.ts";
import type { RecordedConversation } from "../conversation.ts";
import { anthropicShellTwoPlusTwo } from "./anthropic-shell-two-plus-two.ts";
import { geminiCapitalTemperature } from "./gemini-capital-temperature.ts";
import { openaiResponsesMultiply } from "./openai-responses-multiply.ts";
import { openaiWeatherTwoCities } from "./openai-weather-two-cities.ts";

export { anthropicShellTwoPlusTwo, geminiCapitalTemperature, openaiResponsesMultiply, openaiWeatherTwoCities };

/** The recorded conversations of each provider (none recorded for Bedrock, Cohere and Ollama). */
export const recordedConversations: { readonly [P in Provider]: readonly RecordedConversation[] } = {
  openai: [openaiWeatherTwoCities],
  anthropic: [anthropicShellTwoPlusTwo],
  gemini: [geminiCapitalTemperature],
  "openai-responses": [openaiResponsesMultiply],
  bedrock: [],
  cohere: [],
  ollama: [],
};
