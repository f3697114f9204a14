import type { Provider } from "../../src/index.ts";
import { sleep, type Timers } from "../runtime.ts";
import { stepOfRequest, type RecordedConversation } from "./conversation.ts";
import { replayDelay } from "./pacing.ts";
import { recordingChunks, type Recording } from "./recording.ts";

/** How a replay is paced. */
export interface ReplayOptions {
  /** Mean delay between events, in milliseconds; 0 sends them back to back. */
  delayMs: number;
  timers: Timers;
}

/**
 * A stand-in for `fetch` that answers any provider request with a recorded stream, without
 * the network: `200` with the recording's media type (`text/event-stream` unless it says
 * otherwise), one recorded message per chunk (an SSE event, an NDJSON line, an event-stream
 * message), paced like a model. Like a real body, it stops when the request's signal aborts or
 * the reader cancels.
 */
export function replayUpstream(recording: Recording, options: ReplayOptions): (request: Request) => Promise<Response> {
  return async (request) => replayEvents(recording.name, recordingChunks(recording), request.signal, options, recording.contentType);
}

/**
 * A stand-in for `fetch` that plays a recorded multi-step conversation: each request gets the
 * recorded answer to the step it is at, which the request itself tells ({@link stepOfRequest}:
 * how many rounds of tool results follow the prompt). The first request gets the first answer
 * (tool calls), the one carrying their results the next, and so on; past the last step, the last
 * answer (the model's text). The answers are the recorded ones whatever the results say: a
 * replay cannot think.
 */
export function replayConversation(conversation: RecordedConversation, provider: Provider, options: ReplayOptions): (request: Request) => Promise<Response> {
  return async (request) => {
    let body: unknown;
    try {
      body = await request.json();
    } catch {
      body = undefined; // not a request the Worker built; it gets the first answer
    }
    const steps = conversation.steps;
    const step = steps[Math.min(stepOfRequest(provider, body), steps.length - 1)];
    if (!step) throw new Error("A recorded conversation has no steps.");
    const chunks = splitEvents(step.response).map((event) => new TextEncoder().encode(event));
    return replayEvents(conversation.name, chunks, request.signal, options);
  };
}

/** Splits an SSE body into its events, each with the blank line that ends it (LF, CRLF or CR framing). */
export function splitEvents(body: string): string[] {
  return body.match(/[\s\S]*?(?:\r\n\r\n|\n\n|\r\r)|[\s\S]+$/g) ?? [];
}

function replayEvents(name: string, chunks: readonly Uint8Array[], signal: AbortSignal, options: ReplayOptions, contentType = "text/event-stream; charset=utf-8"): Response {
  let index = 0;
  const body = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const chunk = chunks[index];
        if (chunk === undefined) return controller.close();
        await sleep(options.timers, replayDelay(index, options.delayMs), signal);
        index++;
        controller.enqueue(chunk);
      },
    },
    { highWaterMark: 0 },
  );
  return new Response(body, { status: 200, headers: { "content-type": contentType, "x-replay-recording": name } });
}
