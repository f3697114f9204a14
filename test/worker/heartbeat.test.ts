// withHeartbeat's end: the chunk that carries the encoder's last frame goes out with the steps'
// end and the stream's close in one pull (no further read of the answer's stream for them), the
// source is cancelled then, and a stored answer's `before` sees every last chunk before the first
// of them is written (a stored Responses answer's keeping encoder ends with the one it wraps); an
// answer whose encoder has not ended still ends only when its source does.
import { describe, expect, it } from "vitest";
import type { ToolCallEvent } from "../../src/index.ts";
import { encodeBatches } from "../../worker/http/batch-map.ts";
import { withHeartbeat } from "../../worker/http/heartbeat.ts";
import { type Keeping, KeepingEncoder } from "../../worker/protocols/openai-responses/keep-response.ts";
import type { Timers } from "../../worker/runtime.ts";

/** Timers that never fire: the heartbeat's frame is not what these tests read. */
const still: Timers = { setTimeout: () => 0, clearTimeout: () => {}, now: () => 0 };

/** A source of `batches` that records how often it was pulled and how it was cancelled. */
function source(batches: ToolCallEvent[][]) {
  const seen = { pulls: 0, cancelled: undefined as unknown };
  const stream = new ReadableStream<ToolCallEvent[]>(
    {
      pull(controller) {
        const batch = batches[seen.pulls++];
        if (batch) controller.enqueue(batch);
        else controller.close();
      },
      cancel(reason) {
        seen.cancelled = reason;
      },
    },
    { highWaterMark: 0 },
  );
  return { stream, seen };
}

/** An encoder of text deltas that ends at `finish`, with a last frame of its own. */
function encoder() {
  let ended = false;
  return {
    get ended() {
      return ended;
    },
    encode(event: ToolCallEvent, out: string[]) {
      if (ended) return;
      if (event.type === "text-delta") out.push(event.text);
      if (event.type === "finish") {
        out.push("<finish>");
        ended = true;
      }
    },
    end(out: string[]) {
      out.push("<end>");
    },
  };
}

const text = (value: string): ToolCallEvent => ({ type: "text-delta", text: value });
const finish: ToolCallEvent = {
  type: "finish",
  reason: "stop",
  rawReason: "stop",
  toolCalls: [],
  invalidToolCalls: [],
  text: "",
  reasoning: "",
};
const decode = (chunk: Uint8Array | undefined): string => new TextDecoder().decode(chunk);

describe("withHeartbeat: the answer's end", () => {
  it("the chunk with the encoder's last frame, the steps' end and the close come in one pull; the source is cancelled, not read again", async () => {
    const { stream, seen } = source([[text("a")], [text("b"), finish], [text("never")]]);
    const written: string[] = [];
    const body = withHeartbeat(encodeBatches(stream, encoder()), still, {
      before: (chunk) => {
        written.push(decode(chunk));
        return chunk;
      },
    });
    const reader = body.getReader();
    expect(decode((await reader.read()).value)).toBe("a");
    expect(decode((await reader.read()).value)).toBe("b<finish>");
    // Written with the last chunk, before the reader asks for more.
    expect(written).toEqual(["a", "b<finish>", "<end>"]);
    expect(seen.cancelled).toBe("The answer ended.");
    expect(decode((await reader.read()).value)).toBe("<end>");
    expect((await reader.read()).done).toBe(true);
    expect(seen.pulls).toBe(2);
  });

  it("an answer whose encoder has not ended ends when its source does, with the steps' end", async () => {
    const { stream, seen } = source([[text("a")], [text("b")]]);
    const answer = await new Response(withHeartbeat(encodeBatches(stream, encoder()), still)).text();
    expect(answer).toBe("ab<end>");
    expect(seen.cancelled).toBeUndefined();
  });

  it("a stored Responses answer's keeping encoder ends when the encoder it wraps does: its answer ends with that chunk too", async () => {
    const { stream, seen } = source([[text("a"), finish], [text("never")]]);
    const keeping = { stored: {}, id: "resp_test", inputText: "[]" } as unknown as Keeping;
    const keeper = new KeepingEncoder(encoder(), keeping);
    expect(keeper.ended).toBe(false);
    const answer = await new Response(withHeartbeat(encodeBatches(stream, keeper), still)).text();
    expect(answer).toBe("a<finish><end>");
    expect(keeper.ended).toBe(true);
    expect(seen.cancelled).toBe("The answer ended.");
    expect(seen.pulls).toBe(1);
  });
});
