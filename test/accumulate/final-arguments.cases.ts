// A provider's final arguments text (OpenAI Responses' `.done`, Gemini Interactions' whole
// `function_call`) beside the fragments it streamed: the fragments are what the early check read
// and what a client was shown, so the call's arguments are that text, or the call says it is not.
import type { ProviderDelta, ToolCallEvent, ToolDefinition, ToolSchema } from "../../src/index.ts";
import { earlySchemaValidator, repairJson, ToolCallAccumulator, toolSchemaValidator } from "../../src/index.ts";
import { assert, assertEquals, group } from "../support/harness.ts";

const INTEGER_A: ToolSchema = { type: "object", properties: { a: { type: "integer" } } };

/** Tool `f`'s call streamed as `fragments`, then ended with the provider's `final` text, through both checks. */
function ended(fragments: readonly string[], final: string, schema: ToolSchema = INTEGER_A): ToolCallEvent[] {
  const tools: ToolDefinition[] = [{ name: "f", parameters: schema }];
  const events: ToolCallEvent[] = [];
  const accumulator = new ToolCallAccumulator((event) => events.push(event), {
    validator: toolSchemaValidator(tools),
    earlyValidator: earlySchemaValidator(tools),
    repairer: repairJson,
  });
  // The call named first, its arguments fragments after (none: the final text alone, as LM Studio sends it).
  const deltas: ProviderDelta[] = [{ type: "tool-call-chunk", index: 0, id: "call_f", name: "f" }];
  for (const argumentsDelta of fragments) deltas.push({ type: "tool-call-chunk", index: 0, argumentsDelta });
  for (const delta of deltas) accumulator.push(delta);
  accumulator.push({ type: "tool-call-end", index: 0, arguments: final });
  accumulator.push({ type: "finish", rawReason: "tool_calls" });
  accumulator.end();
  return events;
}

/** The concatenated fragments the call streamed. */
function streamed(events: ToolCallEvent[]): string {
  return events.map((event) => (event.type === "tool-call-delta" ? event.argumentsDelta : "")).join("");
}

group("A provider's final arguments beside the fragments it streamed", (test) => {
  test("another value: an invalid-tool-call arguments-mismatch, never a call of a value no one was shown", () => {
    // It was: a violation at /a ("x", streamed), then a tool-call of {a: 1}, the final text's value.
    const events = ended(['{"a": ', '"x"}'], '{"a": 1}');
    assertEquals(
      events.filter((event) => event.type !== "tool-call-delta").map((event) => event.type),
      ["tool-call-start", "tool-call-violation", "invalid-tool-call", "finish"],
    );
    const invalid = events.find((event) => event.type === "invalid-tool-call");
    assert(invalid?.type === "invalid-tool-call", "invalid");
    // The streamed text is the call's (its fragments concatenate to it); the final one is kept on the error.
    assertEquals(
      [invalid.rawArguments, invalid.error.code, invalid.error.position, invalid.error.data],
      ['{"a": "x"}', "arguments-mismatch", 6, '{"a": 1}'],
    );
    assertEquals(invalid.error.message, "The final tool arguments differ from the streamed ones (at offset 6).");
    // A valid final value is no excuse either, nor a valid streamed one.
    for (const [fragments, final] of [
      [['{"a": 2}'], '{"a": 1}'],
      [['{"a": 1, "b'], '{"a": 1}'],
    ] as const) {
      const kinds = ended(fragments, final).map((event) => event.type === "invalid-tool-call" && event.error.code);
      assert(kinds.includes("arguments-mismatch"), `${fragments.join("")} then ${final}`);
    }
  });

  test("the same value written otherwise: the streamed text stays the call's, its repeated name rejected as it streamed", () => {
    // A provider that sends the whole object again writes it anew (spacing, order, a repeated name read once).
    for (const [fragments, final, value] of [
      [['{"a": 1, ', '"b": [1, 2]}'], '{"b":[1,2],"a":1}', { a: 1, b: [1, 2] }],
      [["{'a': 1}"], '{"a": 1}', { a: 1 }],
    ] as const) {
      const events = ended(fragments, final, { type: "object" });
      const call = events.find((event) => event.type === "tool-call");
      assert(call?.type === "tool-call", `${fragments.join("")}: a tool-call`);
      // It was the final text: the fragments a client was shown did not concatenate to it.
      assertEquals(
        [call.arguments, call.rawArguments, streamed(events)],
        [value, fragments.join(""), fragments.join("")],
      );
    }
    // It was: a violation at /a, then a tool-call of {a: 1} (the final text, the name once).
    const events = ended(['{"a":"x",', '"a":1}'], '{"a":1}');
    const invalid = events.find((event) => event.type === "invalid-tool-call");
    assert(invalid?.type === "invalid-tool-call", "invalid");
    assertEquals(invalid.error.issues, ["$.a is a property name its object already has"]);
  });

  test("a final text that extends what streamed (or follows no fragment) is the rest of the call, streamed", () => {
    for (const fragments of [['{"a"'], []] as const) {
      const events = ended(fragments, '{"a": 1}');
      const call = events.find((event) => event.type === "tool-call");
      assert(call?.type === "tool-call", "a tool-call");
      assertEquals([call.arguments, call.rawArguments, streamed(events)], [{ a: 1 }, '{"a": 1}', '{"a": 1}']);
    }
  });
});
