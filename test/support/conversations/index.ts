// The recorded multi-step tool conversations, by provider; data only (see each file's source).
import { anthropicShellTwoPlusTwo } from "./anthropic-shell-two-plus-two.ts";
import { geminiCapitalTemperature } from "./gemini-capital-temperature.ts";
import { openaiResponsesMultiply } from "./openai-responses-multiply.ts";
import { openaiWeatherTwoCities } from "./openai-weather-two-cities.ts";

export { anthropicShellTwoPlusTwo, geminiCapitalTemperature, openaiResponsesMultiply, openaiWeatherTwoCities };
