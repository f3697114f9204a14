import { DurableObject } from "cloudflare:workers";
import { readyBatches, type RunnableTool } from "../../src/index.ts";
import { readSettings, type Env, type Settings } from "../env.ts";
import { EVENT_STREAM_HEADERS } from "../http/event-stream.ts";
import type { WorkerContext } from "../http/request-context.ts";
import { asHttpError, errorResponse, HttpError } from "../response/json-error.ts";
import type { StreamRequest } from "../request/stream-request.ts";
import { openEventBatches } from "../services/model-call.ts";
import { openRunEvents, toRunEvent } from "../services/tool-loop.ts";
import { platformRuntime, type Runtime } from "../runtime.ts";
import { demoTools } from "../demo-tools/index.ts";
import { expireDue } from "./expiry-alarm.ts";
import { keyedStore } from "./keyed-store.ts";
import { recordedTools } from "./recorded-tools.ts";
import { objectNameOf } from "./response-id.ts";
import { isolateLogBudget, type LogBudget } from "./log-budget.ts";
import { ResponseReaders } from "./response-readers.ts";
import type { RunningResponse } from "./running-response.ts";
import { beginResponse, type OpenedEvents, type ResponseHost } from "./response-begin.ts";
import { runRequestOf, type RunStart } from "./run-start.ts";
import { loadMeta, type FrameStore } from "./response-log-storage.ts";
import { storedLogResponse } from "./stored-cursor.ts";
import { StoredKeeps } from "./stored-keeps.ts";
import { StoredQuota } from "./stored-quota.ts";
import { storedResponseOp, type StoredResponseAnswer, type StoredResponseOp } from "./stored-responses.ts";
import { liveLogResponse, restoreStoredLog, UNKNOWN } from "./stored-log-attach.ts";

/** Where a run's request body is kept (under its response's keys), to tell a retry of the same run from another. */
const RUN_BODY_KEY = "run:body";
const ALREADY_STARTED = (): HttpError =>
  new HttpError(409, { code: "invalid_request", message: "This response has already started." });

/**
 * Runs resumable responses (`/v1/stream`) and runs (`/v1/run`), any number at once, each under
 * its own keys (`keyed-store.ts`); the object is one of a small pool per location
 * (`response-id.ts`). For each it runs the provider request (or the tool loop) and the library
 * once, keeps the frames in a bounded {@link ResponseLog}, and serves any number of clients from
 * it: one that reconnects with `Last-Event-ID` gets what it missed, then the live rest. With no
 * client attached a response runs on for `DETACHED_LIMIT_MS`, then is cancelled (its log ends
 * with `abort`; `running-response.ts`). A finished log is kept `RESUME_TTL_MS` (`log-lifetime.ts`); the
 * object's one alarm serves every expiry (`expiries.ts`).
 *
 * The frames move in batches (`log-pump.ts`) and are written to storage as they come
 * (`response-log-storage.ts`): a restart mid-response loses nothing written, and a resume that
 * reaches a fresh instance serves the stored frames, then an `error` of code `interrupted`
 * (`interrupted.ts`). A finished log is in storage only: recent responses cost storage, not
 * memory. A run records each tool call's outcome (`recorded-tools.ts`), so a retry of a run a
 * restart cut never runs a call id twice. It also keeps the stored `/v1/responses` responses of its
 * pool slot (`stored-responses.ts`).
 *
 * Routes call it through its stub's RPC methods (`startStream`, `startRun`, `cancel`: `response-pool.ts`)
 * with requests their route validated; clients read a response through its `fetch` (`GET /attach`).
 */
export class ResponseBuffer extends DurableObject<Env> {
  readonly #running = new Map<string, RunningResponse>();
  /** Responses whose provider request is being opened (not running yet): a cancel aborts it, a second start is refused. */
  readonly #opening = new Map<string, AbortController>();
  #readers = new ResponseReaders(); // how many clients read each response, bounded (`response-readers.ts`)
  #runtime: Runtime = platformRuntime;
  #overrides: Partial<Env> = {};
  #tools: Readonly<Record<string, RunnableTool>> | undefined;
  #alarmClock: () => number = Date.now;
  #budget: LogBudget | undefined;
  /** What the stored responses take, bounded (`stored-quota.ts`): read at its first use. */
  readonly #quota = new StoredQuota(this.ctx.storage.kv);
  readonly #keeps = new StoredKeeps(this.ctx.storage, undefined, undefined, this.#quota);

  /** Tests only (`runInDurableObject`; no route calls it): the network, clock, run tools and bindings of later responses. */
  useRuntime(runtime: Runtime, overrides: Partial<Env> = {}, tools?: Readonly<Record<string, RunnableTool>>): void {
    this.#runtime = runtime;
    this.#overrides = overrides;
    this.#tools = tools;
  }

  /** Tests only: the alarm's clock (`runDurableObjectAlarm` fires early; a later clock stands for the time passed). */
  useAlarmClock(now: () => number = Date.now): void {
    this.#alarmClock = now;
  }

  /** Tests only: the memory budget of the responses started after, not the isolate's (`log-budget.ts`). */
  useLogBudget(budget: LogBudget): void {
    this.#budget = budget;
  }

  /** Tests only: the places of this object's clients, with bounds of their own (`response-readers.ts`). */
  useReaders(readers: ResponseReaders): void {
    this.#readers = readers;
  }

  /** True while response `id` runs here: its log is in memory (a finished one is in storage only). */
  isRunning(id: string): boolean {
    return this.#running.has(id);
  }

  /** How many clients read response `id` now (at most `MAX_READERS_PER_RESPONSE`). */
  readersOf(id: string): number {
    return this.#readers.of(id);
  }

  /**
   * Starts resumable response `id` of a validated stream request for `client` (the hash of its
   * token: `tokenOwner`). Resolves to `undefined` once it runs (its clients then read it through
   * {@link fetch}), or to a JSON error (409 when `id` has already started, a 429 when its first
   * client would find no place, the upstream's errors before the stream).
   */
  startStream(id: string, request: StreamRequest, client = ""): Promise<Response | undefined> {
    return this.#answer(id, () => this.#startStream(id, request, client));
  }

  /**
   * Starts resumable run `id` (see {@link RunStart}) for `client`, or with `retry` retries it: a run
   * running or finished is read from the start, one a restart cut runs the loop again, each call
   * id answering from its record. Resolves like {@link startStream}.
   */
  startRun(id: string, run: RunStart, retry: boolean, client = ""): Promise<Response | undefined> {
    return this.#answer(id, () => this.#startRun(id, run, retry, client));
  }

  /** Cancels response `id` (its log ends with `abort`); nothing happens for one that is not running. */
  cancel(id: string): void {
    (this.#running.get(id)?.upstream ?? this.#opening.get(id))?.abort("cancelled by the client");
  }

  /** Keeps, reads or forgets a stored `/v1/responses` response of this object (`stored-responses.ts`). */
  storedResponses(op: StoredResponseOp): Promise<StoredResponseAnswer> {
    // Keeps are written together with those that come in the same turn (`stored-keeps.ts`).
    if (op.type === "keep") return this.#keeps.keep(op);
    return storedResponseOp(this.ctx.storage, op, Date.now(), this.#quota);
  }

  /**
   * `GET /attach?id=<response id>&after=<event id>&client=<token hash>`: one more client of a response, the frames
   * after `after` (-1: all), then live; or a JSON error. Not an RPC method: the request's signal
   * tells the object at once that its client left (`native-body.ts`). A stream returned over RPC
   * tells its source only at its next write (workerd PR 7298), so a client leaving a response whose
   * provider is silent would never start its detached limit.
   */
  override async fetch(request: Request): Promise<Response> {
    const { pathname, searchParams } = new URL(request.url);
    const id = searchParams.get("id") ?? "";
    const answer = await this.#answer(id, async () => {
      const head = request.method === "HEAD";
      if ((request.method !== "GET" && !head) || pathname !== "/attach")
        throw new HttpError(404, { code: "not_found", message: "No such route." });
      const client = searchParams.get("client") ?? "";
      return this.#attach(id, Number(searchParams.get("after") ?? "-1"), head, client, request.signal);
    });
    return answer ?? new Response(null, { status: 204 });
  }

  /** The answer of `act` for response `id`, its failures as JSON errors (RPC would drop an `HttpError`'s fields). */
  async #answer(id: string, act: () => Promise<Response | undefined>): Promise<Response | undefined> {
    try {
      if (objectNameOf(id) === undefined) throw UNKNOWN();
      return await act();
    } catch (error) {
      // Unexpected ones are logged (name and stack) by asHttpError.
      return errorResponse(asHttpError(error));
    }
  }

  /**
   * Drops each finished log (and a run's tool records) whose time to live has passed; one still
   * running, or being opened again (a retry of a run a restart cut: its records must outlive
   * it), is kept `RESUME_TTL_MS` more. Then waits for the next expiry.
   */
  override async alarm(): Promise<void> {
    const live = (id: string): boolean => this.#running.has(id) || this.#opening.has(id);
    const idle = (): boolean => this.#running.size === 0 && this.#opening.size === 0;
    const { resumeTtlMs } = this.#settings();
    await expireDue(this.ctx.storage, this.#alarmClock(), resumeTtlMs, live, idle, this.#quota);
  }

  /** What the services run with here: the bindings with the tests' overrides, and the runtime. */
  #context(): WorkerContext {
    const env = { ...this.env, ...this.#overrides };
    return { env, settings: readSettings(env), runtime: this.#runtime };
  }

  #settings(): Settings {
    return this.#context().settings;
  }

  /** Response `id`'s keys in this object's storage. */
  #store(id: string): FrameStore {
    return keyedStore(this.ctx.storage.kv, id);
  }

  async #startStream(id: string, streamRequest: StreamRequest, client: string): Promise<undefined> {
    if (this.#running.has(id) || this.#opening.has(id) || loadMeta(this.#store(id))) throw ALREADY_STARTED();
    // Arrays already one per log write window (the chain's own): the pump writes each as it comes.
    const context = this.#context();
    const open = (controller: AbortController) =>
      openEventBatches(streamRequest, context, controller.signal, true, context.settings.resumeWriteWindowMs);
    await beginResponse(this.#host(), { id, kind: "stream", replacing: false, client, store: this.#store(id), open });
    return undefined;
  }

  async #startRun(id: string, run: RunStart, retry: boolean, client: string): Promise<undefined> {
    const store = this.#store(id);
    const meta = loadMeta(store);
    if (retry && !meta) throw UNKNOWN();
    if ((!retry && meta) || this.#opening.has(id)) throw ALREADY_STARTED();
    if (retry && store.get(RUN_BODY_KEY) !== run.body)
      throw new HttpError(409, {
        code: "invalid_request",
        message: "A retry must send the same request as the run it retries.",
      });
    // Running or finished: its clients read it from the start.
    if (this.#running.has(id) || (meta?.done && !meta.interrupted)) return;
    const tools = recordedTools(this.#tools ?? demoTools({ timers: this.#runtime.timers }), store);
    const request = runRequestOf(run, tools);
    const open = async (controller: AbortController): Promise<OpenedEvents> => {
      const { events, headers } = await openRunEvents(request, this.#context(), controller);
      const runEvents = events.pipeThrough(
        new TransformStream({ transform: (event, out) => out.enqueue(toRunEvent(event)) }),
      );
      return { batches: readyBatches(runEvents), headers: { ...EVENT_STREAM_HEADERS, ...headers } };
    };
    // Kept with the log's header, once the run started (a first model call that fails leaves nothing behind).
    const withHeader = () => store.put(RUN_BODY_KEY, run.body);
    await beginResponse(this.#host(), {
      id,
      kind: "run",
      replacing: meta !== undefined,
      client,
      store,
      open,
      withHeader,
    });
  }

  /** What {@link beginResponse} starts a response in: this object's parts, its settings now. */
  #host(): ResponseHost {
    const budget = (): LogBudget => this.#budget ?? isolateLogBudget(this.env);
    const [ctx, running, opening, readers, timers] = [
      this.ctx,
      this.#running,
      this.#opening,
      this.#readers,
      this.#runtime.timers,
    ];
    return { ctx, running, opening, readers, timers, settings: this.#settings(), budget };
  }

  /**
   * One client's body: the frames after `lastSeen` ({@link liveLogResponse}); a HEAD's answer
   * without it. A 429 past `MAX_READERS_PER_RESPONSE` clients of the response.
   */
  #attach(id: string, lastSeen: number, head: boolean, client: string, signal: AbortSignal): Response {
    // Each client's place is given back when its body ends (`response-readers.ts`); a HEAD takes none.
    const leave = head ? () => {} : this.#readers.take(id, client);
    try {
      const running = this.#running.get(id);
      const live = running && { log: running.log, headers: running.headers, running };
      if (live) return liveLogResponse(live, lastSeen, this.#runtime.timers, signal, head, leave);
      // A finished log is read from storage from the client's frame on, a batch per client read;
      // one a restart cut, or one without its window, gets it once ({@link restoreStoredLog}).
      const store = this.#store(id);
      const stored = storedLogResponse(store, lastSeen, this.#runtime, signal, leave);
      if (stored) return stored;
      if (!restoreStoredLog(this.ctx, id, store, this.#settings().resumeTtlMs)) throw UNKNOWN();
      const restored = storedLogResponse(store, lastSeen, this.#runtime, signal, leave);
      if (!restored) throw UNKNOWN();
      return restored;
    } catch (error) {
      leave();
      throw error;
    }
  }
}
