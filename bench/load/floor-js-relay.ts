// The first floor of `npm run bench:load` (js-relay): the least any gateway that sees its stream
// does. It parses the client's JSON body and serializes it again (the model's "provider/" prefix
// dropped, as a router would), fetches the upstream (UPSTREAM, the scripted providers' origin),
// reads the upstream's body with a JavaScript reader and enqueues each chunk, unchanged, into the
// JavaScript ReadableStream it answers with. The reader is a BYOB one (with workerd's default
// reader the 1 MB body cost 10 times the pass-through's CPU against 2 with these reads:
// bench/load/fetch-step.ts, `default-reader` and `byob-reader`, in bench/load/rounds.ts), its reads
// sized as worker/upstream/reusing-reader.ts sizes its own (16 KiB, doubling while reads fill it up
// to 64 KiB, halving while they use little of it). The answer keeps each chunk until workerd has
// written it, so a chunk that fills half its buffer or more is handed over with it (the next read
// gets a fresh buffer, which workerd zeroes), and a smaller one is copied out at its size, its
// buffer read into again. Until stop 73 each read took a fresh, zeroed 64 KiB buffer, for chunks
// of a few hundred bytes on a small answer (`memset` 145,137 of 2,396,778 instructions): a floor a
// few percent dear. A request that does not stream (`stream` not true) gets the upstream's body
// read whole and answered in one piece. Never deployed: built with esbuild and served by
// Miniflare, as the pass-through is.
/** The most bytes one read takes, and the least (as worker/upstream/reusing-reader.ts). */
const MAX_READ = 64 * 1024;
const MIN_READ = 16 * 1024;

/**
 * The client's body parsed and serialized again, sent to the upstream: the client's request, the
 * upstream's response, and the answer's status and headers (the floors' common first step).
 */
export async function forward(request: Request, upstreamOrigin: string) {
  const { pathname } = new URL(request.url);
  const client = (await request.json()) as { model: string; stream?: boolean };
  const body = JSON.stringify({ ...client, model: client.model.slice(client.model.indexOf("/") + 1) });
  const headers = { "content-type": "application/json" };
  const upstream = await fetch(`${upstreamOrigin}${pathname}`, { method: "POST", headers, body });
  const init = { status: upstream.status, headers: { "content-type": upstream.headers.get("content-type") ?? "" } };
  return { client, upstream, init };
}

export default {
  async fetch(request: Request, env: { UPSTREAM: string }): Promise<Response> {
    const { client, upstream, init } = await forward(request, env.UPSTREAM);
    if (client.stream !== true) return new Response(await upstream.text(), init);
    const reader = upstream.body!.getReader({ mode: "byob" });
    let size = MIN_READ;
    /** The buffer to read into next: a read transfers it, and a copied chunk's read gives it back. */
    let buffer: ArrayBuffer | undefined;
    const answer = new ReadableStream<Uint8Array>({
      async pull(controller) {
        const { done, value } = await reader.read(new Uint8Array(buffer ?? new ArrayBuffer(size)));
        if (done || value === undefined) return controller.close();
        const used = value.byteLength;
        const full = used * 2 > value.buffer.byteLength;
        size = full ? Math.min(size * 2, MAX_READ) : used * 8 < size ? Math.max(size / 2, MIN_READ) : size;
        buffer = full || value.buffer.byteLength !== size ? undefined : value.buffer;
        controller.enqueue(full ? value : value.slice());
      },
      cancel: (reason) => reader.cancel(reason),
    });
    return new Response(answer, init);
  },
};
