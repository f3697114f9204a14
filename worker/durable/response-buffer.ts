import { DurableObject } from "cloudflare:workers";
import { formatToolCallEvent, type ToolCallEvent } from "../../src/index.ts";
import { readSettings, type Env } from "../env.ts";
import { errorResponse, HttpError } from "../http/json-error.ts";
import type { StreamRequest } from "../request/stream-request.ts";
import { openEventStream } from "../routes/stream.ts";
import { platformRuntime } from "../runtime.ts";
import { ResponseLog } from "./response-log.ts";

/**
 * One in-flight response, in its own Durable Object: it runs the provider request and the
 * library, keeps the encoded events in a bounded {@link ResponseLog}, and serves any number of
 * clients from it. A client that reconnects with `Last-Event-ID` gets the events it missed, then
 * the live remainder, without a second provider call. With no client attached the response runs
 * on for `DETACHED_LIMIT_MS`, then the provider request is cancelled (the log ends with `abort`).
 * A finished log is kept `RESUME_TTL_MS`, then dropped (an alarm).
 *
 * The log lives in memory, not in storage: it only matters while the response is in flight and
 * shortly after, and writing every event to storage would cost a write per token.
 */
export class ResponseBuffer extends DurableObject<Env> {
  #log: ResponseLog | undefined;
  #headers: Record<string, string> = {};
  #upstream: AbortController | undefined;
  #detachTimer: ReturnType<typeof setTimeout> | undefined;

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

  /** Drops a finished log once its time to live has passed. */
  override async alarm(): Promise<void> {
    if (this.#log?.done) this.#log = undefined;
  }

  async #start(streamRequest: StreamRequest): Promise<Response> {
    if (this.#log) throw new HttpError(409, { code: "invalid_request", message: "This response has already started." });
    const settings = readSettings(this.env);
    this.#upstream = new AbortController();
    const { events, headers } = await openEventStream(streamRequest, this.env, settings, platformRuntime, this.#upstream, true);
    this.#headers = headers;
    const log = (this.#log = new ResponseLog({ maxFrames: settings.resumeMaxEvents, maxBytes: settings.resumeMaxBytes }));
    this.ctx.waitUntil(this.#pump(events, log, settings.resumeTtlMs));
    return this.#attach(-1);
  }

  /** Reads the events to the end whether or not a client is attached. */
  async #pump(events: ReadableStream<ToolCallEvent>, log: ResponseLog, ttlMs: number): Promise<void> {
    const reader = events.getReader();
    try {
      for (let result = await reader.read(); !result.done; result = await reader.read()) log.append(formatToolCallEvent(result.value, log.next));
    } finally {
      log.finish();
      if (this.#detachTimer !== undefined) clearTimeout(this.#detachTimer);
      await this.ctx.storage.setAlarm(Date.now() + ttlMs);
    }
  }

  #attach(lastSeen: number): Response {
    const log = this.#log;
    if (!log) throw new HttpError(404, { code: "unknown_response", message: "No response with this id is in flight or recent." });
    if (!Number.isInteger(lastSeen) || !log.canResumeAfter(lastSeen)) {
      throw new HttpError(410, { code: "resume_window_passed", message: "The events after this Last-Event-ID are no longer kept." });
    }
    if (this.#detachTimer !== undefined) clearTimeout(this.#detachTimer);
    const encoder = new TextEncoder();
    let detach = (): void => {};
    const body = new ReadableStream<Uint8Array>({
      start: (controller) => {
        detach = log.attach(lastSeen, {
          frame: (text) => controller.enqueue(encoder.encode(text)),
          end: () => controller.close(),
        });
      },
      cancel: () => {
        detach();
        this.#onDetach(log);
      },
    });
    return new Response(body, { headers: this.#headers });
  }

  /** The last client left a running response: cancel it if nobody comes back in time. */
  #onDetach(log: ResponseLog): void {
    if (log.done || log.subscribers > 0) return;
    const { detachedLimitMs } = readSettings(this.env);
    this.#detachTimer = setTimeout(() => {
      if (!log.done && log.subscribers === 0) this.#upstream?.abort("no client attached");
    }, detachedLimitMs);
  }
}
