import type { JsonValue } from "../../../../../src/index.ts";
import { bedrockEvent } from "../event-stream-writer.ts";
import { bedrockPadding, type Dice, jsonPieces, textPieces, tokens } from "../pieces.ts";
import type { ScriptedTurn, WireStream } from "../script.ts";

/**
 * Bedrock ConverseStream, binary AWS event stream, shaped like the recording
 * (`bedrock/converse-nova-text-then-tool-use.bin`): `messageStart`; a text block streamed as
 * `contentBlockDelta {delta: {text}}` with no `contentBlockStart`; each call a
 * `contentBlockStart {start: {toolUse: {name, toolUseId}}}` (`tooluse_` id), its input in
 * `contentBlockDelta {delta: {toolUse: {input}}}` fragments (as Claude streams it), a
 * `contentBlockStop`; `messageStop {stopReason}`, then `metadata` with usage and latency. Every
 * payload has Bedrock's `p` padding, and its keys in the order Bedrock writes them (sorted).
 */
export function writeBedrock(turn: ScriptedTurn, dice: Dice): WireStream {
  const chunks: Uint8Array[] = [];
  const emit = (type: string, payload: { [key: string]: JsonValue }): void => {
    chunks.push(bedrockEvent(type, sortedJson({ ...payload, p: bedrockPadding(dice) })));
  };
  emit("messageStart", { role: "assistant" });
  let index = 0;
  if (turn.text !== "" || turn.calls.length === 0) {
    for (const text of textPieces(turn.text, dice))
      emit("contentBlockDelta", { contentBlockIndex: index, delta: { text } });
    emit("contentBlockStop", { contentBlockIndex: index });
    index++;
  }
  for (const call of turn.calls) {
    const toolUseId = `tooluse_${dice.token(22, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")}`;
    emit("contentBlockStart", { contentBlockIndex: index, start: { toolUse: { name: call.name, toolUseId } } });
    for (const input of jsonPieces(JSON.stringify(call.arguments), dice, 10))
      emit("contentBlockDelta", { contentBlockIndex: index, delta: { toolUse: { input } } });
    emit("contentBlockStop", { contentBlockIndex: index });
    index++;
  }
  emit("messageStop", { stopReason: turn.calls.length > 0 ? "tool_use" : "end_turn" });
  const outputTokens = tokens(turn.text + JSON.stringify(turn.calls));
  emit("metadata", {
    metrics: { latencyMs: dice.between(300, 900) },
    usage: { inputTokens: turn.inputTokens, outputTokens, totalTokens: turn.inputTokens + outputTokens },
  });
  return { contentType: "application/vnd.amazon.eventstream", chunks };
}

/** JSON with the keys of every object sorted, as Bedrock serializes its event payloads. */
function sortedJson(value: JsonValue): string {
  if (Array.isArray(value)) return `[${value.map(sortedJson).join(",")}]`;
  if (typeof value === "object" && value !== null) {
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${sortedJson(value[key]!)}`)
      .join(",")}}`;
  }
  return JSON.stringify(value);
}
