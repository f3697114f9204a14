// Bedrock ConverseStream's image blocks (the `image` members of ContentBlockStart and
// ContentBlockDelta, @aws-sdk/client-bedrock-runtime 3.1178.0): an image the model makes streams as
// `start.image` (ImageBlockStart: its `format`, png | jpeg | gif | webp), then `delta.image`
// (ImageBlockDelta: `source`, an ImageSource whose `bytes` blob is base64 on the JSON wire, or
// `error`, an ErrorBlock "if this image delta could not be processed"), then its stop. The streams
// are built by hand from those shapes (the API reference's ImageBlockStart and ImageBlockDelta);
// the bytes are a PNG's signature, the texts made up.
import fc from "fast-check";
import { assistantMessage, providerKit, streamToolCalls, type ToolCallEvent } from "../../../src/index.ts";
import { converse } from "../../support/event-stream.ts";
import { assert, assertEquals, group } from "../../support/harness.ts";
import { assertEventInvariants } from "../../support/invariants.ts";
import { collect, fromChunks, splitAt } from "../../support/streams.ts";

type Event = [string, Record<string, unknown>];
const start = (index: number, image: Record<string, unknown>): Event => [
  "contentBlockStart",
  { contentBlockIndex: index, start: { image } },
];
const image = (index: number, delta: Record<string, unknown>): Event => [
  "contentBlockDelta",
  { contentBlockIndex: index, delta: { image: delta } },
];
const bytes = (index: number, chunk: string): Event => image(index, { source: { bytes: chunk } });
const stop = (index: number): Event => ["contentBlockStop", { contentBlockIndex: index }];
const turn = (...blocks: Event[]): Uint8Array<ArrayBuffer> =>
  converse([
    ["messageStart", { role: "assistant" }],
    ["contentBlockDelta", { contentBlockIndex: 0, delta: { text: "Here is the logo." } }],
    stop(0),
    ...blocks,
    ["messageStop", { stopReason: "end_turn" }],
    ["metadata", { usage: { inputTokens: 9, outputTokens: 40, totalTokens: 49 }, metrics: { latencyMs: 900 } }],
  ]);

/** A PNG signature's 8 bytes in two deltas, each its own base64 (`iVBO` + `Rw0KGgo=`). */
const logo = turn(start(1, { format: "png" }), bytes(1, "iVBO"), bytes(1, "Rw0KGgo="), stop(1));
const run = (body: Uint8Array<ArrayBuffer>, maxArgumentsLength?: number, cuts: number[] = []) =>
  collect(streamToolCalls(fromChunks(splitAt(body, cuts)), { provider: "bedrock", maxArgumentsLength }));
const finishOf = (events: ToolCallEvent[]) => {
  const finish = events.at(-1);
  assert(finish?.type === "finish", "the response finishes");
  return finish;
};
const kept = { image: { format: "png", source: { bytes: "iVBORw0KGgo=" } } };

group("Bedrock ConverseStream image blocks", (test) => {
  test("an image the model made is kept whole, its deltas' bytes joined, and the turn finishes stop", async () => {
    const events = await run(logo);
    assertEventInvariants(events);
    assert(!events.some((e) => e.type === "error"), "no error");
    const finish = finishOf(events);
    assertEquals([finish.reason, finish.text, finish.toolCalls], ["stop", "Here is the logo.", []]);
    assertEquals(finish.reasoningParts, [{ type: "block", block: kept }]);
  });

  test("base64 chunks with their own padding are joined as one base64 of all their bytes", async () => {
    // `iVA=` (2 bytes) then `TkcNCg==` (4 bytes): their text joined would not be base64.
    const padded = turn(start(1, { format: "png" }), bytes(1, "iVA="), bytes(1, "TkcNCg=="), stop(1));
    const finish = finishOf(await run(padded));
    assertEquals(finish.reasoningParts, [
      { type: "block", block: { image: { format: "png", source: { bytes: "iVBORw0K" } } } },
    ]);
  });

  test("the next turn sends the image back in its place, after the text, as Converse's image block", async () => {
    const finish = finishOf(await run(logo));
    const content = [{ text: "Here is the logo." }, kept];
    assertEquals(assistantMessage("bedrock", finish), { role: "assistant", content });
    // The request kit (the Worker's Bedrock upstream) sends the same blocks from the turn's parts: a
    // message has no stream order, so its parts go first (as a server tool's result does there).
    const body = providerKit("bedrock").requestBody({
      model: "amazon.nova-2-lite-v1:0",
      messages: [
        { role: "user", content: "Draw a logo" },
        { role: "assistant", content: finish.text, toolCalls: finish.toolCalls, reasoningParts: finish.reasoningParts },
        { role: "user", content: "Thanks" },
      ],
      tools: [],
    });
    assertEquals((body["messages"] as { content: unknown[] }[])[1]!.content, [kept, content[0]]);
  });

  test("an image delta's error fails that image alone: a block-failed error with the ErrorBlock, and the text, the calls and the finish still come", async () => {
    // ImageBlockDelta.error is an ErrorBlock, "Error information if this image delta could not be
    // processed" (@aws-sdk/client-bedrock-runtime 3.1178.0, the API reference's ImageBlockDelta):
    // one block's failure. The stream's own failures are its exception events
    // (modelStreamErrorException, internalServerException, ...), which stay provider errors.
    const error = { message: "The image could not be generated." };
    const body = turn(
      start(1, { format: "png" }),
      bytes(1, "iVBO"),
      image(1, { error }),
      bytes(1, "Rw0KGgo="),
      stop(1),
      ["contentBlockStart", { contentBlockIndex: 2, start: { toolUse: { toolUseId: "t1", name: "save" } } }],
      ["contentBlockDelta", { contentBlockIndex: 2, delta: { toolUse: { input: '{"n":1}' } } }],
      stop(2),
    );
    const events = await run(body);
    assertEventInvariants(events);
    const errors = events.filter((e) => e.type === "error");
    assertEquals(
      errors.map((e) => e.type === "error" && [e.error.code, e.error.data]),
      [["block-failed", { image: { error } }]],
    );
    const finish = finishOf(events);
    // Its later bytes are left out too: no image is kept, nothing else is lost.
    assertEquals(
      [finish.reason, finish.rawReason, finish.text, finish.toolCalls.map((call) => call.name)],
      ["tool-calls", "end_turn", "Here is the logo.", ["save"]],
    );
    assertEquals(finish.reasoningParts ?? [], []);
  });

  test("a whole Converse response's image block with an error (ImageBlock.error) is the same block-failed error", async () => {
    // ImageBlock.error: "Error information if the image block could not be processed or contains invalid data."
    const error = { message: "The image could not be generated." };
    const whole = {
      output: {
        message: { role: "assistant", content: [{ text: "Here is the logo." }, { image: { format: "png", error } }] },
      },
      stopReason: "end_turn",
      usage: { inputTokens: 9, outputTokens: 40, totalTokens: 49 },
    };
    const events = await collect(
      streamToolCalls(new Response(JSON.stringify(whole), { headers: { "content-type": "application/json" } }), {
        provider: "bedrock",
      }),
    );
    assertEquals(
      events.filter((e) => e.type === "error").map((e) => e.type === "error" && [e.error.code, e.error.data]),
      [["block-failed", { image: { error } }]],
    );
    const finish = finishOf(events);
    assertEquals([finish.reason, finish.text, finish.reasoningParts ?? []], ["stop", "Here is the logo.", []]);
  });

  test("an image that stops with no bytes is a block-failed error, never dropped silently; the turn still finishes", async () => {
    // An image's start, then its stop with no delta (or an empty one), streamed or whole (an
    // ImageBlock with neither source nor error): nothing to send back, so the image is left out, said.
    const empty = turn(start(1, { format: "png" }), stop(1));
    const blank = turn(start(1, { format: "png" }), bytes(1, ""), stop(1));
    const whole = {
      output: {
        message: { role: "assistant", content: [{ text: "Here is the logo." }, { image: { format: "png" } }] },
      },
      stopReason: "end_turn",
      usage: { inputTokens: 9, outputTokens: 40, totalTokens: 49 },
    };
    const headers = { "content-type": "application/json" };
    const answers = [
      await run(empty),
      await run(blank),
      await collect(streamToolCalls(new Response(JSON.stringify(whole), { headers }), { provider: "bedrock" })),
    ];
    for (const events of answers) {
      assertEventInvariants(events);
      assertEquals(
        events.filter((e) => e.type === "error").map((e) => e.type === "error" && [e.error.code, e.error.data]),
        [["block-failed", { image: { format: "png" } }]],
      );
      const finish = finishOf(events);
      assertEquals([finish.reason, finish.text, finish.reasoningParts ?? []], ["stop", "Here is the logo.", []]);
    }
  });

  test("an image's bytes past maxArgumentsLength are left out with an arguments-too-large error; the turn still finishes", async () => {
    assert(!(await run(logo, 12)).some((e) => e.type === "error"), "12 characters are within a limit of 12");
    // An image is no call: too large to keep for the next turn, it is left out, and the text, the
    // calls and the finish still come (the Worker's 256 KiB limit is below most PNGs' base64).
    const withCall = turn(
      start(1, { format: "png" }),
      bytes(1, "iVBO"),
      bytes(1, "Rw0KGgo="),
      stop(1),
      ["contentBlockStart", { contentBlockIndex: 2, start: { toolUse: { toolUseId: "t1", name: "save" } } }],
      ["contentBlockDelta", { contentBlockIndex: 2, delta: { toolUse: { input: '{"n":1}' } } }],
      stop(2),
    );
    const events = await run(withCall, 11);
    assertEventInvariants(events);
    const errors = events.filter((e) => e.type === "error");
    assertEquals(
      errors.map((e) => e.type === "error" && e.error.code),
      ["arguments-too-large"],
    );
    const finish = finishOf(events);
    assertEquals(
      [finish.text, finish.toolCalls.map((call) => [call.name, call.arguments]), finish.reasoningParts ?? []],
      ["Here is the logo.", [["save", { n: 1 }]], []],
    );
  });

  test("bytes that are not base64 fail that image alone (block-failed): a call open meanwhile is not lost", async () => {
    // The payloads were all read: only the image's own bytes are unreadable, so no fragment of a call is
    // missing (a skipped payload, `malformed-payload`, would make the open call one never to run).
    const body = turn(
      ["contentBlockStart", { contentBlockIndex: 1, start: { toolUse: { toolUseId: "t1", name: "save" } } }],
      ["contentBlockDelta", { contentBlockIndex: 1, delta: { toolUse: { input: '{"n":' } } }],
      start(2, { format: "png" }),
      bytes(2, "iV=O"),
      bytes(2, "Rw0KGgo="),
      stop(2),
      ["contentBlockDelta", { contentBlockIndex: 1, delta: { toolUse: { input: "1}" } } }],
      stop(1),
    );
    const events = await run(body);
    assertEventInvariants(events);
    assertEquals(
      events.filter((e) => e.type === "error").map((e) => e.type === "error" && [e.error.code, e.error.data]),
      [["block-failed", undefined]],
    );
    const finish = finishOf(events);
    assertEquals(
      [finish.reason, finish.toolCalls.map((call) => [call.name, call.arguments]), finish.invalidToolCalls],
      ["tool-calls", [["save", { n: 1 }]], []],
    );
    assertEquals(finish.reasoningParts ?? [], []);
  });

  test("a whole Converse response (application/json) keeps its image block as the stream does", async () => {
    const whole = {
      output: { message: { role: "assistant", content: [{ text: "Here is the logo." }, kept] } },
      stopReason: "end_turn",
      usage: { inputTokens: 9, outputTokens: 40, totalTokens: 49 },
      metrics: { latencyMs: 900 },
    };
    const events = await collect(
      streamToolCalls(new Response(JSON.stringify(whole), { headers: { "content-type": "application/json" } }), {
        provider: "bedrock",
      }),
    );
    const finish = finishOf(events);
    assertEquals(
      [finish.reason, finish.text, finish.reasoningParts],
      ["stop", "Here is the logo.", [{ type: "block", block: kept }]],
    );
  });

  test("any split of the bytes gives the same events", async () => {
    const whole = await run(logo);
    await fc.assert(
      fc.asyncProperty(fc.array(fc.integer({ min: 1, max: logo.length - 1 }), { maxLength: 30 }), async (cuts) => {
        assertEquals(await run(logo, undefined, cuts), whole);
      }),
      { seed: 1178, numRuns: 15 },
    );
  });
});
