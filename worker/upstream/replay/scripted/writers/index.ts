import type { Provider } from "../../../../../src/index.ts";
import type { ScriptWriter } from "../script.ts";
import { writeAnthropic } from "./anthropic.ts";
import { writeBedrock } from "./bedrock.ts";
import { writeCohere } from "./cohere.ts";
import { writeGemini } from "./gemini.ts";
import { writeGeminiInteractions } from "./gemini-interactions.ts";
import { writeOllama } from "./ollama.ts";
import { writeOpenAIChat } from "./openai-chat.ts";
import { writeOpenAIResponses } from "./openai-responses.ts";

/**
 * A writer for every protocol the library reads, keyed like its `Provider` union, so that a
 * provider the Worker adds upstream has its scripted answers already (and a protocol added to the
 * library is a compile error here until it has one).
 */
export const scriptWriters: { readonly [P in Provider]: ScriptWriter } = {
  openai: writeOpenAIChat,
  "openai-responses": writeOpenAIResponses,
  anthropic: writeAnthropic,
  gemini: writeGemini,
  bedrock: writeBedrock,
  cohere: writeCohere,
  ollama: writeOllama,
  "gemini-interactions": writeGeminiInteractions,
};
