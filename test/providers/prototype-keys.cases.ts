// Provider values that are names of Object.prototype members (`constructor`, `toString`,
// `__proto__`, ...) must be read as the unknown strings they are, never found in a lookup table
// through its prototype.
import {
  AnthropicDecoder,
  GeminiDecoder,
  normalizeFinishReason,
  OpenAIChatDecoder,
  OpenAIResponsesDecoder,
  repairJson,
  type Emit,
  type ProviderDecoder,
  type ProviderDelta,
  type SSEMessage,
} from "../../src/index.ts";
import { assertEquals, group } from "../support/harness.ts";
import { chatChunk } from "../support/streams.ts";

const PROTOTYPE_NAMES = ["constructor", "toString", "valueOf", "hasOwnProperty", "__proto__", "__defineGetter__"];

/** What a new decoder emits for the messages, through to its end. */
function decodeAll(create: (emit: Emit) => ProviderDecoder, messages: SSEMessage[]): ProviderDelta[] {
  const out: ProviderDelta[] = [];
  const decoder = create((delta) => out.push(delta));
  for (const message of messages) decoder.decode(message);
  decoder.end();
  return out;
}

group("Prototype member names in provider values", (test) => {
  test("an Anthropic content block whose type is a prototype member is not a tool call", () => {
    for (const type of PROTOTYPE_NAMES) {
      const block = {
        type: "content_block_start",
        index: 0,
        content_block: { type, id: "toolu_1", name: "f", input: {} },
      };
      const deltas = decodeAll(
        (emit) => new AnthropicDecoder(emit),
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
      const chat = decodeAll((emit) => new OpenAIChatDecoder(emit), [{ data: JSON.stringify(chatChunk({}, raw)) }]);
      assertEquals(chat, [{ type: "finish", rawReason: raw, reason: "other" }], `chat ${raw}`);
      const delta = { type: "message_delta", delta: { stop_reason: raw } };
      assertEquals(
        decodeAll(
          (emit) => new AnthropicDecoder(emit),
          [{ event: "message_delta", data: JSON.stringify(delta) }],
        ).filter((d) => d.type === "finish"),
        [{ type: "finish", rawReason: raw, reason: "other" }],
      );
      const chunk = { candidates: [{ content: { role: "model", parts: [{ text: "a" }] }, finishReason: raw }] };
      assertEquals(
        decodeAll((emit) => new GeminiDecoder(emit), [{ data: JSON.stringify(chunk) }]).filter(
          (d) => d.type === "finish",
        ),
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
