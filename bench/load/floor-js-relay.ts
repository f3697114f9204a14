// The first floor of `npm run bench:load` (js-relay): the least any gateway that sees its stream
// does. It parses the client's JSON body and serializes it again (the model's "provider/" prefix
// dropped, as a router would), fetches the upstream (UPSTREAM, the scripted providers' origin),
// reads the upstream's body with a JavaScript reader and enqueues each chunk, unchanged, into the
// JavaScript ReadableStream it answers with. The reader is a BYOB one, each read into a fresh
// 64 KiB buffer (the answer keeps each chunk until workerd has written it): with workerd's default
// reader the 1 MB body cost 10 times the pass-through's CPU against 2 with these reads
// (bench/load/fetch-step.ts, `default-reader` and `byob-reader`, in bench/load/rounds.ts). A
// request that does not stream (`stream` not true) gets the upstream's body read whole and answered
// in one piece. Never deployed: built with esbuild and served by Miniflare, as the pass-through is.
/** The bytes of one read. */
const READ = 64 * 1024;

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
    const answer = new ReadableStream<Uint8Array>({
      async pull(controller) {
        const { done, value } = await reader.read(new Uint8Array(READ));
        if (done) controller.close();
        else controller.enqueue(value);
      },
      cancel: (reason) => reader.cancel(reason),
    });
    return new Response(answer, init);
  },
};
