// A resumable response's body crosses to its client as a native stream (`nativeBody`), so a client
// cut for lagging fails its connection without workerd logging an uncaught exception (that log is
// read in test/e2e/cut-reader-log.e2e.test.ts). What the object relied on with a JavaScript body
// must hold through the native pipe: a failure reaches the client at once though it reads nothing,
// a clean end is a clean end, and a client that goes away cancels the body at once.
import { describe, expect, it } from "vitest";
import { nativeBody } from "../../worker/http/native-body.ts";

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);

/** A body whose controller the test drives, noting its cancel. */
function drivenBody() {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const seen: { cancelled?: unknown } = {};
  const body = new ReadableStream<Uint8Array>(
    {
      start: (c) => void (controller = c),
      cancel: (reason) => void (seen.cancelled = reason ?? "cancelled"),
    },
    { highWaterMark: 0 },
  );
  return { body, controller: () => controller, seen };
}

describe("nativeBody", () => {
  it("passes the chunks on and ends cleanly when the body does", async () => {
    const { body, controller } = drivenBody();
    const answer = new Response(nativeBody(body, new AbortController().signal));
    controller().enqueue(bytes("data: a\n\n"));
    controller().enqueue(bytes("data: b\n\n"));
    controller().close();
    expect(await answer.text()).toBe("data: a\n\ndata: b\n\n");
  });

  it("fails at once when the body fails while its client reads nothing", async () => {
    const { body, controller } = drivenBody();
    const native = nativeBody(body, new AbortController().signal);
    controller().enqueue(bytes("data: a\n\n"));
    controller().enqueue(bytes("data: b\n\n"));
    // The first chunk waits in the native pipe for a read that does not come; the body is cut.
    await Promise.resolve();
    controller().error(new Error("cut for lagging"));
    const reader = native.getReader();
    const reads: unknown[] = [];
    await expect(
      (async () => {
        for (;;) {
          const result = await reader.read();
          if (result.done) return;
          reads.push(result.value);
        }
      })(),
    ).rejects.toThrow("cut for lagging");
    // Failed before (the body's failure seen only by a read of it, after the write that waits):
    // the chunk waiting in the pipe was handed over first, so a client that read nothing held it.
    expect(reads).toEqual([]);
  });

  it("cancels the body as soon as the request's signal says the client left, with no write to find it", async () => {
    const { body, controller, seen } = drivenBody();
    const client = new AbortController();
    const native = nativeBody(body, client.signal);
    const reader = native.getReader();
    controller().enqueue(bytes("data: a\n\n"));
    expect(new TextDecoder().decode((await reader.read()).value)).toBe("data: a\n\n");
    expect(seen.cancelled).toBeUndefined();
    // Fails with the native pipe alone: the body would learn it only at its next write.
    client.abort(new Error("The client has disconnected"));
    expect(seen.cancelled).toBeInstanceOf(Error);
    await expect(reader.read()).rejects.toThrow("The client has disconnected");
  });

  it("cancels the body when its reader cancels the native stream and a write then fails", async () => {
    const { body, controller, seen } = drivenBody();
    const native = nativeBody(body, new AbortController().signal);
    const reader = native.getReader();
    controller().enqueue(bytes("data: a\n\n"));
    await reader.read();
    await reader.cancel("gone");
    controller().enqueue(bytes("data: b\n\n"));
    for (let turn = 0; turn < 100 && seen.cancelled === undefined; turn++) await new Promise((r) => setTimeout(r, 0));
    expect(seen.cancelled).toBeDefined();
  });
});
