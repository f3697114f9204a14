import { type Dice, jsonPieces, textPieces, tokens } from "../pieces.ts";
import { sseEvent, textChunks, type ScriptedTurn, type WireStream } from "../script.ts";

/**
 * Anthropic Messages, shaped like the recordings (`anthropic/parallel-tool-use.sse`,
 * `text-then-tool-use-with-ping.sse`): named events; `message_start` with a `msg_01` id and the
 * input usage; a `ping` (`{"type": "ping"}`, spaced as the API sends it) after the first block
 * starts; a text block, then one `tool_use` block per call (`toolu_01` id, `input: {}`, a first
 * empty `partial_json`, then fragments), each closed by `content_block_stop`; `message_delta`
 * with the stop reason and output tokens; `message_stop`. Like the API, the data lines carry
 * random whitespace padding before their last brace.
 */
export function writeAnthropic(turn: ScriptedTurn, dice: Dice): WireStream {
  const events: string[] = [];
  const emit = (type: string, json: string): void => {
    events.push(sseEvent(`${json.slice(0, -1)}${" ".repeat(dice.between(0, 12))}}`, type));
  };
  const usage = {
    input_tokens: turn.inputTokens,
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: 0,
    output_tokens: 1,
    service_tier: "standard",
  };
  const message = {
    id: `msg_01${dice.token(22)}`,
    type: "message",
    role: "assistant",
    model: turn.model,
    content: [],
    stop_reason: null,
    stop_sequence: null,
    usage,
  };
  emit("message_start", JSON.stringify({ type: "message_start", message }));
  let index = 0;
  const ping = (): void => {
    if (index === 0) events.push(sseEvent('{"type": "ping"}', "ping"));
  };
  if (turn.text !== "" || turn.calls.length === 0) {
    emit(
      "content_block_start",
      JSON.stringify({ type: "content_block_start", index, content_block: { type: "text", text: "" } }),
    );
    ping();
    for (const text of textPieces(turn.text, dice)) {
      emit(
        "content_block_delta",
        JSON.stringify({ type: "content_block_delta", index, delta: { type: "text_delta", text } }),
      );
    }
    emit("content_block_stop", JSON.stringify({ type: "content_block_stop", index }));
    index++;
  }
  for (const call of turn.calls) {
    const block = { type: "tool_use", id: `toolu_01${dice.token(22)}`, name: call.name, input: {} };
    emit("content_block_start", JSON.stringify({ type: "content_block_start", index, content_block: block }));
    ping();
    for (const partial of ["", ...jsonPieces(JSON.stringify(call.arguments), dice, 12)]) {
      emit(
        "content_block_delta",
        JSON.stringify({
          type: "content_block_delta",
          index,
          delta: { type: "input_json_delta", partial_json: partial },
        }),
      );
    }
    emit("content_block_stop", JSON.stringify({ type: "content_block_stop", index }));
    index++;
  }
  const stop = { stop_reason: turn.calls.length > 0 ? "tool_use" : "end_turn", stop_sequence: null };
  emit(
    "message_delta",
    JSON.stringify({
      type: "message_delta",
      delta: stop,
      usage: { output_tokens: tokens(turn.text + JSON.stringify(turn.calls)) },
    }),
  );
  emit("message_stop", JSON.stringify({ type: "message_stop" }));
  return { contentType: "text/event-stream; charset=utf-8", chunks: textChunks(events) };
}
