// The e2e files' `wrangler dev` (./worker-server.ts) never outlives its file: stopWorkers(), which
// every file's afterAll calls, ends each process group the file started (wrangler and its
// workerd), those whose start the caller never saw finish included: agents-readme's two starts
// under one Promise.all (the one that started is lost when the other fails), and a start still
// under way when a beforeAll timed out (vitest reports the tests skipped and runs afterAll).
import { afterAll, describe, expect, it } from "vitest";
import { startedGroups, startWorker, stopWorkers } from "./worker-server.ts";

/** Whether any process of the group is left (signal 0 checks without sending). */
function alive(group: number): boolean {
  try {
    process.kill(-group, 0);
    return true;
  } catch {
    return false;
  }
}

afterAll(() => stopWorkers(), 30_000);

describe("stopWorkers()", () => {
  it("ends every wrangler dev the file started, and its workerd, also those its caller never got", async () => {
    // Two starts together, as agents-readme's beforeAll: the first comes up, the second fails, so
    // the first's Worker is in no variable of the caller.
    const unseen = startWorker({}, 90_000);
    const failing = unseen.then(() => startWorker({}, 1));
    await expect(Promise.all([unseen, failing])).rejects.toThrow(/did not start/);
    expect(startedGroups().filter(alive)).toHaveLength(1);
    // A start still under way when the file's afterAll stops its Workers (a beforeAll timed out).
    const late = startWorker({}, 90_000).catch((error: unknown) => error);
    await stopWorkers();
    expect(String(await late)).toMatch(/stopped meanwhile/);
    expect(startedGroups()).toHaveLength(2);
    expect(startedGroups().filter(alive)).toEqual([]);
  }, 150_000);
});
