// A provider error chunk before the finish: the OpenAI Chat calls known whole (a later index began)
// reach a /v1/ui client before the error, which ends its stream (the UI stream gives a call's input
// only when the call completes, so a call completed after the error was never sent).
import { describe, expect, it } from "vitest";
import { post } from "./client-support.ts";
import { chatChunk, FakeUpstream, liveOpenAI, testEnv, worker } from "./support.ts";

const fragment = (index: number, args: string, id: string, name: string) =>
  chatChunk({ tool_calls: [{ index, id, type: "function", function: { name, arguments: args } }] });

describe("POST /v1/ui: a provider error after an OpenAI Chat call sent whole", () => {
  it("the call a later index followed is given whole before the error", async () => {
    const error = { error: { message: "boom", type: "InternalServerError", code: 500 } };
    const payloads = [
      fragment(0, '{"q":"tides"}', "call_a", "lookup"),
      fragment(1, '{"city":"Pa', "call_b", "f"),
      error,
    ];
    const upstream = new FakeUpstream({
      kind: "sse",
      chunks: [...payloads.map((p) => `data: ${JSON.stringify(p)}\n\n`), "data: [DONE]\n\n"],
    });
    const body = { model: "openai/m", messages: [{ id: "u", role: "user", parts: [{ type: "text", text: "hi" }] }] };
    const response = await worker(upstream).call(
      post("/v1/ui", body, { headers: { authorization: "Bearer t" } }),
      testEnv({ ...liveOpenAI, CLIENT_TOKEN: "t" }),
    );
    const chunks = (await response.text())
      .split("\n\n")
      .filter((line) => line.startsWith("data: {"))
      .map((line) => JSON.parse(line.slice(6)) as { type: string; toolCallId?: string; input?: unknown });
    const input = chunks.findIndex((c) => c.type === "tool-input-available" && c.toolCallId === "call_a");
    expect(chunks[input]?.input).toEqual({ q: "tides" });
    expect(chunks.findIndex((c) => c.type === "error")).toBeGreaterThan(input);
  });
});
