/** A recorded provider response, replayed by the built-in upstream. */
export interface Recording {
  /** The fixture's name in shared/fixtures. */
  name: string;
  /** Words of a prompt that make this recording the answer (lower case). */
  keywords: readonly string[];
  /** The SSE events of the body, each with its terminating blank line, exactly as recorded. */
  events: readonly string[];
}

/**
 * The recording that answers a prompt: the one whose keywords the prompt mentions most, else
 * the first. A replay cannot answer an arbitrary prompt; this only lets a demo pick a recording
 * by asking the question it answers ("the weather in San Diego").
 */
export function pickRecording(recordings: readonly Recording[], prompt: string): Recording {
  const text = prompt.toLowerCase();
  let best = recordings[0];
  let bestScore = 0;
  for (const recording of recordings) {
    const score = recording.keywords.filter((keyword) => text.includes(keyword)).length;
    if (score > bestScore) [best, bestScore] = [recording, score];
  }
  if (!best) throw new Error("A provider has no recordings to replay.");
  return best;
}
