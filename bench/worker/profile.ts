// A CPU profile of a Worker under `wrangler dev`, taken over the inspector (Chrome DevTools
// Protocol: Profiler.start, N requests, Profiler.stop), printed as self time per function and
// line of the bundled script, per request. What `npm run bench:worker` cannot say: where, inside
// one workerd, the time goes.
//
//   node bench/worker/profile.ts plain stream <body> [N]    the real Worker's POST /v1/stream, without the Durable Object
//   node bench/worker/profile.ts resumable stream <body> [N]  the same through the RESPONSES Durable Object
//   node bench/worker/profile.ts reference <route> <body> [N]  bench-worker.ts: route chain | batches | sse | idle | pass
//
// <body>: openai | anthropic | responses | tiny (the bodies of bench:worker). TOP=<rows> (default 40),
// SAVE=<file> writes the raw .cpuprofile (open it in Chrome DevTools). Samples every 50 us; the
// profiler itself slows the isolate about twice, so read shares, not absolute times. A native
// function shows as `name :0`; `(anon) :0` and `(program)` are the runtime's own work (promise
// jobs, stream plumbing in C++) that V8 cannot put on a JS function.
import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { createRequire } from "node:module";
import { anthropic, argumentsOf, fragments, openAIChat, responses } from "../bodies.ts";

const [which, route, name, count] = process.argv.slice(2);
const N = Number(count ?? 30);
const encode = (text: string): Uint8Array => new TextEncoder().encode(text);
const eight = Array.from({ length: 8 }, () => fragments(argumentsOf(2048), 6));
const sequential = eight.flatMap((pieces, index) => pieces.map((piece) => [index, piece] as [number, string]));
const one = [fragments(argumentsOf(50 * 1024), 4)];
const BODIES: Record<string, { path: string; provider: string; text: () => string }> = {
  openai: { path: "chat/completions", provider: "openai", text: () => openAIChat([], sequential) },
  anthropic: { path: "messages", provider: "anthropic", text: () => anthropic(one) },
  responses: { path: "responses", provider: "openai-responses", text: () => responses(one) },
  tiny: { path: "chat/completions", provider: "openai", text: () => openAIChat(["Hi"], []) },
};
const body = BODIES[name ?? ""];
if (
  (which !== "plain" && which !== "resumable" && which !== "reference") ||
  body === undefined ||
  route === undefined
) {
  console.error(
    "usage: node bench/worker/profile.ts plain|resumable|reference <route> openai|anthropic|responses|tiny [N]",
  );
  process.exit(2);
}
const bytes = encode(body.text());
const upstream = createServer((request, response) => {
  request.resume();
  request.on("end", () =>
    response.writeHead(200, { "content-type": "text/event-stream", "content-length": String(bytes.length) }).end(bytes),
  );
});
await new Promise<void>((resolve) => upstream.listen(0, "127.0.0.1", () => resolve()));
const origin = `http://127.0.0.1:${(upstream.address() as { port: number }).port}`;
const port = 18_000 + Math.floor(Math.random() * 1000);
const inspector = port + 1000;
// The real Worker: without the Durable Object binding (plain), or with it (resumable: the
// RESPONSES object runs each response, in the same isolate).
const plain = which === "plain" || which === "resumable";
const vars = plain
  ? {
      OPENAI_BASE_URL: `${origin}/v1`,
      ANTHROPIC_BASE_URL: `${origin}/v1`,
      OPENAI_API_KEY: "bench-key",
      ANTHROPIC_API_KEY: "bench-key",
      CLIENT_TOKEN: "bench-client-token",
    }
  : { UPSTREAM: origin };
const config =
  which === "resumable" ? "wrangler.toml" : plain ? "bench/worker/wrangler.plain.toml" : "bench/worker/wrangler.toml";
const args = ["dev", "-c", config, "--ip", "127.0.0.1", "--port", String(port), "--inspector-port", String(inspector)];
args.push("--show-interactive-dev-session=false", "--log-level", "warn");
for (const [key, value] of Object.entries(vars)) args.push("--var", `${key}:${value}`);
const child = spawn("node_modules/.bin/wrangler", args, {
  stdio: "ignore",
  env: { ...process.env, CI: "1", WRANGLER_SEND_METRICS: "false" },
});

try {
  for (let attempt = 0; ; attempt++) {
    try {
      await fetch(`http://127.0.0.1:${port}/healthz`);
      break;
    } catch {
      if (attempt > 240) throw new Error("wrangler dev did not start");
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
  const url = plain ? `http://127.0.0.1:${port}/v1/${route}` : `http://127.0.0.1:${port}/${route}/v1/${body.path}`;
  const payload = {
    provider: body.provider,
    model: "bench-model",
    messages: [{ role: "user", content: "Write the file." }],
    tools: [{ name: "write_file", description: "Writes a file.", parameters: { type: "object" } }],
  };
  const init: RequestInit = plain
    ? {
        method: "POST",
        headers: { authorization: "Bearer bench-client-token", "content-type": "application/json" },
        body: JSON.stringify(payload),
      }
    : {};
  const once = async (): Promise<void> => {
    const response = await fetch(url, init);
    if (!response.ok) throw new Error(`${response.status} ${await response.text()}`);
    const reader = response.body!.getReader();
    while (!(await reader.read()).done);
  };
  for (let i = 0; i < 5; i++) await once(); // warm up (JIT)

  // wrangler's inspector proxy wants an Origin header, which Node's own WebSocket does not send: `ws` (a dependency of wrangler).
  const WebSocket = createRequire(import.meta.url)("ws");
  const [target] = (await (await fetch(`http://127.0.0.1:${inspector}/json`)).json()) as {
    webSocketDebuggerUrl: string;
  }[];
  const socket = new WebSocket(target!.webSocketDebuggerUrl, { headers: { origin: "http://127.0.0.1" } });
  await new Promise((resolve, reject) => socket.once("open", resolve).once("error", reject));
  let lastId = 0;
  const replies = new Map<number, (result: any) => void>();
  socket.on("message", (data: unknown) => {
    const message = JSON.parse(String(data));
    replies.get(message.id)?.(message.result ?? message.error);
    replies.delete(message.id);
  });
  const send = (method: string, params: object = {}): Promise<any> =>
    new Promise((resolve) => {
      replies.set(++lastId, resolve);
      socket.send(JSON.stringify({ id: lastId, method, params }));
    });
  await send("Profiler.enable");
  await send("Profiler.setSamplingInterval", { interval: 50 });
  await send("Profiler.start");
  const start = performance.now();
  for (let i = 0; i < N; i++) await once();
  const wall = performance.now() - start;
  const { profile } = await send("Profiler.stop");
  socket.close();
  if (process.env["SAVE"]) writeFileSync(process.env["SAVE"], JSON.stringify(profile));

  const self = new Map<number, number>();
  profile.samples.forEach((node: number, i: number) =>
    self.set(node, (self.get(node) ?? 0) + (profile.timeDeltas[i + 1] ?? 0)),
  );
  const byFunction = new Map<string, number>();
  let busy = 0;
  for (const node of profile.nodes) {
    const frame = node.callFrame;
    if (frame.functionName === "(idle)") continue;
    const micros = self.get(node.id) ?? 0;
    const key = `${frame.functionName || "(anon)"}  ${String(frame.url).replace(/.*\//, "")}:${frame.lineNumber + 1}`;
    busy += micros;
    byFunction.set(key, (byFunction.get(key) ?? 0) + micros);
  }
  console.log(
    `${which} ${route} ${name}: ${N} requests, ${(wall / N).toFixed(1)} ms each, isolate busy ${(busy / 1000 / N).toFixed(2)} ms each (profiled)`,
  );
  const rows = [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, Number(process.env["TOP"] ?? 40));
  for (const [key, micros] of rows)
    console.log(
      `${(micros / 1000 / N).toFixed(3).padStart(9)} ms ${((100 * micros) / busy).toFixed(1).padStart(5)}%  ${key}`,
    );
} finally {
  child.kill("SIGTERM");
  upstream.close();
}
process.exit(0);
