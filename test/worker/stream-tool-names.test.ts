// Tool names through the library-native endpoints: /v1/stream and /v1/run take their documented rule
// (1 to 64 letters, digits, _ or -, starting with a letter or _), so a `-` reaches Cohere, which
// refuses it: Cohere is sent a short name, on the first turn and the next (the tool, the earlier
// call, the result naming it, tool_choice), resumable or not, and the events carry the client's
// name. A run's own tools (the Worker's) fit every provider's rule; one that did not would be sent
// short too, and run under its own name.
import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { RunnableTool } from "../../src/index.ts";
import { DEMO_TOOL_NAMES } from "../../worker/demo-tools/index.ts";
import { runRoute } from "../../worker/protocols/tool-call-events/run-route.ts";
import { parseStreamRequest } from "../../worker/request/parse-stream-request.ts";
import { attach } from "../../worker/resumable/response-pool.ts";
import type { ResponseBuffer } from "../../worker/resumable/response-buffer.ts";
import { providerNames, upstreamProviders } from "../../worker/upstream/providers/index.ts";
import { fitsRule } from "../../worker/upstream/tool-names.ts";
import { ManualTimers, mintedTestResponseId, objectOf, readSSE, streamRequest, worker } from "./support.ts";
import { CITY, COHERE_REFUSED, GEMINI_REFUSED, sentNames, shortOf } from "./tool-name-support.ts";

const { name, env } = COHERE_REFUSED;
const short = shortOf("cohere", name);
const first = [{ role: "user", content: "Weather?" }];
const secondTurn = {
  provider: "cohere",
  model: "command-a",
  tools: [{ name, parameters: CITY }],
  tool_choice: { name },
  messages: [
    ...first,
    { role: "assistant", content: "", tool_calls: [{ id: "c_1", name, arguments: { city: "Paris" } }] },
    { role: "tool", tool_call_id: "c_1", name, content: '{"celsius":18}' },
  ],
};
const post = (body: unknown) => streamRequest(body, { headers: { authorization: "Bearer t" } });
/** The names of the calls a stream's events carry: starts, calls, the finish's. */
const eventNames = (events: readonly { type: string; name?: string; toolCalls?: { name: string }[] }[]) =>
  events.flatMap((event) =>
    event.type === "finish" ? (event.toolCalls ?? []).map((call) => call.name) : (event.name ?? []),
  );

describe("POST /v1/stream: a name Cohere refuses", () => {
  it("is sent short on both turns; every event names the client's tool", async () => {
    const upstream = COHERE_REFUSED.upstream();
    const { call } = worker(upstream);
    const { events } = await readSSE(
      await call(
        post({ provider: "cohere", model: "command-a", messages: first, tools: [{ name, parameters: CITY }] }),
        env,
      ),
    );
    expect(short).toMatch(COHERE_REFUSED.short);
    expect(eventNames(events)).toEqual([name, name, name]);
    expect(sentNames(upstream.requests[0]!.body)).toEqual([short]);

    await readSSE(await call(post(secondTurn), env));
    const sent = upstream.requests[1]!.body;
    expect(sentNames(sent)).toEqual([short, short]);
    expect(JSON.stringify(sent)).not.toContain(name);
  });

  it("resumable (the Durable Object's own model call): the same names both ways", async () => {
    const upstream = COHERE_REFUSED.upstream();
    const id = await mintedTestResponseId();
    const stub = objectOf(id);
    await runInDurableObject(stub, (instance: ResponseBuffer) =>
      instance.useRuntime({ fetch: upstream.fetch, timers: new ManualTimers() }, env),
    );
    const request = parseStreamRequest(secondTurn, providerNames);
    const response = (await stub.startStream(id, request)) ?? (await attach(stub, id, -1));
    const { events } = await readSSE(response);
    expect(eventNames(events)).toEqual([name, name, name]);
    expect(sentNames(upstream.requests[0]!.body)).toEqual([short, short]);
  });

  it("a leading digit is /v1/stream's 400 (its rule), never Gemini's", async () => {
    const response = await worker(GEMINI_REFUSED.upstream()).call(
      post({
        provider: "gemini",
        model: "g",
        messages: first,
        tools: [{ name: GEMINI_REFUSED.name, parameters: CITY }],
      }),
      GEMINI_REFUSED.env,
    );
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: { field: "tools[0].name" } });
  });
});

describe("POST /v1/run: the Worker's tools and the earlier turns' calls", () => {
  it("the demo tools fit every provider's rule, so they go as they are", () => {
    for (const upstream of Object.values(upstreamProviders))
      for (const tool of DEMO_TOOL_NAMES) expect(fitsRule(tool, upstream.toolNames)).toBe(true);
  });

  it("a Worker tool and an earlier call Cohere refuses are sent short; the loop runs the tool under its own name", async () => {
    const upstream = COHERE_REFUSED.upstream();
    const ran: unknown[] = [];
    const tools: Record<string, RunnableTool> = {
      [name]: { parameters: CITY, run: (input) => (ran.push(input), { celsius: 18 }) },
    };
    const request = new Request("http://localhost:8787/v1/run", {
      method: "POST",
      headers: { "content-type": "application/json", authorization: "Bearer t" },
      body: JSON.stringify({ ...secondTurn, tools: [name], max_steps: 2 }),
    });
    const response = await runRoute(request, env, { fetch: upstream.fetch, timers: new ManualTimers() }, tools);
    const { events } = await readSSE(response);
    expect(ran).toEqual([{ city: "Paris" }, { city: "Paris" }]);
    const named = events.flatMap((event) => ("name" in event && typeof event.name === "string" ? [event.name] : []));
    expect(new Set(named)).toEqual(new Set([name]));
    // Step 1: the tool and the earlier call; step 2 adds step 1's call.
    expect(sentNames(upstream.requests[0]!.body)).toEqual([short, short]);
    expect(sentNames(upstream.requests[1]!.body)).toEqual([short, short, short]);
    expect(JSON.stringify(upstream.requests.map((seen) => seen.body))).not.toContain(name);
  });
});
