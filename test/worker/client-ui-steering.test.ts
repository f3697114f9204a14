// A `steering-message` part in an earlier assistant message on POST /v1/ui: ai 7's
// `SteeringMessageUIPart` (`{type: "steering-message", id, parts: (TextUIPart | FileUIPart)[]}`, "a
// user message that was added to the run with steering"), which `useChat` keeps in the message and
// sends back. ai 7's own `convertToModelMessages` makes it a user message between the steps around it
// (the model read it there); the provider must get the same turns, not the assistant's alone.
import * as ai7 from "ai-v7";
import { describe, expect, it } from "vitest";
import { uiAnswer, uiText, workerFetch } from "./client-support.ts";
import { live, scripted } from "./open-responses-support.ts";

const history = [
  { id: "m1", role: "user", parts: [{ type: "text", text: "Weather in Paris and Rome?" }] },
  {
    id: "m2",
    role: "assistant",
    parts: [
      { type: "step-start" },
      { type: "tool-temp", toolCallId: "t1", state: "output-available", input: { at: "Paris" }, output: 18 },
      { type: "text", text: "Looking." },
      { type: "steering-message", id: "s1", parts: [{ type: "text", text: "Only Paris, please." }] },
      { type: "step-start" },
      { type: "text", text: "Paris: 18 °C." },
    ],
  },
  { id: "m3", role: "user", parts: [{ type: "text", text: "And tomorrow?" }] },
] as ai7.UIMessage[];

describe("POST /v1/ui: a steering message of an earlier turn", () => {
  it("reaches the provider as the user's message between the steps, as ai 7's convertToModelMessages places it", async () => {
    const upstream = scripted("openai", { text: "Sunny." });
    const fetch = workerFetch({ env: live("openai"), upstream });
    const answer = await uiAnswer(ai7 as never, fetch, { model: "openai/m" }, history as never);
    expect(uiText(answer)).toBe("Sunny.");
    const sent = upstream.requests[0]!.body["messages"] as { role: string; content: unknown }[];
    expect(sent).toEqual([
      { role: "user", content: "Weather in Paris and Rome?" },
      {
        role: "assistant",
        content: "Looking.",
        tool_calls: [{ id: "t1", type: "function", function: { name: "temp", arguments: '{"at":"Paris"}' } }],
      },
      { role: "tool", tool_call_id: "t1", content: "18" },
      { role: "user", content: "Only Paris, please." },
      { role: "assistant", content: "Paris: 18 °C." },
      { role: "user", content: "And tomorrow?" },
    ]);
    // The AI SDK's own conversion of the same history: the same turns, in the same order.
    const reference = await ai7.convertToModelMessages(history);
    expect(sent.map((message) => message.role)).toEqual(reference.map((message) => message.role));
  });

  it("its file parts go with it, and a malformed one is a 400 naming its path", async () => {
    const steering = (parts: unknown[]) => [
      history[0],
      {
        ...history[1],
        parts: [
          { type: "text", text: "Checking." },
          { type: "steering-message", id: "s1", parts },
        ],
      },
    ];
    const post = (messages: unknown[], upstream = scripted("openai", { text: "Ok." })) =>
      workerFetch({ env: live("openai"), upstream })("http://localhost:8787/v1/ui", {
        method: "POST",
        headers: { "content-type": "application/json", authorization: "Bearer t" },
        body: JSON.stringify({ model: "openai/m", messages }),
      });
    const upstream = scripted("openai", { text: "Ok." });
    const image = { type: "file", mediaType: "image/png", url: "https://example.test/map.png" };
    expect((await post(steering([{ type: "text", text: "This one:" }, image]), upstream)).status).toBe(200);
    expect((upstream.requests[0]!.body["messages"] as unknown[]).at(-1)).toEqual({
      role: "user",
      content: [
        { type: "text", text: "This one:" },
        { type: "image_url", image_url: { url: "https://example.test/map.png" } },
      ],
    });
    const bad = await post(steering([{ type: "text", text: 7 }]));
    expect([bad.status, await bad.text()]).toEqual([
      400,
      expect.stringContaining("messages[1].parts[1].parts[0].text"),
    ]);
  });
});
