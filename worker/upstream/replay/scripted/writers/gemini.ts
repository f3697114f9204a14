import type { JsonValue } from "../../../../../src/index.ts";
import { type Dice, textPieces, tokens } from "../pieces.ts";
import { sseEvent, textChunks, type ScriptedTurn, type WireStream } from "../script.ts";

/**
 * The Gemini API's `streamGenerateContent?alt=sse`, shaped like the recordings
 * (`gemini/parallel-function-calls-thought-signature.sse`, `function-call-gemini-2.0-flash.sse`):
 * `data:` lines ended by CRLF pairs, JSON spaced the way the API prints it (`": "` after a key,
 * no space after a comma); text in several chunks, each a candidate with `role: "model"` and
 * `index: 0`, every chunk with the `usageMetadata` so far, `modelVersion` and the `responseId`; the calls
 * whole in one chunk (`functionCall {name, args}`, no id), which, like the last text chunk,
 * carries `finishReason: "STOP"` (Gemini says STOP after calls too).
 */
export function writeGemini(turn: ScriptedTurn, dice: Dice): WireStream {
  const responseId = dice.token(23, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_");
  const outputTokens = tokens(turn.text + JSON.stringify(turn.calls));
  const chunk = (parts: JsonValue[], last: boolean, sent: number): string => {
    const candidate: { [key: string]: JsonValue } = { content: { parts, role: "model" } };
    if (last) candidate["finishReason"] = "STOP";
    candidate["index"] = 0;
    // Every chunk reports the usage so far, as gemini-2.0-flash does (no thinking tokens).
    const candidates = last ? outputTokens : sent;
    const usage = {
      promptTokenCount: turn.inputTokens,
      candidatesTokenCount: candidates,
      totalTokenCount: turn.inputTokens + candidates,
      promptTokensDetails: [{ modality: "TEXT", tokenCount: turn.inputTokens }],
      candidatesTokensDetails: [{ modality: "TEXT", tokenCount: candidates }],
    };
    return sseEvent(
      geminiJson({ candidates: [candidate], usageMetadata: usage, modelVersion: turn.model, responseId }),
      undefined,
      "\r\n",
    );
  };
  const events: string[] = [];
  if (turn.calls.length > 0) {
    events.push(
      chunk(
        turn.calls.map((call) => ({ functionCall: { name: call.name, args: call.arguments } })),
        true,
        0,
      ),
    );
  } else {
    // Gemini streams text in a few larger chunks, not token by token.
    const pieces = textPieces(turn.text, dice);
    const groups: string[] = [];
    for (let at = 0; at < pieces.length; ) {
      const size = dice.between(3, 8);
      groups.push(pieces.slice(at, at + size).join(""));
      at += size;
    }
    if (groups.length === 0) groups.push("");
    let sent = 0;
    groups.forEach((text, i) => {
      sent += tokens(text);
      events.push(chunk([{ text }], i === groups.length - 1, sent));
    });
  }
  return { contentType: "text/event-stream", chunks: textChunks(events) };
}

/** JSON as the Gemini API prints it in a stream: `": "` after each key, nothing after commas. */
export function geminiJson(value: JsonValue): string {
  if (Array.isArray(value)) return `[${value.map(geminiJson).join(",")}]`;
  if (typeof value === "object" && value !== null) {
    return `{${Object.entries(value)
      .map(([key, item]) => `${JSON.stringify(key)}: ${geminiJson(item)}`)
      .join(",")}}`;
  }
  return JSON.stringify(value);
}
