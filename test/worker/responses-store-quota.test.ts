// The stored /v1/responses responses of one Durable Object are bounded together
// (MAX_STORED_BYTES_PER_OBJECT), not only one by one: an isolate keeps all of its stored responses
// in one object of its pool, for STORE_TTL_MS (30 days by default), and that object is every other
// client's too (and runs the resumable responses of its slot). Past the bound a response is not
// stored and says so (`store: false`, its id unknown); a request that asks for `store: true` is
// then OpenAI's 429 `insufficient_quota`, not retried, before its provider is called. A deleted or
// expired response gives its bytes back.
import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { Env } from "../../worker/env.ts";
import { storedIdOfResponse } from "../../worker/protocols/openai-responses/stored-ids.ts";
import { post } from "./client-support.ts";
import { runExpiryAlarm } from "./durable-support.ts";
import { AUTH, live, scripted } from "./open-responses-support.ts";
import { objectOf, responses, worker } from "./support.ts";

// Kept a minute: the expiry alarm the test runs as if a day had passed drops them.
const env: Env = {
  ...live("anthropic"),
  RESPONSES: responses,
  MAX_STORED_BYTES_PER_OBJECT: "40000",
  STORE_TTL_MS: "60000",
};

describe("the stored responses of one object", () => {
  it("are at most MAX_STORED_BYTES_PER_OBJECT together: past it not stored, store: true a 429 insufficient_quota", async () => {
    const upstream = scripted("anthropic", { text: "Sunny." });
    const app = worker(upstream);
    const send = (body: Record<string, unknown>) =>
      app.call(post("/v1/responses", { model: "anthropic/test-model", ...body }, AUTH), env);
    const get = (id: string, method = "GET") =>
      app.call(new Request(`http://localhost:8787/v1/responses/${id}`, { method, ...AUTH }), env);
    // Each counts two bytes per character of its input (6,000) and its response object: about
    // 15,000 bytes, so two fit in 40,000 and a third does not.
    const input = "x".repeat(6000);
    const answers: Record<string, unknown>[] = [];
    for (let i = 0; i < 3; i++) answers.push((await (await send({ input })).json()) as Record<string, unknown>);
    // Failed before: the third was stored too, and a fourth, and so on without end.
    expect(answers.map((answer) => answer["store"])).toEqual([true, true, false]);
    expect((await get(answers[2]!["id"] as string)).status).toBe(404);
    expect((await get(answers[0]!["id"] as string)).status).toBe(200);

    // Asked for, it is refused at once (the provider is not called), in OpenAI's shape, not retried.
    const calls = upstream.requests.length;
    const asked = await send({ input: "Hi", store: true });
    expect(asked.status).toBe(429);
    expect(asked.headers.get("x-should-retry")).toBe("false");
    expect(await asked.json()).toEqual({
      error: {
        type: "insufficient_quota",
        code: "insufficient_quota",
        param: "store",
        message: expect.stringContaining("MAX_STORED_BYTES_PER_OBJECT"),
      },
    });
    expect(upstream.requests.length).toBe(calls);

    // A deleted response gives its bytes back: the next one is stored.
    expect((await get(answers[0]!["id"] as string, "DELETE")).status).toBe(200);
    const after = (await (await send({ input, store: true })).json()) as Record<string, unknown>;
    expect(after["store"]).toBe(true);

    // Expired ones give theirs back too: the count is 0 once every one is gone.
    const stub = objectOf(storedIdOfResponse(after["id"] as string)!);
    const used = () => runInDurableObject(stub, (_instance, state) => state.storage.kv.get("exp;used"));
    expect(await used()).toBeGreaterThan(20000);
    await runExpiryAlarm(stub);
    expect(await used()).toBeFalsy();
  });
});
