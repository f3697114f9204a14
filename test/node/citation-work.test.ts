// What placing citations costs the Chat, Chat completion, Responses and Messages encoders, counted, not
// timed: the string work they do (every Array join's result, every slice's, every comparison of
// startsWith / endsWith, every charCodeAt, and for indexOf / lastIndexOf the text's length times
// the needle's, which V8 can take: `"a".repeat(2 ** 20).lastIndexOf("a".repeat(15999) + "b")` is
// seconds) stays within a few times the text and citations the events carry. The shapes: an answer
// of thousands of cited blocks between text (Anthropic's citations), cited texts that were not
// shown over a text made to slow a search, and a Gemini grounding whose segments' bytes do not
// hold their texts. Counted in Node alone, where String.prototype can be wrapped for it.
import { describe, expect, it } from "vitest";
import { OpenAIChatCompletionBuilder, type EncodableEvent } from "../../src/index.ts";
import { WEB } from "../providers/anthropic/citations-recordings.ts";
import { ENCODERS, encodeAll } from "../support/encoders.ts";
import { readResponsesEvents } from "../support/agent-protocol-readers.ts";
import { readChatChunks } from "../support/protocol-readers.ts";

type Counted = "join" | "slice" | "startsWith" | "endsWith" | "charCodeAt" | "indexOf" | "lastIndexOf";
const COSTS: Record<Counted, (self: unknown, args: unknown[], result: unknown) => number> = {
  join: (_self, _args, result) => (result as string).length,
  slice: (_self, _args, result) => (result as string).length,
  startsWith: (_self, args) => String(args[0]).length,
  endsWith: (_self, args) => String(args[0]).length,
  charCodeAt: () => 1,
  indexOf: (self, args) => (typeof self === "string" ? self.length * String(args[0]).length : 0),
  lastIndexOf: (self, args) => (typeof self === "string" ? self.length * String(args[0]).length : 0),
};

/** The string work `run` does, by the costs above (the prototypes wrapped while it runs, synchronously). */
function work<T>(run: () => T): { result: T; units: number } {
  let units = 0;
  const saved: [object, string, unknown][] = [];
  for (const [name, cost] of Object.entries(COSTS)) {
    const proto = name === "join" ? Array.prototype : String.prototype;
    const original = (proto as unknown as Record<string, (...args: unknown[]) => unknown>)[name]!;
    saved.push([proto, name, original]);
    Object.defineProperty(proto, name, {
      configurable: true,
      writable: true,
      value: function (this: unknown, ...args: unknown[]) {
        const result = original.apply(this, args);
        units += cost(this, args, result);
        return result;
      },
    });
  }
  try {
    return { result: run(), units };
  } finally {
    for (const [proto, name, original] of saved)
      Object.defineProperty(proto, name, { configurable: true, writable: true, value: original });
  }
}

const text = (value: string): EncodableEvent => ({ type: "text-delta", text: value });
const cited = (value: string): EncodableEvent => ({
  type: "reasoning-part",
  part: { type: "block", block: { type: "text", text: value, citations: [WEB] } },
});
const finish = (all: string): EncodableEvent => ({
  type: "finish",
  reason: "stop",
  rawReason: "end_turn",
  toolCalls: [],
  invalidToolCalls: [],
  text: all,
  reasoning: "",
});

/** The events' text and cited texts, in UTF-16 code units: what the work is measured against. */
const size = (events: readonly EncodableEvent[]): number =>
  events.reduce((sum, event) => {
    if (event.type === "text-delta") return sum + event.text.length;
    if (event.type === "reasoning-part" && event.part.type === "block") return sum + JSON.stringify(event.part).length;
    return sum;
  }, 0);

/** Each encoder's work over `events` and its annotations (Chat's, the completion's, Responses', Anthropic's citations_delta). */
function encoded(events: readonly EncodableEvent[]) {
  const chat = work(() => encodeAll(ENCODERS.openai(), events));
  const completion = work(() => {
    const builder = new OpenAIChatCompletionBuilder({ model: "m", maxTextLength: 2 ** 24 });
    builder.add(events);
    return builder.result();
  });
  const responses = work(() => encodeAll(ENCODERS.responses(), events));
  const anthropic = work(() => encodeAll(ENCODERS.anthropic(), events));
  const message =
    completion.result.type === "completion" ? (completion.result.completion.choices[0]?.message ?? {}) : {};
  return {
    units: { chat: chat.units, completion: completion.units, responses: responses.units, anthropic: anthropic.units },
    annotations: {
      chat: readChatChunks(chat.result).choices.get(0)?.annotations?.length ?? 0,
      completion: ("annotations" in message ? (message.annotations as unknown[]) : []).length,
      responses: readResponsesEvents(responses.result).items.flatMap(
        (item) => (item["content"] as { annotations?: unknown[] }[] | undefined)?.[0]?.annotations ?? [],
      ).length,
      anthropic: anthropic.result.split('"type":"citations_delta"').length - 1,
    },
  };
}

/** Each encoder's work over the size of its input, rounded up, and whether all are within `most`. */
function within(units: Record<string, number>, events: readonly EncodableEvent[], most: number) {
  const ratios = Object.fromEntries(
    Object.entries(units).map(([name, count]) => [name, Math.ceil(count / size(events))]),
  );
  return { ratios, within: Object.values(ratios).every((ratio) => ratio <= most) };
}

describe("placing citations costs work linear in the text and the citations", () => {
  it("thousands of cited blocks between text (Anthropic's pattern): each placed, for a few units of work a unit of text", () => {
    const blocks = 3000;
    const events: EncodableEvent[] = [];
    let all = "";
    for (let i = 0; i < blocks; i++) {
      const lead = `Block ${i}: the ferry leaves at ${i % 24}:00 from the north pier. `;
      const quote = `Fares are ${i} euros for one crossing, paid on board.`;
      events.push(text(lead), text(quote), cited(quote));
      all += lead + quote;
    }
    events.push(finish(all));
    const { units, annotations } = encoded(events);
    expect(annotations).toEqual({ chat: blocks, completion: blocks, responses: blocks, anthropic: blocks });
    const check = within(units, events, 16);
    expect(check.within, JSON.stringify(check.ratios)).toBe(true);
  });

  it("cited texts that were not shown, over a text that slows a search: no annotation, bounded work", () => {
    const shown = "a".repeat(40_000);
    const needle = `${"a".repeat(1999)}b`;
    const events: EncodableEvent[] = [text(shown)];
    for (let i = 0; i < 50; i++) events.push(cited(needle), text("a"));
    events.push(finish(shown + "a".repeat(50)));
    const { units, annotations } = encoded(events);
    expect(annotations).toEqual({ chat: 0, completion: 0, responses: 0, anthropic: 0 });
    const check = within(units, events, 16);
    expect(check.within, JSON.stringify(check.ratios)).toBe(true);
  });

  it("a Gemini grounding whose segments' bytes do not hold their texts: bounded work", () => {
    // Each segment's text is nowhere at its offsets; the text is one that slows a search for it.
    const shown = "a".repeat(40_000);
    const supports = Array.from({ length: 200 }, (_, i) => ({
      segment: { startIndex: i, endIndex: i + 2000, text: `${"a".repeat(1999)}b` },
      groundingChunkIndices: [0],
    }));
    const grounding: EncodableEvent = {
      type: "reasoning-part",
      part: {
        type: "block",
        block: {
          groundingMetadata: {
            groundingChunks: [{ web: { uri: "https://example.com/a", title: "example.com" } }],
            groundingSupports: supports,
          },
        },
      },
    };
    const events = [text(shown), grounding, finish(shown)];
    const { units, annotations } = encoded(events);
    expect(annotations).toEqual({ chat: 0, completion: 0, responses: 0, anthropic: 0 });
    const check = within(units, events, 16);
    expect(check.within, JSON.stringify(check.ratios)).toBe(true);
  });
});
