import { type Dice, HEX, jsonPieces, obfuscation, textPieces, tokens } from "../pieces.ts";
import { sseEvent, textChunks, type ScriptedTurn, type WireStream } from "../script.ts";

/**
 * OpenAI Chat Completions, shaped like the gpt-4o-mini recordings (fixtures
 * `openai/chat-tool-call-gpt-4o-mini-usage.sse`, `chat-text-then-tool-call-usage.sse`): every
 * chunk with `id`, `object`, `created`, `model`, `service_tier`, `system_fingerprint`, `choices`,
 * `usage: null` and random `obfuscation` padding; the first delta carries the role (and a call
 * that starts the turn), each call's id and name come once with `arguments: ""`, its arguments
 * follow in fragments; `finish_reason` on an empty delta, the usage chunk (`choices: []`, asked
 * by the Worker with `stream_options.include_usage`), then `data: [DONE]`.
 */
export function writeOpenAIChat(turn: ScriptedTurn, dice: Dice): WireStream {
  const head = `{"id":"chatcmpl-${dice.token(29)}","object":"chat.completion.chunk","created":${Math.floor(turn.now / 1000)},"model":${JSON.stringify(turn.model)},"service_tier":"default","system_fingerprint":"fp_${dice.token(10, HEX)}","choices":`;
  const chunk = (delta: object, finish: string | null = null): string =>
    sseEvent(
      `${head}[{"index":0,"delta":${JSON.stringify(delta)},"logprobs":null,"finish_reason":${JSON.stringify(finish)}}],"usage":null,"obfuscation":"${obfuscation(dice)}"}`,
    );
  const events: string[] = [];
  const start = (index: number): object => ({
    index,
    id: `call_${dice.token(24)}`,
    type: "function",
    function: { name: turn.calls[index]!.name, arguments: "" },
  });
  if (turn.text !== "" || turn.calls.length === 0) {
    events.push(chunk({ role: "assistant", content: "", refusal: null }));
    for (const piece of textPieces(turn.text, dice)) events.push(chunk({ content: piece }));
  }
  turn.calls.forEach((call, index) => {
    const opening = start(index);
    events.push(
      chunk(
        events.length === 0
          ? { role: "assistant", content: null, tool_calls: [opening], refusal: null }
          : { tool_calls: [opening] },
      ),
    );
    for (const piece of jsonPieces(JSON.stringify(call.arguments), dice))
      events.push(chunk({ tool_calls: [{ index, function: { arguments: piece } }] }));
  });
  events.push(chunk({}, turn.calls.length > 0 ? "tool_calls" : "stop"));
  const output = tokens(turn.text + JSON.stringify(turn.calls));
  const usage = {
    prompt_tokens: turn.inputTokens,
    completion_tokens: output,
    total_tokens: turn.inputTokens + output,
    prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
    completion_tokens_details: {
      reasoning_tokens: 0,
      audio_tokens: 0,
      accepted_prediction_tokens: 0,
      rejected_prediction_tokens: 0,
    },
  };
  events.push(sseEvent(`${head}[],"usage":${JSON.stringify(usage)},"obfuscation":"${obfuscation(dice)}"}`));
  events.push(sseEvent("[DONE]"));
  return { contentType: "text/event-stream; charset=utf-8", chunks: textChunks(events) };
}
