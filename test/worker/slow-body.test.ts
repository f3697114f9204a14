// A request body has a deadline: one sent a byte at a time and never finished is answered 408
// within BODY_READ_MS (on the injected clock), its reading cancelled, and no provider is called.
import { describe, expect, it } from "vitest";
import { BODY_READ_MS } from "../../worker/http/read-json-body.ts";
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
