// Fakes for the Worker tests: a manual clock and a recording upstream, injected through
// createFetchHandler so that no test touches the network or sleeps.
import { createParser, type EventSourceMessage } from "eventsource-parser";
import { env as bindings } from "cloudflare:workers";
import { runInDurableObject } from "cloudflare:test";
import { createFetchHandler } from "../../worker/app.ts";
import type { LogBudget } from "../../worker/resumable/log-budget.ts";
import type { ResponseBuffer } from "../../worker/resumable/response-buffer.ts";
import { newResponseId, objectNameOf, responseIdKey } from "../../worker/resumable/response-id.ts";
import { attach as attachTo } from "../../worker/resumable/response-pool.ts";
import { providerNames } from "../../worker/upstream/providers/index.ts";
import { parseStreamRequest } from "../../worker/request/parse-stream-request.ts";
import type { Env } from "../../worker/env.ts";
import type { TimerHandle, Timers } from "../../worker/runtime.ts";
import type { ToolCallEvent } from "../../src/index.ts";

/** A clock that only moves when the test says so. */
export class ManualTimers implements Timers {
  #next = 1;
  #now = 0;
  readonly #pending = new Map<number, { callback: () => void; ms: number; due: number }>();
  /** Every delay ever scheduled, in order. */
  readonly scheduled: number[] = [];

  #waiters: Array<{ ms: number; resolve: () => void }> = [];

  setTimeout(callback: () => void, ms: number): TimerHandle {
    const handle = this.#next++;
    this.#pending.set(handle, { callback, ms, due: this.#now + ms });
    this.scheduled.push(ms);
    for (const waiter of this.#waiters.filter((w) => w.ms === ms)) waiter.resolve();
    this.#waiters = this.#waiters.filter((w) => w.ms !== ms);
    return handle;
  }

  /** Resolves when a timer of `ms` is next scheduled (code inside a Durable Object sets it later). */
  whenScheduled(ms: number): Promise<void> {
    return new Promise((resolve) => this.#waiters.push({ ms, resolve }));
  }

  /** The handles of the waiting timers of `ms`. */
  handlesOf(ms: number): number[] {
    return [...this.#pending].filter(([, timer]) => timer.ms === ms).map(([handle]) => handle);
  }

  /** Fires one waiting timer, as if its time had come: the clock moves on to its due time. */
  fire(handle: number): void {
    const timer = this.#pending.get(handle);
    this.#pending.delete(handle);
    if (timer) this.#now = Math.max(this.#now, timer.due);
    timer?.callback();
  }

  /** Fires the waiting timer that is due first (the earliest scheduled among equals); false when none waits. */
  fireNext(): boolean {
    let first: [number, { due: number }] | undefined;
    for (const entry of this.#pending) if (!first || entry[1].due < first[1].due) first = entry;
    if (!first) return false;
    this.fire(first[0]);
    return true;
  }

  /** The manual clock: it moves only when a timer is fired. */
  now(): number {
    return this.#now;
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
    for (const timer of due) this.#now = Math.max(this.#now, timer.due);
    for (const timer of due) timer.callback();
  }
}

/** What the fake upstream saw of one request. */
export interface SeenRequest {
  url: string;
  headers: Headers;
  body: Record<string, unknown>;
  /**
   * Aborted once the provider would see the request end: its signal aborted, or its body
   * cancelled (over the network, either closes the connection: bench/load/provider-release.ts).
   */
  signal: AbortSignal;
}

/** A scripted answer of the fake upstream (`sse` chunks are text or, for binary bodies, bytes). */
export type UpstreamAnswer =
  | {
      kind: "sse";
      chunks: readonly (string | Uint8Array)[];
      status?: number;
      headers?: Record<string, string>;
      /**
       * After the chunks: end the body (`close`), never answer again (`stall`), break the
       * connection (`fail`), or send `keepAlive` (an SSE comment unless given) every
       * `keepAliveMs` of the upstream's timers for ever (`keep-alive`: a model that stalls
       * behind keep-alives, as Anthropic's `ping` or OpenRouter's `: OPENROUTER PROCESSING`).
       */
      then?: "close" | "stall" | "fail" | "keep-alive";
      keepAlive?: string;
      keepAliveMs?: number;
      bytes?: true;
    }
  | {
      kind: "response";
      status: number;
      body: string;
      headers?: Record<string, string>;
      /** Sent as bytes: a `Response` of a string gets a `text/plain` content type of its own, of bytes none. */
      bytes?: true;
    }
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

  /** How many keep-alives were sent, over all requests. */
  keepAlives = 0;
  readonly #timers: Timers | undefined;

  /** `timers` paces the `keep-alive` mode. */
  constructor(answer: UpstreamAnswer, timers?: Timers) {
    this.answer = answer;
    this.#timers = timers;
  }

  /** Resolves when the next request reaches the upstream (no polling, no timers). */
  nextRequest(): Promise<SeenRequest> {
    return new Promise((resolve) => this.#arrived.push(resolve));
  }

  readonly fetch = async (url: string, init: RequestInit): Promise<Response> => {
    const request = new Request(url, init);
    const closed = new AbortController();
    const signal = AbortSignal.any([request.signal, closed.signal]);
    const seen: SeenRequest = { url: request.url, headers: request.headers, body: {}, signal };
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
    if (answer.kind === "response")
      return new Response(answer.bytes ? new TextEncoder().encode(answer.body) : answer.body, {
        status: answer.status,
        headers: answer.headers ?? {},
      });
    return new Response(this.#body(answer, closed), {
      status: answer.status ?? 200,
      headers: answer.headers ?? { "content-type": "text/event-stream" },
    });
  };

  #body(answer: Extract<UpstreamAnswer, { kind: "sse" }>, closed: AbortController): ReadableStream<Uint8Array> {
    const encoder = new TextEncoder();
    let next = 0;
    /** One pull: the next chunk (a fresh copy: a byte stream's enqueue takes its buffer), or the scripted end. */
    const pull = (controller: {
      enqueue(chunk: Uint8Array): void;
      error(reason: unknown): void;
      close(): void;
    }): void | Promise<void> => {
      const chunk = answer.chunks[next++];
      if (chunk !== undefined) {
        this.pulled++;
        return controller.enqueue(typeof chunk === "string" ? encoder.encode(chunk) : chunk.slice());
      }
      if (answer.then === "stall") return new Promise<void>(() => {});
      if (answer.then === "keep-alive") {
        const timers = this.#timers;
        if (!timers) throw new Error("the keep-alive mode needs the upstream's timers");
        return new Promise<void>((resolve) => {
          timers.setTimeout(() => {
            // A body the Worker cancelled meanwhile takes nothing more.
            if (!cancelled) {
              this.keepAlives++;
              controller.enqueue(encoder.encode(answer.keepAlive ?? ": keep-alive\n\n"));
            }
            resolve();
          }, answer.keepAliveMs ?? 10_000);
        });
      }
      if (answer.then === "fail") return controller.error(new TypeError("Network connection lost."));
      controller.close();
    };
    let cancelled = false;
    const cancel = (reason: unknown): void => {
      cancelled = true;
      this.cancelled = { reason };
      closed.abort(reason);
    };
    // A byte stream is what a real fetch body is: the chain reads it with large (BYOB) reads.
    if (answer.bytes)
      return new ReadableStream({ type: "bytes", pull, cancel }, { highWaterMark: 0 }) as ReadableStream<Uint8Array>;
    return new ReadableStream<Uint8Array>({ pull, cancel }, { highWaterMark: 0 });
  }
}

/**
 * The bindings of wrangler.toml with test overrides (secrets set to `undefined` stay unset), in the
 * open replay mode of `npm start` (`OPEN_ACCESS`), which still needs no provider key to be set.
 * Without the `RESPONSES` Durable Objects, so that responses run here on the injected fakes;
 * the resume tests pass `{ RESPONSES: responses }` to go through them.
 */
export function testEnv(overrides: Partial<Env> = {}): Env {
  const { RESPONSES: _resumable, ...rest } = bindings as Env;
  return { ...rest, REPLAY_DELAY_MS: "0", OPEN_ACCESS: "true", ...overrides };
}

/** The Durable Object namespace of resumable responses, from wrangler.toml. */
export const responses: DurableObjectNamespace = (bindings as Env).RESPONSES!;
/** The same namespace with its class, for RPC (`RESPONSES` is bound to `ResponseBuffer` in wrangler.toml). */
export const responseObjects = responses as unknown as DurableObjectNamespace<ResponseBuffer>;

/** A Worker over the fakes; `call` sends one request to it. */
export function worker(
  upstream: FakeUpstream = new FakeUpstream({ kind: "hang" }),
  timers: Timers = new ManualTimers(),
) {
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

/**
 * Tools declared by name, each taking any object: what a request declares for a recording it
 * replays (a live fixture or a replay it names), since the Worker ends a call to any tool the
 * request did not declare as an `invalid-tool-call` (the request's tools are a contract).
 */
export function declaredTools(
  names: Iterable<string>,
): { name: string; description: string; parameters: { type: "object" } }[] {
  return [...new Set(names)].map((name) => ({
    name,
    description: `The recording's ${name}.`,
    parameters: { type: "object" },
  }));
}

/** {@link declaredTools} for the tools a fixture calls (its expected calls' names; not the provider's own tools, which it runs). */
export function fixtureTools(fixture: {
  expected: { toolCalls: readonly { name: string; providerExecuted?: true }[] };
}): ReturnType<typeof declaredTools> {
  return declaredTools(fixture.expected.toolCalls.flatMap((call) => (call.providerExecuted ? [] : [call.name])));
}

/** Reads an SSE response with eventsource-parser: the raw messages and the events they carry. */
export async function readSSE(
  response: Response,
): Promise<{ messages: EventSourceMessage[]; events: ToolCallEvent[] }> {
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

/**
 * Resolves once every pending promise job has run (one macrotask later): the Worker's next read of
 * the upstream has begun. The idle timeout keeps its one timer between reads, so a test that fires
 * it to time a wait out must let that wait begin first.
 */
export function settled(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/** One Chat Completions chunk of choice 0. */
export const chatChunk = (delta: Record<string, unknown>, finish: string | null = null) => ({
  choices: [{ index: 0, delta, finish_reason: finish }],
});
/** A chunk with one `get_weather` call fragment. */
export const weatherCall = (index: number, id: string, args: string) =>
  chatChunk({ tool_calls: [{ index, id, function: { name: "get_weather", arguments: args } }] });
/** Settings under which `openai` calls the (fake) provider instead of the replay. */
export const liveOpenAI = {
  OPENAI_API_KEY: "sk-test",
  OPENAI_BASE_URL: "https://provider.test/v1",
} satisfies Partial<Env>;

/**
 * A new response id whose pool object no other test uses (a random place and slot): a test that
 * drives the object directly owns it. Its MAC is random: the object checks only the shape (the
 * Worker checks the MAC before it calls an object).
 */
export function newTestResponseId(): string {
  const letters = Array.from(crypto.getRandomValues(new Uint8Array(3)), (byte) =>
    String.fromCharCode(97 + (byte % 26)),
  ).join("");
  const slot = crypto.getRandomValues(new Uint16Array(1))[0]! % 10_000;
  return `${letters}-${slot}.${crypto.randomUUID()}.${testMac()}`;
}

/**
 * A response id minted like the Worker's own (signed with this isolate's key, in a pool of
 * `RESPONSE_OBJECTS` 16) whose pool object no other test uses (a random place), so that the
 * routes accept it too.
 */
export async function mintedTestResponseId(): Promise<string> {
  const letters = Array.from(crypto.getRandomValues(new Uint8Array(3)), (byte) =>
    String.fromCharCode(97 + (byte % 26)),
  ).join("");
  return newResponseId(letters, 16, await responseIdKey(undefined));
}

/** 22 base64url characters: a MAC's shape. */
export function testMac(): string {
  return btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(16))))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");
}

/** The stub of the object that runs response `id` (directly: tests that drive an object own it). */
export function objectOf(id: string): DurableObjectStub<ResponseBuffer> {
  const name = objectNameOf(id);
  if (name === undefined) throw new Error(`not a response id: ${id}`);
  return responseObjects.get(responseObjects.idFromName(name));
}

/** Starts a response in a Durable Object of its own on the fake upstream and the clock (and `budget`, the object's memory budget). */
export async function startResponse(
  upstream: FakeUpstream,
  clock: Timers,
  overrides: Partial<Env> = {},
  budget?: LogBudget,
) {
  const id = await mintedTestResponseId();
  const stub = objectOf(id);
  await runInDurableObject(stub, (instance: ResponseBuffer) => {
    instance.useRuntime({ fetch: upstream.fetch, timers: clock }, { ...liveOpenAI, ...overrides });
    if (budget) instance.useLogBudget(budget);
  });
  const response =
    (await stub.startStream(id, parseStreamRequest(validBody(), providerNames))) ?? (await attachTo(stub, id, -1));
  const attach = (after: number) => attachTo(stub, id, after);
  return { id, stub, response, attach };
}

/** Reads SSE messages until `count` arrived (or the end), then disconnects: the client saw those `count`. */
export async function readThenDisconnect(response: Response, count: number): Promise<EventSourceMessage[]> {
  const messages: EventSourceMessage[] = [];
  const parser = createParser({ onEvent: (message) => messages.push(message) });
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  while (messages.length < count) {
    const { done, value } = await reader.read();
    if (done) break;
    parser.feed(decoder.decode(value, { stream: true }));
  }
  await reader.cancel("client disconnected");
  return messages.slice(0, count);
}
