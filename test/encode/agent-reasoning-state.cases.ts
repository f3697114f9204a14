// The opaque reasoning state of one provider carried in the other agent protocol: the Messages
// encoder's `signature` option puts a part into a thinking block's signature, as the Responses
// encoder's `encryptedContent` option puts one into a reasoning item's `encrypted_content`.
import {
  readAnthropicMessage,
  readOpenAIResponse,
  type EncodableEvent,
  type FinishEvent,
  type ReasoningPart,
} from "../../src/index.ts";
import { assertEquals, group } from "../support/harness.ts";
import { fromChunks } from "../support/streams.ts";

const item: ReasoningPart = { type: "item", id: "rs_1", encryptedContent: "gAAAA", summary: [] };
const signed: ReasoningPart = { type: "signed", text: "Let me check.", signature: "EqQB" };
const finish: FinishEvent = {
  type: "finish",
  reason: "stop",
  rawReason: "stop",
  toolCalls: [],
  invalidToolCalls: [],
  text: "",
  reasoning: "Let me check.",
};
const events = (part: ReasoningPart): EncodableEvent[] => [
  { type: "reasoning-delta", text: "Let me check." },
  { type: "reasoning-part", part },
  finish,
];

group("Reasoning state in the other agent protocol", (test) => {
  test("a thinking block's signature is a signed part's own, or what the signature option makes of any part", async () => {
    const read = async (part: ReasoningPart, signature?: (part: ReasoningPart) => string | undefined) => {
      const result = await readAnthropicMessage(fromChunks([events(part)]), { model: "m", signature });
      return result.type === "message" ? result.message.content : result.error;
    };
    assertEquals(await read(signed), [{ type: "thinking", thinking: "Let me check.", signature: "EqQB" }]);
    assertEquals(await read(item), [{ type: "thinking", thinking: "Let me check.", signature: "" }]);
    const sealed = (part: ReasoningPart) => `sealed:${part.type}`;
    assertEquals(await read(item, sealed), [{ type: "thinking", thinking: "Let me check.", signature: "sealed:item" }]);
  });

  test("a reasoning item's encrypted_content is an item's own, or what the encryptedContent option makes of any part", async () => {
    const read = async (part: ReasoningPart, encryptedContent?: (part: ReasoningPart) => string | undefined) => {
      const { response } = await readOpenAIResponse(fromChunks([events(part)]), { model: "m", encryptedContent });
      return response.output.map((output) => (output.type === "reasoning" ? output.encrypted_content : output.type));
    };
    assertEquals(await read(item), ["gAAAA"]);
    assertEquals(await read(signed), [undefined]);
    assertEquals(await read(signed, (part) => `sealed:${part.type}`), ["sealed:signed"]);
  });
});
