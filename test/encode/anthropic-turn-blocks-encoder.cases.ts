// Anthropic's turn blocks through the Messages encoder (issue 34): what a Messages client must send
// back reaches it as Anthropic sent it, so that it round-trips on the next turn: a tool_use's
// `caller` (programmatic tool calling) and a toolset member's `toolset_name` in its content_block_start, a `compaction` block and a
// `fallback` block whole in their place. A call the fallback withdrew goes out as it streamed (as
// Anthropic sends it, right before the fallback block) but does not make the stop `tool_use`.
// The streams are those of test/providers/anthropic/turn-blocks-recordings.ts (built from the
// SDK's types); the strict reader is test/support/agent-protocol-readers.ts.
import { readAnthropicMessage, streamToolCalls, type EncodableEvent } from "../../src/index.ts";
import {
  CODE_CALLER,
  compactionTurn,
  FALLBACK_BLOCK,
  fallbackAfterCall,
  fallbackWhileOpen,
  programmaticContinuation,
  programmaticFirst,
  toolsetMemberCall,
} from "../providers/anthropic/turn-blocks-recordings.ts";
import { readMessagesEvents, type MessagesReading } from "../support/agent-protocol-readers.ts";
import { AGENT_OPTIONS, ENCODERS, encodeAll } from "../support/encoders.ts";
import { assert, assertEquals, group } from "../support/harness.ts";
import { bytes, collect, fromChunks } from "../support/streams.ts";
import { cutInput } from "../support/cut-input.ts";

const eventsOf = (sse: string): Promise<EncodableEvent[]> =>
  collect(streamToolCalls(fromChunks([bytes(sse)]), { provider: "anthropic" }));

/** The stream read by the strict reader, and the non-streaming message of the same events, which must agree. */
async function read(sse: string): Promise<MessagesReading> {
  const events = await eventsOf(sse);
  const reading = readMessagesEvents(encodeAll(ENCODERS.anthropic(), events));
  const result = await readAnthropicMessage(fromChunks(events), AGENT_OPTIONS.anthropic());
  assert(result.type === "message", "a message");
  assertEquals(
    result.message.content,
    reading.content.map((block, i) => {
      if (block.type !== "tool_use") return block;
      const { json, input, ...rest } = block;
      return { ...rest, input: input ?? cutInput(json, result.message.content[i]) };
    }),
    "readAnthropicMessage builds what the stream built",
  );
  assertEquals(result.message.stop_reason, reading.stopReason);
  return reading;
}

const shape = (reading: MessagesReading): string[] =>
  reading.content.map((block) => (block.type === "tool_use" ? `tool_use:${block.id}` : block.type));

group("AnthropicMessagesEncoder: Anthropic's turn blocks go to the client as they came", (test) => {
  test("a programmatic call's caller is on its tool_use block, from its content_block_start", async () => {
    for (const sse of [programmaticFirst, programmaticContinuation]) {
      const reading = await read(sse);
      const calls = reading.content.filter((block) => block.type === "tool_use");
      assert(calls.length > 0, "calls");
      for (const call of calls) assertEquals(call.caller, CODE_CALLER);
      assertEquals(reading.stopReason, "tool_use");
    }
  });

  test("a toolset member's call keeps its toolset_name beside its caller, as the client sends it back", async () => {
    const reading = await read(toolsetMemberCall);
    assertEquals(reading.content, [
      {
        type: "tool_use",
        id: "toolu_nav",
        name: "navigate",
        json: '{"url":"https://example.com"}',
        input: { url: "https://example.com" },
        caller: CODE_CALLER,
        toolset_name: "browser",
      },
    ]);
  });

  test("a call without a caller has no caller field", async () => {
    const reading = await read(fallbackAfterCall);
    for (const block of reading.content) if (block.type === "tool_use") assert(!("caller" in block), "no caller");
  });

  test("a compaction block goes out whole, in its place, with the summary its compaction_delta gave", async () => {
    const reading = await read(compactionTurn);
    assertEquals(shape(reading), ["compaction", "text"]);
    assertEquals(reading.content[0], {
      type: "compaction",
      content: "The user is planning a trip to Lisbon.",
      encrypted_content: "ENC1",
    });
    assertEquals(reading.stopReason, "end_turn");
  });

  test("a fallback block goes out in its place; the fallback model's call makes the stop tool_use", async () => {
    const reading = await read(fallbackAfterCall);
    assertEquals(shape(reading), [
      "thinking",
      "text",
      "tool_use:toolu_cut",
      "fallback",
      "thinking",
      "text",
      "tool_use:toolu_ok",
    ]);
    assertEquals(reading.content[3], FALLBACK_BLOCK);
    const signatures = reading.content.flatMap((block) => (block.type === "thinking" ? [block.signature] : []));
    assertEquals(signatures, ["EqA1sigA", "EqB2sigB"]);
    assertEquals(reading.stopReason, "tool_use");
  });

  test("a turn whose only call the fallback withdrew does not end tool_use", async () => {
    const reading = await read(fallbackWhileOpen);
    assertEquals(shape(reading), ["tool_use:toolu_open", "fallback", "text"]);
    assertEquals(reading.stopReason, "end_turn");
  });
});
