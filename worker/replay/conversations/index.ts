// The recorded multi-step tool conversations, by provider; data only (see each file's source).
import type { Provider } from "../../../src/index.ts";
import type { RecordedConversation } from "../conversation.ts";
import { anthropicShellTwoPlusTwo } from "./anthropic-shell-two-plus-two.ts";
import { geminiCapitalTemperature } from "./gemini-capital-temperature.ts";
import { openaiResponsesMultiply } from "./openai-responses-multiply.ts";
import { openaiUnitTable } from "./openai-unit-table.ts";
import { openaiWeatherTwoCities } from "./openai-weather-two-cities.ts";

export { anthropicShellTwoPlusTwo, geminiCapitalTemperature, openaiResponsesMultiply, openaiUnitTable, openaiWeatherTwoCities };

/**
 * Every recorded conversation of each provider; the first is the default. Bedrock, Cohere and
 * Ollama have none yet: offline, `/v1/run` answers them with a 400 that says so.
 */
export const recordedConversations: { readonly [P in Provider]: readonly RecordedConversation[] } = {
  // The second is constructed, not recorded, to show a tool that streams its result (see its file).
  openai: [openaiWeatherTwoCities, openaiUnitTable],
  anthropic: [anthropicShellTwoPlusTwo],
  gemini: [geminiCapitalTemperature],
  "openai-responses": [openaiResponsesMultiply],
  bedrock: [],
  cohere: [],
  ollama: [],
};
