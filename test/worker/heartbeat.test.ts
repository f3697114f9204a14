// withHeartbeat's end: the chunk that carries the encoder's last frame goes out with the steps'
// end and the stream's close in one pull (no further read of the answer's stream for them), the
// source is cancelled then, and a stored answer's `before` sees every last chunk before the first
// of them is written (a stored Responses answer's keeping encoder ends with the one it wraps); an
// answer whose encoder has not ended still ends only when its source does.
import { describe, expect, it } from "vitest";
import type { BatchReader, ToolCallEvent } from "../../src/index.ts";
import { sourceStep } from "../../worker/http/batch-map.ts";
import { encodeBatches } from "../../worker/http/encode-batches.ts";
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

/** A reader of `batches` with no stream under it (as `readToolCallBatches` reads the chain), its reads held until `release`. */
function directSource(batches: ToolCallEvent[][]) {
  const seen = { reads: 0, cancelled: undefined as unknown };
  let held: (() => void) | undefined;
  const reader: BatchReader<ToolCallEvent[]> = {
    read: async () => {
      const batch = batches[seen.reads++];
      await new Promise<void>((resolve) => (held = resolve));
      return batch ? { done: false, value: batch } : { done: true, value: undefined };
    },
    cancel: async (reason) => {
      seen.cancelled = reason;
      held?.();
    },
  };
  return { reader, seen, release: () => held?.() };
}

/** Timers whose one pending callback the test fires, at a clock it sets. */
function manualTimers() {
  const clock = { now: 0, pending: undefined as (() => void) | undefined };
  const timers: Timers = {
    setTimeout: (callback) => {
      clock.pending = callback;
      return 1;
    },
    clearTimeout: () => {
      clock.pending = undefined;
    },
    now: () => clock.now,
  };
  return { clock, timers };
}

const steps = (reader: BatchReader<ToolCallEvent[]>) =>
  encodeBatches(
    sourceStep(
      reader,
      (batch: ToolCallEvent[]) => batch,
      () => undefined,
      {},
    ),
    encoder(),
  );
const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

describe("withHeartbeat over the chain's arrays read with no stream: one stream for the answer", () => {
  it("is the steps' own stream (none made beside it), with their bytes, its keep-alive while its reader waits, and its end in one pull", async () => {
    const { reader, seen, release } = directSource([[text("a")], [text("b"), finish], [text("never")]]);
    const { clock, timers } = manualTimers();
    const answer = steps(reader);
    const body = withHeartbeat(answer, timers, { everyMs: 100 });
    expect(body).toBe(answer);
    const out = body.getReader();
    const first = out.read();
    await tick();
    release();
    expect(decode((await first).value)).toBe("a");
    // The reader waits on the chain: the keep-alive goes out once `everyMs` passed with nothing written.
    const waiting = out.read();
    await tick();
    clock.now = 150;
    clock.pending?.();
    expect(decode((await waiting).value)).toBe(": keep-alive\n\n");
    const second = out.read();
    await tick();
    release();
    expect(decode((await second).value)).toBe("b<finish>");
    expect(seen.cancelled).toBe("The answer ended.");
    expect(decode((await out.read()).value)).toBe("<end>");
    expect((await out.read()).done).toBe(true);
    expect(seen.reads).toBe(2);
  });

  it("a cancel of the answer cancels the chain with its reason and stops the keep-alive", async () => {
    const { reader, seen } = directSource([[text("a")]]);
    const { clock, timers } = manualTimers();
    const body = withHeartbeat(steps(reader), timers, { everyMs: 100 });
    expect(clock.pending).toBeDefined();
    await body.cancel("client gone");
    expect(seen.cancelled).toBe("client gone");
    expect(clock.pending).toBeUndefined();
  });
});
