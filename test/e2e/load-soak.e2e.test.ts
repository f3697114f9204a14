// The load bench at a small count, as a soak test: the built Worker (`wrangler deploy --dry-run`)
// served by Miniflare, the scripted providers in their own process (bench/load/), a few hundred
// requests of every workload ten at a time, and every answer read back: its tool calls must be
// exactly the recorded ones, its ending the protocol's, none lost. Nothing here is timed: the
// figures are `npm run bench:load`'s.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  buildWorkers,
  load,
  type Providers,
  type Served,
  serve,
  startProviders,
  workloads,
} from "../../bench/load/harness.ts";

const ALL = workloads();
let providers: Providers;
let built: Awaited<ReturnType<typeof buildWorkers>>;
let worker: Served;
/** afterAll ran: a beforeAll that timed out (its tests reported skipped) stops what it starts after. */
let stopped = false;

beforeAll(async () => {
  providers = await startProviders();
  if (stopped) return void providers.child.kill("SIGTERM");
  built = await buildWorkers();
  const served = await serve("Worker", built.worker, "worker", providers.origin, ALL["chat-stream"]!);
  if (stopped) {
    await served.mf.dispose();
    providers.child.kill("SIGTERM");
    built.remove();
  } else worker = served;
}, 150_000);

afterAll(async () => {
  stopped = true;
  try {
    await worker?.mf.dispose();
  } finally {
    providers?.child.kill("SIGTERM");
    built?.remove();
  }
});

describe("the built Worker under load (Miniflare, scripted providers)", () => {
  for (const [name, workload] of Object.entries(ALL))
    it(`${name}: every answer of ${workload.size === "big" ? 30 : 80}, ten at a time, carries the recorded calls`, async () => {
      const n = workload.size === "big" ? 30 : 80;
      const { samples } = await load(worker, workload, "worker", providers.origin, 10, n);
      const failures = samples.filter((sample) => !sample.ok).map((sample) => sample.error ?? "malformed answer");
      expect(failures).toEqual([]);
      expect(samples).toHaveLength(n);
    }, 180_000);
});
