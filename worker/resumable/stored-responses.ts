import { Expiries } from "./expiries.ts";
import { deleteResponse, keyedStore } from "./keyed-store.ts";
import { objectNameOf } from "./response-id.ts";

/**
 * The stored `/v1/responses` responses of a pool object (`store`, `previous_response_id`,
 * `item_reference`, `GET`/`DELETE /v1/responses/<id>`), in the object's storage beside the
 * resumable logs: each under its id's keys (`r:<id>:stored:*`, `keyed-store.ts`), so the alarm
 * that drops a log past its time drops a stored response the same way (`expiries.ts`). A response
 * is written once, when it completed: its JSON text in pieces of at most {@link PIECE_LENGTH}
 * characters (a stored value has a size limit) and a header naming its owner (a hash of the
 * client token that created it) and its expiry, in one commit. Reads check both: another owner's
 * or an expired response is as absent as an unknown one.
 *
 * @module
 */

/** One operation on the stored responses of an object, as the Worker asks it (`ResponseBuffer.storedResponses`). */
export type StoredResponseOp =
  | {
      /** Keeps response `id`'s JSON `text` for `owner` until `ttlMs` from now. */
      type: "keep";
      id: string;
      owner: string;
      text: string;
      ttlMs: number;
    }
  | {
      /** The texts of responses `ids` that `owner` stored and that have not expired. */
      type: "read";
      ids: readonly string[];
      owner: string;
    }
  | {
      /** Deletes response `id` when `owner` stored it. */
      type: "forget";
      id: string;
      owner: string;
    };

/** What a {@link StoredResponseOp} answers: `texts` for a read (`null` where absent), `found` for a keep or a forget. */
export type StoredResponseAnswer = { type: "texts"; texts: (string | null)[] } | { type: "done"; found: boolean };

/** A stored response's header. */
interface StoredHeader {
  owner: string;
  pieces: number;
  expires: number;
}

/**
 * Characters per stored piece: at most 3 UTF-8 bytes each, so a piece stays under the 2 MB of a
 * value in a SQLite-backed object's storage; a typical response is one piece, one row.
 */
const PIECE_LENGTH = 512 * 1024;
const HEADER = "stored:head";
const piece = (n: number): string => `stored:${n}`;

/**
 * Runs `op` on `storage` at time `now`.
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
): Promise<StoredResponseAnswer> {
  const { kv } = storage;
  if (op.type === "read") {
    const texts = op.ids.map((id) => {
      const store = keyedStore(kv, id);
      const head = ownHeader(store.get(HEADER), op.owner, now);
      if (objectNameOf(id) === undefined || !head) return null;
      let text = "";
      for (let n = 0; n < head.pieces; n++) text += store.get(piece(n)) as string;
      return text;
    });
    return { type: "texts", texts };
  }
  if (objectNameOf(op.id) === undefined) return { type: "done", found: false };
  const store = keyedStore(kv, op.id);
  if (op.type === "forget") {
    if (!ownHeader(store.get(HEADER), op.owner, now)) return { type: "done", found: false };
    storage.transactionSync(() => {
      deleteResponse(kv, op.id);
      new Expiries(kv).forget(op.id);
    });
    return { type: "done", found: true };
  }
  const expires = now + op.ttlMs;
  const pieces = Math.max(1, Math.ceil(op.text.length / PIECE_LENGTH));
  const earliest = storage.transactionSync(() => {
    for (let n = 0; n < pieces; n++) store.put(piece(n), op.text.slice(n * PIECE_LENGTH, (n + 1) * PIECE_LENGTH));
    store.put(HEADER, { owner: op.owner, pieces, expires } satisfies StoredHeader);
    return new Expiries(kv).set(op.id, expires);
  });
  if (earliest) await storage.setAlarm(expires);
  return { type: "done", found: true };
}

/** The header when it is `owner`'s and has not expired at `now`. */
function ownHeader(value: unknown, owner: string, now: number): StoredHeader | undefined {
  const head = value as StoredHeader | undefined;
  return head !== undefined && head.owner === owner && head.expires > now ? head : undefined;
}
