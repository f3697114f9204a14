// Whether workerd releases a provider's connection when a Worker cancels the provider's body
// (`reader.cancel()`) without aborting the fetch (`AbortController.abort`), issue 37's lead of stop
// 74: a provider in this process that keeps each connection open after its last event, and a probe
// Worker served by Miniflare (one workerd, as bench/load/harness.ts serves the Worker) that reads
// the provider's body to its `[DONE]` ("end") or to its first event ("mid": a client's cancel or a
// clock, which cancel the body mid-stream), then cancels the reader, with the fetch aborted first
// ("+abort") or not. Prints, for each, the provider's socket's close time after the Worker's
// answer reached the client (negative: closed before), or "open" if it was still open 2 s after.
//   node bench/load/provider-release.ts 10
import { once } from "node:events";
import { createServer } from "node:http";
import { convertV4MiniflareOptions, Miniflare } from "miniflare";

const N = Number(process.argv[2] ?? 10);
const closed: number[] = [];
const server = createServer((request, response) => {
  request.socket.once("close", () => closed.push(performance.now()));
  response.writeHead(200, { "content-type": "text/event-stream" });
  response.write('data: {"choices":[]}\n\n');
  if (request.url === "/end") response.write("data: [DONE]\n\n");
  // Never ended: only the Worker's side can close the connection.
});
server.listen(0, "127.0.0.1");
await once(server, "listening");
const address = server.address();
if (address === null || typeof address === "string") throw new Error("no port");

const script = `export default {
  async fetch(request, env) {
    const mode = new URL(request.url).searchParams.get("mode");
    const controller = new AbortController();
    const path = mode.startsWith("end") ? "/end" : "/mid";
    const response = await fetch(env.UP + path, { method: "POST", body: "{}", signal: controller.signal, redirect: "manual" });
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    let text = decoder.decode((await reader.read()).value, { stream: true });
    while (path === "/end" && !text.includes("[DONE]")) text += decoder.decode((await reader.read()).value, { stream: true });
    if (mode.endsWith("+abort")) controller.abort("released");
    reader.cancel("released").catch(() => {});
    return new Response(mode);
  },
};`;
const mf = new Miniflare(
  convertV4MiniflareOptions({
    host: "127.0.0.1",
    port: 0,
    workers: [
      {
        name: "release",
        modules: true,
        script,
        compatibilityDate: "2026-11-01",
        bindings: { UP: `http://127.0.0.1:${address.port}` },
      },
    ],
  }),
);
const url = await mf.ready;

/** When the next socket closed, or undefined if none did within 2 s. */
async function nextClose(count: number): Promise<number | undefined> {
  const since = performance.now();
  while (closed.length === count && performance.now() - since < 2000) await new Promise((r) => setTimeout(r, 2));
  return closed[count];
}

const results = new Map<string, string[]>();
try {
  for (let i = 0; i < N; i++)
    for (const mode of ["end", "end+abort", "mid", "mid+abort"]) {
      const count = closed.length;
      const answer = await fetch(`${url}?mode=${encodeURIComponent(mode)}`);
      await answer.text();
      const answered = performance.now();
      const at = await nextClose(count);
      const list = results.get(mode) ?? [];
      list.push(at === undefined ? "open" : (at - answered).toFixed(1));
      results.set(mode, list);
    }
} finally {
  await mf.dispose();
  server.closeAllConnections();
  server.close();
}
console.log("the provider's socket closed, ms after the answer reached the client (negative: before it):");
for (const [mode, list] of results) console.log(`${mode}: ${list.join(" ")}`);
