// One step of `npm run bench:load` (bench/load/run.ts): one workload at one concurrency on every
// target, the requests in blocks whose order turns, and each target's workerd CPU per request.
import { cpuMs, type Kind, load, rssMiB, type Sample, type Served, type Workload } from "./harness.ts";

/** What one target measured over a step. */
interface Measured {
  samples: Sample[];
  wallMs: number;
  /** Its workerd's CPU inside its measured blocks (ms), lead-ins not counted. */
  cpu: number;
  peak: number;
}

/** LOAD_TRACE=1: each target's CPU per request in each of its blocks, by place in the block. */
const TRACE = process.env["LOAD_TRACE"] === "1";

/** Requests of a target, one at a time and not measured, right before each of its blocks (LOAD_LEAD). */
export const LEAD = Number(process.env["LOAD_LEAD"] ?? 2);

/**
 * `n` requests of `workload` at concurrency `c` on each target, in as many blocks as targets, the
 * order turned by one at each (A B C, B C A, C A B: each target in each place once). A block holds
 * at least two waves of the concurrency: at c=50 the 10 KB call's 125 requests in blocks of 25
 * would never reach 50 at once, and one wave is a burst, not a steady state. Each target's CPU is
 * its workerd's inside its blocks (its threads' run time before and after each).
 *
 * Each block opens with LEAD requests of its target that are not measured, so what a block
 * measures follows its own target's work, never another's. With the order turned by one and
 * nothing between, LOAD_BEFORE's Worker (served last, right after this tree's) ran just after this
 * tree's Worker in four blocks of five, the same code, its paths warm in the machine's caches,
 * while this tree's ran after reencode's: the 10 KB call at c=1 read dearer "now" in all six runs
 * of stops 71 and 72 on the same code (BENCHMARKS.md, "The bench's own A/A", stop 73).
 */
export async function runStep(
  order: readonly { served: Served; kind: Kind }[],
  workload: Workload,
  origin: string,
  c: number,
  n: number,
): Promise<Map<Served, Measured>> {
  const blocks = order.length;
  const measured = new Map<Served, Measured>();
  const byPlace = new Map<Served, number[]>();
  for (const { served: s } of order) {
    measured.set(s, { samples: [], wallMs: 0, cpu: 0, peak: 0 });
    byPlace.set(s, []);
  }
  for (let block = 0; block < blocks; block++) {
    const count = Math.max(2 * c, Math.floor(n / blocks) + (block < n % blocks ? 1 : 0));
    for (const { served: s, kind } of [...order.slice(block), ...order.slice(0, block)]) {
      const sum = measured.get(s)!;
      if (LEAD > 0) await load(s, workload, kind, origin, 1, LEAD);
      const sampler = setInterval(() => (sum.peak = Math.max(sum.peak, rssMiB(s.pids))), 100);
      const before = cpuMs(s.pids);
      const { samples, wallMs } = await load(s, workload, kind, origin, c, count);
      const spent = cpuMs(s.pids) - before;
      clearInterval(sampler);
      sum.cpu += spent;
      byPlace.get(s)!.push(spent / count);
      sum.samples.push(...samples);
      sum.wallMs += wallMs;
      sum.peak = Math.max(sum.peak, rssMiB(s.pids));
    }
  }
  if (TRACE)
    for (const [i, { served: s }] of order.entries()) {
      // Block b ran target i in place (i - b) mod blocks: its blocks said by place, first to last.
      const blocksOf = byPlace.get(s)!;
      const places = blocksOf.map((_, p) => blocksOf[(i - p + blocks) % blocks]!.toFixed(2));
      console.log(`  trace ${workload.name} c=${c} ${s.name}: CPU ms/req by place ${places.join(" ")}`);
    }
  return measured;
}
