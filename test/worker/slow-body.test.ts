// A request body has a deadline: one sent a byte at a time and never finished is answered 408
// within BODY_READ_MS (on the injected clock), its reading cancelled, and no provider is called.
// One whose upload is cut (its stream errors) is the client's 400, never a 500 logged as unexpected.
import { afterEach, describe, expect, it, vi } from "vitest";
import { BODY_READ_MS } from "../../worker/http/read-json-body.ts";
import { endpoints } from "./endpoint-bodies.ts";
import { eventually, FakeUpstream, ManualTimers, testEnv, worker } from "./support.ts";

describe("a request body sent for ever", () => {
  it("is 408 request_timeout after BODY_READ_MS, the body's reading cancelled, no provider call", async () => {
    const timers = new ManualTimers();
    const upstream = new FakeUpstream({ kind: "hang" });
    let cancelled = false;
    const trickle = new ReadableStream<Uint8Array>({
      start: (controller) => controller.enqueue(new TextEncoder().encode('{"provider"')),
      cancel: () => void (cancelled = true),
    });
    const answer = worker(upstream, timers).call(
      new Request("http://localhost:8787/v1/stream", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: trickle,
      }),
      testEnv(),
    );
    expect(await eventually(() => timers.handlesOf(BODY_READ_MS).length === 1)).toBe(true);
    timers.fire(timers.handlesOf(BODY_READ_MS)[0]!);
    const response = await answer;
    expect(response.status).toBe(408);
    expect(await response.json()).toMatchObject({ error: { code: "request_timeout" } });
    expect(await eventually(() => cancelled)).toBe(true);
    expect(upstream.requests).toHaveLength(0);
    expect(timers.pending).toBe(0);
  });

  it("a body that arrives in time leaves no timer behind", async () => {
    const timers = new ManualTimers();
    const response = await worker(new FakeUpstream({ kind: "hang" }), timers).call(
      new Request("http://localhost:8787/v1/stream", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: "{}",
      }),
      testEnv(),
    );
    expect(response.status).toBe(400);
    expect(timers.handlesOf(BODY_READ_MS)).toEqual([]);
  });
});

describe("a request body whose upload is cut", () => {
  afterEach(() => vi.restoreAllMocks());

  for (const [name, endpoint] of Object.entries(endpoints)) {
    it(`${endpoint.path} (${name}): a 400 in the endpoint's shape, sent as is or gzip, nothing logged as unexpected`, async () => {
      const logged = vi.spyOn(console, "error").mockImplementation(() => undefined);
      const upstream = new FakeUpstream({ kind: "hang" });
      for (const coding of [undefined, "gzip"]) {
        const cut = new ReadableStream<Uint8Array>({
          start(controller) {
            controller.enqueue(new TextEncoder().encode('{"model":'));
            controller.error(new TypeError("Network connection lost."));
          },
        });
        const headers: Record<string, string> = { "content-type": "application/json" };
        if (coding) headers["content-encoding"] = coding;
        const response = await worker(upstream).call(
          new Request(`http://localhost:8787${endpoint.path}`, { method: "POST", headers, body: cut }),
          testEnv(),
        );
        expect(response.status, coding).toBe(400);
        expect((await endpoint.expectError(response)).message, coding).toBe(
          "The request body did not arrive whole: the connection was cut before its end.",
        );
      }
      expect(logged).not.toHaveBeenCalled();
      expect(upstream.requests).toHaveLength(0);
    });
  }
});
