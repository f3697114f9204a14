/**
 * Conversation state at the edge for `POST /v1/responses`: a request's `previous_response_id`
 * and `item_reference` items read from the stored responses (`worker/resumable/stored-responses.ts`),
 * and what a response stores for the next turn.
 *
 * A stored response keeps its response object (its output with the reasoning items and their
 * `encrypted_content`, its calls, `instructions` and the settings it repeats) and, apart, its
 * input: the items of its previous response (its earlier items, input and output), then those of
 * its request, item references resolved, each with an `id` (./stored-ids.ts: one the Worker gave
 * never goes upstream) and, where OpenAI's item has one, a `status`, as
 * `GET /v1/responses/<id>/input_items` lists them. An `item_reference` to an output item reads
 * the response object alone, whatever came before it. A request with `previous_response_id` is answered as if it had sent that input and
 * output before its own `input` (not its `instructions`, which OpenAI does not carry over either);
 * an `item_reference` is replaced, where it stands, by the stored item it names (in the response
 * its id names). Both reach every provider as if the client had sent the items.
 *
 * @module
 */
import { HttpError, invalidField } from "../../response/json-error.ts";
import { isObject, own } from "../../request/json-fields.ts";
import type { StoredResponses } from "../../resumable/stored-response-pool.ts";
import { inputItemId, storedIdOfItem, storedIdOfResponse } from "./stored-ids.ts";

/**
 * What a stored response holds: the response object (its input, the earlier items of its
 * `previous_response_id` first, is kept apart, `worker/resumable/stored-responses.ts`).
 */
export interface StoredRecord {
  /** The response object, as `GET /v1/responses/<id>` answers it. */
  response: Record<string, unknown> & { output: unknown[] };
  /** Empty (a response stored before its input was kept apart held it here). */
  input: Record<string, unknown>[];
}

/** A request's conversation, read from the stored responses. */
export interface Conversation {
  /** The body, its `item_reference` items replaced by the items they name. */
  body: unknown;
  /** The input and output of the previous response, when the request named one. */
  earlier: Record<string, unknown>[] | undefined;
  /** The `previous_response_id` sent, when it was. */
  previousResponseId: string | undefined;
  /** The tools the previous response was offered (its `tools`), when the request named one. */
  earlierTools?: unknown;
  /** The indexes of `input` whose `item_reference` was replaced: items the Worker stored, not the client's. */
  referenced?: ReadonlySet<number>;
}

/**
 * Whether an input item is an `item_reference`: of that type, or (the spec's `ItemReferenceParam`
 * types `type` as optional or `null`) an item with an `id` but neither a `type` nor a `role`, which
 * every message has, with or without its `type`.
 */
export function isItemReference(item: unknown): boolean {
  if (!isObject(item)) return false;
  const type = own(item, "type") ?? undefined;
  return (
    type === "item_reference" ||
    (type === undefined && own(item, "role") === undefined && own(item, "id") !== undefined)
  );
}

/** The most stored responses the `item_reference` items of one request may name. */
const MAX_REFERENCED_RESPONSES = 1024;

/** An `item_reference` at `path` (its `type`) without stored responses to read it from. */
export const unstoredReference = (path: string): HttpError =>
  invalidField(
    path,
    "An `item_reference` is not supported without stored responses (the `RESPONSES` binding): send the item itself.",
  );

/** The 404 of an id that names no stored response (unknown, expired, deleted, or another token's). */
export const unknownStored = (field: string, what: string): HttpError =>
  new HttpError(404, {
    code: "unknown_response",
    message: `No stored ${what} has this id: unknown, expired, deleted, or stored with another client token.`,
    field,
  });

/**
 * The 400 of a `previous_response_id` that names no stored response, as OpenAI answers it
 * (`invalid_request_error`, code `previous_response_not_found`, param `previous_response_id`):
 * clients match that code to send the whole conversation again instead (a 404 reads as a wrong
 * URL or model to them).
 */
const previousNotFound = (): HttpError =>
  new HttpError(400, {
    code: "previous_response_not_found",
    message: "Previous response not found: unknown, expired, deleted, or stored with another client token.",
    field: "previous_response_id",
  });

/**
 * Reads the stored responses `body` names (its `previous_response_id` with its earlier items, the
 * responses of its `item_reference` items without theirs unless an input item is named: one read per object, at most
 * `maxLength` characters in all, else a 400) and resolves them. Without `stored` (no
 * `RESPONSES` binding), or with nothing to read, the body is as sent: the parser refuses what it
 * cannot take (an `item_reference` with {@link unstoredReference}).
 *
 * @example
 * ```ts
 * const { body: resolved, earlier } = await readConversation(body, stored, settings.maxAgentBodyBytes);
 * ```
 */
export async function readConversation(
  body: unknown,
  stored: StoredResponses | undefined,
  maxLength: number,
): Promise<Conversation> {
  const none: Conversation = { body, earlier: undefined, previousResponseId: undefined };
  if (!stored || !isObject(body)) return none;
  const previous = own(body, "previous_response_id") ?? undefined;
  const input = own(body, "input");
  const references = Array.isArray(input) ? input.flatMap((item, i) => (isItemReference(item) ? [i] : [])) : [];
  if (previous === undefined && references.length === 0) return none;
  if (previous !== undefined && typeof previous !== "string")
    throw invalidField("previous_response_id", "`previous_response_id` must be a string.");
  const previousId = previous === undefined ? undefined : storedIdOfResponse(previous);
  if (previous !== undefined && previousId === undefined) throw previousNotFound();
  const seen = new Set<string>();
  const wanted = references.map((i) => {
    const id = own((input as Record<string, unknown>[])[i]!, "id");
    if (typeof id !== "string") throw invalidField(`input[${i}].id`, "An `item_reference` needs the `id` of an item.");
    // Each reference becomes a copy of its item: one item named many times would make a small
    // request a provider body (and a stored input) far past what was read. OpenAI refuses it too.
    if (seen.has(id))
      throw invalidField(
        `input[${i}].id`,
        `Duplicate item found with id ${id}: an input names each item once. Remove the duplicate and try again.`,
      );
    seen.add(id);
    const named = storedIdOfItem(id);
    if (named === undefined) throw unknownStored(`input[${i}].id`, "item");
    return { i, id, from: named.storedId, input: named.input };
  });
  // Each response named costs a check of its id's MAC and a read: a bounded number per request.
  if (new Set(wanted.map(({ from }) => from)).size > MAX_REFERENCED_RESPONSES)
    throw invalidField(
      "input",
      `The \`item_reference\` items name more than ${MAX_REFERENCED_RESPONSES} responses: send the items themselves, or \`previous_response_id\`.`,
    );
  const texts = await stored.read([...(previousId ? [previousId] : []), ...wanted.map(({ from }) => from)], {
    // A response's input is kept with its earlier items: read for an input item's reference alone.
    withEarlier: [...(previousId ? [previousId] : []), ...wanted.flatMap(({ from, input }) => (input ? [from] : []))],
    maxLength,
    field: previousId ? "previous_response_id" : "input",
  });
  const records = new Map<string, StoredRecord>();
  const record = (id: string): StoredRecord | undefined => {
    const text = texts.get(id)?.text;
    if (text !== undefined && !records.has(id)) records.set(id, JSON.parse(text) as StoredRecord);
    return records.get(id);
  };
  const earlier = (id: string): Record<string, unknown>[] => {
    const text = texts.get(id)?.earlier;
    return text ? (JSON.parse(text) as Record<string, unknown>[]) : [];
  };
  const before = previousId === undefined ? undefined : record(previousId);
  if (previousId !== undefined && !before) throw previousNotFound();
  // Each response's items by id, made once: a request may hold many references to one response.
  const indexes = new Map<string, Map<unknown, unknown>>();
  const itemsOf = (from: string): Map<unknown, unknown> => {
    let index = indexes.get(from);
    if (index) return index;
    const found = record(from);
    index = new Map();
    for (const one of found ? [...found.input, ...earlier(from), ...found.response.output] : [])
      if (isObject(one) && !index.has(own(one, "id"))) index.set(own(one, "id"), one);
    indexes.set(from, index);
    return index;
  };
  let resolved = body;
  if (wanted.length > 0) {
    const items = [...(input as unknown[])];
    for (const { i, id, from } of wanted) {
      const item = itemsOf(from).get(id);
      if (item === undefined) throw unknownStored(`input[${i}].id`, "item");
      items[i] = item;
    }
    resolved = { ...body, input: items };
  }
  const earlierItems =
    before && previousId
      ? [...earlier(previousId), ...before.input, ...(before.response.output as Record<string, unknown>[])]
      : undefined;
  refuseBroughtAgain(input, earlierItems, wanted);
  return {
    body: resolved,
    referenced: new Set(wanted.map(({ i }) => i)),
    earlier: earlierItems,
    previousResponseId: previous,
    ...(before ? { earlierTools: before.response["tools"] } : {}),
  };
}

/**
 * A 400 naming the first input item that repeats, by its `id`, an item the Worker brings itself: one
 * of `previous_response_id`'s items (as a reference or sent whole), or one an `item_reference` of the
 * same request names. The conversation would hold it twice: OpenAI refuses that ("Duplicate item
 * found"), Anthropic a `tool_use` id twice, and the others read it twice. Items the client alone
 * sends are its own to repeat.
 */
function refuseBroughtAgain(
  input: unknown,
  earlier: readonly Record<string, unknown>[] | undefined,
  wanted: readonly { i: number; id: string }[],
): void {
  if (!Array.isArray(input)) return;
  const fromEarlier = new Set(earlier?.map((item) => (isObject(item) ? own(item, "id") : undefined)));
  const referenced = new Map(wanted.map(({ i, id }) => [id, i]));
  for (const [i, item] of input.entries()) {
    const id = isObject(item) ? own(item, "id") : undefined;
    if (typeof id !== "string") continue;
    const by = fromEarlier.has(id)
      ? "`previous_response_id` brings it already"
      : referenced.has(id) && referenced.get(id) !== i
        ? `\`input[${referenced.get(id)}]\` names it already`
        : undefined;
    if (by)
      throw invalidField(
        `input[${i}].id`,
        `Duplicate item found with id ${id}: ${by}. Remove the duplicate and try again.`,
      );
  }
}

/**
 * The body of a request to Bedrock, which must list the tools of a conversation that holds calls:
 * one that lists none, after a previous response that made calls (the spec's function-call round
 * trip sends only the calls' outputs), is offered that response's tools again, as Open Responses
 * counts them in the previous response's input (OpenAI, and so every other provider here, takes
 * none unless the request lists them). Else the body as it is.
 *
 * @example
 * ```ts
 * const fields = withEarlierTools(body, provider, conversation);
 * ```
 */
export function withEarlierTools(
  body: Record<string, unknown>,
  provider: string,
  conversation: Pick<Conversation, "earlier" | "earlierTools"> | undefined,
): Record<string, unknown> {
  const tools = conversation?.earlierTools;
  if (provider !== "bedrock" || !Array.isArray(tools) || tools.length === 0) return body;
  if ((own(body, "tools") ?? undefined) !== undefined) return body;
  const called = conversation?.earlier?.some(
    (item) => own(item, "type") === "function_call" || own(item, "type") === "custom_tool_call",
  );
  return called ? { ...body, tools } : body;
}

/** The id prefix of an input item the Worker names, by its type. */
const PREFIXES: Readonly<Record<string, string>> = {
  message: "msg",
  function_call: "fc",
  function_call_output: "fco",
  custom_tool_call: "ctc",
  custom_tool_call_output: "ctco",
  reasoning: "rs",
};

/** The input items OpenAI lists without a `status` (openai 7's `ResponseItem`: a reasoning item has its `summary`). */
const WITHOUT_STATUS =
  /^(reasoning|compaction|configuration_update|program|additional_tools|mcp_(list_tools|approval_request|approval_response))$/;

/**
 * The input items of a request stored with response `storedId`, each with an `id` (the client's,
 * or one naming this response) and a `status` where OpenAI's item has one, a message's text as a
 * content part, as OpenAI lists input items (the earlier ones of `previous_response_id` are stored
 * apart, as they were). A `compaction_trigger` is not kept: it did its work in this response,
 * whose `compaction` item carries the context on (sent again, it would compact again; OpenAI's
 * `ResponseItem` has no such item to list).
 *
 * @example
 * ```ts
 * const input = storedInput(storedId, resolvedBody);
 * ```
 */
export function storedInput(storedId: string, body: unknown): Record<string, unknown>[] {
  const given = isObject(body) ? own(body, "input") : undefined;
  const items = typeof given === "string" ? [{ role: "user", content: given }] : Array.isArray(given) ? given : [];
  return items.flatMap((value, n): Record<string, unknown>[] => {
    const item = { ...(value as Record<string, unknown>) };
    const type = typeof item["type"] === "string" ? item["type"] : "message";
    if (type === "compaction_trigger") return [];
    item["type"] = type;
    if (typeof item["id"] !== "string") item["id"] = inputItemId(storedId, PREFIXES[type] ?? "item", n);
    if (type === "reasoning") item["summary"] ??= [];
    else if (!WITHOUT_STATUS.test(type)) item["status"] ??= "completed";
    if (type === "message" && typeof item["content"] === "string") {
      const text = item["content"];
      item["content"] = [
        item["role"] === "assistant" ? { type: "output_text", text, annotations: [] } : { type: "input_text", text },
      ];
    }
    return [item];
  });
}
