import { type Dice, textPieces, tokens } from "../pieces.ts";
import { textChunks, type ScriptedTurn, type WireStream } from "../script.ts";

/**
 * Ollama's native `/api/chat`, NDJSON (`application/x-ndjson`), shaped like its documented stream
 * (`ollama/native-tool-call.ndjson`): one object per line with `model`, `created_at` (RFC 3339
 * with nanoseconds) and the `message` so far; text a token per line; the calls whole, with object
 * `arguments` and no id, on one `done: false` line; a last `done: true` line with
 * `done_reason: "stop"` (Ollama says stop after calls too) and its durations and counts.
 */
export function writeOllama(turn: ScriptedTurn, dice: Dice): WireStream {
  // Nanoseconds past `turn.now`, kept apart from it: epoch nanoseconds do not fit a double.
  let elapsed = dice.between(0, 999_999);
  const createdAt = (): string => {
    elapsed += dice.between(5_000_000, 20_000_000);
    const instant = new Date(turn.now + Math.floor(elapsed / 1_000_000));
    const nanos = instant.getUTCMilliseconds() * 1_000_000 + (elapsed % 1_000_000);
    return `${instant.toISOString().slice(0, 19)}.${String(nanos).padStart(9, "0").replace(/0+$/, "") || "0"}Z`;
  };
  const line = (value: object): string => `${JSON.stringify(value)}\n`;
  const lines: string[] = [];
  for (const content of turn.calls.length > 0 ? [] : textPieces(turn.text, dice)) {
    lines.push(
      line({ model: turn.model, created_at: createdAt(), message: { role: "assistant", content }, done: false }),
    );
  }
  if (turn.calls.length > 0) {
    const calls = turn.calls.map((call) => ({ function: { name: call.name, arguments: call.arguments } }));
    lines.push(
      line({
        model: turn.model,
        created_at: createdAt(),
        message: { role: "assistant", content: "", tool_calls: calls },
        done: false,
      }),
    );
  }
  const evalCount = tokens(turn.text + JSON.stringify(turn.calls));
  const promptDuration = dice.between(20_000_000, 60_000_000);
  const evalDuration = evalCount * dice.between(6_000_000, 9_000_000);
  const loadDuration = dice.between(30_000_000, 60_000_000);
  lines.push(
    line({
      model: turn.model,
      created_at: createdAt(),
      message: { role: "assistant", content: "" },
      done_reason: "stop",
      done: true,
      total_duration: loadDuration + promptDuration + evalDuration + dice.between(1_000_000, 5_000_000),
      load_duration: loadDuration,
      prompt_eval_count: turn.inputTokens,
      prompt_eval_duration: promptDuration,
      eval_count: evalCount,
      eval_duration: evalDuration,
    }),
  );
  return { contentType: "application/x-ndjson", chunks: textChunks(lines) };
}
