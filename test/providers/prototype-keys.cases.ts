// Provider values that are names of Object.prototype members (`constructor`, `toString`,
// `__proto__`, ...) must be read as the unknown strings they are, never found in a lookup table
// through its prototype.
import {
  AnthropicDecoder,
  decodeOpenAIChatMessage,
  GeminiDecoder,
  normalizeFinishReason,
  OpenAIResponsesDecoder,
  repairJson,
  type ProviderDelta,
  type SSEMessage,
} from "../../src/index.ts";
import { assertEquals, group } from "../support/harness.ts";
import { chatChunk } from "../support/streams.ts";

const PROTOTYPE_NAMES = ["constructor", "toString", "valueOf", "hasOwnProperty", "__proto__", "__defineGetter__"];

function decodeAll(
  decode: (message: SSEMessage, emit: (delta: ProviderDelta) => void) => void,
  messages: SSEMessage[],
): ProviderDelta[] {
  const out: ProviderDelta[] = [];
  for (const message of messages) decode(message, (delta) => out.push(delta));
  return out;
}

group("Prototype member names in provider values", (test) => {
  test("an Anthropic content block whose type is a prototype member is not a tool call", () => {
    for (const type of PROTOTYPE_NAMES) {
      const decoder = new AnthropicDecoder();
      const block = {
        type: "content_block_start",
        index: 0,
        content_block: { type, id: "toolu_1", name: "f", input: {} },
      };
      const deltas = decodeAll(
        (m, e) => decoder.decode(m, e),
        [{ event: "content_block_start", data: JSON.stringify(block) }],
      );
      assertEquals(deltas, [], `block type ${type}`);
    }
  });

  test("a Responses output item whose type is a prototype member is not a call", () => {
    for (const type of PROTOTYPE_NAMES) {
      const deltas: ProviderDelta[] = [];
      const decoder = new OpenAIResponsesDecoder((delta) => deltas.push(delta));
      const added = {
        type: "response.output_item.added",
        output_index: 0,
        item: { type, id: "fc_1", call_id: "call_1", name: "f", arguments: "" },
      };
      decoder.decode({ event: added.type, data: JSON.stringify(added) });
      assertEquals(
        deltas.filter((delta) => delta.type === "tool-call-chunk"),
        [],
        `item type ${type}`,
      );
    }
  });

  test("a finish reason that is a prototype member normalizes to other in every stage and in normalizeFinishReason", () => {
    for (const raw of PROTOTYPE_NAMES) {
      const chat = decodeAll(decodeOpenAIChatMessage, [{ data: JSON.stringify(chatChunk({}, raw)) }]);
      assertEquals(chat, [{ type: "finish", rawReason: raw, reason: "other" }], `chat ${raw}`);
      const anthropic = new AnthropicDecoder();
      const delta = { type: "message_delta", delta: { stop_reason: raw } };
      assertEquals(
        decodeAll((m, e) => anthropic.decode(m, e), [{ event: "message_delta", data: JSON.stringify(delta) }]).filter(
          (d) => d.type === "finish",
        ),
        [{ type: "finish", rawReason: raw, reason: "other" }],
      );
      const gemini = new GeminiDecoder();
      const chunk = { candidates: [{ content: { role: "model", parts: [{ text: "a" }] }, finishReason: raw }] };
      assertEquals(
        decodeAll((m, e) => gemini.decode(m, e), [{ data: JSON.stringify(chunk) }]).filter((d) => d.type === "finish"),
        [{ type: "finish", rawReason: raw, reason: "other" }],
      );
      assertEquals(normalizeFinishReason(raw, false), "other", `normalizeFinishReason ${raw}`);
    }
  });

  test("repair never takes a prototype member name for a Python literal", () => {
    for (const word of PROTOTYPE_NAMES.filter((name) => /^[A-Za-z_$][\w$]*$/.test(name))) {
      const result = repairJson(`{"a": ${word}}`, { closeTruncated: false });
      assertEquals(result.ok, false, word);
    }
    const python = repairJson('{"a": True, "b": None}', { closeTruncated: false });
    assertEquals(python.ok && python.value, { a: true, b: null });
  });
});
