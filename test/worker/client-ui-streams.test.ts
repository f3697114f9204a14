// A /v1/ui answer with no approved call makes no stream more than a /v1/stream answer over the same
// provider turn. Found by stop 75's whole-diff review: the approved calls' `after` wrapped every answer
// in a stream of its own (4 against 3).
import { describe, expect, it } from "vitest";
import type { Env } from "../../worker/env.ts";
import { createFetchHandler } from "../../worker/app.ts";
import { ManualTimers } from "./support.ts";
import { live, scripted } from "./open-responses-support.ts";

const scope = globalThis as unknown as { ReadableStream: typeof ReadableStream };

/** `ReadableStream`s constructed by JS while `run` runs and its answer is read to the end. */
async function streamsMade(path: string, body: Record<string, unknown>): Promise<{ made: number; text: string }> {
  const upstream = scripted("openai", { text: "Hello there, a streamed answer." });
  const handler = createFetchHandler({ fetch: upstream.fetch, timers: new ManualTimers() });
  const Original = scope.ReadableStream;
  let made = 0;
  scope.ReadableStream = new Proxy(Original, {
    construct(target, args, newTarget) {
      made++;
      return Reflect.construct(target, args, newTarget);
    },
  });
  try {
    const response = await handler(
      new Request(`http://localhost:8787${path}`, {
        method: "POST",
        headers: { authorization: "Bearer t", "content-type": "application/json" },
        body: JSON.stringify(body),
      }),
      live("openai") as Env,
    );
    const text = await response.text();
    return { made, text };
  } finally {
    scope.ReadableStream = Original;
  }
}

describe("whole75: streams a /v1/ui answer makes", () => {
  it("no more than a /v1/stream answer of the same turn (no approved call: nothing to put first)", async () => {
    const ui = await streamsMade("/v1/ui", {
      model: "openai/m",
      messages: [{ id: "u1", role: "user", parts: [{ type: "text", text: "Hi" }] }],
    });
    const stream = await streamsMade("/v1/stream", {
      provider: "openai",
      model: "m",
      messages: [{ role: "user", content: "Hi" }],
    });
    expect(ui.text).toContain("streamed answer");
    expect(stream.text).toContain("streamed answer");
    console.log("streams made: ui", ui.made, "stream", stream.made);
    expect(ui.made).toBeLessThanOrEqual(stream.made);
  });
});
