// A CPU profile of one small request, stage by stage: the built Worker under Miniflare (as in
// `npm run bench:load`), a workload's requests one at a time, profiled over the inspector (Chrome
// DevTools Protocol: Profiler.start, N requests, Profiler.stop). Each sample goes to the innermost
// function on its stack that belongs to a stage (STAGES below, by the bundled script's function
// names, which the build keeps), else to the runtime (promise jobs, stream plumbing and I/O in
// C++ that V8 cannot put on a JavaScript function, the garbage collector). Also the top functions
// by self time.
//   node bench/load/profile.ts [workload] [N]     (workload of bench/load/harness.ts, default chat-stream; N 300)
//   PROFILE_C=50 node bench/load/profile.ts tool-args-10k 500   (the requests PROFILE_C at a time: the
//   collector's share under concurrency)
// The profiler slows the isolate (samples every 50 us): read shares, not absolute times.
import { writeFileSync } from "node:fs";
import { convertV4MiniflareOptions, Miniflare } from "miniflare";
import { connectInspector, inspectorPage } from "../inspector.ts";
import { buildWorkers, load, startProviders, TOKEN, workerFlags, workloads } from "./harness.ts";

const [name = "chat-stream", count = "300"] = process.argv.slice(2);
const N = Number(count);
const INTERVAL_US = 50;
const MAX_SAMPLE_US = 4 * INTERVAL_US;
const CONCURRENCY = Number(process.env["PROFILE_C"] ?? 1);

/** Stages by the functions that do their work (the innermost match wins). */
const STAGES: [string, RegExp][] = [
  ["settings (env vars read)", /^(readSettings|integer|commaList|nonEmpty|flag)$/],
  ["auth", /^(authenticate|equalInConstantTime|sha256|tokenHash|bearerToken|authContext|anyProviderKey)$/],
  ["CORS", /^(corsHeaders|preflightResponse)$/],
  ["body read and JSON.parse", /^(readJsonBody|readText|readAll)$/],
  [
    "request checks (protocol body, tools, schemas, limits)",
    /^(parse\w*Request|clientRequest|\w*Tools?|checkDepth|depthOf|\w*Schema\w*|read\w*Messages?|agentModel|providerModel|bareNameProvider|resolveAlias)$/,
  ],
  [
    "provider request (tool names, body, headers)",
    /^(withProviderToolNames|buildRequest|requestBody|\w*RequestBody|providerTarget|upstreamProvider)$/,
  ],
  [
    "upstream fetch, its clocks (idle, deadline)",
    /^(openUpstream|openChain|responseWatch|ResponseWatch|readStarts|check|onTimeout|statusError)$/,
  ],
  [
    "the chain (framing, decoder, accumulator)",
    /^(ChainPump|work|take|keep|settlesSoon|toolCallBatchStream|streamToolCallBatches|decodeMessage|decodeChoice|joinedChunks|\w*Decoder\w*|\w*Framing\w*|\w*Accumulat\w*|\w*Delta\w*)$/,
  ],
  [
    "provider data strip, tool names back",
    /^(withoutProviderData\w*|stripped\w*|clientNames|clientEvent|failUnreadable|agentBatches|allowedCalls|customCalls)$/,
  ],
  ["the encoder", /^(\w*Encoder\w*|encode|encodeBatches|encodeAnswer|joinDeltas|formatToolCallEvent)$/],
  ["writes and keep-alive", /^(withHeartbeat|beat|readMapped|readEach|mapChunks|answerHeaders)$/],
  [
    "Durable Object and storage",
    /^(responsePool|startResumable\w*|newResponseId|responseIdKey|mintedResponseObject|stubOf|attach|ResponseBuffer|\w*Log\w*|keyedStore|keep\w*Response|keepingOf|KeepingEncoder)$/,
  ],
];

const providers = await startProviders();
const built = await buildWorkers();
const inspectorPort = 9229 + Math.floor(Math.random() * 500);
const workload = workloads()[name];
if (!workload) throw new Error(`no workload ${name}`);
const mf = new Miniflare(
  convertV4MiniflareOptions({
    host: "127.0.0.1",
    port: 0,
    inspectorPort,
    workers: [
      {
        name: "worker",
        modules: true,
        modulesRoot: built.worker.replace(/\/[^/]+$/, ""),
        scriptPath: built.worker,
        compatibilityDate: "2026-11-01",
        compatibilityFlags: workerFlags(built.worker),
        bindings: {
          CLIENT_TOKEN: TOKEN,
          OPENAI_API_KEY: "k",
          ANTHROPIC_API_KEY: "k",
          OPENAI_BASE_URL: `${providers.origin}/v1`,
          ANTHROPIC_BASE_URL: `${providers.origin}/v1`,
        },
        durableObjects: { RESPONSES: { className: "ResponseBuffer", useSQLite: true } },
      },
    ],
  }),
);
try {
  const url = (await mf.ready).href.replace(/\/$/, "");
  const served = { name: "Worker", mf, url, pids: [], coldStartMs: 0 };
  await load(served, workload, "worker", providers.origin, 1, 50); // warm up (JIT)
  const { send, close } = await connectInspector(await inspectorPage(inspectorPort, "worker"));
  await send("Profiler.enable");
  await send("Profiler.setSamplingInterval", { interval: INTERVAL_US });
  await send("Profiler.start");
  const { samples } = await load(served, workload, "worker", providers.origin, CONCURRENCY, N);
  const { profile } = await send("Profiler.stop");
  close();
  if (samples.some((s) => !s.ok)) throw new Error("a request failed while profiling");
  // PROFILE_OUT=<file>: the profile itself too, for Chrome DevTools or a script of your own.
  if (process.env["PROFILE_OUT"]) writeFileSync(process.env["PROFILE_OUT"], JSON.stringify(profile));

  interface Node {
    id: number;
    callFrame: { functionName: string; url: string; lineNumber: number };
    children?: number[];
  }
  const nodes = new Map<number, Node>((profile.nodes as Node[]).map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of nodes.values()) for (const child of node.children ?? []) parent.set(child, node.id);
  const clean = (fn: string): string => fn.replace(/^#/, "").replace(/^(get |set )/, "");
  const stageOf = new Map<number, string>();
  const stageOfNode = (id: number): string => {
    const known = stageOf.get(id);
    if (known) return known;
    const frame = nodes.get(id)!.callFrame;
    const fn = clean(frame.functionName);
    const own = STAGES.find(([, pattern]) => pattern.test(fn))?.[0];
    const up = parent.get(id);
    const stage = own ?? (up === undefined ? "runtime (no stage on the stack)" : stageOfNode(up));
    stageOf.set(id, stage);
    return stage;
  };
  const byStage = new Map<string, number>();
  const bySelf = new Map<string, number>();
  let busy = 0;
  (profile.samples as number[]).forEach((id, i) => {
    const frame = nodes.get(id)!.callFrame;
    if (frame.functionName === "(idle)") return;
    const micros = Math.min((profile.timeDeltas as number[])[i + 1] ?? 0, MAX_SAMPLE_US);
    busy += micros;
    const special = /^\((program|garbage collector)\)$/.test(frame.functionName) ? frame.functionName : undefined;
    const stage = special ?? stageOfNode(id);
    byStage.set(stage, (byStage.get(stage) ?? 0) + micros);
    const key = `${frame.functionName || "(anon)"} :${frame.lineNumber + 1}`;
    bySelf.set(key, (bySelf.get(key) ?? 0) + micros);
  });
  const ms = (micros: number): string => (micros / 1000 / N).toFixed(3).padStart(7);
  const share = (micros: number): string => `${((100 * micros) / busy).toFixed(1).padStart(5)}%`;
  const how = CONCURRENCY === 1 ? "one at a time" : `${CONCURRENCY} at a time`;
  console.log(`${name}: ${N} requests ${how}, isolate busy ${ms(busy)} ms per request (profiled)\n\nBy stage:`);
  for (const [stage, micros] of [...byStage].sort((a, b) => b[1] - a[1]))
    console.log(`${ms(micros)} ms ${share(micros)}  ${stage}`);
  console.log("\nTop functions by self time:");
  for (const [key, micros] of [...bySelf].sort((a, b) => b[1] - a[1]).slice(0, Number(process.env["TOP"] ?? 30)))
    console.log(`${ms(micros)} ms ${share(micros)}  ${key}`);
} finally {
  await mf.dispose();
  providers.child.kill("SIGTERM");
  built.remove();
}
