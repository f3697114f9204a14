// Fakes for the Worker tests: a manual clock and a recording upstream, injected through
// createFetchHandler so that no test touches the network or sleeps.
import { createParser, type EventSourceMessage } from "eventsource-parser";
import { env as bindings } from "cloudflare:workers";
import { createFetchHandler } from "../../worker/app.ts";
import type { Env } from "../../worker/env.ts";
import type { TimerHandle, Timers } from "../../worker/runtime.ts";
import type { ToolCallEvent } from "../../src/index.ts";

/** A clock that only moves when the test says so. */
export class ManualTimers implements Timers {
  #next = 1;
  readonly #pending = new Map<number, { callback: () => void; ms: number }>();
  /** Every delay ever scheduled, in order. */
  readonly scheduled: number[] = [];

  setTimeout(callback: () => void, ms: number): TimerHandle {
    const handle = this.#next++;
    this.#pending.set(handle, { callback, ms });
    this.scheduled.push(ms);
    return handle;
  }

  clearTimeout(handle: TimerHandle): void {
    this.#pending.delete(handle as number);
  }

  /** How many timers are waiting. */
  get pending(): number {
    return this.#pending.size;
  }

  /** The delays of the waiting timers. */
  get pendingDelays(): number[] {
    return [...this.#pending.values()].map((timer) => timer.ms);
  }

  /** Fires the waiting timers whose delay matches. */
  fireWhere(matches: (ms: number) => boolean): void {
    for (const [handle, timer] of [...this.#pending.entries()]) {
      if (!matches(timer.ms)) continue;
      this.#pending.delete(handle);
      timer.callback();
    }
  }

  /** Fires every waiting timer (as if their time had come). */
  fireAll(): void {
    const due = [...this.#pending.values()];
    this.#pending.clear();
    for (const timer of due) timer.callback();
  }
}

/** What the fake upstream saw of one request. */
export interface SeenRequest {
  url: string;
  headers: Headers;
  body: Record<string, unknown>;
  signal: AbortSignal;
}

/** A scripted answer of the fake upstream. */
export type UpstreamAnswer =
  | { kind: "sse"; chunks: readonly string[]; status?: number; headers?: Record<string, string>; then?: "close" | "stall" | "fail" }
  | { kind: "response"; status: number; body: string; headers?: Record<string, string> }
  | { kind: "network-error" }
  | { kind: "hang" };

/** A provider stand-in that records requests, pulls and cancels. */
export class FakeUpstream {
  readonly requests: SeenRequest[] = [];
  /** The reason the body was cancelled with, once it was. */
  cancelled: { reason: unknown } | undefined;
  /** How many chunks were pulled, over all requests. */
  pulled = 0;
  answer: UpstreamAnswer;
  readonly #arrived: Array<(seen: SeenRequest) => void> = [];

  constructor(answer: UpstreamAnswer) {
    this.answer = answer;
  }

  /** Resolves when the next request reaches the upstream (no polling, no timers). */
  nextRequest(): Promise<SeenRequest> {
    return new Promise((resolve) => this.#arrived.push(resolve));
  }

  readonly fetch = async (request: Request): Promise<Response> => {
    const seen: SeenRequest = { url: request.url, headers: request.headers, body: {}, signal: request.signal };
    this.requests.push(seen);
    this.#arrived.splice(0).forEach((resolve) => resolve(seen));
    seen.body = await request.json();
    const answer = this.answer;
    if (answer.kind === "network-error") throw new TypeError("Network connection lost.");
    if (answer.kind === "hang") {
      return new Promise((_, reject) => {
        if (request.signal.aborted) return reject(request.signal.reason);
        request.signal.addEventListener("abort", () => reject(request.signal.reason));
      });
    }
    if (answer.kind === "response") return new Response(answer.body, { status: answer.status, headers: answer.headers ?? {} });
    return new Response(this.#body(answer), {
      status: answer.status ?? 200,
      headers: answer.headers ?? { "content-type": "text/event-stream" },
    });
  };

  #body(answer: Extract<UpstreamAnswer, { kind: "sse" }>): ReadableStream<Uint8Array> {
    const encoder = new TextEncoder();
    let next = 0;
    return new ReadableStream<Uint8Array>(
      {
        pull: (controller) => {
          const chunk = answer.chunks[next++];
          if (chunk !== undefined) {
            this.pulled++;
            return controller.enqueue(encoder.encode(chunk));
          }
          if (answer.then === "stall") return new Promise<void>(() => {});
          if (answer.then === "fail") return controller.error(new TypeError("Network connection lost."));
          controller.close();
        },
        cancel: (reason) => {
          this.cancelled = { reason };
        },
      },
      { highWaterMark: 0 },
    );
  }
}

/**
 * The bindings of wrangler.toml with test overrides (secrets set to `undefined` stay unset).
 * Without the `RESPONSES` Durable Objects, so that responses run here on the injected fakes;
 * the resume tests pass `{ RESPONSES: responses }` to go through them.
 */
export function testEnv(overrides: Partial<Env> = {}): Env {
  const { RESPONSES: _resumable, ...rest } = bindings as Env;
  return { ...rest, REPLAY_DELAY_MS: "0", ...overrides };
}

/** The Durable Object namespace of resumable responses, from wrangler.toml. */
export const responses: DurableObjectNamespace = (bindings as Env).RESPONSES!;

/** A Worker over the fakes; `call` sends one request to it. */
export function worker(upstream: FakeUpstream = new FakeUpstream({ kind: "hang" }), timers: Timers = new ManualTimers()) {
  const handler = createFetchHandler({ fetch: upstream.fetch, timers });
  return {
    call: (request: Request, env: Env = testEnv()) => handler(request, env),
  };
}

/** A `POST /v1/stream` request. */
export function streamRequest(
  body: unknown,
  init: { host?: string; headers?: Record<string, string>; raw?: string } = {},
): Request {
  return new Request(`http://${init.host ?? "localhost:8787"}/v1/stream`, {
    method: "POST",
    headers: { "content-type": "application/json", ...init.headers },
    body: init.raw ?? JSON.stringify(body),
  });
}

/** A valid request body. */
export function validBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    provider: "openai",
    model: "gpt-4o-mini",
    messages: [{ role: "user", content: "What is the weather in Paris?" }],
    tools: [{ name: "get_weather", parameters: { type: "object", properties: { city: { type: "string" } } } }],
    ...overrides,
  };
}

/** Reads an SSE response with eventsource-parser: the raw messages and the events they carry. */
export async function readSSE(response: Response): Promise<{ messages: EventSourceMessage[]; events: ToolCallEvent[] }> {
  const messages: EventSourceMessage[] = [];
  const parser = createParser({ onEvent: (message) => messages.push(message) });
  parser.feed(await response.text());
  return { messages, events: messages.map((m) => JSON.parse(m.data) as ToolCallEvent) };
}

/** SSE text of OpenAI chunks, one event per chunk, then `[DONE]`. */
export function openAIChunks(payloads: readonly unknown[]): string[] {
  return [...payloads.map((p) => `data: ${JSON.stringify(p)}\n\n`), "data: [DONE]\n\n"];
}

/** Waits in microtask turns (no timers) until `check` holds. */
export async function eventually(check: () => boolean, turns = 2000): Promise<boolean> {
  for (let i = 0; i < turns; i++) {
    if (check()) return true;
    await Promise.resolve();
  }
  return check();
}
