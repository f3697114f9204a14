// What a stage keeps past a chunk (an unended line, an open SSE event's fields, the envelope a fast reader matched) is a
// string of its own, never a slice that holds the whole text of the read it was cut from: measured
// in a heap snapshot of a Node process of its own (kept-text-probe.ts), since no JavaScript API
// tells a slice from a copy.
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const PROBE = fileURLToPath(new URL("./kept-text-probe.ts", import.meta.url));

describe("text kept past a chunk", () => {
  it("holds only itself, not the 1 MiB text it was cut from", () => {
    const out = execFileSync(process.execPath, ["--expose-gc", PROBE], { encoding: "utf8" });
    const largest = JSON.parse(out) as Record<string, number>;
    // The probe sees a retained text: a plain slice keeps the whole MiB alive.
    expect(largest["a plain slice"]).toBeGreaterThan(2 ** 20);
    const { "a plain slice": _, ...stages } = largest;
    expect(Object.keys(stages)).toEqual([
      "sse",
      "sse open event",
      "sse event across reads",
      "ndjson",
      "json array",
      "openai chat fast chunk",
      "responses fast delta",
      "provider detection's held error",
      "provider detection's held error's id",
    ]);
    for (const [stage, bytes] of Object.entries(stages))
      expect({ stage, bytes: bytes < 64 * 1024 }).toEqual({ stage, bytes: true });
  }, 60_000);
});
