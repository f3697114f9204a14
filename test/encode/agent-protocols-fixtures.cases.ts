// Every recorded provider stream through the two agent-protocol encoders (Anthropic Messages,
// OpenAI Responses): the strict reader of each protocol (test/support/agent-protocol-readers.ts)
// must accept the bytes and find the calls, ids, text, reasoning state and usage the accumulator
// produced; a failed response must end in the protocol's in-band error; the non-streaming
// readers must build what a streaming client of the same events built.
import {
  readAnthropicMessage,
  readOpenAIResponse,
  type EncodableEvent,
  type FinishEvent,
  type ToolCallEvent,
} from "../../src/index.ts";
import { readMessagesEvents, readResponsesEvents } from "../support/agent-protocol-readers.ts";
import { AGENT_OPTIONS, ENCODERS, encodeAll, failed, fixtureEvents, recordedKind } from "../support/encoders.ts";
import { supportedProvider } from "../support/fixture-provider.ts";
import { allFixtures, summarize, type Fixture } from "../support/fixtures.ts";
import { assert, assertEquals, group } from "../support/harness.ts";
import { assertCallIds, expectedCalls } from "../support/protocol-readers.ts";
import { cutInput } from "../support/cut-input.ts";
import { fromChunks } from "../support/streams.ts";

const fixtures = allFixtures.filter((fixture) => supportedProvider(fixture) !== undefined);
const label = (fixture: Fixture): string => `${fixture.provider}/${fixture.name}`;
const textOf = (events: readonly ToolCallEvent[]): string => summarize(events).text;
const finishOf = (events: readonly ToolCallEvent[]): FinishEvent | undefined => {
  const last = events.at(-1);
  return last?.type === "finish" ? last : undefined;
};
/** What a Messages client's concatenated `partial_json` is for a call: its text, `{}` when empty, `{"input": ...}` for free text. */
const messagesJson = (call: { rawArguments: string }, events: readonly ToolCallEvent[]): string => {
  const free = events.some((e) => e.type === "tool-call-start" && e.inputFormat === "text");
  if (free) return JSON.stringify({ input: call.rawArguments });
  return call.rawArguments === "" ? "{}" : call.rawArguments;
};

/** Each shown call's `caller` (from its `providerMetadata`), in the order the calls began. */
const callers = (events: readonly ToolCallEvent[]): unknown[] => {
  const order = new Map<number, unknown>();
  for (const e of events) {
    if (e.type !== "tool-call-start" && e.type !== "tool-call" && e.type !== "invalid-tool-call") continue;
    if (e.choice || (e.type !== "invalid-tool-call" && e.providerExecuted)) continue;
    if (e.type === "tool-call-start") order.set(e.index, undefined);
    else order.set(e.index, e.providerMetadata?.["caller"]);
  }
  return [...order.values()];
};

group("AnthropicMessagesEncoder over every recorded stream", (test) => {
  for (const fixture of fixtures) {
    test(`${label(fixture)}: a strict Messages reader gets the accumulator's calls, text, thinking and stop_reason`, async () => {
      const events = await fixtureEvents(fixture);
      const reading = readMessagesEvents(encodeAll(ENCODERS.anthropic(), events));
      const calls = reading.content.flatMap((block) => (block.type === "tool_use" ? [block] : []));
      const finish = finishOf(events);
      if (failed(events) || !finish) {
        assert(reading.error && reading.stopReason === undefined, "a failed response ends with an error event");
        // A recorded rate limit is Anthropic's, on which its clients back off; any other an api_error.
        assertEquals(reading.error.type, recordedKind(fixture) === "rate-limited" ? "rate_limit_error" : "api_error");
        // The library's message alone, never its internal code after it.
        assert(!/\([a-z-]+\)$/.test(reading.error.message), "no library code in the message");
        return;
      }
      const expected = expectedCalls(events);
      assertEquals(
        calls.map((c) => [c.name, c.json]),
        expected.map((c) => [c.name, messagesJson(c, events)]),
      );
      for (const [i, call] of expected.entries())
        if (!call.invalid) assert(calls[i]!.input !== undefined, `the partial_json of ${call.name} parses`);
      assertCallIds(
        calls.map((c) => c.id),
        expected,
      );
      // Programmatic tool calling: each call's caller, when the provider gave one, is on its block.
      assertEquals(
        calls.map((c) => c.caller),
        callers(events),
      );
      assertEquals(
        reading.content.flatMap((block) => (block.type === "text" ? [block.text] : [])).join(""),
        textOf(events),
      );
      const signed = (finish.reasoningParts ?? []).flatMap((part) =>
        part.type === "signed" ? [part.signature] : part.type === "redacted" ? [`redacted:${part.data}`] : [],
      );
      assertEquals(
        reading.content.flatMap((block) =>
          block.type === "thinking" && block.signature !== ""
            ? [block.signature]
            : block.type === "redacted_thinking"
              ? [`redacted:${block.data}`]
              : [],
        ),
        signed,
        "signed and redacted thinking pass through, in order",
      );
      // A call the length limit cut (never parsed) ends as Anthropic ends it: max_tokens, so no client runs it.
      const cut = finish.reason === "length" && expected.some((call) => call.invalid);
      const reason =
        expected.length > 0 && !cut
          ? "tool_use"
          : { length: "max_tokens", "content-filter": "refusal" }[finish.reason as string];
      assertEquals(reading.stopReason, reason ?? (finish.rawReason === "stop_sequence" ? "stop_sequence" : "end_turn"));
      assertEquals(reading.usage?.["output_tokens"], finish.usage?.outputTokens ?? 0);
      // The input tokens a provider reported before any content (Anthropic, Gemini) are in message_start.
      const early = events[0]?.type === "usage" ? events[0].usage : undefined;
      if (fixture.provider === "anthropic") assert(early?.inputTokens !== undefined, "Anthropic reports usage first");
      const cached = (early?.cacheReadTokens ?? 0) + (early?.cacheWriteTokens ?? 0);
      assertEquals(reading.startUsage["input_tokens"], early ? (early.inputTokens ?? 0) - cached : 0);
    });

    test(`${label(fixture)}: readAnthropicMessage builds the message a streaming client built`, async () => {
      const events = await fixtureEvents(fixture);
      const reading = readMessagesEvents(encodeAll(ENCODERS.anthropic(), events));
      const result = await readAnthropicMessage(fromChunks<EncodableEvent>(events), AGENT_OPTIONS.anthropic());
      if (reading.error) return assertEquals(result, { type: "error", error: reading.error });
      assert(result.type === "message", "a message");
      assertEquals(result.message.stop_reason, reading.stopReason);
      assertEquals(
        result.message.content,
        reading.content.map((block, i) =>
          block.type === "tool_use"
            ? {
                type: "tool_use",
                id: block.id,
                name: block.name,
                input: block.input ?? cutInput(block.json, result.message.content[i]),
                ...("caller" in block ? { caller: block.caller } : {}),
              }
            : block,
        ),
      );
    });
  }
});

group("OpenAIResponsesEncoder over every recorded stream", (test) => {
  for (const fixture of fixtures) {
    test(`${label(fixture)}: a strict Responses reader gets the accumulator's calls, text and usage in the terminal response`, async () => {
      const events = await fixtureEvents(fixture);
      const reading = readResponsesEvents(encodeAll(ENCODERS.responses(), events));
      const finish = finishOf(events);
      if (failed(events) || !finish) {
        assertEquals(reading.terminal, "response.failed");
        // A recorded rate limit keeps OpenAI's code (as OpenAI's own stream has it); any other, the library's.
        const { code } = reading.response["error"] as { code: string };
        if (recordedKind(fixture) === "rate-limited") assertEquals(code, "rate_limit_exceeded");
        else assert(/^[a-z-]+$/.test(code), "the library's code");
        return;
      }
      const expected = expectedCalls(events);
      assertEquals(
        reading.calls.map((c) => [c.name, c.arguments]),
        expected.map((c) => [c.name, c.rawArguments]),
      );
      assertCallIds(
        reading.calls.map((c) => c.id),
        expected,
      );
      assertEquals(reading.text, textOf(events));
      const incomplete = finish.reason === "length" || finish.reason === "content-filter";
      assertEquals(reading.terminal, incomplete ? "response.incomplete" : "response.completed");
      const usage = reading.response["usage"] as Record<string, number>;
      assertEquals(
        [usage["input_tokens"], usage["output_tokens"]],
        [finish.usage?.inputTokens ?? 0, finish.usage?.outputTokens ?? 0],
      );
      const encrypted = (finish.reasoningParts ?? []).flatMap((part) =>
        part.type === "item" && part.encryptedContent !== undefined ? [part.encryptedContent] : [],
      );
      assertEquals(
        reading.items.flatMap((item) =>
          typeof item["encrypted_content"] === "string" ? [item["encrypted_content"]] : [],
        ),
        encrypted,
        "encrypted reasoning passes through, in order",
      );
    });

    test(`${label(fixture)}: readOpenAIResponse builds the response a streaming client got last`, async () => {
      const events = await fixtureEvents(fixture);
      const reading = readResponsesEvents(encodeAll(ENCODERS.responses(), events));
      const result = await readOpenAIResponse(fromChunks<EncodableEvent>(events), AGENT_OPTIONS.responses());
      assertEquals(result.response, reading.response as unknown);
    });
  }
});
