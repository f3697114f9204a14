/**
 * The ids a Responses client sees of a stored response and its items, and the stored response id
 * (`worker/resumable/response-id.ts`: `<place>-<slot>.<uuid>.<mac>`, signed by this Worker) each
 * one names. A client id carries the stored id with `_` for its dots, so that it holds only
 * letters, digits, `_` and `-` (what every provider takes in a call id): the response is
 * `resp_<token>`, an output item `<prefix>_<token><n>` (`msg_`, `fc_`, `rs_`, ...: the encoder's
 * prefixes, its `generateId` giving `<token><n>`), an input item the Worker named
 * `<prefix>_<token>i<n>`. So an `item_reference` names the response to read it from, and only an
 * id this Worker signed reaches an object. No provider gave these ids: an item goes upstream
 * without one ({@link withoutWorkerId}).
 *
 * @module
 */

const TOKEN = "((?:[a-z]{3}|any)-\\d{1,4})_([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})_([\\w-]{22})";
const RESPONSE = new RegExp(`^resp_${TOKEN}$`);
const ITEM = new RegExp(`^[a-z]+_${TOKEN}(i?)\\d+$`);

/** The token of stored response `storedId` in the ids a client sees. */
const tokenOf = (storedId: string): string => storedId.replaceAll(".", "_");

/**
 * The `id` a client sees of stored response `storedId`.
 *
 * @example
 * ```ts
 * clientResponseId("sjc-3.1b4e28ba-2fa1-41d2-883f-0016d3cca427.x1Vb0kq7Qd2aY3mT9cW8pA");
 * // "resp_sjc-3_1b4e28ba-2fa1-41d2-883f-0016d3cca427_x1Vb0kq7Qd2aY3mT9cW8pA"
 * ```
 */
export function clientResponseId(storedId: string): string {
  return `resp_${tokenOf(storedId)}`;
}

/**
 * The stored response a client's response id names, or `undefined` for any other string.
 *
 * @example
 * ```ts
 * storedIdOfResponse("resp_sjc-3_1b4e28ba-2fa1-41d2-883f-0016d3cca427_x1Vb0kq7Qd2aY3mT9cW8pA"); // "sjc-3.1b4e28ba-....x1Vb0kq7Qd2aY3mT9cW8pA"
 * ```
 */
export function storedIdOfResponse(id: string): string | undefined {
  const match = RESPONSE.exec(id);
  return match ? `${match[1]}.${match[2]}.${match[3]}` : undefined;
}

/**
 * The stored response an item id names (an output item's, or an input item's the Worker named:
 * `input` true), or `undefined`.
 *
 * @example
 * ```ts
 * storedIdOfItem("fc_sjc-3_1b4e28ba-2fa1-41d2-883f-0016d3cca427_x1Vb0kq7Qd2aY3mT9cW8pA2"); // { storedId: "sjc-3.1b4e28ba-....x1Vb0kq7Qd2aY3mT9cW8pA", input: false }
 * ```
 */
export function storedIdOfItem(id: string): { storedId: string; input: boolean } | undefined {
  const match = ITEM.exec(id);
  return match ? { storedId: `${match[1]}.${match[2]}.${match[3]}`, input: match[4] === "i" } : undefined;
}

/**
 * The `generateId` of the encoder of stored response `storedId`: `<token>0`, `<token>1`, ... so each
 * output item's id names it.
 *
 * @example
 * ```ts
 * new OpenAIResponsesEncoder({ model, id: clientResponseId(storedId), generateId: itemIds(storedId) });
 * ```
 */
export function itemIds(storedId: string): () => string {
  const token = tokenOf(storedId);
  let next = 0;
  return () => `${token}${next++}`;
}

/**
 * The id the Worker gives input item `n` of stored response `storedId` that came without one.
 *
 * @example
 * ```ts
 * inputItemId("sjc-3.1b4e28ba-2fa1-41d2-883f-0016d3cca427.x1Vb0kq7Qd2aY3mT9cW8pA", "msg", 0); // "msg_sjc-3_..._x1Vb0kq7Qd2aY3mT9cW8pAi0"
 * ```
 */
export function inputItemId(storedId: string, prefix: string, n: number): string {
  return `${prefix}_${tokenOf(storedId)}i${n}`;
}

/**
 * `item` as an upstream takes it back: without an `id` this Worker made ({@link storedIdOfItem}:
 * one it gave an input item that came without, or one its encoder gave an output item), which no
 * provider gave. OpenAI checks an id's prefix by the item's type and binds a reasoning item's
 * encrypted content to the id it gave: the item goes as the client first sent it, without one.
 * Any other id (OpenAI's, the client's) stays, and so does a local shell call's `lsh_` id, which
 * the Worker's output gave it: OpenAI's `LocalShellCall` input requires an `id` (no other item's
 * does), and that one has its type's prefix.
 *
 * @example
 * ```ts
 * withoutWorkerId({ type: "web_search_call", id: "item_sjc-3_..._x1Vb0kq7Qd2aY3mT9cW8pAi2", status: "completed" }); // { type: "web_search_call", status: "completed" }
 * ```
 */
export function withoutWorkerId<T extends Record<string, unknown>>(item: T): T {
  const id = item["id"];
  if (typeof id !== "string" || storedIdOfItem(id) === undefined) return item;
  if (item["type"] === "local_shell_call" && id.startsWith("lsh_")) return item;
  const { id: _id, ...rest } = item;
  return rest as T;
}
