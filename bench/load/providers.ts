// The scripted providers of `npm run bench:load`, in a Node process of their own (so their CPU is
// neither the Worker's nor the load generator's): one HTTP server on 127.0.0.1 that answers
// POST /v1/chat/completions (OpenAI Chat), /v1/messages (Anthropic) and /v1/responses (OpenAI
// Responses) with that provider's recorded body (bench/load/bodies.ts), `small` or `big` by the
// request's `model`, the whole body in one write at full speed. It prints its origin as one JSON
// line on stdout, then serves until its parent ends it.
//   node bench/load/providers.ts
import { createServer } from "node:http";
import { type LoadProvider, loadBodies, UPSTREAM_PATHS } from "./bodies.ts";

const bodies = loadBodies();
const byPath = new Map(
  (Object.entries(UPSTREAM_PATHS) as [LoadProvider, string][]).map(([provider, path]) => [path, bodies[provider]]),
);

const server = createServer((request, response) => {
  const parts: Buffer[] = [];
  request.on("data", (part: Buffer) => parts.push(part));
  request.on("end", () => {
    const sizes = byPath.get(request.url ?? "");
    let model: unknown;
    try {
      model = (JSON.parse(Buffer.concat(parts).toString("utf8")) as { model?: unknown }).model;
    } catch {
      model = undefined;
    }
    const body = sizes && (model === "small" || model === "big") ? sizes[model] : undefined;
    if (!body) return void response.writeHead(404, { "content-type": "text/plain" }).end("no such body");
    response.writeHead(200, { "content-type": body.contentType, "content-length": String(body.bytes.length) });
    response.end(body.bytes);
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, "127.0.0.1", () => {
  const { port } = server.address() as { port: number };
  process.stdout.write(`${JSON.stringify({ origin: `http://127.0.0.1:${port}` })}\n`);
});
process.on("SIGTERM", () => server.close(() => process.exit(0)));
