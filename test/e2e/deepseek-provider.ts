// A DeepSeek-style thinking model behind Chat Completions, as DeepSeek's thinking-mode guide
// describes it: the answer streams `reasoning_content` deltas before its content or its tool
// calls, and "for turns that do perform tool calls, the reasoning_content must be fully passed
// back to the API in all subsequent requests", else a 400. The 400 is DeepSeek's own, as the
// public trackers quote it: `{"error": {"message": "The \`reasoning_content\` in the thinking mode
// must be passed back to the API.", "type": "invalid_request_error", "param": null, "code":
// "invalid_request_error"}}`. This fake checks the reasoning came back exactly as it streamed it.

/** What the model thinks before it calls the tool: fragments, a line break and non-ASCII, so a copy must be exact. */
export const DEEPSEEK_THOUGHT = ["The user wants ", "the command run.\n", "I'll call the shell — ", "then read it."];
/** The id DeepSeek gives the call (its own `call_` form). */
export const DEEPSEEK_CALL_ID = "call_00_deepseek_e2e";
/** DeepSeek's error when an assistant turn with tool calls comes back without its reasoning. */
export const DEEPSEEK_REASONING_ERROR = {
  error: {
    message: "The `reasoning_content` in the thinking mode must be passed back to the API.",
    type: "invalid_request_error",
    param: null,
    code: "invalid_request_error",
  },
};

/** The call the model makes, if the request asks for one. */
export type ShellCall = { name: string; input: Record<string, string> } | undefined;

/** One HTTP answer. */
export interface FakeAnswer {
  status: number;
  type: string;
  body: string;
}

const data = (chunk: Record<string, unknown>): string => `data: ${JSON.stringify(chunk)}\n\n`;

/**
 * Whether every assistant message with `tool_calls` carries, in `reasoning_content`, exactly what
 * was streamed before those calls (`reasoned`, by call id). A call this fake never made (another
 * agent's history) has nothing to check.
 */
function reasoningCameBack(body: Record<string, unknown>, reasoned: ReadonlyMap<string, string>): boolean {
  const messages = Array.isArray(body["messages"]) ? (body["messages"] as Record<string, unknown>[]) : [];
  return messages.every((message) => {
    const calls = message["tool_calls"];
    if (message["role"] !== "assistant" || !Array.isArray(calls) || calls.length === 0) return true;
    return calls.every((call: { id?: unknown }) => {
      const expected = typeof call.id === "string" ? reasoned.get(call.id) : undefined;
      return expected === undefined || message["reasoning_content"] === expected;
    });
  });
}

/**
 * DeepSeek's answer to a `POST /chat/completions`: the 400 when a tool turn's reasoning did not
 * come back, else reasoning then the call (recorded in `reasoned`), or reasoning then text.
 */
export function deepseekAnswer(
  body: Record<string, unknown>,
  call: ShellCall,
  reasoned: Map<string, string>,
): FakeAnswer {
  if (!reasoningCameBack(body, reasoned))
    return { status: 400, type: "application/json", body: JSON.stringify(DEEPSEEK_REASONING_ERROR) };
  const model = typeof body["model"] === "string" ? body["model"] : "deepseek-reasoner";
  const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
    data({
      id: "chatcmpl-e2e-deepseek",
      object: "chat.completion.chunk",
      created: 1_700_000_000,
      model,
      choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
    });
  const thought = call ? DEEPSEEK_THOUGHT : ["It ran; ", "I can answer."];
  let out = chunk({ role: "assistant", content: null, reasoning_content: "" });
  for (const fragment of thought) out += chunk({ content: null, reasoning_content: fragment });
  if (call) {
    reasoned.set(DEEPSEEK_CALL_ID, thought.join(""));
    const args = JSON.stringify(call.input);
    out += chunk({
      tool_calls: [{ index: 0, id: DEEPSEEK_CALL_ID, type: "function", function: { name: call.name, arguments: "" } }],
    });
    for (const part of [args.slice(0, 9), args.slice(9)])
      out += chunk({ tool_calls: [{ index: 0, function: { arguments: part } }] });
    out += chunk({}, "tool_calls");
  } else {
    out += chunk({ content: "The command ran.", reasoning_content: null });
    out += chunk({}, "stop");
  }
  out += data({
    id: "chatcmpl-e2e-deepseek",
    object: "chat.completion.chunk",
    created: 1_700_000_000,
    model,
    choices: [],
    usage: { prompt_tokens: 9, completion_tokens: 9, total_tokens: 18 },
  });
  return { status: 200, type: "text/event-stream", body: `${out}data: [DONE]\n\n` };
}
