import { allFixtures, type Fixture } from "./fixtures.ts";

/** Folders whose recordings are Chat Completions streams (the Responses ones are named `responses-*`). */
const CHAT_PROVIDERS = [
  "openai",
  "azure",
  "deepseek",
  "groq",
  "mistral",
  "ollama",
  "openrouter",
  "qwen",
  "vllm",
  "xai",
];

/** Every recorded Chat Completions stream of OpenAI and the compatible vendors. */
export const chatFixtures: Fixture[] = allFixtures.filter(
  (f) => CHAT_PROVIDERS.includes(f.provider) && f.format === "sse" && !f.name.startsWith("responses"),
);
