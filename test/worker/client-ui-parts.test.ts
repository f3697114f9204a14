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

describe("POST /v1/ui: the documented differences from ai's conversion", () => {
  const json = (value: unknown) => JSON.stringify(value);

  it("reasoning without the Worker's seal, assistant files, custom and reasoning-file parts, calls without an outcome and the provider's own are not sent", async () => {
    const history = corpus(7);
    const reference = json(await convert[7](history));
    const body = json((await sent("openai", history)).body?.["messages"]);
    for (const kept of ["Thinking.", "b.png", "r.png", "app.note", '"c6"', '"c7"']) {
      expect(reference, `ai sends ${kept}`).toContain(kept);
      expect(body, `the Worker does not send ${kept}`).not.toContain(kept);
    }
  });

  it("a denial names the user; a user's text parts without files are one text; an unparsed input is {} on Anthropic", async () => {
    const history = corpus(7);
    const reference = json(await convert[7](history));
    expect(reference).toContain('"value":"No."');
    expect(json((await sent("openai", history)).body)).toContain('"content":"The user denied this call: No."');
    const texts = [
      {
        id: "u",
        role: "user",
        parts: [
          { type: "text", text: "Look up " },
          { type: "text", text: "these." },
        ],
      },
    ];
    expect((await convert[7](texts))[0]!.content).toHaveLength(2);
    expect((await sent("openai", texts)).body?.["messages"]).toEqual([{ role: "user", content: "Look up these." }]);
    expect(reference).toContain('"input":"{\\"query\\":"');
    expect(json((await sent("anthropic", history)).body)).toContain(
      '{"type":"tool_use","id":"c3","name":"lookup","input":{}}',
    );
  });

  it("a part type neither knows is skipped, as ai skips it; a type that is no string is a 400 naming it", async () => {
    const odd = { type: "app-widget", data: 1 };
    const plain = corpus(6);
    const history = plain.map((message) => ({ ...message, parts: [...message.parts, odd] }));
    expect(await convert[6](history)).toEqual(await convert[6](plain));
    expect((await sent("openai", history)).body).toEqual((await sent("openai", plain)).body);
    for (const [i, role] of [
      [0, "system"],
      [1, "user"],
      [2, "assistant"],
    ] as const) {
      const bad = [0, 1, 2].map((n) => ({ id: `m${n}`, role: "user", parts: [{ type: "text", text: "Hi" }] }));
      bad[i] = { id: "x", role, parts: [{ type: "text", text: "A" }, { type: 7 } as never] };
      const { status, text } = await sent("openai", bad);
      expect([status, text]).toEqual([400, expect.stringContaining(`messages[${i}].parts[1].type`)]);
    }
  });

  it("a file in a system message is a 400 naming it, where ai drops it", async () => {
    const image = { type: "file", mediaType: "image/png", url: "https://example.test/a.png" };
    const history = [{ id: "s", role: "system", parts: [{ type: "text", text: "Be brief." }, image] }];
    expect(await convert[6](history)).toEqual([{ role: "system", content: "Be brief." }]);
    const { status, text } = await sent("openai", history);
    expect([status, text]).toEqual([400, expect.stringContaining("messages[0].parts[1].type")]);
  });
});
