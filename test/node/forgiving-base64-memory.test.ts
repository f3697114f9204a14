// whole (stop 74 review): canonicalBase64 on a client's data: URL body keeps one string per run of
// letters until its join: a body of short runs ("AB AB AB ...", 8 MiB, what MAX_AGENT_BODY_BYTES
// lets /v1/messages and /v1/responses take) holds millions of strings alive at once, about ten
// bytes of heap per byte of body, where the Worker's isolate has 128 MB in all.
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { expect, it } from "vitest";
import { canonicalBase64 } from "../../worker/request/forgiving-base64.ts";

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

// The heap and the ArrayBuffers' backing stores, which a Worker isolate's 128 MB counts too.
const used = (): number => {
  const memory = process.memoryUsage();
  return memory.heapTotal + memory.arrayBuffers;
};

it("an 8 MiB data: URL body of short runs grows the heap and its buffers by at most twice its size", () => {
  const body = JSON.parse(JSON.stringify("AB ".repeat((8 * 1024 * 1024) / 3))) as string;
  gc();
  const before = used();
  const data = canonicalBase64(body);
  const grown = used() - before;
  expect(data?.length).toBe(((body.length / 3) * 2 + 3) & ~3);
  // The result alone is 5.6 MB; 2x the body (16 MiB) leaves room for any linear buffer.
  expect(grown / 1e6).toBeLessThan((2 * body.length) / 1e6);
});
