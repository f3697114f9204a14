// HEAD of a resume (/v1/stream/<id>, /v1/run/<id>) is GET's status and headers without taking a
// reader's place: a monitor's `curl -I` neither holds a running response's first place nor puts
// off the cancellation of a response no client reads (RFC 9110 §9.3.2: HEAD has no effects GET's
// content would have).
import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { attach } from "../../worker/resumable/response-pool.ts";
import {
  chatChunk,
  FakeUpstream,
  ManualTimers,
  openAIChunks,
  readThenDisconnect,
  startResponse,
  weatherCall,
} from "./support.ts";

describe("HEAD of a resume", () => {
  it("answers the stream's headers with no body, and leaves the detached limit as it was", async () => {
    const upstream = new FakeUpstream({
      kind: "sse",
      chunks: openAIChunks([chatChunk({ content: "Checking. " }), weatherCall(0, "call_1", '{"city":')]).slice(0, 2),
      then: "stall",
    });
    const clock = new ManualTimers();
    const { id, stub, response } = await startResponse(upstream, clock, {
      DETACHED_LIMIT_MS: "7000",
      IDLE_TIMEOUT_MS: "60000",
    });
    const detached = clock.whenScheduled(7000);
    const seen = await readThenDisconnect(response, 1);
    await runInDurableObject(stub, () => detached);
    const [limit] = clock.handlesOf(7000);
    expect(limit).toBeDefined();

    const head = await attach(stub, id, Number(seen.at(-1)!.id), "HEAD");
    expect(head.status).toBe(200);
    expect(head.headers.get("content-type")).toMatch(/^text\/event-stream/);
    expect(await head.text()).toBe("");
    // The limit armed when the client left is the one still pending: the HEAD neither disarmed it
    // (as a reader attaching does) nor armed a new one on leaving.
    expect(clock.handlesOf(7000)).toEqual([limit]);
    await runInDurableObject(stub, () => clock.fire(limit!));
    expect(upstream.requests[0]!.signal.aborted).toBe(true);
  });

  it("of an unknown response is GET's 404", async () => {
    const { stub } = await startResponse(new FakeUpstream({ kind: "sse", chunks: [] }), new ManualTimers());
    const head = await attach(stub, "resp_unknown", -1, "HEAD");
    expect(head.status).toBe(404);
    await head.body?.cancel();
  });
});
