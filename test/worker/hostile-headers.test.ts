// Hostile request shapes outside the body's tool schemas: headers a client repeats or inflates.
// Each is the protocol's own 4xx naming what is at fault, or an accepted request, with the work it
// costs bounded by a count, never by how much the client sent.
import { describe, expect, it } from "vitest";
import { endpoints } from "./endpoint-bodies.ts";
import { post } from "./client-support.ts";
import { testEnv, worker } from "./support.ts";

describe("anthropic-beta", () => {
  const messages = endpoints.messages!;
  const env = testEnv({ ANTHROPIC_BETAS: "interleaved-thinking-2025-05-14" });
  // Betas go to Anthropic alone: the header is read for an Anthropic model only.
  const toAnthropic = () => ({ ...messages.valid(), model: "anthropic/claude-sonnet-4-5" });
  const send = (betas: string) =>
    worker().call(post(messages.path, toAnthropic(), { headers: { "anthropic-beta": betas } }), env);

  it("more than 64 values are a 400 in Anthropic's shape naming the header, however many follow", async () => {
    // Before, each allowed value was looked for again from the list's start: the work grew with
    // the square of the header's length.
    const list = (count: number) => Array.from({ length: count }, (_, i) => `beta-${i}`);
    for (const betas of [
      list(65),
      [...list(16_000), ...Array(1_500).fill("interleaved-thinking-2025-05-14")],
      Array(100_000).fill(""),
    ]) {
      const refused = await send(betas.join(","));
      expect(refused.status).toBe(400);
      const error = await messages.expectError(refused);
      expect(error).toMatchObject({ code: "invalid_request_error", field: "anthropic-beta" });
      expect(error.message).toContain("64");
    }
    const taken = await send(list(64).join(", "));
    expect(taken.status).toBe(200);
    await taken.text();
  });

  it("a request to another provider reads none of the header: 65 values are dropped, not a 400", async () => {
    // worker/README.md: betas for other providers are dropped without an error.
    const betas = Array.from({ length: 65 }, () => "interleaved-thinking-2025-05-14").join(",");
    const body = { ...messages.valid(), model: "openai/gpt-4o-mini" };
    const taken = await worker().call(post(messages.path, body, { headers: { "anthropic-beta": betas } }), env);
    expect(taken.status).toBe(200);
    await taken.text();
  });

  it("a deployment that forwards no beta reads none of the header", async () => {
    const many = Array(100_000).fill("interleaved-thinking-2025-05-14").join(",");
    const taken = await worker().call(post(messages.path, messages.valid(), { headers: { "anthropic-beta": many } }));
    expect(taken.status).toBe(200);
    await taken.text();
  });
});
