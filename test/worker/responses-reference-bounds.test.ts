// What an `item_reference` costs is bounded by what it reads: one request naming a stored item
// many times would otherwise send the provider that item once per reference, a body far past
// MAX_AGENT_BODY_BYTES built from a small request (and, stored again, the same in the store).
// OpenAI refuses an input that holds one item twice ("Duplicate item found with id ..."), and so
// does the Worker, naming the second reference.
import { describe, expect, it } from "vitest";
import type { Env } from "../../worker/env.ts";
import { post } from "./client-support.ts";
import { AUTH, live, scripted, WEATHER } from "./open-responses-support.ts";
import { responses, worker } from "./support.ts";

const env: Env = { ...live("anthropic"), RESPONSES: responses, MAX_AGENT_BODY_BYTES: "40000" };
const json = async (response: Response) => (await response.json()) as Record<string, unknown>;

describe("/v1/responses: an item named twice", () => {
  it("is a 400 naming the second reference, and the provider is never sent the copies", async () => {
    const upstream = scripted("anthropic", { text: "Noted." });
    const app = worker(upstream);
    const send = (body: Record<string, unknown>) =>
      app.call(post("/v1/responses", { model: "anthropic/test-model", ...body }, AUTH), env);
    const first = await json(await send({ input: "x".repeat(30_000) }));
    const listed = await app.call(
      new Request(`http://localhost:8787/v1/responses/${first["id"]}/input_items`, AUTH),
      env,
    );
    const [item] = (await json(listed))["data"] as { id: string }[];
    const sent = upstream.requests.length;
    // 200 references are 20 KB of request; read back each, 6 MB for the provider.
    const references = Array.from({ length: 200 }, () => ({ type: "item_reference", id: item!.id }));
    const answer = await send({ input: references, store: false });
    const error = (await json(answer))["error"] as { param: string; message: string };
    expect([answer.status, error.param]).toEqual([400, "input[1].id"]);
    expect(error.message).toContain(item!.id);
    expect(upstream.requests).toHaveLength(sent);
    // Named once, it is served.
    const once = await send({ input: [references[0]!], store: false });
    expect(once.status).toBe(200);
    expect(JSON.stringify(upstream.requests.at(-1)!.body).length).toBeLessThan(40_000);
  });

  it("is a 400 when `previous_response_id` brings the item already", async () => {
    const upstream = scripted("anthropic", { text: "Noted." });
    const app = worker(upstream);
    const send = (body: Record<string, unknown>) =>
      app.call(post("/v1/responses", { model: "anthropic/test-model", ...body }, AUTH), env);
    const first = await json(await send({ input: "Remember Paris." }));
    const [item] = (first["output"] as { id: string }[]) ?? [];
    const sent = upstream.requests.length;
    const answer = await send({
      previous_response_id: first["id"],
      input: [
        { type: "item_reference", id: item!.id },
        { role: "user", content: "Again?" },
      ],
    });
    const error = (await json(answer))["error"] as { param: string; message: string };
    expect([answer.status, error.param]).toEqual([400, "input[0].id"]);
    expect(error.message).toContain(item!.id);
    expect(error.message).toContain("previous_response_id");
    expect(upstream.requests).toHaveLength(sent);
  });
});

describe("/v1/responses: an item sent again that the Worker brings already", () => {
  /** A first turn answered with a call, its output item (with its id) sent back as the client has it. */
  async function firstTurn() {
    const upstream = scripted("anthropic", { calls: [{ name: "get_weather", arguments: { city: "Paris" } }] });
    const app = worker(upstream);
    const send = (body: Record<string, unknown>) =>
      app.call(post("/v1/responses", { model: "anthropic/test-model", tools: [WEATHER], ...body }, AUTH), env);
    const first = await json(await send({ input: "Weather in Paris?" }));
    const call = (first["output"] as { id: string; type: string; call_id: string }[]).find(
      (item) => item.type === "function_call",
    )!;
    return { upstream, send, first, call };
  }

  it("a call `previous_response_id` brings, sent whole again, is a 400 naming it, as OpenAI answers it", async () => {
    const { upstream, send, first, call } = await firstTurn();
    const sent = upstream.requests.length;
    const answer = await send({
      previous_response_id: first["id"],
      input: [call, { type: "function_call_output", call_id: call.call_id, output: "18 C" }],
    });
    const error = (await json(answer))["error"] as { param: string; message: string };
    expect([answer.status, error.param]).toEqual([400, "input[0].id"]);
    expect(error.message).toContain(`Duplicate item found with id ${call.id}`);
    expect(error.message).toContain("previous_response_id");
    expect(upstream.requests).toHaveLength(sent);
    // Without it, the turn is served, the call once in what the provider reads.
    upstream.answer = scripted("anthropic", { text: "18 C in Paris." }).answer;
    const next = await send({
      previous_response_id: first["id"],
      input: [{ type: "function_call_output", call_id: call.call_id, output: "18 C" }],
    });
    expect(next.status).toBe(200);
    expect(JSON.stringify(upstream.requests.at(-1)!.body).split(call.call_id).length - 1).toBe(2); // tool_use and its result
  });

  it("an item an `item_reference` of the same request names, sent whole too, is a 400 naming it", async () => {
    const { upstream, send, call } = await firstTurn();
    const sent = upstream.requests.length;
    const answer = await send({ input: [{ type: "item_reference", id: call.id }, call], store: false });
    const error = (await json(answer))["error"] as { param: string; message: string };
    expect([answer.status, error.param]).toEqual([400, "input[1].id"]);
    expect(error.message).toContain(call.id);
    expect(upstream.requests).toHaveLength(sent);
  });
});
