// What an OpenAI Chat client (openai-node) reads of a streamed completion, shared by the Node and
// workerd tests of the Worker's upstream resume.
import type OpenAI from "openai";
import type { ChatCompletionCreateParamsStreaming } from "openai/resources/chat/completions";

/** A streamed completion as openai-node's client read it. */
export interface ChatStreamReading {
  text: string;
  /** The calls in index order: the id the first chunk gave, the arguments joined. */
  calls: { id: string; args: string }[];
  finish: string | null;
  /** The error that ended the stream, if one did. */
  error: string | undefined;
}

/**
 * Reads `request`'s streamed completion through `openai`; what arrived before a stream error is
 * kept beside it (the Worker loses nothing it had).
 */
export async function readChatStream(
  openai: OpenAI,
  request: ChatCompletionCreateParamsStreaming,
): Promise<ChatStreamReading> {
  const calls = new Map<number, { id: string; args: string }>();
  let text = "";
  let finish: string | null = null;
  let error: string | undefined;
  try {
    for await (const chunk of await openai.chat.completions.create(request)) {
      const choice = chunk.choices[0];
      text += choice?.delta.content ?? "";
      for (const call of choice?.delta.tool_calls ?? []) {
        const seen = calls.get(call.index) ?? { id: "", args: "" };
        seen.id ||= call.id ?? "";
        seen.args += call.function?.arguments ?? "";
        calls.set(call.index, seen);
      }
      finish = choice?.finish_reason ?? finish;
    }
  } catch (caught) {
    error = String(caught);
  }
  return { text, calls: [...calls.values()], finish, error };
}
