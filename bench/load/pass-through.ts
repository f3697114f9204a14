// The pass-through Worker of `npm run bench:load`: what a gateway costs when it only forwards.
// It sends the client's body to the same path of the upstream (UPSTREAM, the scripted providers'
// origin) and streams the upstream's bytes back unchanged. Never deployed: the bench builds it with
// esbuild and serves it with Miniflare, as it serves the real Worker.
export default {
  async fetch(request: Request, env: { UPSTREAM: string }): Promise<Response> {
    const { pathname } = new URL(request.url);
    const headers = { "content-type": request.headers.get("content-type") ?? "application/json" };
    const upstream = await fetch(`${env.UPSTREAM}${pathname}`, { method: "POST", headers, body: request.body });
    const type = upstream.headers.get("content-type") ?? "text/event-stream";
    return new Response(upstream.body, { status: upstream.status, headers: { "content-type": type } });
  },
};
