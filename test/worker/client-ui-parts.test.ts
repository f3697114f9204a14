// POST /v1/ui against the AI SDK's own conversion: for a history holding every UI part type ai 5, 6
// and 7 declare (ui-history-corpus.ts), what the provider receives is what `convertToModelMessages`
// gives for the same messages (what an app that calls the provider itself sends), mapped the way the
// Worker maps a turn to that provider, with the Worker's documented choices (worker/README.md, /v1/ui).
import * as ai5 from "ai-v5";
import * as ai6 from "ai";
import * as ai7 from "ai-v7";
import { describe, expect, it } from "vitest";
import { workerFetch } from "./client-support.ts";
import { live, scripted } from "./open-responses-support.ts";
import { anthropicBody, corpus, type ModelMessage, openAIMessages, turnsOf } from "./ui-history-corpus.ts";

const convert = {
  5: ai5.convertToModelMessages,
  6: ai6.convertToModelMessages,
  7: ai7.convertToModelMessages,
} as unknown as Record<5 | 6 | 7, (messages: unknown) => Promise<ModelMessage[]>>;

/** The body the provider received for `messages` posted to /v1/ui, and the Worker's status and text. */
async function sent(provider: "openai" | "anthropic", messages: unknown) {
  const upstream = scripted(provider, { text: "Ok." });
  const response = await workerFetch({ env: live(provider), upstream })("http://localhost:8787/v1/ui", {
    method: "POST",
    headers: { "content-type": "application/json", authorization: "Bearer t" },
    body: JSON.stringify({ model: `${provider}/m`, messages }),
  });
  return { status: response.status, text: await response.text(), body: upstream.requests[0]?.body };
}

describe("POST /v1/ui: every UI part type reaches the provider as ai's convertToModelMessages gives it", () => {
  for (const version of [5, 6, 7] as const) {
    it(`ai ${version}: OpenAI Chat gets the same turns`, async () => {
      const history = corpus(version);
      const { status, text, body } = await sent("openai", history);
      expect([status, status === 200 ? "" : text]).toEqual([200, ""]);
      expect(body?.["messages"]).toEqual(openAIMessages(turnsOf(await convert[version](history))));
    });

    it(`ai ${version}: Anthropic Messages gets the same turns`, async () => {
      const history = corpus(version);
      const { status, text, body } = await sent("anthropic", history);
      expect([status, status === 200 ? "" : text]).toEqual([200, ""]);
      const reference = anthropicBody(turnsOf(await convert[version](history)));
      expect({ system: body?.["system"] ?? null, messages: body?.["messages"] }).toEqual(reference);
    });
  }
});
