import fc from "fast-check";
import { assistantMessage, providerKit, streamToolCalls, type ToolCallEvent } from "../../../src/index.ts";
import { summarize } from "../../support/fixtures.ts";
import { assert, assertEquals, group } from "../../support/harness.ts";
import { assertEventInvariants } from "../../support/invariants.ts";
import { bytes, collect, fromChunks, splitAt } from "../../support/streams.ts";
import { gemini, image, imageTurn, parts, repeatedName } from "./doc-shapes-recordings.ts";

// Shapes the providers' docs and SDK types define that no recording here holds (issue 34's
// review): each case says where its shape comes from.

async function run(sse: string, cuts: number[] = []): Promise<ToolCallEvent[]> {
  const events = await collect(streamToolCalls(fromChunks(splitAt(bytes(sse), cuts)), { provider: "gemini" }));
  assertEventInvariants(events);
  return events;
}

/** Cut points anywhere in `sse`, for the re-chunking properties. */
const cutsOf = (sse: string): fc.Arbitrary<number[]> =>
  fc.uniqueArray(fc.integer({ min: 1, max: bytes(sse).length - 1 }), { maxLength: 5 });

group("Gemini shapes from the docs and SDK types", (test) => {
  test("Vertex streamed arguments: a continuation that repeats the call's name continues it, at any split", async () => {
    await fc.assert(
      fc.asyncProperty(cutsOf(repeatedName), async (cuts) => {
        const events = await run(repeatedName, cuts);
        assertEquals(summarize(events).toolCalls, [
          { id: null, name: "get_current_weather", arguments: { location: "Boston", country: null } },
          { id: null, name: "get_current_weather", arguments: { location: "Paris", country: "FR" } },
        ]);
        const call = events.find((e) => e.type === "tool-call");
        assertEquals(call?.type === "tool-call" ? call.providerMetadata : undefined, { thoughtSignature: "c2ln" });
      }),
      { numRuns: 15 },
    );
  });

  test("Vertex streamed arguments: the same name without partialArgs (a start, whole args) is another call", async () => {
    const events = await run(
      gemini(
        parts([{ functionCall: { name: "f", willContinue: true } }]),
        parts([{ functionCall: { partialArgs: [{ jsonPath: "$.a", numberValue: 1 }], willContinue: true } }]),
        parts([{ functionCall: { name: "f", willContinue: true } }]),
        parts([{ functionCall: { name: "f", partialArgs: [{ jsonPath: "$.a", numberValue: 2 }] } }]),
        parts([{ functionCall: { name: "f", args: { a: 3 } } }], { finishReason: "STOP" }),
      ),
    );
    assertEquals(
      summarize(events).toolCalls.map((call) => call.arguments),
      [{ a: 1 }, { a: 2 }, { a: 3 }],
    );
  });

  test("Vertex streamed arguments: the last part (willContinue false) closes the call before the next text", async () => {
    const events = await run(
      gemini(
        parts([{ functionCall: { name: "f", willContinue: true } }]),
        parts([{ functionCall: { partialArgs: [{ jsonPath: "$.a", numberValue: 1 }] } }]),
        parts([{ text: "done" }], { finishReason: "STOP" }),
      ),
    );
    const order = events.filter((e) => e.type === "tool-call" || e.type === "text-delta").map((e) => e.type);
    assertEquals(order, ["tool-call", "text-delta"]);
    assertEquals(summarize(events).toolCalls, [{ id: null, name: "f", arguments: { a: 1 } }]);
  });

  test("a generated image (inlineData) goes back next turn in its place with its signature, at any split", async () => {
    await fc.assert(
      fc.asyncProperty(cutsOf(imageTurn), async (cuts) => {
        const finish = (await run(imageTurn, cuts)).at(-1);
        assert(finish?.type === "finish" && finish.reason === "stop", "the turn finished");
        assertEquals(assistantMessage("gemini", finish), {
          role: "model",
          parts: [
            { text: "Here is the cat.", thoughtSignature: "c2lnLXRleHQ=" },
            image,
            { inlineData: { mimeType: "image/png", data: "AAAA" } },
          ],
        });
      }),
      { numRuns: 15 },
    );
  });

  test("the request kit sends a kept image back from the turn's reasoning parts", () => {
    const body = providerKit("gemini").requestBody({
      model: "gemini-3-pro-image-preview",
      messages: [
        { role: "user", content: "Draw a cat." },
        { role: "assistant", content: "", reasoningParts: [{ type: "block", block: image }], toolCalls: [] },
        { role: "user", content: "Make it orange." },
      ],
      tools: [],
    });
    const contents = body["contents"] as { role: string; parts: unknown[] }[];
    assertEquals(contents[1], { role: "model", parts: [image] });
  });

  test("the request kit answers a call sent with an id with a functionResponse of the same id (FunctionResponse.id)", () => {
    const signed = { thoughtSignature: "sig" };
    const call = { id: "call_1", name: "get_weather", arguments: { city: "Paris" }, providerMetadata: signed };
    const turn = { role: "assistant", content: "", toolCalls: [call] } as const;
    const results = [
      { role: "tool", toolCallId: "call_1", content: '{"celsius":18}' },
      { role: "tool", name: "get_weather", content: "sunny" },
    ] as const;
    const messages = [{ role: "user", content: "Weather in Paris?" } as const, turn, ...results];
    const body = providerKit("gemini").requestBody({ model: "gemini-3-pro-preview", messages, tools: [] });
    const contents = body["contents"] as { role: string; parts: unknown[] }[];
    assertEquals(contents.slice(1), [
      {
        role: "model",
        parts: [
          { functionCall: { name: "get_weather", args: { city: "Paris" }, id: "call_1" }, thoughtSignature: "sig" },
        ],
      },
      {
        role: "user",
        parts: [
          { functionResponse: { name: "get_weather", id: "call_1", response: { celsius: 18 } } },
          { functionResponse: { name: "get_weather", response: { result: "sunny" } } },
        ],
      },
    ]);
  });
});
