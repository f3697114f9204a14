// The pass-through's fetch step taken apart (issue 37: the Worker stopped right after its
// provider's fetch cost 1.7 times the pass-through): one Worker whose VARIANT binding says how it
// forwards the upstream's request (the pass-through's, bench/load/pass-through.ts, sent to it):
//   proxy           `return fetch(...)`: the upstream's Response itself, the request's body its stream
//   response        `new Response(upstream.body, ...)`: the pass-through's own step
//   text-body       the same, the request's body read first as a string (`request.text()`)
//   array-buffer    the upstream's body read whole natively (`arrayBuffer()`), answered in one piece
//   default-reader  the upstream's body read with a default reader in JavaScript, each chunk enqueued
//   byob-reader     the same with a BYOB reader, each read into a fresh 64 KiB buffer
// Served by bench/load/stored-callgrind.ts (CG_TARGET=fetch-step:<variant>) to count each one's
// instructions, and by bench/load/rounds.ts (ROUNDS_TARGETS=fetch-step:<variant>,...) in rounds.
type Variant = "proxy" | "response" | "text-body" | "array-buffer" | "default-reader" | "byob-reader";

/** A JavaScript stream of `body`'s chunks, read with `read`. */
function relay(read: () => Promise<ReadableStreamReadResult<Uint8Array>>, cancel: (reason: unknown) => Promise<void>) {
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { done, value } = await read();
      if (done) controller.close();
      else controller.enqueue(value);
    },
    cancel,
  });
}

export default {
  async fetch(request: Request, env: { UPSTREAM: string; VARIANT: Variant }): Promise<Response> {
    const { pathname } = new URL(request.url);
    const headers = { "content-type": request.headers.get("content-type") ?? "application/json" };
    const body = env.VARIANT === "text-body" ? await request.text() : request.body;
    const sent = fetch(`${env.UPSTREAM}${pathname}`, { method: "POST", headers, body });
    if (env.VARIANT === "proxy") return sent;
    const upstream = await sent;
    const init = { status: upstream.status, headers: { "content-type": upstream.headers.get("content-type") ?? "" } };
    if (env.VARIANT === "array-buffer") return new Response(await upstream.arrayBuffer(), init);
    if (env.VARIANT === "default-reader") {
      const reader = upstream.body!.getReader();
      return new Response(
        relay(
          () => reader.read(),
          (reason) => reader.cancel(reason),
        ),
        init,
      );
    }
    if (env.VARIANT === "byob-reader") {
      const reader = upstream.body!.getReader({ mode: "byob" });
      return new Response(
        relay(
          () => reader.read(new Uint8Array(64 * 1024)),
          (reason) => reader.cancel(reason),
        ),
        init,
      );
    }
    return new Response(upstream.body, init);
  },
};
