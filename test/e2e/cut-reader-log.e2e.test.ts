// A client of a resumable response that is cut (it lagged the whole log behind, or the isolate's
// memory bound chose it: `ResponseLog.cutLaggards`, `cutSlowest`) is an expected situation: its
// connection fails, and it resumes with Last-Event-ID. workerd must log no "uncaught exception"
// for it, which only workerd's own log shows (an unhandled rejection inside the runtime reaches
// no listener of the isolate, and the vitest pool's workerd writes its log past the test process).
// So a probe Worker and Durable Object, bundled from the Worker's own modules, run in a Miniflare
// of this test's, whose workerd log it reads: the object serves one client's body of a log the
// way `ResponseBuffer` does (`liveLogResponse`), the Worker passes it on as a route does, the
// client reads nothing, and the object cuts it.
import { build } from "esbuild";
import { convertV4MiniflareOptions, Miniflare } from "miniflare";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");

const PROBE = `
import { DurableObject } from "cloudflare:workers";
import { liveLogResponse } from "./worker/resumable/stored-log-attach.ts";
import { ResponseLog } from "./worker/resumable/response-log.ts";
import { platformRuntime } from "./worker/runtime.ts";

export class Probe extends DurableObject {
  log = new ResponseLog({ maxFrames: 4, maxBytes: 1 << 20 });
  fetch(request) {
    const { pathname } = new URL(request.url);
    if (pathname === "/attach") {
      const headers = { "content-type": "text/event-stream" };
      return liveLogResponse({ log: this.log, headers }, -1, platformRuntime.timers, request.signal);
    }
    for (let i = 0; i < 8 && !this.log.full; i++) this.log.append(["data: " + "x".repeat(100) + "\\n\\n"]);
    return new Response(String(this.log.cutSlowest()));
  }
}

export default {
  async fetch(request, env) {
    const answer = await env.PROBE.get(env.PROBE.idFromName("one")).fetch(request);
    return new Response(answer.body, answer); // as a route passes it on
  },
};
`;

let mf: Miniflare;
let url: string;
const log: string[] = [];

beforeAll(async () => {
  const bundled = await build({
    stdin: { contents: PROBE, resolveDir: root, loader: "ts", sourcefile: "probe.ts" },
    bundle: true,
    format: "esm",
    platform: "neutral",
    external: ["cloudflare:workers"],
    write: false,
  });
  const worker = {
    name: "probe",
    modules: [{ type: "ESModule" as const, path: "probe.js", contents: bundled.outputFiles[0]!.text }],
    compatibilityDate: "2026-11-01",
    compatibilityFlags: ["enable_request_signal", "no_nodejs_global_timers"],
    durableObjects: { PROBE: "Probe" },
  };
  mf = new Miniflare({
    ...convertV4MiniflareOptions({ host: "127.0.0.1", port: 0, workers: [worker] }),
    verbose: true,
    handleStructuredLogs: ({ message }) => void log.push(message),
  });
  url = (await mf.ready).href;
}, 60_000);

afterAll(async () => {
  await mf?.dispose();
});

describe("a resumable response's client cut by its object", () => {
  it("fails its connection, and workerd logs no unhandled rejection of it", async () => {
    const attached = await fetch(`${url}attach`);
    expect(attached.status).toBe(200);
    // The client reads nothing; the object fills the log and cuts it.
    expect(await (await fetch(`${url}cut`)).text()).toBe("1");
    // Never a clean end it would take for the whole answer.
    await expect(attached.text()).rejects.toThrow();
    // The log comes on a pipe of its own: the runtime's end flushes it.
    await mf.dispose();
    // Failed before: two "uncaught exception; source = Uncaught (in promise)" lines, the error of
    // the client's body, which workerd's pump of a JavaScript stream left unhandled (an exception
    // in a tail Worker's trace and the inspector too). workerd still notes the failed pump of the
    // native stream (an "uncaught exception; exception = ... jsg.Error" at level info, one per
    // cut client), as it notes a tunnelled error: that one is its own, and no promise of ours.
    const unhandled = log.filter((line) => line.includes("uncaught exception; source = Uncaught"));
    expect(unhandled).toEqual([]);
    expect(log.filter((line) => line.includes("uncaught exception")).length).toBeLessThanOrEqual(1);
  });
});
