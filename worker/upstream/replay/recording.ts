/** A recorded provider response, replayed by the built-in upstream. */
export interface Recording {
  /** The fixture's name in shared/fixtures. */
  name: string;
  /** Words of a prompt that make this recording the answer (lower case). */
  keywords: readonly string[];
  /** The tools the recording calls, by name (none for a text answer). */
  tools: readonly string[];
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
 * The recording that answers a prompt offline, if any: the one the prompt names ("replay" and its
 * `name`, such as `replay chat-parallel-tool-calls-two-functions`, whatever tools the request
 * declares), else, among
 * those whose every call is to a tool the request declares (`declared`), the one whose keywords
 * the prompt mentions most ("the weather in San Diego"). None when the prompt names none and
 * mentions no keyword of such a recording: the scripted model then calls the request's own tools.
 * A replay cannot answer an arbitrary prompt; this only lets a demo play a recording by asking
 * the question it answers, with the tools it calls.
 */
export function pickRecording(
  recordings: readonly Recording[],
  prompt: string,
  declared: ReadonlySet<string>,
): Recording | undefined {
  const text = prompt.toLowerCase();
  const head = text.slice(0, 1_000); // a recording is named at the start, and the pattern need not read a huge prompt
  const named = recordings.find((recording) =>
    new RegExp(`\\breplay:? ${escapeRegExp(recording.name.toLowerCase())}(?![\\w.-])`).test(head),
  );
  if (named) return named;
  let best: Recording | undefined;
  let bestScore = 0;
  for (const recording of recordings) {
    if (recording.tools.length === 0 || !recording.tools.every((tool) => declared.has(tool))) continue;
    const score = recording.keywords.filter((keyword) => text.includes(keyword)).length;
    if (score > bestScore) [best, bestScore] = [recording, score];
  }
  return best;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
