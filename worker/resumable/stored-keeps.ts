import { OlderStoredCount } from "./stored-count.ts";
import { StoredQuota, storedBytes } from "./stored-quota.ts";
import { type KeepOp, keepAlarmBy, type StoredResponseAnswer, writeKept } from "./stored-responses.ts";

/**
 * Characters of responses and inputs written in one commit at most: 16 Mi, eight responses of the
 * largest default size (`MAX_STORED_RESPONSE_BYTES`, 2 MiB) or one of a few pieces.
 */
const MAX_COMMIT_LENGTH = 16 * 1024 * 1024;

/**
 * Characters of the keeps waiting for their commit at most, together: four commits' worth (64 Mi,
 * up to 128 MiB as strings in the object's isolate). Keeps come as fast as responses complete
 * anywhere in the isolates that store in this object, and a commit (a sync of its database) may be
 * slow: unbounded, they piled up in the memory of the one object every client of its pool slot
 * shares. Past it a keep answers `busy` at once, nothing written (its response says `store: false`).
 */
const MAX_WAITING_LENGTH = 4 * MAX_COMMIT_LENGTH;

/**
 * Milliseconds a keep waits for others when the last commit held more than one response: keeps
 * are coming faster than commits, so waiting a little more gathers more of them per commit. A keep
 * after a commit of one (one response at a time) waits for a turn only.
 */
const GATHER_MS = 5;

/** How a keep waits for its commit: the platform's timer (a test records the waits it asks for). */
type KeepTimer = (write: () => void, ms: number) => void;

/** A keep waiting for its commit. */
interface Waiting {
  op: KeepOp;
  resolve: (answer: StoredResponseAnswer) => void;
  reject: (error: unknown) => void;
}

/**
 * The stored responses a pool object keeps, written together: a keep waits for a timer of 0 ms
 * ({@link GATHER_MS} when the last commit held more than one response), and the keeps that reach
 * the object meanwhile (those queued behind it, as at concurrency: an isolate stores all of its
 * responses in one object) are written one after the other with no await, so they commit
 * together. Each SQLite commit of an object is a sync of its database (locally an `fsync` on
 * workerd's one thread, a write to the storage service on Cloudflare): one for several responses
 * instead of one each. A keep still answers only once its response is
 * written and committed (the object's output gate holds the answer until then), so a client that
 * sends its next turn on `response.completed` finds it, as before.
 *
 * @example
 * ```ts
 * const keeps = new StoredKeeps(ctx.storage);
 * await keeps.keep({ type: "keep", id, owner, text, ttlMs }); // { type: "done", found: true }
 * ```
 */
export class StoredKeeps {
  readonly #storage: DurableObjectStorage;
  readonly #maxLength: number;
  readonly #timer: KeepTimer;
  readonly #quota: StoredQuota;
  /** The walk that counts the responses an older Worker stored uncounted (`stored-count.ts`). */
  readonly #older: OlderStoredCount;
  #waiting: Waiting[] = [];
  /** Characters of the keeps in {@link StoredKeeps.#waiting}, bounded by `maxWaiting`. */
  #waitingLength = 0;
  readonly #maxWaiting: number;
  /** Responses in the last commit. */
  #lastCount = 0;

  /**
   * Keeps in `storage`, an object's, at most `maxLength` characters of responses and their inputs
   * in one commit (at least one response): the keeps past it wait for the next turn. `timer`: the
   * platform's `setTimeout`, never a test's manual clock (a wait of 0 ms is a turn of the object's
   * event loop). `quota`: the count of the object's stored bytes (a keep past its op's
   * `maxObjectBytes` answers `full`, nothing written). `maxWaiting`: characters of the keeps waiting
   * for their commit at most (past it a keep answers `busy`, nothing written).
   */
  constructor(
    storage: DurableObjectStorage,
    maxLength = MAX_COMMIT_LENGTH,
    timer: KeepTimer = (write, ms) => void setTimeout(write, ms),
    quota: StoredQuota = new StoredQuota(storage.kv),
    maxWaiting = MAX_WAITING_LENGTH,
  ) {
    this.#storage = storage;
    this.#maxLength = maxLength;
    this.#timer = timer;
    this.#quota = quota;
    this.#maxWaiting = maxWaiting;
    this.#older = new OlderStoredCount(storage.kv);
  }

  /**
   * Keeps `op` with the keeps that reach the object before its turn: `found` false for an id that
   * is not a response id, `busy` (nothing written) while the keeps waiting hold `maxWaiting`.
   */
  keep(op: KeepOp): Promise<StoredResponseAnswer> {
    const length = lengthOf(op);
    // The first keep waits whatever its length: one response is bounded by MAX_STORED_RESPONSE_BYTES.
    if (this.#waiting.length > 0 && this.#waitingLength + length > this.#maxWaiting)
      return Promise.resolve({ type: "busy" });
    return new Promise((resolve, reject) => {
      this.#waiting.push({ op, resolve, reject });
      this.#waitingLength += length;
      if (this.#waiting.length > 1) return;
      // One at a time (the isolate started no other, the last commit held one): written now, as
      // the turn cost such a response 2 to 5 ms of latency (bench/load, stored Responses at c=1).
      if (op.alone && this.#lastCount <= 1) return void this.#write();
      // Stored Responses at c=10 (bench/load): 2.6 keeps a commit after a turn, 5 after 5 ms, and
      // 0.89 to 0.91 of the workerd CPU per response.
      this.#timer(() => void this.#write(), this.#lastCount > 1 ? GATHER_MS : 0);
    });
  }

  async #write(): Promise<void> {
    let length = 0;
    let count = 0;
    for (const { op } of this.#waiting) {
      const next = length + lengthOf(op);
      if (count > 0 && next > this.#maxLength) break;
      length = next;
      count++;
    }
    const waiting = this.#waiting.splice(0, count);
    this.#waitingLength -= length;
    this.#lastCount = count;
    // Past the bound: the rest at the next turn, not after another wait.
    if (this.#waiting.length > 0) this.#timer(() => void this.#write(), 0);
    // The older responses' bytes first, a page of them: the keeps below are held to the whole count.
    this.#older.step(this.#quota);
    const now = Date.now();
    const written: Waiting[] = [];
    let earliest: number | undefined;
    for (const keep of waiting) {
      const { op } = keep;
      const bytes = storedBytes(op.text, op.earlier);
      if (!this.#quota.take(bytes, op.maxObjectBytes ?? Number.POSITIVE_INFINITY)) {
        keep.resolve({ type: "full" });
        continue;
      }
      try {
        const expires = writeKept(this.#storage, op, now, bytes);
        if (expires === undefined) {
          this.#quota.give(bytes);
          keep.resolve({ type: "done", found: false });
        } else {
          written.push(keep);
          earliest = Math.min(earliest ?? expires, expires);
        }
      } catch (error) {
        // Its rows are unread without their header, and dropped at their expiry: the others are written.
        this.#quota.give(bytes);
        keep.reject(error);
      }
    }
    // The count, with the rows it counts: one write per commit.
    this.#quota.save();
    if (earliest === undefined) return;
    try {
      await keepAlarmBy(this.#storage, earliest);
      for (const keep of written) keep.resolve({ type: "done", found: true });
    } catch (error) {
      for (const keep of written) keep.reject(error);
    }
  }
}

/** Characters of a keep's response and its earlier items. */
function lengthOf(op: KeepOp): number {
  return op.text.length + (op.earlier?.length ?? 0);
}
