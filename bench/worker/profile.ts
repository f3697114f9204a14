// A CPU profile of a Worker under `wrangler dev`, taken over the inspector (Chrome DevTools
// Protocol: Profiler.start, N requests, Profiler.stop), printed as self time per function and
// line of the bundled script, per request. What `npm run bench:worker` cannot say: where, inside
// one workerd, the time goes.
//
//   node bench/worker/profile.ts plain stream <body> [N]    the real Worker's POST /v1/stream, without the Durable Object
//   node bench/worker/profile.ts plain messages|responses <body> [N]  the agent endpoints, the same way
//   node bench/worker/profile.ts resumable stream <body> [N]  the same through the RESPONSES Durable Object
//   node bench/worker/profile.ts reference <route> <body> [N]  bench-worker.ts: route chain | batches | sse | idle | strip | window | pass | read | parse
//
// <body>: openai | anthropic | responses | tiny (the bodies of bench:worker). PACE=full|event|tokens
// (bench/worker/upstream.ts; default full) is the upstream's pace. TOP=<rows> (default 40),
// SAVE=<file> writes the raw .cpuprofile (open it in Chrome DevTools). Samples every 50 us; the
// profiler itself slows the isolate about twice, so read shares, not absolute times. A native
// function shows as `name :0`; `(anon) :0` and `(program)` are the runtime's own work (promise
// jobs, stream plumbing in C++) that V8 cannot put on a JS function.
import { writeFileSync } from "node:fs";
import { connectInspector, inspectorPage } from "../inspector.ts";
import { agentInit, benchBodies, startWrangler, stopWrangler, streamInit, workerVars } from "./harness.ts";
import { type Pace, startUpstream } from "./upstream.ts";

const [which, route, name, count] = process.argv.slice(2);
const N = Number(count ?? 30);
/** The sampling interval, and the most time one sample may stand for (see where it is used). */
const INTERVAL_US = 50;
const MAX_SAMPLE_US = 4 * INTERVAL_US;
const body = ["openai", "anthropic", "responses", "tiny"].includes(name ?? "") ? benchBodies([name!])[0] : undefined;
if (
  (which !== "plain" && which !== "resumable" && which !== "reference") ||
  body === undefined ||
  route === undefined
) {
  console.error(
    "usage: [PACE=full|event|tokens] node bench/worker/profile.ts plain|resumable|reference <route> openai|anthropic|responses|tiny [N]",
  );
  process.exit(2);
}
const upstream = await startUpstream([body]);
upstream.pace = (process.env["PACE"] ?? "full") as Pace;
// The real Worker: without the Durable Object binding (plain), or with it (resumable: the
// RESPONSES object runs each response, in the same isolate).
const plain = which === "plain" || which === "resumable";
const config =
  which === "resumable" ? "wrangler.toml" : plain ? "bench/worker/wrangler.plain.toml" : "bench/worker/wrangler.toml";
const target = await startWrangler(which, config, plain ? workerVars(upstream.origin) : { UPSTREAM: upstream.origin });
const { port, inspector } = target;

try {
  const url = plain ? `http://127.0.0.1:${port}/v1/${route}` : `http://127.0.0.1:${port}/${route}/v1/${body.path}`;
  // The agent endpoints take their own protocols' requests; /v1/stream the Worker's own.
  const init: RequestInit = !plain
    ? {}
    : route === "messages" || route === "responses"
      ? agentInit(body, route)
      : streamInit(body);
  const once = async (): Promise<void> => {
    const response = await fetch(url, init);
    if (!response.ok) throw new Error(`${response.status} ${await response.text()}`);
    const reader = response.body!.getReader();
    while (!(await reader.read()).done);
  };
  for (let i = 0; i < 5; i++) await once(); // warm up (JIT)

  const { send, close } = await connectInspector(await inspectorPage(inspector));
  await send("Profiler.enable");
  await send("Profiler.setSamplingInterval", { interval: INTERVAL_US });
  await send("Profiler.start");
  const start = performance.now();
  for (let i = 0; i < N; i++) await once();
  const wall = performance.now() - start;
  const { profile } = await send("Profiler.stop");
  close();
  if (process.env["SAVE"]) writeFileSync(process.env["SAVE"], JSON.stringify(profile));

  // A sample's weight is the time to the next one, capped: workerd does not tell V8 when it is
  // idle, so no sample is taken while it waits for I/O or a timer, and an uncapped delta would
  // charge the whole wait to the last function that ran before it (at a paced upstream, most of
  // the wall time).
  const self = new Map<number, number>();
  profile.samples.forEach((node: number, i: number) =>
    self.set(node, (self.get(node) ?? 0) + Math.min(profile.timeDeltas[i + 1] ?? 0, MAX_SAMPLE_US)),
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
  await stopWrangler(target);
  upstream.server.close();
}
process.exit(0);
