/**
 * What the providers whose conversations alternate between two roles share (Anthropic, Bedrock's
 * Converse, Gemini): merging messages into turns, and the rule for an earlier call's arguments.
 *
 * @module
 */
import type { JsonValue } from "../../../src/index.ts";
import type { JsonObject, Message } from "../../request/stream-request.ts";

/** A turn of the conversation: the user's (results of calls included) or the model's. */
export interface Turn {
  role: "user" | "assistant";
  content: JsonObject[];
}

/**
 * Messages as turns: `blocksOf` gives each message's blocks (`path` is its field, for errors),
 * tool results are the user's, and consecutive turns of one role are merged, since the results
 * of parallel calls must all sit in the one user turn after the calls. System messages are left
 * out (each provider has a field of its own for them), and so is a turn that would be empty.
 */
export function toTurns(
  messages: readonly Message[],
  blocksOf: (message: Exclude<Message, { role: "system" }>, path: string) => JsonObject[],
): Turn[] {
  const turns: Turn[] = [];
  messages.forEach((message, i) => {
    if (message.role === "system") return;
    const role = message.role === "assistant" ? "assistant" : "user";
    const blocks = blocksOf(message, `messages[${i}]`);
    const last = turns.at(-1);
    if (last?.role === role) last.content.push(...blocks);
    else if (blocks.length > 0) turns.push({ role, content: blocks });
  });
  return turns;
}

/**
 * An earlier call's arguments as the providers take them back: a JSON object (Anthropic's
 * `tool_use.input`, Converse's `toolUse.input`, Gemini's `functionCall.args`, Ollama's
 * `arguments`). Arguments that were not one (text the model wrote that is not JSON, an array)
 * go back as `{}`.
 */
export function asObject(value: JsonValue): JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? value : {};
}
