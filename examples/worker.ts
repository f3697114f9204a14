import { AnthropicDeltaStream, SSEDecoderStream, ToolCallAccumulatorStream } from "tool-call-stream/anthropic";
import { ToolCallEventEncoderStream } from "tool-call-stream/core";

export default {
  async fetch(request: Request, env: { ANTHROPIC_API_KEY: string }): Promise<Response> {
    const input: unknown = await request.json().catch(() => undefined); // a GET, an empty or a malformed body
    if (typeof input !== "object" || input === null || Array.isArray(input))
      return Response.json({ error: "The body must be a JSON object: a Messages API request." }, { status: 400 });
    const upstream = await fetch("https://api.anthropic.com/v1/messages", {
      method: "POST",
      headers: {
        "x-api-key": env.ANTHROPIC_API_KEY,
        "anthropic-version": "2023-06-01",
        "content-type": "application/json",
      },
      body: JSON.stringify({ ...input, stream: true }),
    });
    if (!upstream.ok || upstream.body === null) {
      // A wrong key (401), an unknown model (404), a rate limit (429, with retry-after): the
      // provider's status and error object, not a 200 whose stream ends at once.
      const headers = new Headers({ "content-type": upstream.headers.get("content-type") ?? "application/json" });
      const retryAfter = upstream.headers.get("retry-after");
      if (retryAfter !== null) headers.set("retry-after", retryAfter);
      return new Response(upstream.body, { status: upstream.ok ? 502 : upstream.status, headers });
    }
    const body = upstream.body
      .pipeThrough(new SSEDecoderStream())
      .pipeThrough(new AnthropicDeltaStream())
      .pipeThrough(new ToolCallAccumulatorStream())
      .pipeThrough(new ToolCallEventEncoderStream()); // events -> SSE bytes for the client
    return new Response(body, { headers: { "content-type": "text/event-stream", "cache-control": "no-cache" } });
  },
};
