import type { JsonValue } from "../../../../../src/index.ts";
import { type Dice, HEX, jsonPieces, obfuscation, textPieces, tokens } from "../pieces.ts";
import { sseEvent, textChunks, type ScriptedTurn, type WireStream } from "../script.ts";

type Json = { [key: string]: JsonValue };

/**
 * OpenAI Responses, shaped like the recordings (`openai-responses/text-then-function-call.sse`):
 * named events with a `sequence_number` counting from 0; `response.created` and
 * `response.in_progress` with the whole response object; a message item (`output_item.added`,
 * `content_part.added`, `output_text.delta` with `obfuscation` padding, `output_text.done`,
 * `content_part.done`, `output_item.done`) or one `function_call` item per call (`fc_` item id,
 * `call_` call id, argument deltas, `function_call_arguments.done`, `output_item.done`); then
 * `response.completed` with every output item and the usage.
 */
export function writeOpenAIResponses(turn: ScriptedTurn, dice: Dice): WireStream {
  const id = `resp_${dice.token(50, HEX)}`;
  const created = Math.floor(turn.now / 1000);
  const events: string[] = [];
  let sequence = 0;
  // `after` holds the fields the API writes after `sequence_number` (the text of `output_text.done`).
  const emit = (type: string, fields: Json, after: Json = {}): void => {
    events.push(sseEvent(JSON.stringify({ type, ...fields, sequence_number: sequence++, ...after }), type));
  };
  const response = (status: string, output: Json[], usage: Json | null): Json => ({
    id,
    object: "response",
    created_at: created,
    status,
    background: false,
    error: null,
    incomplete_details: null,
    instructions: null,
    max_output_tokens: null,
    max_tool_calls: null,
    model: turn.model,
    output,
    parallel_tool_calls: true,
    previous_response_id: null,
    prompt_cache_key: null,
    reasoning: { effort: null, summary: null },
    safety_identifier: null,
    service_tier: "default",
    store: true,
    temperature: 1.0,
    text: { format: { type: "text" }, verbosity: "medium" },
    tool_choice: "auto",
    tools: turn.tools.map((tool) => ({
      type: "function",
      description: tool.description ?? null,
      name: tool.name,
      parameters: tool.parameters ?? null,
      strict: false,
    })),
    top_logprobs: 0,
    top_p: 1.0,
    truncation: "disabled",
    usage,
    user: null,
    metadata: {},
  });
  emit("response.created", { response: response("in_progress", [], null) });
  emit("response.in_progress", { response: response("in_progress", [], null) });
  const output: Json[] = [];
  if (turn.text !== "" || turn.calls.length === 0) output.push(message(turn.text, output.length, dice, emit));
  for (const call of turn.calls)
    output.push(functionCall(call.name, JSON.stringify(call.arguments), output.length, dice, emit));
  const outputTokens = tokens(turn.text + JSON.stringify(turn.calls));
  const usage = {
    input_tokens: turn.inputTokens,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: outputTokens,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: turn.inputTokens + outputTokens,
  };
  emit("response.completed", { response: response("completed", output, usage) });
  return { contentType: "text/event-stream; charset=utf-8", chunks: textChunks(events) };
}

function message(
  text: string,
  outputIndex: number,
  dice: Dice,
  emit: (type: string, fields: Json, after?: Json) => void,
): Json {
  const itemId = `msg_${dice.token(50, HEX)}`;
  const part = (value: string): Json => ({ type: "output_text", annotations: [], logprobs: [], text: value });
  // `phase` tells the final answer from commentary before calls (newer models send it).
  emit("response.output_item.added", {
    item: { id: itemId, type: "message", status: "in_progress", content: [], phase: "final_answer", role: "assistant" },
    output_index: outputIndex,
  });
  emit("response.content_part.added", { content_index: 0, item_id: itemId, output_index: outputIndex, part: part("") });
  for (const delta of textPieces(text, dice)) {
    emit("response.output_text.delta", {
      content_index: 0,
      delta,
      item_id: itemId,
      logprobs: [],
      obfuscation: obfuscation(dice),
      output_index: outputIndex,
    });
  }
  emit(
    "response.output_text.done",
    { content_index: 0, item_id: itemId, logprobs: [], output_index: outputIndex },
    { text },
  );
  emit("response.content_part.done", {
    content_index: 0,
    item_id: itemId,
    output_index: outputIndex,
    part: part(text),
  });
  const item = {
    id: itemId,
    type: "message",
    status: "completed",
    content: [part(text)],
    phase: "final_answer",
    role: "assistant",
  };
  emit("response.output_item.done", { item, output_index: outputIndex });
  return item;
}

function functionCall(
  name: string,
  args: string,
  outputIndex: number,
  dice: Dice,
  emit: (type: string, fields: Json) => void,
): Json {
  const itemId = `fc_${dice.token(50, HEX)}`;
  const callId = `call_${dice.token(24)}`;
  emit("response.output_item.added", {
    item: { id: itemId, type: "function_call", status: "in_progress", arguments: "", call_id: callId, name },
    output_index: outputIndex,
  });
  for (const delta of jsonPieces(args, dice)) {
    emit("response.function_call_arguments.delta", {
      delta,
      item_id: itemId,
      obfuscation: obfuscation(dice),
      output_index: outputIndex,
    });
  }
  emit("response.function_call_arguments.done", { arguments: args, item_id: itemId, output_index: outputIndex });
  const item = { id: itemId, type: "function_call", status: "completed", arguments: args, call_id: callId, name };
  emit("response.output_item.done", { item, output_index: outputIndex });
  return item;
}
