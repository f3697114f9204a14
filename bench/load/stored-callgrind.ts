// What storing a `/v1/responses` response costs workerd beside `store: false`, in instructions,
// which the machine's other load does not move: the built Worker served by Miniflare as
// `npm run bench:load` serves it (bench/load/harness.ts), its workerd run under callgrind with
// instrumentation off; after CG_WARM requests of each workload (default 300: V8 still compiles a
// path's code over its first few hundred requests), instrumentation on for N requests of one
// workload at a time, then a dump named after it. Prints the instructions per request of each and,
// by `callgrind_annotate --inclusive=yes`, those of the stored path's parts (inclusive counts: a
// part's callees are in it, so parts overlap). User space only: the commit's `fsync` is the kernel's.
//   printf '#!/bin/sh\nexec valgrind --tool=callgrind --instr-atstart=no --smc-check=all-non-file --callgrind-out-file=/tmp/cg/cg.%%p.out %s "$@"\n' \
//     "$PWD/node_modules/@cloudflare/workerd-linux-64/bin/workerd" > /tmp/workerd-cg.sh && chmod +x /tmp/workerd-cg.sh && mkdir -p /tmp/cg
//   MINIFLARE_WORKERD_PATH=/tmp/workerd-cg.sh CG_OUT=/tmp/cg node bench/load/stored-callgrind.ts 100   (CG_C=10: at concurrency 10)
// CG_WORKLOADS=chat-stream,messages: other workloads than the two (the last is the one the `%` column
// is of); CG_TREE=<another copy of the repository>: its Worker served instead of this tree's, so two
// trees are compared in instructions by two runs of this tree's tool. CG_TARGET=pass-through,
// js-relay, reencode (the floors of `npm run bench:load`) or fetch-step:<variant>
// (bench/load/fetch-step.ts): that script served instead of the Worker, its instructions counted
// the same way (issue 37's floors, and the pass-through's fetch step taken apart).
import { execFileSync } from "node:child_process";
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { buildWorkers, load, serveTarget, startProviders, workloads } from "./harness.ts";

const N = Number(process.argv[2] ?? 100);
const WARM = Number(process.env["CG_WARM"] ?? 300);
const CONCURRENCY = Number(process.env["CG_C"] ?? 1);
const OUT = process.env["CG_OUT"];
const NAMES = (process.env["CG_WORKLOADS"] ?? "responses-no-store,responses").split(",");
const TREE = process.env["CG_TREE"];
const TARGET = process.env["CG_TARGET"] ?? (TREE ? "before" : "worker");

/** The stored path's parts, by the functions that do them (workerd's symbols; JavaScript has none). */
const PARTS: [string, RegExp][] = [
  ["the call to the object, the Worker's side (serialized, sent)", /^workerd::api::JsRpcProperty::call\(/],
  [
    "the call, the object's side (received, run, answered)",
    /^workerd::IoContext::runSingle<workerd::IoContext::run<workerd::api::JsRpcTargetBase::JsRpcTargetBase/,
  ],
  ["  of it, the method (the keep's JavaScript; a write at once)", /^workerd::api::JsRpcTargetBase::invokeFn\(/],
  ["a write after a wait (the object's timer)", /^workerd::api::ServiceWorkerGlobalScope::setTimeout\(/],
  ["storage.transactionSync (the rows of one keep)", /^workerd::api::DurableObjectStorage::transactionSync\(/],
  ["  of it, kv.put", /^workerd::api::SyncKvStorage::put\(/],
  ["storage.getAlarm", /^workerd::api::DurableObjectStorageOperations::getAlarm\(/],
  ["the commit (after the turn)", /^workerd::ActorSqlite::(startImplicitTxnImpl|commitImpl)/],
  [
    "the answer back in the Worker, and what runs after it",
    /^workerd::IoContext::runSingle<workerd::IoContext::resumeAfterIo<capnp::Response<workerd::rpc::JsRpcTarget::CallResults>/,
  ],
  ["the id's HMAC (crypto.subtle.sign)", /^workerd::api::SubtleCrypto::sign\(/],
  ["the object's id (idFromName)", /^workerd::api::DurableObjectNamespace::idFromName\(/],
  [
    "garbage collection (on the isolate's thread)",
    /^v8::internal::Heap::CollectGarbage\(v8::internal::AllocationSpace/,
  ],
  ["V8's optimizing compiler (Turbofan)", /^v8::internal::OptimizedCompilationJob::ExecuteJob\(/],
  ["V8's Maglev compiler", /^v8::internal::maglev::MaglevCompiler::Compile\(/],
  // Under callgrind's slowness the answer's end (its encoder's last frame) mostly comes while the
  // chain still waits on the provider's body, so its cancel goes down to that read (which then
  // throws in C++) and aborts the fetch: about 200,000 instructions a request that a native run
  // at c=1 does not spend (no such throw in 200 requests under gdb). Said apart, to compare runs.
  [
    "the answer's end cancelling its source (a read of JavaScript streams)",
    /^workerd::api::ReadableStreamDefaultReader::cancel\(/,
  ],
  ["  a pending read of the provider's body thrown (C++)", /^workerd::jsg::Lock::throwException\(kj::Exception&&/],
];

/** The newest dump in `dir`. */
function newestDump(dir: string): string {
  const dumps = readdirSync(dir)
    .filter((file) => /\.out\.\d+$/.test(file))
    .map((file) => join(dir, file));
  return dumps.sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs)[0]!;
}

/** The total and each part's instructions in `dump` (a part's largest inclusive count, as recursion repeats a function). */
function partsOf(dump: string): Map<string, number> {
  const text = execFileSync("callgrind_annotate", ["--inclusive=yes", "--threshold=100", dump], {
    maxBuffer: 1 << 28,
  }).toString();
  const parts = new Map<string, number>();
  for (const line of text.split("\n")) {
    const match = /^\s*([\d,]+) \([\s\d.]+%\)\s+(?:\?\?\?:)?(.*)$/.exec(line);
    if (!match) continue;
    const count = Number(match[1]!.replaceAll(",", ""));
    const name = match[2]!.trim();
    if (name.startsWith("PROGRAM TOTALS")) parts.set("total", count);
    for (const [part, pattern] of PARTS) if (pattern.test(name)) parts.set(part, Math.max(parts.get(part) ?? 0, count));
  }
  return parts;
}

const providers = await startProviders();
const all = workloads();
const built = await buildWorkers(TREE, TARGET.startsWith("fetch-step:") ? ["fetch-step"] : []);
const { served, kind } = await serveTarget(TARGET, built, providers.origin, all[NAMES[0]!]!);
built.remove();
try {
  const pid = String(served.pids[0]);
  for (const name of NAMES) await load(served, all[name]!, kind, providers.origin, CONCURRENCY, WARM);
  const counted = new Map<string, Map<string, number>>();
  for (const name of NAMES) {
    execFileSync("callgrind_control", ["-i", "on", pid], { stdio: "ignore" });
    const { samples } = await load(served, all[name]!, kind, providers.origin, CONCURRENCY, N);
    execFileSync("callgrind_control", ["-i", "off", pid], { stdio: "ignore" });
    execFileSync("callgrind_control", ["-d", name, pid], { stdio: "ignore" });
    // Under callgrind a request is some 50 times slower: one that failed is said, not a reason to lose the dump.
    const failed = samples.filter((sample) => !sample.ok);
    if (failed.length > 0)
      console.log(`${name}: ${failed.length} failed (${failed[0]!.error ?? "a malformed answer"})`);
    if (OUT) counted.set(name, partsOf(newestDump(OUT)));
  }
  console.log(`${TARGET}: c=${CONCURRENCY}, ${N} requests of each after ${WARM} of warm-up; instructions per request:`);
  if (OUT) {
    const last = counted.get(NAMES.at(-1)!)!;
    const per = (parts: Map<string, number>, key: string): string =>
      Math.round((parts.get(key) ?? 0) / N).toLocaleString("en");
    const total = last.get("total")!;
    console.log(`| part | ${NAMES.join(" | ")} | % of ${NAMES.at(-1)} |\n| --- |${" ---: |".repeat(NAMES.length + 1)}`);
    // The collector and the compilers vary from run to run of the same code (V8 still tiers up
    // after the warm-up): the total without them compares two trees more closely.
    const RUNTIME = [
      "garbage collection (on the isolate's thread)",
      "V8's optimizing compiler (Turbofan)",
      "V8's Maglev compiler",
    ];
    for (const parts of counted.values())
      parts.set(
        "total without the collector and the compilers",
        RUNTIME.reduce((sum, key) => sum - (parts.get(key) ?? 0), parts.get("total") ?? 0),
      );
    for (const key of ["total", "total without the collector and the compilers", ...PARTS.map(([part]) => part)])
      console.log(
        `| ${key} | ${NAMES.map((name) => per(counted.get(name)!, key)).join(" | ")} | ${((100 * (last.get(key) ?? 0)) / total).toFixed(1)} |`,
      );
  }
} finally {
  await served.mf.dispose();
  providers.child.kill("SIGTERM");
}
