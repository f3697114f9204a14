import type { FinishReasons } from "../payload.ts";

/** OpenAI Chat Completions and compatibles (together with `ANTHROPIC_FINISH_REASONS`, which gateways in front of Claude send). */
export const OPENAI_CHAT_FINISH_REASONS: FinishReasons = {
  stop: "stop",
  eos: "stop",
  tool_calls: "tool-calls",
  function_call: "tool-calls",
  length: "length",
  model_length: "length",
  content_filter: "content-filter",
  error: "error",
  abort: "error", // vLLM: the request was aborted
  insufficient_system_resource: "error", // DeepSeek: interrupted for lack of capacity
  sensitive: "content-filter", // GLM: blocked by its content-safety check
  network_error: "error", // GLM: the model's inference failed
};
