import { Expiries } from "./expiries.ts";
import { deleteResponse, keyedStore, type KvStorage } from "./keyed-store.ts";
import { objectNameOf } from "./response-id.ts";
import { BYTES_PER_UNIT, StoredQuota, storedBytes } from "./stored-quota.ts";

/**
 * The stored `/v1/responses` responses of a pool object (`store`, `previous_response_id`,
 * `item_reference`, `GET`/`DELETE /v1/responses/<id>`), in the object's storage beside the
 * resumable logs: each under its id's keys (`r:<id>:stored:*`, `keyed-store.ts`), so the alarm
 * that drops a log past its time drops a stored response the same way (`expiries.ts`). A response
 * is written once, when it completed: its JSON text (the response object) and, apart, the items
 * the model read (those it continued from by `previous_response_id`, then its request's: read
 * only for the next `previous_response_id`, `input_items` and a reference to an input item, so
 * that a reference to one of its output items reads the response alone), each in pieces of at most {@link PIECE_LENGTH} characters (a stored
 * value has a size limit), and a header naming its owner (a hash of the client token that
 * created it) and its expiry, in one commit. Reads check both: another owner's
 * or an expired response is as absent as an unknown one.
 *
 * @module
 */

/** One operation on the stored responses of an object, as the Worker asks it (`ResponseBuffer.storedResponses`). */
export type StoredResponseOp =
  | {
      /**
       * Keeps response `id`'s JSON `text` for `owner` until `ttlMs` from now, and the `earlier`
       * items it continued from (`previous_response_id`), apart: a reference to one of its items
       * reads `text` alone.
       */
      type: "keep";
      id: string;
      owner: string;
      text: string;
      earlier?: string | undefined;
      ttlMs: number;
      /**
       * No other stored response of the Worker's isolate started after this one (none is likely to
       * be kept soon): the object writes it at once rather than after a turn for others.
       */
      alone?: boolean | undefined;
      /**
       * Most bytes the object's stored responses may take together (`MAX_STORED_BYTES_PER_OBJECT`,
       * `stored-quota.ts`): past it the keep answers `full` and writes nothing. Absent: no bound.
       */
      maxObjectBytes?: number | undefined;
    }
  | {
      /**
       * The texts of responses `ids` that `owner` stored and that have not expired, with their
       * earlier items for those in `withEarlier`; `too-large` past `maxLength` characters in all.
       */
      type: "read";
      ids: readonly string[];
      withEarlier: readonly string[];
      owner: string;
      maxLength: number;
    }
  | {
      /** Deletes response `id` when `owner` stored it. */
      type: "forget";
      id: string;
      owner: string;
    };

/**
 * What a {@link StoredResponseOp} answers: `texts` for a read (`null` where absent; `earlier` where
 * asked for and kept), `too-large` for a read past its length, `found` for a keep or a forget,
 * `full` for a keep past the object's `maxObjectBytes`, `busy` for one that found the object's
 * queue of keeps full (`stored-keeps.ts`): neither written.
 */
export type StoredResponseAnswer =
  | { type: "texts"; texts: ({ text: string; earlier: string | null } | null)[] }
  | { type: "too-large" }
  | { type: "done"; found: boolean }
  | { type: "full" }
  | { type: "busy" };

/**
 * A stored response's header: how many pieces its text and its earlier items take, or (a response
 * and earlier items of one piece each, nearly every one) the texts themselves, in the one row.
 */
interface StoredHeader {
  owner: string;
  pieces: number;
  earlierPieces: number;
  expires: number;
  text?: string;
  earlier?: string;
  /** What it counts against the object's bound (`stored-quota.ts`); absent in older headers, counted nowhere. */
  bytes?: number;
}

/**
 * Characters per stored piece: at most 3 UTF-8 bytes each, so a piece stays under the 2 MB of a
 * value in a SQLite-backed object's storage; a typical response is one piece, one row.
 */
const PIECE_LENGTH = 512 * 1024;
const HEADER = "stored:head";
const piece = (n: number): string => `stored:${n}`;
const earlierPiece = (n: number): string => `stored:e${n}`;

/**
 * Runs `op` on `storage` at time `now`, counting what it keeps or deletes in `quota`.
 *
 * @example
 * ```ts
 * await storedResponseOp(ctx.storage, { type: "read", ids: [id], owner }, Date.now());
 * ```
 */
export async function storedResponseOp(
  storage: DurableObjectStorage,
  op: StoredResponseOp,
  now: number,
  quota: StoredQuota = new StoredQuota(storage.kv),
): Promise<StoredResponseAnswer> {
  const { kv } = storage;
  if (op.type === "read") {
    let length = 0;
    const texts: ({ text: string; earlier: string | null } | null)[] = [];
    for (const id of op.ids) {
      const store = keyedStore(kv, id);
      const head = objectNameOf(id) === undefined ? undefined : ownHeader(store.get(HEADER), op.owner, now);
      if (!head) {
        texts.push(null);
        continue;
      }
      const text = head.text ?? joined(store, piece, head.pieces);
      const earlier = !op.withEarlier.includes(id)
        ? null
        : (head.earlier ?? (head.earlierPieces > 0 ? joined(store, earlierPiece, head.earlierPieces) : null));
      length += text.length + (earlier?.length ?? 0);
      if (length > op.maxLength) return { type: "too-large" };
      texts.push({ text, earlier });
    }
    return { type: "texts", texts };
  }
  if (op.type === "keep") {
    const bytes = storedBytes(op.text, op.earlier);
    if (objectNameOf(op.id) === undefined) return { type: "done", found: false };
    if (!quota.take(bytes, op.maxObjectBytes ?? Number.POSITIVE_INFINITY)) return { type: "full" };
    const expires = writeKept(storage, op, now, bytes);
    quota.save();
    if (expires === undefined) return { type: "done", found: false };
    await keepAlarmBy(storage, expires);
    return { type: "done", found: true };
  }
  if (objectNameOf(op.id) === undefined) return { type: "done", found: false };
  const store = keyedStore(kv, op.id);
  const head = ownHeader(store.get(HEADER), op.owner, now);
  if (!head) return { type: "done", found: false };
  storage.transactionSync(() => {
    deleteResponse(kv, op.id);
    new Expiries(kv).forget(op.id, head.expires);
    quota.give(head.bytes ?? 0);
    quota.save();
  });
  return { type: "done", found: true };
}

/** A {@link StoredResponseOp} that keeps a response. */
export type KeepOp = Extract<StoredResponseOp, { type: "keep" }>;

/**
 * Writes what `op` keeps (its expiry entry, then its rows, the header last, with the `bytes` it
 * counts against the object's bound) at time `now`, with no
 * await: writes of several keeps made one after the other commit together. Returns its expiry, or
 * `undefined` (nothing written) for an id that is not a response id. The caller then moves the
 * alarm ({@link keepAlarmBy}).
 *
 * No `transactionSync` of its own (its savepoint was a quarter of a keep's row writes,
 * bench/load/stored-callgrind.ts): the rows commit with the object's turn, and a write that throws
 * part way leaves only rows that nothing reads (no header yet) and that the expiry entry, written
 * first, drops.
 *
 * @example
 * ```ts
 * const expires = writeKept(ctx.storage, op, Date.now());
 * if (expires !== undefined) await keepAlarmBy(ctx.storage, expires);
 * ```
 */
export function writeKept(storage: DurableObjectStorage, op: KeepOp, now: number, bytes?: number): number | undefined {
  if (objectNameOf(op.id) === undefined) return undefined;
  const { kv } = storage;
  const store = keyedStore(kv, op.id);
  const expires = now + op.ttlMs;
  const text = split(op.text);
  const earlier = op.earlier === undefined ? [] : split(op.earlier);
  // The id was just minted (`StoredResponses.newId`) and is kept once: no entry to replace.
  new Expiries(kv).add(op.id, expires);
  const head: StoredHeader = { owner: op.owner, pieces: 0, earlierPieces: 0, expires };
  if (bytes !== undefined) head.bytes = bytes;
  // In the header's row only when both together fit one piece: a row holds what one piece may.
  if (text.length === 1 && earlier.length <= 1 && text[0]!.length + (earlier[0]?.length ?? 0) <= PIECE_LENGTH) {
    head.text = text[0]!;
    if (op.earlier !== undefined) head.earlier = earlier[0]!;
  } else {
    text.forEach((part, n) => store.put(piece(n), part));
    earlier.forEach((part, n) => store.put(earlierPiece(n), part));
    head.pieces = text.length;
    head.earlierPieces = earlier.length;
  }
  store.put(HEADER, head);
  return expires;
}

/**
 * Moves the object's alarm to `expires` when it is set later (or not at all): the alarm is never
 * later than the earliest expiry.
 *
 * @example
 * ```ts
 * await keepAlarmBy(ctx.storage, Date.now() + ttlMs);
 * ```
 */
export async function keepAlarmBy(storage: DurableObjectStorage, expires: number): Promise<void> {
  const alarm = await storage.getAlarm();
  if (alarm === null || alarm > expires) await storage.setAlarm(expires);
}

/**
 * What stored response `id` counts against its object's bound (its header's `bytes`): 0 for none,
 * for a resumable log, and for one an older Worker stored.
 *
 * @example
 * ```ts
 * quota.give(keptBytes(ctx.storage.kv, id)); // before deleting it
 * ```
 */
export function keptBytes(kv: DurableObjectStorage["kv"], id: string): number {
  return (keyedStore(kv, id).get(HEADER) as StoredHeader | undefined)?.bytes ?? 0;
}

/**
 * Counts stored response `id` when an older Worker stored it (its header has no `bytes`): its
 * bytes, as {@link storedBytes} counts them, written into its header (so its deletion or expiry
 * gives them back) and returned; `undefined` for a response counted already, or none. Reads its
 * header and at most its two last pieces (every other piece is {@link PIECE_LENGTH} long).
 *
 * @example
 * ```ts
 * const bytes = countOlder(ctx.storage.kv, id);
 * if (bytes !== undefined) quota.take(bytes, Number.POSITIVE_INFINITY);
 * ```
 */
export function countOlder(kv: KvStorage, id: string): number | undefined {
  const store = keyedStore(kv, id);
  const head = store.get(HEADER) as StoredHeader | undefined;
  if (head === undefined || head.bytes !== undefined) return undefined;
  const length = (count: number, key: (n: number) => string): number =>
    count === 0 ? 0 : (count - 1) * PIECE_LENGTH + ((store.get(key(count - 1)) as string | undefined)?.length ?? 0);
  const units =
    head.pieces === 0
      ? (head.text?.length ?? 0) + (head.earlier?.length ?? 0)
      : length(head.pieces, piece) + length(head.earlierPieces, earlierPiece);
  head.bytes = BYTES_PER_UNIT * units;
  store.put(HEADER, head);
  return head.bytes;
}

/** `text` in pieces of at most {@link PIECE_LENGTH} characters (one, empty, for an empty text). */
function split(text: string): string[] {
  const pieces: string[] = [];
  for (let at = 0; at < text.length || pieces.length === 0; at += PIECE_LENGTH)
    pieces.push(text.slice(at, at + PIECE_LENGTH));
  return pieces;
}

/** The text of `count` pieces named by `key`. */
function joined(store: { get(key: string): unknown }, key: (n: number) => string, count: number): string {
  let text = "";
  for (let n = 0; n < count; n++) text += store.get(key(n)) as string;
  return text;
}

/** The header when it is `owner`'s and has not expired at `now`. */
function ownHeader(value: unknown, owner: string, now: number): StoredHeader | undefined {
  const head = value as StoredHeader | undefined;
  return head !== undefined && head.owner === owner && head.expires > now ? head : undefined;
}
