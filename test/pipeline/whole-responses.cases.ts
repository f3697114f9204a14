// A whole (non-streamed) response (a request without `stream: true`, or a compatible server that
// ignored it) read by the main entry's streamToolCalls as the stream it stands for: each recording's
// whole response, built from its events, gives the recording's calls, text, reasoning, kept blocks,
// finish and usage, however its bytes are cut.
import fc from "fast-check";
import { streamToolCalls, type Provider, type ToolCallEvent } from "../../src/index.ts";
import { externalBodies, externalFixtures } from "../support/external-fixtures.ts";
import { fixturesOf, summarize } from "../support/fixtures.ts";
import { assert, assertEquals, group } from "../support/harness.ts";
import { collect, decodeSSE, fromChunks, splitAt } from "../support/streams.ts";
import { AwsEventStreamDecoderStream } from "../../src/index.ts";
import {
  anthropicWhole,
  cohereWhole,
  converseEventsOf,
  converseWhole,
  payloadsOf,
  responsesWhole,
} from "../support/whole-responses.ts";

type WholeProvider = Extract<Provider, "anthropic" | "openai-responses" | "cohere" | "bedrock">;

const WHOLE = {
  anthropic: anthropicWhole,
  "openai-responses": responsesWhole,
  cohere: cohereWhole,
  bedrock: converseWhole,
} as const;

const PROVIDERS = ["anthropic", "openai-responses", "cohere", "bedrock"] as const;

/** The folders of ../shared/fixtures whose recordings are each provider's. */
const FOLDERS: Record<WholeProvider, string[]> = {
  anthropic: ["anthropic"],
  "openai-responses": ["openai-responses", "azure", "deepseek", "lmstudio"],
  cohere: ["cohere"],
  bedrock: ["bedrock"],
};

const json = { "content-type": "application/json" };

/** The content type of a provider's stream. */
const streamType = (provider: WholeProvider) => ({
  "content-type": provider === "bedrock" ? "application/vnd.amazon.eventstream" : "text/event-stream",
});

/** Every streamed body of a provider's recordings, named: the shared ones of its folders (Responses' by their events), then other projects'. */
function bodiesOf(provider: WholeProvider): [string, Uint8Array<ArrayBuffer>][] {
  const shared = fixturesOf(...FOLDERS[provider])
    .filter((f) => f.format === (provider === "bedrock" ? "event-stream" : "sse"))
    .filter((f) => provider !== "openai-responses" || f.text.includes("response.created"))
    .map((f): [string, Uint8Array<ArrayBuffer>] => [`${f.provider}/${f.name}`, f.body]);
  const external = externalFixtures
    .filter((f) => f.provider === provider)
    .flatMap((f) =>
      externalBodies(f).map((body, i): [string, Uint8Array<ArrayBuffer>] => [`${f.source}/${f.name} #${i}`, body]),
    );
  return [...shared, ...external];
}

/** The events of a body through the main entry. */
const read = (body: BodyInit, provider: WholeProvider | undefined, headers: HeadersInit = json) =>
  collect(streamToolCalls(new Response(body, { headers }), provider ? { provider } : {}));

/**
 * What a stream and its whole response must agree on: the calls, text, reasoning and the finish
 * (its kept blocks, order and usage). A call's `rawArguments` only as JSON: a whole response holds
 * its input as an object, whose text is not the stream's to the white space.
 */
function outcome(events: readonly ToolCallEvent[]) {
  const finish = events.find((e) => e.type === "finish");
  return {
    summary: summarize(events),
    calls: events.filter((e) => e.type === "tool-call").map(withoutRaw),
    reasoning: events.flatMap((e) => (e.type === "reasoning-delta" ? [e.text] : [])).join(""),
    finish: finish && { ...finish, toolCalls: finish.toolCalls.map(withoutRaw) },
  };
}

const withoutRaw = <Call extends { rawArguments: string }>({ rawArguments, ...call }: Call) => ({
  ...call,
  raw: asJson(rawArguments),
});

/** A call's text as JSON, or as it is when it is none (a custom tool's free text, no arguments). */
function asJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/**
 * A recording's whole response, or undefined for one no whole response stands for: a stream that
 * failed or was cut off, (hand-made Responses bodies) one that skipped an item's
 * `output_item.done`, whose final response holds more than it streamed, or one whose items ran at
 * once (xAI's web searches: an item added before the one before it was done), an order of
 * events that a whole response, its items one after another, does not hold, or one whose final
 * event's response is no `Response` object (a compatible server's, without `object: "response"`).
 */
async function wholeOf(provider: WholeProvider, body: Uint8Array, streamed: readonly ToolCallEvent[]) {
  if (streamed.some((e) => e.type === "abort" || e.type === "error" || e.type === "invalid-tool-call"))
    return undefined;
  const payloads =
    provider === "bedrock"
      ? converseEventsOf(await collect(fromChunks([body]).pipeThrough(new AwsEventStreamDecoderStream())))
      : payloadsOf(await decodeSSE([body]));
  // InvokeModel's chunks are Anthropic's events, no Converse response.
  if (payloads.some((event) => "chunk" in event)) return undefined;
  const whole = WHOLE[provider](payloads);
  if (provider !== "openai-responses") return whole;
  const done = payloads.filter((event) => event["type"] === "response.output_item.done").length;
  const items = payloads.filter((event) => String(event["type"]).startsWith("response.output_item."));
  const overlap = items.some(
    (event, i) =>
      event["type"] === "response.output_item.added" && items[i - 1]?.["type"] === "response.output_item.added",
  );
  const partial = done !== (whole["output"] as unknown[]).length || whole["object"] !== "response";
  return partial || overlap ? undefined : whole;
}

group("streamToolCalls: a whole (non-streamed) response reads as the stream it stands for", (test) => {
  for (const provider of PROVIDERS)
    test(`${provider}: each recording's whole response gives its calls, text, reasoning, finish and usage, named (the SSE ones also detected)`, async () => {
      let count = 0;
      for (const [name, body] of bodiesOf(provider)) {
        const streamed = await read(body, provider, streamType(provider));
        const whole = await wholeOf(provider, body, streamed);
        if (!whole) continue;
        count++;
        const expected = outcome(streamed);
        const events = await read(JSON.stringify(whole, null, 2), provider);
        assertEquals(outcome(events), expected, `${name}: pretty-printed`);
        assertEquals(
          outcome(await read(JSON.stringify(whole), provider, {})),
          expected,
          `${name}: one line, no content type`,
        );
        // Converse's events are told only by the event stream's headers: Bedrock's needs `provider`.
        if (provider !== "bedrock")
          assertEquals(await read(JSON.stringify(whole, null, 2), undefined), events, `${name}: detected`);
      }
      assert(count >= 5, `only ${count} ${provider} recordings read`);
    }).needs("recordings");

  test("splitting a whole response's bytes anywhere changes nothing", async () => {
    const bodies = PROVIDERS.flatMap((provider) =>
      bodiesOf(provider).map(([name, body]) => ({ provider, name, body })),
    );
    const wholes: { provider: WholeProvider; bytes: Uint8Array; events: ToolCallEvent[] }[] = [];
    for (const { provider, body } of bodies) {
      const whole = await wholeOf(provider, body, await read(body, provider, streamType(provider)));
      if (!whole) continue;
      const bytes = new TextEncoder().encode(JSON.stringify(whole, null, 1));
      const events = await read(bytes, provider);
      assert(
        events.some((event) => event.type === "finish"),
        `${provider}: a whole response read to its finish`,
      );
      wholes.push({ provider, bytes, events });
    }
    await fc.assert(
      fc.asyncProperty(
        fc.nat({ max: wholes.length - 1 }),
        fc.uniqueArray(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 12 }),
        async (at, cuts) => {
          const { provider, bytes, events } = wholes[at]!;
          const offsets = [...new Set(cuts.map((cut) => Math.floor(cut * bytes.length)))].sort((a, b) => a - b);
          const chunks = splitAt(bytes, offsets);
          const response = new Response(fromChunks(chunks), { headers: json });
          assertEquals(await collect(streamToolCalls(response, { provider })), events);
        },
      ),
      { seed: 20261203, numRuns: 60 },
    );
  }).needs("recordings");
});
