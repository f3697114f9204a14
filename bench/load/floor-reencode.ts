// The second floor of `npm run bench:load` (reencode): the one-pass floor of a translating gateway,
// no accumulation. As js-relay (bench/load/floor-js-relay.ts) it parses and serializes the client's
// body, fetches the upstream and reads its body in JavaScript; it also decodes the SSE (a streaming
// TextDecoder, the text split into lines, `JSON.parse` of each `data:` payload) and writes each
// event back in the same framing (`JSON.stringify`, TextEncoder), what one read gave in one
// enqueue. Its reads are a BYOB reader's into one 64 KiB buffer, reused (each read is decoded
// before the next), as the Worker reads its provider (worker/upstream/reusing-reader.ts). A
// request that does not stream gets the upstream's body read whole, each event re-encoded, and
// answered in one piece.
import { forward } from "./floor-js-relay.ts";

const encoder = new TextEncoder();
/** The bytes of one read. */
const READ = 64 * 1024;

/** The complete lines of `text` re-encoded (each `data:` payload parsed and serialized again) and the rest. */
function reencode(text: string): [out: string, rest: string] {
  let out = "";
  let from = 0;
  for (let end = text.indexOf("\n"); end >= 0; from = end + 1, end = text.indexOf("\n", from)) {
    const line = text.slice(from, end);
    out +=
      line.startsWith("data: ") && line !== "data: [DONE]"
        ? `data: ${JSON.stringify(JSON.parse(line.slice(6)))}\n`
        : `${line}\n`;
  }
  return [out, text.slice(from)];
}

export default {
  async fetch(request: Request, env: { UPSTREAM: string }): Promise<Response> {
    const { client, upstream, init } = await forward(request, env.UPSTREAM);
    if (client.stream !== true) {
      const [out, rest] = reencode(await upstream.text());
      return new Response(out + rest, init);
    }
    const reader = upstream.body!.getReader({ mode: "byob" });
    let buffer = new ArrayBuffer(READ);
    const decoder = new TextDecoder(); // one per answer: a streaming decoder keeps a partial character
    let rest = "";
    const answer = new ReadableStream<Uint8Array>({
      async pull(controller) {
        for (;;) {
          const { done, value } = await reader.read(new Uint8Array(buffer));
          if (done) {
            if (rest) controller.enqueue(encoder.encode(rest + decoder.decode()));
            return controller.close();
          }
          buffer = value.buffer as ArrayBuffer;
          const [out, left] = reencode(rest + decoder.decode(value, { stream: true }));
          rest = left;
          if (out) return controller.enqueue(encoder.encode(out));
        }
      },
      cancel: (reason) => reader.cancel(reason),
    });
    return new Response(answer, init);
  },
};
