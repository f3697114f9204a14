/** A recorded provider response, replayed by the built-in upstream. */
export interface Recording {
  /** The fixture's name in shared/fixtures. */
  name: string;
  /** Words of a prompt that make this recording the answer (lower case). */
  keywords: readonly string[];
  /**
   * The messages of the body, each with its framing, exactly as recorded: SSE events with their
   * blank line, NDJSON lines with their newline, or, with `binary`, AWS event-stream messages
   * (prelude to message CRC) as base64.
   */
  events: readonly string[];
  /**
   * The media type the body is served with.
   * @defaultValue "text/event-stream; charset=utf-8"
   */
  contentType?: string;
  /** True when `events` are binary messages written as base64. */
  binary?: boolean;
}

/** The recording's messages as the bytes of the body, one array per message. */
export function recordingChunks(recording: Recording): Uint8Array[] {
  if (!recording.binary) return recording.events.map((event) => new TextEncoder().encode(event));
  return recording.events.map((event) => Uint8Array.from(atob(event), (c) => c.charCodeAt(0)));
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
