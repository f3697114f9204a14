import type { JsonValue } from "../../../../../src/index.ts";
import { type Dice, BASE62, LOWER_ALNUM, jsonPieces, textPieces, tokens } from "../pieces.ts";
import { sseEvent, textChunks, type ScriptedTurn, type WireStream } from "../script.ts";

type Json = { [key: string]: JsonValue };

/**
 * Gemini's Interactions API (`POST /v1beta/interactions`, `stream: true`), shaped like the
 * streams built from its docs (`gemini-interactions/docs-function-call-with-google-search.sse`,
 * `docs-text-with-thought.sse`): named events whose data ends with its `event_type`;
 * `interaction.created` and `interaction.status_update`; a `model_output` step of text deltas, or
 * one `function_call` step per call (an 8-character id, `arguments: {}` at the start, the
 * arguments as `arguments_delta` fragments); `interaction.completed` with the status
 * (`requires_action` after calls) and the usage; then `event: done` with `data: [DONE]`.
 */
export function writeGeminiInteractions(turn: ScriptedTurn, dice: Dice): WireStream {
  const id = `v1_${dice.token(40, BASE62)}`;
  const events: string[] = [];
  const emit = (type: string, fields: Json): void => {
    events.push(sseEvent(JSON.stringify({ ...fields, event_type: type }), type));
  };
  emit("interaction.created", { interaction: { id, status: "in_progress", object: "interaction", model: turn.model } });
  emit("interaction.status_update", { interaction_id: id, status: "in_progress" });
  let index = 0;
  if (turn.calls.length === 0) {
    emit("step.start", { index, step: { type: "model_output" } });
    for (const text of textPieces(turn.text, dice)) emit("step.delta", { index, delta: { text, type: "text" } });
    emit("step.stop", { index: index++ });
  }
  for (const call of turn.calls) {
    const step = { id: dice.token(8, LOWER_ALNUM), type: "function_call", name: call.name, arguments: {} };
    emit("step.start", { index, step });
    for (const fragment of jsonPieces(JSON.stringify(call.arguments), dice))
      emit("step.delta", { index, delta: { arguments: fragment, type: "arguments_delta" } });
    emit("step.stop", { index: index++ });
  }
  const output = tokens(turn.text + JSON.stringify(turn.calls));
  const created = new Date(turn.now).toISOString().replace(/\.\d+Z$/, "Z");
  emit("interaction.completed", {
    interaction: {
      id,
      status: turn.calls.length > 0 ? "requires_action" : "completed",
      usage: {
        total_tokens: turn.inputTokens + output,
        total_input_tokens: turn.inputTokens,
        input_tokens_by_modality: [{ modality: "text", tokens: turn.inputTokens }],
        total_cached_tokens: 0,
        total_output_tokens: output,
        total_tool_use_tokens: 0,
        total_thought_tokens: 0,
      },
      created,
      updated: created,
      service_tier: "standard",
      object: "interaction",
      model: turn.model,
    },
  });
  events.push(sseEvent("[DONE]", "done"));
  return { contentType: "text/event-stream", chunks: textChunks(events) };
}
