import type { Env } from "../../env.ts";
import { authenticatedSettings } from "../../http/auth.ts";
import { corsHeaders, corsOrigins, preflightResponse } from "../../http/cors.ts";
import type { RequestContext } from "../../http/request-context.ts";
import { asHttpError, HttpError } from "../../response/json-error.ts";
import { isObject, own } from "../../request/json-fields.ts";
import { responsePool } from "../../resumable/response-pool.ts";
import { StoredResponses } from "../../resumable/stored-response-pool.ts";
import { responsesErrorResponse } from "../openai-error.ts";
import { isItemReference, type StoredRecord, unknownStored } from "./conversation.ts";
import { storedIdOfResponse } from "./stored-ids.ts";

/**
 * The stored responses' own endpoints, as OpenAI's Responses API has them (the Open Responses
 * specification defines only `POST /responses`): `GET /v1/responses/<id>` (the response object),
 * `DELETE /v1/responses/<id>` (`{id, object: "response", deleted: true}`),
 * `GET /v1/responses/<id>/input_items` (a list of the items the model read, `after`, `limit` 1 to
 * 100 (default 20) and `order` `asc` or `desc` (the default)), and `POST /v1/responses/<id>/cancel`,
 * which OpenAI allows only for a `background` response: this Worker runs none, so it is a 400
 * for a stored response, as is `GET` with `stream=true` or `starting_after`: OpenAI streams a
 * background response again, and answers a response created without `background: true` a 400
 * of `param` `stream` ("This response cannot be streamed because it was not created with
 * background=true.", as openai-ruby issue 214 shows it), which this Worker's responses all are.
 * An unknown, expired, deleted or another token's id is a 404; errors are
 * in OpenAI's shape. Same authentication and CORS as `POST /v1/responses`.
 *
 * @module
 */

/**
 * True when the response to `body` may touch the stored responses: unless it says `store: false`
 * and names no `previous_response_id` and no `item_reference`, which then cost no storage at all.
 *
 * @example
 * ```ts
 * const stored = storing(body) ? await storedResponsesOf(context) : undefined;
 * ```
 */
export function storing(body: unknown): boolean {
  if (!isObject(body)) return false;
  if (own(body, "store") !== false) return true;
  if ((own(body, "previous_response_id") ?? null) !== null) return true;
  const input = own(body, "input");
  return Array.isArray(input) && input.some(isItemReference);
}

/**
 * The stored responses of the request's client token, or `undefined` without the `RESPONSES` binding.
 *
 * @example
 * ```ts
 * const stored = await storedResponsesOf(context);
 * ```
 */
export async function storedResponsesOf(
  context: Pick<RequestContext, "request" | "env" | "settings">,
): Promise<StoredResponses | undefined> {
  const { request, env, settings } = context;
  if (!env.RESPONSES) return undefined;
  // The pool's client is the token's owner (`tokenOwner`), hashed once.
  const pool = await responsePool(request, env.RESPONSES, settings);
  return new StoredResponses(pool, pool.client, settings);
}

// Under `/v1`, and under Azure OpenAI's `/openai` and `/openai/v1`, where its clients read them.
const PATH = /^\/(?:v1|openai|openai\/v1)\/responses\/([^/]+)(\/input_items|\/cancel)?$/;

/**
 * `GET`/`DELETE /v1/responses/<id>`, `GET /v1/responses/<id>/input_items` and
 * `POST /v1/responses/<id>/cancel`; `undefined` for another path.
 *
 * @example
 * ```ts
 * const answer = await storedResponseRoute(request, env); // in the router, before the 404
 * ```
 */
export async function storedResponseRoute(request: Request, env: Env): Promise<Response | undefined> {
  const url = new URL(request.url);
  const match = PATH.exec(url.pathname);
  if (!match) return undefined;
  const [, id, action = ""] = match;
  const origins = corsOrigins(env);
  const cors = corsHeaders(request, origins);
  // `POST /responses/compact`, which Open Responses servers MAY expose: a 404 in OpenAI's shape, as SDKs read it.
  if (match[1] === "compact" && !match[2])
    return responsesErrorResponse(
      new HttpError(
        404,
        {
          code: "not_found",
          message:
            "`/v1/responses/compact` is not served by this Worker: send the conversation in `input`, or `previous_response_id`.",
        },
        cors,
      ),
    );
  const methods = action === "" ? "GET, DELETE" : action === "/cancel" ? "POST" : "GET";
  try {
    if (request.method === "OPTIONS")
      return preflightResponse(request, origins, `${methods.replace("GET", "GET, HEAD")}, OPTIONS`);
    if (!methods.split(", ").includes(request.method))
      throw new HttpError(
        405,
        { code: "method_not_allowed", message: `Use ${methods}.` },
        // HEAD too where GET is: the router answers it as GET (worker/app.ts).
        { allow: `${methods.replace("GET", "GET, HEAD")}, OPTIONS` },
      );
    const settings = await authenticatedSettings(request, env);
    const stored = await storedResponsesOf({ request, env, settings });
    // Ids are letters, digits, `_` and `-`: one sent percent-encoded matches none.
    const storedId = storedIdOfResponse(id!);
    const headers = { ...cors, "cache-control": "no-store" };
    if (!stored || storedId === undefined) throw unknownStored("response_id", "response");
    if (request.method === "DELETE") {
      if (!(await stored.forget(storedId))) throw unknownStored("response_id", "response");
      return Response.json({ id, object: "response", deleted: true }, { headers });
    }
    const listing = action === "/input_items";
    const options = {
      withEarlier: listing ? [storedId] : [],
      maxLength: Number.MAX_SAFE_INTEGER,
      field: "response_id",
    };
    const read = (await stored.read([storedId], options)).get(storedId);
    if (read === undefined) throw unknownStored("response_id", "response");
    const record = JSON.parse(read.text) as StoredRecord;
    if (action === "/cancel")
      throw new HttpError(400, {
        code: "invalid_request",
        message:
          "Only a response created with `background: true` can be cancelled; this Worker runs none in the background.",
      });
    if (action === "") {
      // OpenAI streams (`stream=true`, from `starting_after`) a background response alone, and a 400
      // of `param` `stream` answers one created without it (a replay of its events is not what
      // OpenAI serves); a stream reader given the JSON object would read no event and no error.
      for (const [field, off] of [
        ["stream", "false"],
        ["starting_after", undefined],
      ] as const)
        if (url.searchParams.has(field) && url.searchParams.get(field) !== off)
          throw invalidQuery(
            field,
            `\`${field}\` is not supported: this response cannot be streamed because it was not created with background=true (this Worker runs none in the background); GET the response object.`,
          );
      return Response.json(record.response, { headers });
    }
    const earlier = read.earlier === null ? [] : (JSON.parse(read.earlier) as Record<string, unknown>[]);
    return Response.json(inputItemList([...earlier, ...record.input], url.searchParams), { headers });
  } catch (error) {
    const failure = asHttpError(error);
    return responsesErrorResponse(new HttpError(failure.status, failure.body, { ...failure.headers, ...cors }));
  }
}

/** A page of `items` as OpenAI lists input items: `order` (default `desc`), after item `after`, `limit` (1 to 100, default 20). */
function inputItemList(items: readonly Record<string, unknown>[], query: URLSearchParams): Record<string, unknown> {
  const order = query.get("order") ?? "desc";
  if (order !== "asc" && order !== "desc") throw invalidQuery("order", "`order` must be asc or desc.");
  const limitText = query.get("limit") ?? "20";
  const limit = /^\d{1,3}$/.test(limitText) ? Number(limitText) : Number.NaN;
  if (!(limit >= 1 && limit <= 100)) throw invalidQuery("limit", "`limit` must be an integer from 1 to 100.");
  const ordered = order === "asc" ? items : [...items].reverse();
  const after = query.get("after");
  let start = 0;
  if (after !== null) {
    start = ordered.findIndex((item) => item["id"] === after) + 1;
    if (start === 0) throw invalidQuery("after", "`after` names no input item of this response.");
  }
  const data = ordered.slice(start, start + limit);
  return {
    object: "list",
    data,
    first_id: data[0]?.["id"] ?? null,
    last_id: data.at(-1)?.["id"] ?? null,
    has_more: start + limit < ordered.length,
  };
}

const invalidQuery = (field: string, message: string): HttpError =>
  new HttpError(400, { code: "invalid_request", message, field });
