// A shared object is never held by one response's schema checks (issue 33): with
// RESPONSE_OBJECTS=1 every response of a location runs in one Durable Object, and a response
// whose tool schema is built to be costly (an anyOf of 200 patterns that each read the whole
// string, against 10 KB strings, early validation on) checks each call within its bounded budget
// and refuses it as unchecked, while a normal response started beside it on the same object is
// served whole. Nothing here is timed: the hostile response stalls after its calls, so the normal
// one completing is what shows the object was not held, and the refusals state their budgets.
import { runInDurableObject } from "cloudflare:test";
import { createParser } from "eventsource-parser";
import { describe, expect, it } from "vitest";
import type { ToolCallEvent } from "../../src/index.ts";
import { MAX_CALL_CHECK_STEPS } from "../../src/schema/check-budget.ts";
import { attach as attachTo } from "../../worker/resumable/response-pool.ts";
import type { ResponseBuffer } from "../../worker/resumable/response-buffer.ts";
import { parseStreamRequest } from "../../worker/request/parse-stream-request.ts";
import { providerNames } from "../../worker/upstream/providers/index.ts";
import {
  chatChunk,
  FakeUpstream,
  liveOpenAI,
  ManualTimers,
  newTestResponseId,
  objectOf,
  openAIChunks,
  readSSE,
  testMac,
  validBody,
  weatherCall,
} from "./support.ts";

/** An anyOf of `count` patterns no string of a's matches, each reading the whole string: `count` full reads per string. */
function costlySchema(count: number): Record<string, unknown> {
  const branches = Array.from({ length: count }, () => ({ type: "string", pattern: "b" }));
  return { type: "object", properties: { v: { anyOf: branches } } };
}

const CALLS = 4;
const hostileChunks = openAIChunks([
  chatChunk({ content: "Hostile. " }),
  ...Array.from({ length: CALLS }, (_, index) =>
    chatChunk({
      tool_calls: [
        {
          index,
          id: `call_${index}`,
          function: { name: "costly", arguments: JSON.stringify({ v: "a".repeat(10_000) }) },
        },
      ],
    }),
  ),
  chatChunk({}, "tool_calls"),
]).slice(0, -1); // no [DONE]: it stalls after its finish, still running

/** Reads a response's events until `enough` holds (or it ends). */
async function readUntil(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  enough: (events: ToolCallEvent[]) => boolean,
): Promise<ToolCallEvent[]> {
  const events: ToolCallEvent[] = [];
  const parser = createParser({ onEvent: (message) => events.push(JSON.parse(message.data) as ToolCallEvent) });
  const decoder = new TextDecoder();
  while (!enough(events)) {
    const step = await reader.read();
    if (step.done) break;
    parser.feed(decoder.decode(step.value, { stream: true }));
  }
  return events;
}

describe("a costly schema on one response never holds the pooled object", () => {
  it("its calls are refused within their budgets while a normal response on the same object is served whole", async () => {
    const pool = newTestResponseId().split(".")[0]!;
    const [hostile, normal] = [
      `${pool}.${crypto.randomUUID()}.${testMac()}`,
      `${pool}.${crypto.randomUUID()}.${testMac()}`,
    ];
    const stub = objectOf(hostile);
    expect(objectOf(normal).id.toString()).toBe(stub.id.toString());
    const upstreams = [
      new FakeUpstream({ kind: "sse", chunks: hostileChunks, then: "stall" }),
      new FakeUpstream({
        kind: "sse",
        chunks: openAIChunks([
          chatChunk({ content: "Normal. " }),
          weatherCall(0, "call_n", '{"city":"Oslo"}'),
          chatChunk({}, "tool_calls"),
        ]),
      }),
    ];
    let next = 0;
    const fetch = (url: string, init: RequestInit): Promise<Response> => upstreams[next++]!.fetch(url, init);
    await runInDurableObject(stub, (instance: ResponseBuffer) =>
      instance.useRuntime(
        { fetch, timers: new ManualTimers() },
        { ...liveOpenAI, IDLE_TIMEOUT_MS: "60000", RESUME_WRITE_WINDOW_MS: "0" },
      ),
    );
    const start = async (id: string, body: Record<string, unknown>) =>
      (await stub.startStream(id, parseStreamRequest(validBody(body), providerNames))) ??
      (await attachTo(stub, id, -1));

    const costly = { name: "costly", parameters: costlySchema(200) };
    const reader = (await start(hostile, { tools: [costly], early_validation: true })).body!.getReader();
    const refusals = (events: ToolCallEvent[]) => events.filter((event) => event.type === "invalid-tool-call");
    const [hostileEvents, normalEvents] = await Promise.all([
      readUntil(reader, (events) => refusals(events).length === CALLS),
      (async () => (await readSSE(await start(normal, { early_validation: true }))).events)(),
    ]);

    // The normal response was served whole, on the same object, while the hostile one still runs.
    expect(normalEvents.map((event) => event.type)).toContain("tool-call");
    expect(normalEvents.at(-1)?.type).toBe("finish");
    expect(
      await runInDurableObject(stub, (instance: ResponseBuffer) => [
        instance.isRunning(hostile),
        instance.isRunning(normal),
      ]),
    ).toEqual([true, false]);

    // Each hostile call was checked within its budget, then refused as unchecked: never a hang.
    const refused = refusals(hostileEvents);
    expect(refused).toHaveLength(CALLS);
    for (const event of refused) {
      if (event.type !== "invalid-tool-call") continue;
      expect(event.error.code).toBe("validation-budget-exceeded");
      const granted = Number(/budget of ([\d,]+) steps/.exec(event.error.issues![0]!)![1]!.replace(/,/g, ""));
      expect(granted).toBeLessThanOrEqual(MAX_CALL_CHECK_STEPS);
    }
    expect(hostileEvents.some((event) => event.type === "tool-call-violation")).toBe(false);
    await reader.cancel();
  });
});
