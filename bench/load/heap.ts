// What the isolate keeps, over the inspector (Chrome DevTools Protocol), beside the workerd RSS
// that `npm run bench:load` reads: the built Worker and the pass-through, each served by Miniflare
// as there (one workerd each), the scripted providers in a process of their own.
//   - Per request: N requests of a workload at c=10 in blocks; after each, the V8 heap (used and
//     committed, `Runtime.getHeapUsage`) and RSS; at the end a full collection
//     (`HeapProfiler.collectGarbage`) and both again. A heap that comes back to the same size after a
//     collection keeps nothing per request; RSS that grows the same in both targets is workerd's.
//   - Per stream: the heap at the peak of c=50 (largest `usedSize` sampled) over its idle size, and
//     with HEAP_SNAPSHOTS=<dir> a heap snapshot taken during c=50 (the Worker's), its live objects by
//     constructor over the idle snapshot's, divided by 50.
//   - With HEAP_ALLOCATIONS=<n>: what the Worker allocates per request, by function, over n requests.
//   node bench/load/heap.ts [workload] [N] [blocks]    (default chat-stream 3000 6)
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { convertV4MiniflareOptions, Miniflare } from "miniflare";
import { connectInspector } from "../inspector.ts";
import {
  buildWorkers,
  load,
  rssMiB,
  startProviders,
  TOKEN,
  type Workload,
  workerdProcesses,
  workloads,
  workerFlags,
} from "./harness.ts";

const [name = "chat-stream", count = "3000", blockCount = "6"] = process.argv.slice(2);
const N = Number(count);
const BLOCKS = Number(blockCount);
const SNAPSHOTS = process.env["HEAP_SNAPSHOTS"];

/** A workerd with its inspector: CDP commands to its isolate, its RSS. */
interface Inspected {
  name: string;
  kind: "worker" | "pass";
  mf: Miniflare;
  served: { name: string; mf: Miniflare; url: string; pids: number[]; coldStartMs: number };
  send: (method: string, params?: object) => Promise<any>;
  chunks: string[];
}

async function inspected(kind: "worker" | "pass", script: string, origin: string, first: Workload): Promise<Inspected> {
  const inspectorPort = 9229 + Math.floor(Math.random() * 2000);
  const others = workerdProcesses();
  const bindings =
    kind === "worker"
      ? {
          CLIENT_TOKEN: TOKEN,
          OPENAI_API_KEY: "k",
          ANTHROPIC_API_KEY: "k",
          OPENAI_BASE_URL: `${origin}/v1`,
          ANTHROPIC_BASE_URL: `${origin}/v1`,
        }
      : { UPSTREAM: origin };
  const mf = new Miniflare(
    convertV4MiniflareOptions({
      host: "127.0.0.1",
      port: 0,
      inspectorPort,
      workers: [
        {
          name: kind,
          modules: true,
          modulesRoot: script.replace(/\/[^/]+$/, ""),
          scriptPath: script,
          compatibilityDate: "2026-11-01",
          bindings,
          ...(kind === "worker"
            ? {
                compatibilityFlags: workerFlags(script),
                durableObjects: { RESPONSES: { className: "ResponseBuffer", useSQLite: true } },
              }
            : {}),
        },
      ],
    }),
  );
  const url = (await mf.ready).href.replace(/\/$/, "");
  const pids = [...workerdProcesses()].filter((pid) => !others.has(pid));
  const served = { name: kind, mf, url, pids, coldStartMs: 0 };
  await load(served, first, kind, origin, 10, 100); // warm up
  const chunks: string[] = [];
  const { send, close } = await connectInspector(
    `ws://127.0.0.1:${inspectorPort}/core:user:${kind}`,
    (method, params) => {
      if (method === "HeapProfiler.addHeapSnapshotChunk") chunks.push(params.chunk);
    },
  );
  await send("HeapProfiler.enable");
  mf.dispose = ((dispose) => () => (close(), dispose()))(mf.dispose.bind(mf));
  return { name: kind === "worker" ? "Worker" : "pass-through", kind, mf, served, send, chunks };
}

const providers = await startProviders();
const built = await buildWorkers();
const found = workloads()[name];
if (!found) throw new Error(`no workload ${name}`);
// Narrowed once, so the functions below see a workload too.
const workload = found;
const origin = providers.origin;
const targets: Inspected[] = [];
const mib = (bytes: number): string => (bytes / 2 ** 20).toFixed(2);

/**
 * workerd runs an inspector command that needs the isolate's lock (a collection, a snapshot) when
 * a request enters it: requests of the workload go, one at a time, until it has answered.
 */
async function withRequest(t: Inspected, method: string, params: object = {}): Promise<any> {
  let answered = false;
  const reply = t.send(method, params).then((result) => {
    answered = true;
    return result;
  });
  while (!answered) await load(t.served, workload, t.kind, origin, 1, 1);
  return reply;
}

async function collected(t: Inspected): Promise<number> {
  await withRequest(t, "HeapProfiler.collectGarbage");
  await withRequest(t, "HeapProfiler.collectGarbage");
  return (await t.send("Runtime.getHeapUsage")).usedSize;
}

async function snapshot(t: Inspected, file: string): Promise<string> {
  t.chunks.length = 0;
  await t.send("HeapProfiler.takeHeapSnapshot", { reportProgress: false });
  const text = t.chunks.join("");
  writeFileSync(file, text);
  return text;
}

/** Live objects by type and constructor name: count and self size. */
function census(text: string): Map<string, { count: number; size: number }> {
  const snap = JSON.parse(text) as { snapshot: { meta: any }; nodes: number[]; strings: string[] };
  const fields: string[] = snap.snapshot.meta.node_fields;
  const types: string[] = snap.snapshot.meta.node_types[0];
  const [typeAt, nameAt, sizeAt] = ["type", "name", "self_size"].map((f) => fields.indexOf(f)) as number[];
  const out = new Map<string, { count: number; size: number }>();
  for (let i = 0; i < snap.nodes.length; i += fields.length) {
    const type = types[snap.nodes[i + typeAt!]!]!;
    const named = type === "object" || type === "closure" || type === "native";
    const key = named ? `${type} ${snap.strings[snap.nodes[i + nameAt!]!]}` : type;
    const entry = out.get(key) ?? { count: 0, size: 0 };
    entry.count++;
    entry.size += snap.nodes[i + sizeAt!]!;
    out.set(key, entry);
  }
  return out;
}

/**
 * HEAP_ALLOCATIONS=<n>: what the Worker allocates per request, collected or not, by function
 * (`HeapProfiler.startSampling`, a sample every 1 KiB allocated), over n requests at c=10.
 */
async function allocations(t: Inspected, n: number): Promise<void> {
  await t.send("HeapProfiler.startSampling", {
    samplingInterval: 1024,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: true,
  });
  await load(t.served, workload, t.kind, origin, 10, n);
  const { profile } = await withRequest(t, "HeapProfiler.stopSampling");
  interface Node {
    callFrame: { functionName: string; lineNumber: number };
    selfSize: number;
    id: number;
    children: Node[];
  }
  const bySelf = new Map<string, number>();
  let total = 0;
  const walk = (node: Node, stack: string): void => {
    const fn = node.callFrame.functionName || "(anon)";
    const key = `${fn}:${node.callFrame.lineNumber + 1} < ${stack}`;
    bySelf.set(key, (bySelf.get(key) ?? 0) + node.selfSize);
    total += node.selfSize;
    for (const child of node.children) walk(child, fn);
  };
  walk(profile.head as Node, "");
  console.log(
    `\n${t.name}: allocated ${(total / 1024 / (n + 1)).toFixed(1)} KiB per request (sampled); by function < its caller:`,
  );
  for (const [key, size] of [...bySelf].sort((a, b) => b[1] - a[1]).slice(0, Number(process.env["TOP"] ?? 30)))
    console.log(`${(size / 1024 / (n + 1)).toFixed(2).padStart(8)} KiB  ${key}`);
}

try {
  targets.push(await inspected("pass", built.pass, origin, workload));
  targets.push(await inspected("worker", built.worker, origin, workload));
  console.log(`heap: ${name}, ${new Date().toISOString()}`);
  // Per stream: c=50, the heap sampled every 20 ms.
  for (const t of targets) {
    const idle = await collected(t);
    const idleRss = rssMiB(t.served.pids);
    const idleSnap = SNAPSHOTS && t.kind === "worker" ? await snapshot(t, join(SNAPSHOTS, "idle.heapsnapshot")) : "";
    let peak = 0;
    let peakRss = 0;
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        peak = Math.max(peak, (await t.send("Runtime.getHeapUsage")).usedSize);
        peakRss = Math.max(peakRss, rssMiB(t.served.pids));
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    })();
    const running = load(t.served, workload, t.kind, origin, 50, workload.size === "big" ? 150 : 500);
    let busySnap = "";
    if (idleSnap) {
      await new Promise((resolve) => setTimeout(resolve, 300));
      busySnap = await snapshot(t, join(SNAPSHOTS!, "c50.heapsnapshot"));
    }
    const { samples } = await running;
    sampling = false;
    await sampler;
    console.log(
      `${t.name} at c=50 (${samples.filter((s) => !s.ok).length} failed): heap idle ${mib(idle)} MiB, peak used ${mib(peak)} MiB, ${((peak - idle) / 2 ** 10 / 50).toFixed(1)} KiB per stream; RSS idle ${idleRss.toFixed(1)}, peak ${peakRss.toFixed(1)} MiB, ${((peakRss - idleRss) / 50).toFixed(2)} MiB per stream`,
    );
    if (busySnap) {
      const [a, z] = [census(idleSnap), census(busySnap)];
      const rows = [...z].map(([key, now]) => {
        const was = a.get(key) ?? { count: 0, size: 0 };
        return { key, count: now.count - was.count, size: now.size - was.size };
      });
      console.log("  live during c=50 over idle, per stream (objects, bytes), by self size:");
      for (const row of rows.sort((x, y) => y.size - x.size).slice(0, Number(process.env["TOP"] ?? 30)))
        console.log(
          `  ${(row.count / 50).toFixed(1).padStart(8)} ${(row.size / 50).toFixed(0).padStart(8)}  ${row.key}`,
        );
    }
  }
  if (process.env["HEAP_ALLOCATIONS"]) await allocations(targets.at(-1)!, Number(process.env["HEAP_ALLOCATIONS"]));
  // Per request: N at c=10 in blocks, each target in turn.
  const block = Math.round(N / BLOCKS);
  const series = targets.map(() => [] as string[]);
  const start = await Promise.all(targets.map((t) => collected(t)));
  const rss0 = targets.map((t) => rssMiB(t.served.pids));
  for (let b = 0; b < BLOCKS; b++)
    for (const [i, t] of targets.entries()) {
      await load(t.served, workload, t.kind, origin, 10, block);
      const usage = await t.send("Runtime.getHeapUsage");
      series[i]!.push(`${mib(usage.usedSize)}/${mib(usage.totalSize)}/${rssMiB(t.served.pids).toFixed(0)}`);
    }
  console.log(`\n${BLOCKS * block} requests at c=10 per target; after each block: heap used / committed / RSS (MiB)`);
  for (const [i, t] of targets.entries()) {
    const rss = rssMiB(t.served.pids);
    const after = await collected(t);
    const rssAfter = rssMiB(t.served.pids);
    console.log(`${t.name}: ${series[i]!.join(", ")}`);
    console.log(
      `  after a full collection: heap ${mib(after)} MiB (${mib(start[i]!)} before the run: ${(((after - start[i]!) / 2 ** 10) * (1000 / (BLOCKS * block))).toFixed(1)} KiB per 1,000 requests); RSS ${rss.toFixed(1)} -> ${rssAfter.toFixed(1)} MiB (${rss0[i]!.toFixed(1)} before the run: ${(((rssAfter - rss0[i]!) * 1000) / (BLOCKS * block)).toFixed(1)} MiB per 1,000 requests)`,
    );
  }
} finally {
  for (const t of targets) await t.mf.dispose();
  providers.child.kill("SIGTERM");
  built.remove();
}
