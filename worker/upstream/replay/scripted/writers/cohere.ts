import { type Dice, jsonPieces, LOWER_ALNUM, textPieces, tokens } from "../pieces.ts";
import { sseEvent, textChunks, type ScriptedTurn, type WireStream } from "../script.ts";

/**
 * Cohere v2 `/v2/chat`, shaped like the recordings (`cohere/tool-plan-then-parallel-tool-calls.sse`,
 * `cohere/text.sse`): named events; `message-start` with a UUID and the empty message; with calls,
 * the tool plan as `tool-plan-delta`s, then per call `tool-call-start` (id `<name>_<12 chars>`,
 * `arguments: ""`), `tool-call-delta` fragments and `tool-call-end`, keyed by `index`; a text
 * answer as `content-start` / `content-delta` / `content-end`; `message-end` with the finish
 * reason (`TOOL_CALL`, `COMPLETE`) and usage (billed units and tokens).
 */
export function writeCohere(turn: ScriptedTurn, dice: Dice): WireStream {
  const events: string[] = [];
  const emit = (payload: { type: string; [key: string]: unknown }): void => {
    events.push(sseEvent(JSON.stringify(payload), payload.type));
  };
  const id = `${dice.token(8, "0123456789abcdef")}-${dice.token(4, "0123456789abcdef")}-4${dice.token(3, "0123456789abcdef")}-${dice.token(4, "89ab")}-${dice.token(12, "0123456789abcdef")}`;
  emit({
    id,
    type: "message-start",
    delta: { message: { role: "assistant", content: [], tool_plan: "", tool_calls: [], citations: [] } },
  });
  if (turn.calls.length > 0) {
    for (const piece of textPieces(turn.plan, dice))
      emit({ type: "tool-plan-delta", delta: { message: { tool_plan: piece } } });
    turn.calls.forEach((call, index) => {
      const callId = `${call.name}_${dice.token(12, LOWER_ALNUM)}`;
      emit({
        type: "tool-call-start",
        index,
        delta: {
          message: { tool_calls: { id: callId, type: "function", function: { name: call.name, arguments: "" } } },
        },
      });
      for (const piece of jsonPieces(JSON.stringify(call.arguments), dice)) {
        emit({
          type: "tool-call-delta",
          index,
          delta: { message: { tool_calls: { function: { arguments: piece } } } },
        });
      }
      emit({ type: "tool-call-end", index });
    });
  } else {
    emit({ type: "content-start", index: 0, delta: { message: { content: { type: "text", text: "" } } } });
    for (const text of textPieces(turn.text, dice))
      emit({ type: "content-delta", index: 0, delta: { message: { content: { text } } } });
    emit({ type: "content-end", index: 0 });
  }
  const outputTokens = tokens(turn.plan + turn.text + JSON.stringify(turn.calls));
  // `tokens` counts Cohere's own preamble too, so it is above the billed units, as recorded.
  const usage = {
    billed_units: { input_tokens: turn.inputTokens, output_tokens: outputTokens },
    tokens: { input_tokens: turn.inputTokens + 400, output_tokens: outputTokens + 4 },
    cached_tokens: 0,
  };
  emit({ type: "message-end", delta: { finish_reason: turn.calls.length > 0 ? "TOOL_CALL" : "COMPLETE", usage } });
  return { contentType: "text/event-stream", chunks: textChunks(events) };
}
