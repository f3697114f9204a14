import { streamToolCallBatches, streamToolCalls, type ToolCallEvent } from "../../src/index.ts";
import { assert, assertEquals, group } from "../support/harness.ts";
import { bytes, chatChunk, collect, openAISSE } from "../support/streams.ts";

/**
 * The main entry's input mistakes a JavaScript caller makes (TypeScript refuses the first): a
 * `fetch` not awaited, and a body something else already reads or read (logged with
 * `response.text()` first). Each ends as before, with an `error` and an `abort` of reason
 * `stream-failed`, but the message says what went wrong and what to do, where it used to say only
 * that "the input stream failed" (or guessed a whole response asked for without `stream: true`).
 */

const body = (): string => openAISSE([chatChunk({ content: "hi" }, "stop")]);
const sse = (): Response => new Response(bytes(body()), { headers: { "content-type": "text/event-stream" } });

/** The events of both main-entry adapters, the batches flattened. */
async function bothEnds(input: () => unknown): Promise<ToolCallEvent[][]> {
  const given = input as () => Response;
  return [
    await collect(streamToolCalls(given(), { provider: "openai" })),
    (await collect(streamToolCallBatches(given()))).flat(),
  ];
}

/** The stream ended with an `error` whose message has `words`, then an `abort` of reason `stream-failed`. */
function assertSays(events: ToolCallEvent[], words: string, what: string): void {
  assertEquals(
    events.map((e) => e.type),
    ["error", "abort"],
    `${what}: an error and an abort, nothing else`,
  );
  const [error, abort] = events;
  assert(error?.type === "error" && error.error.code === "stream-failed", `${what}: an error of code stream-failed`);
  assert(error.error.message.includes(words), `${what}: the message says ${words}, not ${error.error.message}`);
  assert(abort?.type === "abort" && abort.reason === "stream-failed", `${what}: an abort of reason stream-failed`);
}

group("streamToolCalls (main entry): an input it cannot read says why", (test) => {
  test("a Promise of a Response (fetch not awaited) says to await it", async () => {
    for (const events of await bothEnds(() => Promise.resolve(sse()))) assertSays(events, "await it", "a Promise");
  });

  test("a Response whose body was read already (response.text() first) says to clone it", async () => {
    for (const events of await bothEnds(() => {
      const response = sse();
      void response.text();
      return response;
    }))
      assertSays(events, "response.clone()", "a body read");
  });

  test("a body another reader holds says so", async () => {
    for (const events of await bothEnds(() => {
      const stream = sse().body!;
      stream.getReader();
      return stream;
    }))
      assertSays(events, "already being read", "a locked body");
  });

  test("an error status with its body read is still the http-error of its status", async () => {
    const response = new Response("{}", { status: 429, headers: { "content-type": "application/json" } });
    await response.text();
    const events = await collect(streamToolCalls(response));
    assert(events[0]?.type === "error" && events[0].error.code === "http-error", "an http-error first");
    assertEquals(events[0].error.status, 429, "with the status");
  });

  test("an unread Response and an SDK's whole answer are read as before", async () => {
    const events = await collect(streamToolCalls(sse()));
    assertEquals(events.at(-1)?.type, "finish", "an unread body is read");
    const [whole] = await bothEnds(() => ({ id: "chatcmpl-1", object: "chat.completion", choices: [] }));
    assertSays(whole!, "without `stream: true`", "an SDK's whole answer");
  });
});
