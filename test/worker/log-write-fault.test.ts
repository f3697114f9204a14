// A resumable response whose log write fails mid-response (storage full): its attached client is
// told (the interrupted ending), never a clean end, and a resume from storage gets the same ending at
// the same ids (the reviewer's finding on fb0d33e7: the client saw "Hi" at id 0, unstored, then a
// clean end; a resume's ending reused id 0).
import { runInDurableObject } from "cloudflare:test";
import { expect, it } from "vitest";
import type { ResponseBuffer } from "../../worker/resumable/response-buffer.ts";
import { attach } from "../../worker/resumable/response-pool.ts";
import { MAX_READERS_PER_RESPONSE, ResponseReaders } from "../../worker/resumable/response-readers.ts";
import { parseStreamRequest } from "../../worker/request/parse-stream-request.ts";
import { providerNames } from "../../worker/upstream/providers/index.ts";
import { failNextPut, settled } from "./durable-support.ts";
import { FakeUpstream, liveOpenAI, ManualTimers, mintedTestResponseId, objectOf, validBody } from "./support.ts";

const HI = 'data: {"choices":[{"index":0,"delta":{"content":"Hi"},"finish_reason":null}]}\n\n';

/** A response of one text delta whose first log batch write throws (storage full), a client attached. */
async function faulted() {
  const upstream = new FakeUpstream({ kind: "sse", chunks: [HI], then: "stall" });
  const id = await mintedTestResponseId();
  const stub = objectOf(id);
  await runInDurableObject(stub, (instance: ResponseBuffer) => {
    instance.useReaders(new ResponseReaders(MAX_READERS_PER_RESPONSE, 4));
    instance.useRuntime(
      { fetch: upstream.fetch, timers: new ManualTimers() },
      { ...liveOpenAI, IDLE_TIMEOUT_MS: "60000" },
      {},
    );
  });
  await failNextPut(stub, (key) => key.includes(":log:b:"));
  expect(await stub.startStream(id, parseStreamRequest(validBody(), providerNames), "client")).toBeUndefined();
  const first = await attach(stub, id, -1, "GET", "client");
  const body = await first.text().then(
    (text) => ({ text, failed: false }),
    () => ({ text: "", failed: true }),
  );
  expect(await settled(stub, () => upstream.cancelled !== undefined)).toBe(true);
  return { stub, id, body };
}

const frames = (text: string): string[] =>
  [...text.matchAll(/^event: (.+)\nid: (\d+)$/gm)].map((match) => `${match[1]} ${match[2]}`);

it("an attached client is told the interrupted ending, and never reads a frame storage lacks", async () => {
  const { body } = await faulted();
  expect(body.failed).toBe(false);
  expect(frames(body.text)).toEqual(["error 0", "abort 1"]);
  expect(body.text).toContain('"code":"interrupted"');
  expect(body.text).not.toContain("Hi");
});

it("a resume from storage gets the same ending at the same ids", async () => {
  const { stub, id, body } = await faulted();
  const resumed = await (await attach(stub, id, -1, "GET", "client2")).text();
  expect(frames(resumed)).toEqual(frames(body.text));
});
