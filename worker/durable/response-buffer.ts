import { DurableObject } from "cloudflare:workers";
import { formatToolCallEvent, type ToolCallEvent } from "../../src/index.ts";
import { readSettings, type Env, type Settings } from "../env.ts";
import { errorResponse, HttpError } from "../response/json-error.ts";
import type { StreamRequest } from "../request/stream-request.ts";
import { openEventStream } from "../routes/stream.ts";
import { platformRuntime, type Runtime, type TimerHandle } from "../runtime.ts";
import { ResponseLog } from "./response-log.ts";
import { loadResponseLog, saveResponseLog } from "./response-log-storage.ts";

/**
 * One in-flight response, in its own Durable Object: it runs the provider request and the
 * library, keeps the encoded events in a bounded {@link ResponseLog}, and serves any number of
 * clients from it. A client that reconnects with `Last-Event-ID` gets the events it missed, then
 * the live remainder, without a second provider call. With no client attached the response runs
 * on for `DETACHED_LIMIT_MS`, then the provider request is cancelled (the log ends with `abort`).
 * A finished log is kept `RESUME_TTL_MS`, then dropped (an alarm).
 *
 * While the response runs, the log lives in memory only (no write per event): its pending
 * provider fetch and `waitUntil` keep the object alive with no client attached (compatibility
 * date 2026-10-01 or later). Whenever it ends (finish, abort, error, cancel), the kept frames,
 * already bounded by `RESUME_MAX_EVENTS`/`RESUME_MAX_BYTES`, are written once to the object's
 * storage (see `response-log-storage.ts`), because an idle object may then be evicted before
 * `RESUME_TTL_MS` passes. A resume that reaches a fresh instance (no log in memory) rebuilds the
 * finished log from storage and is served exactly as before eviction. The expiry alarm deletes
 * the stored frames; after it, the id answers 404 `unknown_response`, like an id never issued.
 */
export class ResponseBuffer extends DurableObject<Env> {
  #log: ResponseLog | undefined;
  #headers: Record<string, string> = {};
  #upstream: AbortController | undefined;
  #detachTimer: TimerHandle | undefined;
  #runtime: Runtime = platformRuntime;
  #overrides: Partial<Env> = {};

  /**
   * Tests only (through `runInDurableObject`; no route reaches it): replaces the network and the
   * clock, and overrides bindings (limits), before `/start` (CONVENTIONS.md point 8).
   */
  useRuntime(runtime: Runtime, overrides: Partial<Env> = {}): void {
    this.#runtime = runtime;
    this.#overrides = overrides;
  }

  /** `/start` (POST, the validated request), `/attach?after=N`, `/cancel` (POST). */
  override async fetch(request: Request): Promise<Response> {
    const { pathname, searchParams } = new URL(request.url);
    try {
      if (pathname === "/start") return await this.#start((await request.json()) as StreamRequest);
      if (pathname === "/attach") return this.#attach(Number(searchParams.get("after") ?? "-1"));
      if (pathname === "/cancel") {
        this.#upstream?.abort("cancelled by the client");
        return new Response(null, { status: 204 });
      }
      throw new HttpError(404, { code: "not_found", message: "No such route." });
    } catch (error) {
      if (error instanceof HttpError) return errorResponse(error);
      return errorResponse(new HttpError(500, { code: "internal_error", message: "The Worker failed to handle the request." }));
    }
  }

  /** Drops a finished log, in memory and in storage, once its time to live has passed. */
  override async alarm(): Promise<void> {
    if (this.#log && !this.#log.done) return;
    this.#log = undefined;
    await this.ctx.storage.deleteAll();
  }

  #settings(): Settings {
    return readSettings({ ...this.env, ...this.#overrides });
  }

  async #start(streamRequest: StreamRequest): Promise<Response> {
    if (this.#log) throw new HttpError(409, { code: "invalid_request", message: "This response has already started." });
    const settings = this.#settings();
    this.#upstream = new AbortController();
    const env = { ...this.env, ...this.#overrides };
    const { events, headers } = await openEventStream(streamRequest, env, settings, this.#runtime, this.#upstream, true);
    this.#headers = headers;
    const log = (this.#log = new ResponseLog({ maxFrames: settings.resumeMaxEvents, maxBytes: settings.resumeMaxBytes }));
    this.ctx.waitUntil(this.#pump(events, log, settings.resumeTtlMs));
    return this.#attach(-1);
  }

  /** Reads the events to the end whether or not a client is attached. */
  async #pump(events: ReadableStream<ToolCallEvent>, log: ResponseLog, ttlMs: number): Promise<void> {
    const reader = events.getReader();
    try {
      for (let result = await reader.read(); !result.done; result = await reader.read()) {
        log.append(formatToolCallEvent(result.value, log.next));
        // A client that lags the whole log behind holds the provider back, as a direct stream would.
        if (log.full) await log.room();
      }
    } finally {
      log.finish();
      this.#clearDetachTimer();
      try {
        this.#persist(log);
      } finally {
        await this.ctx.storage.setAlarm(Date.now() + ttlMs);
      }
    }
  }

  /** Writes the ended log's kept frames, once, so that a resume outlives an eviction. */
  #persist(log: ResponseLog): void {
    const { first, frames } = log.kept();
    const { storage } = this.ctx;
    storage.transactionSync(() => saveResponseLog(storage.kv, { first, frames, headers: this.#headers }));
  }

  /** The log in memory, or, in a fresh instance (the idle object was evicted), the stored one. */
  #currentLog(): ResponseLog | undefined {
    if (this.#log) return this.#log;
    const stored = loadResponseLog(this.ctx.storage.kv);
    if (!stored) return undefined;
    const { resumeMaxEvents, resumeMaxBytes } = this.#settings();
    this.#headers = stored.headers;
    this.#log = ResponseLog.finished({ maxFrames: resumeMaxEvents, maxBytes: resumeMaxBytes }, stored.first, stored.frames);
    return this.#log;
  }

  /**
   * One client's body: the frames after `lastSeen`, pulled from the log as the client reads
   * them (a slow client holds no queue of its own, and holds the provider back once it lags
   * the whole log behind).
   */
  #attach(lastSeen: number): Response {
    const log = this.#currentLog();
    if (!log) throw new HttpError(404, { code: "unknown_response", message: "No response with this id is in flight or recent." });
    if (!Number.isInteger(lastSeen) || !log.canResumeAfter(lastSeen)) {
      throw new HttpError(410, { code: "resume_window_passed", message: "The events after this Last-Event-ID are no longer kept." });
    }
    this.#clearDetachTimer();
    const encoder = new TextEncoder();
    const cursor = log.open(lastSeen);
    let left = false;
    const leave = (): void => {
      left = true;
      cursor.close();
      this.#onDetach(log);
    };
    const body = new ReadableStream<Uint8Array>(
      {
        pull: async (controller) => {
          const step = await cursor.read();
          if (left) return; // the client went away while this read waited
          if (step.type === "frame") return controller.enqueue(encoder.encode(step.text));
          leave();
          controller.close();
        },
        cancel: leave,
      },
      { highWaterMark: 0 },
    );
    return new Response(body, { headers: this.#headers });
  }

  /** The last client left a running response: cancel it if nobody comes back in time. */
  #onDetach(log: ResponseLog): void {
    if (log.done || log.readers > 0 || this.#detachTimer !== undefined) return;
    const { detachedLimitMs } = this.#settings();
    this.#detachTimer = this.#runtime.timers.setTimeout(() => {
      this.#detachTimer = undefined;
      if (!log.done && log.readers === 0) this.#upstream?.abort("no client attached");
    }, detachedLimitMs);
  }

  #clearDetachTimer(): void {
    if (this.#detachTimer !== undefined) this.#runtime.timers.clearTimeout(this.#detachTimer);
    this.#detachTimer = undefined;
  }
}
