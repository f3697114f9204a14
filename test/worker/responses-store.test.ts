// Conversation state at the edge, in workerd with the RESPONSES Durable Objects: a /v1/responses
// response is stored at its end (`store`, the default), `previous_response_id` and
// `item_reference` items read it back on the next turn (what the provider is sent is checked in
// its own shape), across a restart of every object; GET, DELETE, input_items and cancel answer as
// OpenAI's API does, their objects checked against the Open Responses schemas; an unknown,
// forged, expired, deleted or other token's id is a 404 naming the field.
import { abortAllDurableObjects, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { Provider } from "../../src/index.ts";
import type { Env } from "../../worker/env.ts";
import { itemIssues, readConformingResponse, readConformingStream, responseIssues } from "../support/open-responses.ts";
import { storedIdOfResponse } from "../../worker/protocols/openai-responses/stored-ids.ts";
import { objectNameOf } from "../../worker/resumable/response-id.ts";
import { sharedData } from "../support/shared-data.ts";
import { post } from "./client-support.ts";
import { runExpiryAlarm } from "./durable-support.ts";
import {
  anthropicThinkingStream,
  ENCRYPTED,
  REDACTED,
  responsesReasoningStream,
  SIGNATURE,
  THOUGHT,
} from "./reasoning-streams.ts";
import { AUTH, live, scripted } from "./open-responses-support.ts";
import type { StoredResponseOp } from "../../worker/resumable/stored-responses.ts";
import { type FakeUpstream, objectOf, responseObjects, responses, worker } from "./support.ts";

const WEATHER = {
  type: "function",
  name: "get_weather",
  parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
};
const stored = (provider: Provider, overrides: Partial<Env> = {}): Env => ({
  ...live(provider),
  RESPONSES: responses,
  ...overrides,
});
const CALL = { calls: [{ name: "get_weather", arguments: { city: "Paris" } }] };
const schemas = sharedData["open-responses"].available;

/** A Worker on one fake upstream whose answer is set per turn. */
function conversation(provider: Provider, env = stored(provider)) {
  let upstream: FakeUpstream = scripted(provider, CALL);
  const app = worker(upstream);
  const send = (body: Record<string, unknown>, headers = AUTH.headers) =>
    app.call(post("/v1/responses", { model: `${provider}/test-model`, tools: [WEATHER], ...body }, { headers }), env);
  const get = (path: string, method = "GET", headers = AUTH.headers) =>
    app.call(new Request(`http://localhost:8787/v1/responses/${path}`, { method, headers }), env);
  return {
    send,
    get,
    answer: (turn: Parameters<typeof scripted>[1]) => {
      const next = scripted(provider, turn);
      upstream.answer = next.answer;
      return upstream;
    },
    upstream: () => upstream,
    reset: (next: FakeUpstream) => {
      upstream = next;
    },
  };
}

const json = async (response: Response) => (await response.json()) as Record<string, unknown>;

/**
 * The response of an answer (a stream's terminal one), its events and object checked against the
 * Open Responses schemas when ../shared has them (a clone without it still runs the round trips).
 */
async function conforming(
  answer: Response,
  stream: boolean,
): Promise<{ response: Record<string, unknown> | undefined }> {
  if (schemas) {
    const { issues, response } = await (stream ? readConformingStream(answer) : readConformingResponse(answer));
    expect(issues).toEqual([]);
    return { response };
  }
  if (!stream) return { response: await json(answer) };
  const terminal = (await answer.text())
    .split("\n")
    .filter((line) => line.startsWith('data: {"type":"response.completed"'))
    .at(-1);
  if (terminal === undefined) return { response: undefined };
  return { response: (JSON.parse(terminal.slice("data: ".length)) as { response: Record<string, unknown> }).response };
}
const outputOf = (response: Record<string, unknown>) => response["output"] as Record<string, unknown>[];
/** `id` with its character at `at` (from the end) changed: its MAC no longer checks. */
const forge = (id: string, at: number) => {
  const i = id.length - at;
  return `${id.slice(0, i)}${id[i] === "A" ? "B" : "A"}${id.slice(i + 1)}`;
};

describe("stored /v1/responses: previous_response_id", () => {
  for (const provider of ["anthropic", "openai", "gemini", "bedrock"] as Provider[]) {
    it(`${provider}: turn 2 continues from turn 1's stored input and output, and says so`, async () => {
      const chat = conversation(provider);
      const first = await conforming(
        await chat.send({ input: "Weather in Paris?", instructions: "Be brief.", stream: true }),
        true,
      );
      expect(first.response).toMatchObject({ status: "completed", store: true, previous_response_id: null });
      const call = outputOf(first.response!).find((item) => item["type"] === "function_call")!;
      const upstream = chat.answer({ text: "It is sunny in Paris." });
      const second = await chat.send({
        previous_response_id: first.response!["id"],
        input: [{ type: "function_call_output", call_id: call["call_id"], output: "18 °C, sunny" }],
      });
      const { response } = await conforming(second, false);
      expect(response).toMatchObject({ status: "completed", store: true, previous_response_id: first.response!["id"] });
      // The provider read the earlier turn: the question, the call and its result (not turn 1's instructions).
      const sent = JSON.stringify(upstream.requests.at(-1)!.body);
      for (const part of ["Weather in Paris?", "get_weather", "18 °C, sunny"]) expect(sent).toContain(part);
      expect(sent).not.toContain("Be brief.");
    });
  }

  it("survives a restart of every object: the stored response is read from storage", async () => {
    const chat = conversation("anthropic");
    const first = await json(await chat.send({ input: "Weather in Paris?" }));
    await abortAllDurableObjects();
    const call = outputOf(first).find((item) => item["type"] === "function_call")!;
    const upstream = chat.answer({ text: "Sunny." });
    const second = await chat.send({
      previous_response_id: first["id"],
      input: [{ type: "function_call_output", call_id: call["call_id"], output: "18 °C" }],
    });
    expect(second.status).toBe(200);
    expect(JSON.stringify(upstream.requests.at(-1)!.body)).toContain("Weather in Paris?");
    const fetched = await json(await chat.get(first["id"] as string));
    expect(fetched).toEqual(first);
  });

  it("chains: turn 3 reads turns 1 and 2 through turn 2 alone", async () => {
    const chat = conversation("openai");
    const first = await json(await chat.send({ input: "My name is Alice." }));
    chat.answer({ text: "Hello Alice." });
    const second = await json(await chat.send({ previous_response_id: first["id"], input: "I live in Paris." }));
    const upstream = chat.answer({ text: "Alice, in Paris." });
    await chat.send({ previous_response_id: second["id"], input: "Who am I?" });
    const sent = JSON.stringify(upstream.requests.at(-1)!.body);
    for (const part of ["My name is Alice.", "I live in Paris.", "Hello Alice.", "Who am I?"])
      expect(sent).toContain(part);
  });
});

describe("stored /v1/responses: input null or left out", () => {
  it("with previous_response_id the stored conversation is the whole input (Open Responses types input nullable)", async () => {
    const chat = conversation("openai");
    const first = await json(await chat.send({ input: "My name is Alice." }));
    for (const input of [{ input: null }, {}]) {
      const upstream = chat.answer({ text: "Hello again." });
      const answer = await chat.send({ previous_response_id: first["id"], ...input });
      expect([JSON.stringify(input), answer.status]).toEqual([JSON.stringify(input), 200]);
      expect(JSON.stringify(upstream.requests.at(-1)!.body)).toContain("My name is Alice.");
    }
  });

  it("without it, a 400 naming input", async () => {
    const chat = conversation("openai");
    for (const input of [{ input: null }, {}]) {
      const answer = await chat.send(input);
      expect([answer.status, ((await json(answer))["error"] as { param: string }).param]).toEqual([400, "input"]);
    }
  });
});

describe("stored /v1/responses: item_reference", () => {
  it("an item_reference is the stored item it names, where it stands: a call and its reasoning reach the provider", async () => {
    const chat = conversation("anthropic");
    const first = await json(await chat.send({ input: "Weather in Paris?" }));
    const items = outputOf(first);
    const call = items.find((item) => item["type"] === "function_call")!;
    const upstream = chat.answer({ text: "Sunny." });
    const second = await chat.send({
      input: [
        { role: "user", content: "Weather in Paris?" },
        ...items.map((item) => ({ type: "item_reference", id: item["id"] })),
        { type: "function_call_output", call_id: call["call_id"], output: "18 °C" },
      ],
    });
    expect(second.status).toBe(200);
    const body = upstream.requests.at(-1)!.body as { messages: { role: string; content: unknown }[] };
    const assistant = body.messages.find((message) => message.role === "assistant")!;
    expect(JSON.stringify(assistant.content)).toContain(call["call_id"] as string);
    expect(JSON.stringify(assistant.content)).toContain("Paris");
  });

  it("the spec's item reference without a type, or with a null one, is the item it names too", async () => {
    const chat = conversation("anthropic");
    const first = await json(await chat.send({ input: "Weather in Paris?" }));
    const call = outputOf(first).find((item) => item["type"] === "function_call")!;
    for (const [reference, store] of [
      [{ id: call["id"] }, true],
      [{ type: null, id: call["id"] }, true],
      [{ id: call["id"] }, false],
    ] as const) {
      const upstream = chat.answer({ text: "Sunny." });
      const answer = await chat.send({
        input: [reference, { type: "function_call_output", call_id: call["call_id"], output: "18 °C" }],
        store,
      });
      expect(answer.status).toBe(200);
      expect(JSON.stringify(upstream.requests.at(-1)!.body)).toContain(call["call_id"] as string);
    }
  });

  it("a tool loop that references every earlier step reads each step's output, not its conversation again", async () => {
    // The AI SDK's loop: each step sends the question, item_reference items for every earlier
    // output item and the results. The conversation stays under MAX_AGENT_BODY_BYTES; what the
    // references read must too (reading each step's whole input again grew with the steps' square).
    const chat = conversation("anthropic", stored("anthropic", { MAX_AGENT_BODY_BYTES: "40000" }));
    const input: Record<string, unknown>[] = [{ role: "user", content: "Weather in Paris?" }];
    for (let step = 1; step <= 8; step++) {
      const answer = await chat.send({ input });
      const response = await json(answer);
      expect([step, answer.status]).toEqual([step, 200]);
      for (const item of outputOf(response)) input.push({ type: "item_reference", id: item["id"] });
      const call = outputOf(response).find((item) => item["type"] === "function_call")!;
      input.push({ type: "function_call_output", call_id: call["call_id"], output: "x".repeat(1500) });
    }
    expect(JSON.stringify(input).length).toBeLessThan(20_000);
    // An input item the Worker named is read back from the response's input all the same.
    const last = await json(await chat.send({ input }));
    const listed = (await json(await chat.get(`${last["id"]}/input_items?order=asc`)))["data"] as { id: string }[];
    const upstream = chat.answer({ text: "Sunny." });
    const referenced = await chat.send({ input: [{ type: "item_reference", id: listed[0]!.id }] });
    expect([listed[0]!.id.endsWith("i0"), referenced.status]).toEqual([true, 200]);
    expect(JSON.stringify(upstream.requests.at(-1)!.body)).toContain("Weather in Paris?");
  });

  it("an unknown, forged or other token's item is a 404 naming the item", async () => {
    const chat = conversation("anthropic");
    const first = await json(await chat.send({ input: "Weather in Paris?" }));
    const id = outputOf(first)[0]!["id"] as string;
    const forged = forge(id, 2);
    for (const [reference, headers] of [
      ["msg_nope", AUTH.headers],
      [forged, AUTH.headers],
      [`${id.slice(0, -1)}9`, AUTH.headers],
    ] as const) {
      const answer = await chat.send({ input: [{ type: "item_reference", id: reference }] }, headers);
      expect(answer.status).toBe(404);
      expect((await json(answer))["error"]).toMatchObject({ param: "input[0].id", type: "invalid_request_error" });
    }
    // More responses than one request may name: refused before any id is checked or read.
    const many = Array.from({ length: 1025 }, () => ({
      type: "item_reference",
      id: `msg_any-0_${crypto.randomUUID()}_${"A".repeat(22)}0`,
    }));
    const refused = await chat.send({ input: many });
    expect([refused.status, ((await json(refused))["error"] as { param: string }).param]).toEqual([400, "input"]);
    const other = conversation("anthropic", stored("anthropic", { CLIENT_TOKEN: "other" }));
    const foreign = await other.send({ input: [{ type: "item_reference", id }] }, { authorization: "Bearer other" });
    expect(foreign.status).toBe(404);
  });
});

describe("stored /v1/responses: reasoning state", () => {
  const LOOKUP = { type: "function", name: "lookup", parameters: { type: "object", properties: {} } };
  /** Turn 1 on a reasoning stream, turn 2 by `previous_response_id` or by references: the body the provider got on turn 2. */
  async function turns(provider: Provider, stream: () => FakeUpstream, byReference: boolean) {
    const env = stored(provider);
    const send = (upstream: FakeUpstream, body: Record<string, unknown>) =>
      worker(upstream).call(
        post(
          "/v1/responses",
          { model: `${provider}/test-model`, tools: [LOOKUP], reasoning: { effort: "high" }, ...body },
          AUTH,
        ),
        env,
      );
    const first = await json(await send(stream(), { input: "Weather in Paris?" }));
    const items = outputOf(first);
    const call = items.find((item) => item["type"] === "function_call")!;
    const result = { type: "function_call_output", call_id: call["call_id"], output: "18 °C" };
    const upstream = scripted(provider, { text: "Sunny." });
    const second = await send(
      upstream,
      byReference
        ? {
            input: [
              { role: "user", content: "Weather in Paris?" },
              ...items.map((item) => ({ type: "item_reference", id: item["id"] })),
              result,
            ],
          }
        : { previous_response_id: first["id"], input: [result] },
    );
    expect(second.status).toBe(200);
    expect(items.filter((item) => item["type"] === "reasoning").length).toBeGreaterThan(0);
    return JSON.stringify(upstream.requests[0]!.body);
  }

  for (const byReference of [false, true]) {
    const how = byReference ? "item_reference" : "previous_response_id";
    it(`Anthropic's signed and redacted thinking reach Anthropic again (${how})`, async () => {
      const body = await turns("anthropic", anthropicThinkingStream, byReference);
      for (const part of [SIGNATURE, REDACTED, THOUGHT]) expect(body).toContain(part);
    });
    it(`OpenAI's encrypted reasoning reaches OpenAI Responses again (${how})`, async () => {
      expect(await turns("openai-responses", responsesReasoningStream, byReference)).toContain(ENCRYPTED);
    });
  }
});

describe("stored /v1/responses: GET, DELETE, input_items, cancel", () => {
  it.skipIf(!schemas)(
    "GET is the response object; input_items lists what the model read, each an ItemField",
    async () => {
      const chat = conversation("gemini");
      const first = await json(await chat.send({ input: "Weather in Paris?", metadata: { user: "42" } }));
      const call = outputOf(first).find((item) => item["type"] === "function_call")!;
      chat.answer({ text: "Sunny." });
      const second = await json(
        await chat.send({
          previous_response_id: first["id"],
          input: [{ type: "function_call_output", call_id: call["call_id"], output: "18 °C" }],
        }),
      );
      const fetched = await json(await chat.get(second["id"] as string));
      expect(fetched).toEqual(second);
      expect(responseIssues(fetched)).toEqual([]);
      const list = await json(await chat.get(`${second["id"]}/input_items?order=asc`));
      const data = list["data"] as Record<string, unknown>[];
      expect(data.map((item) => item["type"])).toEqual(["message", "function_call", "function_call_output"]);
      expect(data.flatMap((item, i) => itemIssues(item, `data[${i}]`))).toEqual([]);
      expect(list).toMatchObject({
        object: "list",
        has_more: false,
        first_id: data[0]!["id"],
        last_id: data[2]!["id"],
      });
      // Newest first by default, a page at a time.
      const page = await json(await chat.get(`${second["id"]}/input_items?limit=2`));
      expect((page["data"] as { id: string }[]).map((item) => item.id)).toEqual([data[2]!["id"], data[1]!["id"]]);
      expect(page["has_more"]).toBe(true);
      const rest = await json(await chat.get(`${second["id"]}/input_items?limit=2&after=${data[1]!["id"]}`));
      expect(rest).toMatchObject({ data: [data[0]], has_more: false });
      const bad = await chat.get(`${second["id"]}/input_items?limit=101`);
      expect([bad.status, ((await json(bad))["error"] as { param: string }).param]).toEqual([400, "limit"]);
    },
  );

  it("GET with stream=true or starting_after: a 400 naming it (OpenAI streams a background response; none runs here)", async () => {
    const chat = conversation("anthropic");
    const { id } = (await json(await chat.send({ input: "Weather in Paris?" }))) as { id: string };
    // openai-node's `responses.retrieve(id, {stream: true})` read this JSON as a stream of no event.
    for (const [query, param] of [
      ["stream=true", "stream"],
      ["stream=true&starting_after=3", "stream"],
      ["starting_after=3", "starting_after"],
    ]) {
      const answer = await chat.get(`${id}?${query}`);
      expect([query, answer.status, ((await json(answer))["error"] as { param: string }).param]).toEqual([
        query,
        400,
        param,
      ]);
    }
    expect((await chat.get(`${id}?stream=false`)).status).toBe(200);
  });

  it("DELETE answers OpenAI's deletion object, then the id is a 404 everywhere", async () => {
    const chat = conversation("anthropic");
    const first = await json(await chat.send({ input: "Weather in Paris?" }));
    const id = first["id"] as string;
    const cancel = await chat.get(`${id}/cancel`, "POST");
    expect(cancel.status).toBe(400);
    const deleted = await chat.get(id, "DELETE");
    expect(await json(deleted)).toEqual({ id, object: "response", deleted: true });
    for (const [path, method] of [
      [id, "GET"],
      [id, "DELETE"],
      [`${id}/input_items`, "GET"],
      [`${id}/cancel`, "POST"],
    ] as const) {
      const answer = await chat.get(path, method);
      expect(answer.status).toBe(404);
    }
    const next = await chat.send({ previous_response_id: id, input: "Hi" });
    expect([next.status, ((await json(next))["error"] as { param: string }).param]).toEqual([
      400,
      "previous_response_id",
    ]);
    // A malformed path is a 404 too, never a 500; compact is not served.
    expect((await chat.get("%E0%A4%A")).status).toBe(404);
    expect((await chat.get("compact", "POST")).status).toBe(404);
  });

  it("an unknown, forged, other token's or expired id: OpenAI's 400 previous_response_not_found, a 404 on GET", async () => {
    const chat = conversation("anthropic", stored("anthropic", { STORE_TTL_MS: "60000" }));
    const first = await json(await chat.send({ input: "Weather in Paris?" }));
    const id = first["id"] as string;
    const other = conversation("anthropic", stored("anthropic", { CLIENT_TOKEN: "rotated" }));
    const cases: [string, Response][] = [
      ["unknown", await chat.send({ previous_response_id: "resp_123", input: "Hi" })],
      ["forged", await chat.send({ previous_response_id: forge(id, 1), input: "Hi" })],
      ["other token", await other.send({ previous_response_id: id, input: "Hi" }, { authorization: "Bearer rotated" })],
      ["other token, GET", await other.get(id, "GET", { authorization: "Bearer rotated" })],
    ];
    const object = objectOf(storedIdOfResponse(id)!);
    expect(await runExpiryAlarm(object)).toBe(true);
    // Dropped whole: its rows and its entry in the expiry index.
    const left = await runInDurableObject(object, (_instance, state) =>
      [...state.storage.kv.list()].map(([key]) => key).filter((key) => key.includes(storedIdOfResponse(id)!)),
    );
    expect(left).toEqual([]);
    cases.push(["expired", await chat.send({ previous_response_id: id, input: "Hi" })]);
    cases.push(["expired, GET", await chat.get(id)]);
    for (const [name, answer] of cases) {
      const error = (await json(answer))["error"] as { param: string; type: string; code: string };
      const get = name.endsWith("GET");
      expect([name, answer.status, error.type, error.param, error.code]).toEqual([
        name,
        get ? 404 : 400,
        "invalid_request_error",
        get ? "response_id" : "previous_response_id",
        get ? "unknown_response" : "previous_response_not_found",
      ]);
    }
  });
});

describe("stored /v1/responses: what is not stored", () => {
  it("store: false stores nothing: the response says so and its id is unknown", async () => {
    const chat = conversation("anthropic");
    const response = await json(await chat.send({ input: "Weather in Paris?", store: false }));
    expect(response["store"]).toBe(false);
    expect((await chat.get(response["id"] as string)).status).toBe(404);
  });

  it("past MAX_STORED_RESPONSE_BYTES: not stored by default, a 400 naming store when asked for", async () => {
    const chat = conversation("anthropic", stored("anthropic", { MAX_STORED_RESPONSE_BYTES: "2000" }));
    const input = "x".repeat(3000);
    const response = await json(await chat.send({ input }));
    expect(response["store"]).toBe(false);
    const asked = await chat.send({ input, store: true });
    expect([asked.status, ((await json(asked))["error"] as { param: string }).param]).toEqual([400, "store"]);
  });

  for (const stream of [false, true])
    it(`an answer whose output takes it past MAX_STORED_RESPONSE_BYTES says store: false (stream: ${stream})`, async () => {
      const chat = conversation("anthropic", stored("anthropic", { MAX_STORED_RESPONSE_BYTES: "2000" }));
      chat.answer({ text: "y".repeat(3000) });
      const { response } = await conforming(await chat.send({ input: "Hi", stream }), stream);
      expect([response?.["status"], response?.["store"]]).toEqual(["completed", false]);
      expect((await chat.get(response!["id"] as string)).status).toBe(404);
      // One that fits is stored and says so.
      chat.answer({ text: "Sunny." });
      const { response: kept } = await conforming(await chat.send({ input: "Hi", stream }), stream);
      expect(kept?.["store"]).toBe(true);
      expect((await chat.get(kept!["id"] as string)).status).toBe(200);
    });

  it("what a request reads of the store is bounded by MAX_AGENT_BODY_BYTES: past it a 400 naming the field", async () => {
    const chat = conversation("anthropic", stored("anthropic", { MAX_AGENT_BODY_BYTES: "3000" }));
    const first = await json(await chat.send({ input: "x".repeat(2500) }));
    expect(first["store"]).toBe(true);
    const next = await chat.send({ previous_response_id: first["id"], input: "Hi" });
    expect([next.status, ((await json(next))["error"] as { param: string }).param]).toEqual([
      400,
      "previous_response_id",
    ]);
    // A reference reads the response object (its input is read for an input item alone).
    const long = await json(await chat.send({ input: "Hi", instructions: "x".repeat(2500) }));
    const id = outputOf(long)[0]!["id"];
    const referenced = await chat.send({ input: [{ type: "item_reference", id }] });
    expect([referenced.status, ((await json(referenced))["error"] as { param: string }).param]).toEqual([400, "input"]);
  });

  it("that bound is the whole request's, however its responses spread over the pool's objects", async () => {
    // One response near the bound, one small, in two different objects: together they fit, so the
    // request is served (an even split of the bound between the objects refused the large one).
    const chat = conversation(
      "anthropic",
      stored("anthropic", { MAX_AGENT_BODY_BYTES: "9000", RESPONSE_OBJECTS: "1000" }),
    );
    const objectOf = (response: Record<string, unknown>) => {
      const name = objectNameOf(storedIdOfResponse(response["id"] as string) ?? "");
      expect(name).toBeDefined();
      return name;
    };
    const long = await json(await chat.send({ input: "Hi", instructions: "x".repeat(5500) }));
    // An isolate stores its responses in one object (its draw modulo RESPONSE_OBJECTS): a smaller
    // pool puts the next one in another object of the first pool, as another isolate would.
    let short = await json(await chat.send({ input: "Hi" }));
    for (let objects = 999; objectOf(short) === objectOf(long) && objects > 900; objects--) {
      const other = stored("anthropic", { MAX_AGENT_BODY_BYTES: "9000", RESPONSE_OBJECTS: String(objects) });
      short = await json(await conversation("anthropic", other).send({ input: "Hi" }));
    }
    expect(objectOf(short)).not.toBe(objectOf(long));
    const references = [long, short].map((response) => ({ type: "item_reference", id: outputOf(response)[0]!["id"] }));
    const upstream = chat.answer({ text: "Sunny." });
    const both = await chat.send({ input: references });
    expect(both.status).toBe(200);
    expect(JSON.stringify(upstream.requests.at(-1)!.body)).toContain("get_weather");
    // Past the bound in all, it is refused all the same.
    const again = await json(await chat.send({ input: "Hi", instructions: "y".repeat(5500) }));
    const over = await chat.send({ input: [...references, { type: "item_reference", id: outputOf(again)[0]!["id"] }] });
    expect([over.status, ((await json(over))["error"] as { param: string }).param]).toEqual([400, "input"]);
  });

  it("responses that complete at once are each stored before their answer, in one object's one write", async () => {
    // Their keeps reach the object together and commit together (worker/resumable/stored-keeps.ts).
    const chat = conversation("anthropic");
    const answers = await Promise.all([1, 2, 3, 4].map((n) => chat.send({ input: `Weather in city ${n}?` })));
    const responses = await Promise.all(answers.map(json));
    for (const response of responses) {
      expect(response["store"]).toBe(true);
      expect(await json(await chat.get(response["id"] as string))).toEqual(response);
    }
  });

  it("a keep is sent alone when no other stored response of the isolate started after its own", async () => {
    // The object writes a keep sent alone at once, not after a turn (worker/resumable/stored-keeps.ts).
    const sent: (boolean | undefined)[] = [];
    const recording = {
      idFromName: (name: string) => responses.idFromName(name),
      get: (id: DurableObjectId) => {
        const stub = responseObjects.get(id);
        return new Proxy(stub, {
          get: (target, key) =>
            key === "storedResponses"
              ? (op: StoredResponseOp) => {
                  if (op.type === "keep") sent.push(op.alone);
                  return target.storedResponses(op);
                }
              : Reflect.get(target, key),
        });
      },
    } as unknown as DurableObjectNamespace;
    const chat = conversation("anthropic", stored("anthropic", { RESPONSES: recording }));
    for (const n of [1, 2])
      expect((await json(await chat.send({ input: `Weather in city ${n}?` })))["store"]).toBe(true);
    expect(sent).toEqual([true, true]);
    // Three at once: the last one started is alone (it may be kept before the others), an earlier one is not.
    const answers = await Promise.all([3, 4, 5].map((n) => chat.send({ input: `Weather in city ${n}?` })));
    for (const answer of answers) expect((await json(answer))["store"]).toBe(true);
    expect(sent.slice(2)).toHaveLength(3);
    expect(sent.slice(2)).toContain(true);
    expect(sent.slice(2)).toContain(false);
  });

  it("an isolate stores every response in one object of the pool, not one picked per response", async () => {
    // One object warm and one database open, not an object to start per response in a cold pool.
    const chat = conversation("anthropic", stored("anthropic", { RESPONSE_OBJECTS: "1000" }));
    const names = new Set<string | undefined>();
    for (let n = 0; n < 3; n++) {
      const response = await json(await chat.send({ input: "Hi" }));
      names.add(objectNameOf(storedIdOfResponse(response["id"] as string) ?? ""));
    }
    expect([...names]).toEqual([expect.stringMatching(/^any-\d{1,3}$/)]);
  });

  it("without the RESPONSES binding: previous_response_id is a 400 naming it, GET a 404", async () => {
    const chat = conversation("anthropic", live("anthropic"));
    const response = await json(await chat.send({ input: "Weather in Paris?" }));
    expect(response["store"]).toBe(false);
    const next = await chat.send({ previous_response_id: response["id"], input: "Hi" });
    expect([next.status, ((await json(next))["error"] as { param: string }).param]).toEqual([
      400,
      "previous_response_id",
    ]);
    expect((await chat.get(response["id"] as string)).status).toBe(404);
    // An item_reference, an input item of the spec, is refused as needing them, not as no item type.
    const referenced = await chat.send({
      input: [
        { role: "user", content: "Hi" },
        { type: "item_reference", id: "msg_1" },
      ],
    });
    const error = (await json(referenced))["error"] as { param: string; message: string };
    expect([referenced.status, error.param]).toEqual([400, "input[1].type"]);
    expect(error.message).toContain("RESPONSES");
  });
});
