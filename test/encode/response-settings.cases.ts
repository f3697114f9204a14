// The settings a Responses response echoes (`settings`: tools, text, metadata...): each response
// gets its own copy, sharing no object with the caller's settings, the defaults or another
// response. And the ids the encoders generate.
import { randomId, readOpenAIResponse, type EncodableEvent } from "../../src/index.ts";
import { assert, assertEquals, group } from "../support/harness.ts";
import { fromChunks } from "../support/streams.ts";

const events: EncodableEvent[] = [
  { type: "text-delta", text: "hi" },
  { type: "finish", reason: "stop", rawReason: "stop", toolCalls: [], invalidToolCalls: [], text: "hi", reasoning: "" },
];

group("OpenAIResponsesEncoder: the response's settings", (test) => {
  test("a copy of the caller's settings (a schema's `__proto__` key an own key), and defaults that no response shares", async () => {
    // As JSON.parse gives a client's tools: `__proto__` an own property, not the prototype.
    const tools = JSON.parse(
      '[{"type":"function","name":"f","parameters":{"type":"object","__proto__":{"x":1},"properties":{"a":{"type":"string"}}}}]',
    );
    const settings = { tools, metadata: { k: "v" }, temperature: 0.5 };
    const read = () => readOpenAIResponse(fromChunks(events), { model: "m", settings });
    const { response } = await read();
    const echoed = response.tools as unknown as { parameters: Record<string, unknown> }[];
    assertEquals(echoed, tools);
    assert(echoed[0]!.parameters !== tools[0].parameters, "the schema is copied");
    assert(Object.hasOwn(echoed[0]!.parameters, "__proto__"), "an own __proto__ key");
    assertEquals(Object.getPrototypeOf(echoed[0]!.parameters), Object.prototype);
    assertEquals(response.temperature, 0.5);
    tools[0].parameters.properties.a.type = "number";
    settings.metadata.k = "changed";
    assertEquals(JSON.stringify(response.tools).includes('"number"'), false);
    assertEquals(response.metadata, { k: "v" });

    const plain = async () => (await readOpenAIResponse(fromChunks(events), { model: "m" })).response;
    const first = await plain();
    (first.metadata as Record<string, string>)["x"] = "y";
    (first.text as { format: { type: string } }).format.type = "json_object";
    (first.tools as unknown[]).push({ type: "function" });
    const second = await plain();
    assertEquals([second.metadata, second.text, second.tools], [{}, { format: { type: "text" } }, []]);
  });
});

group("randomId", (test) => {
  test("24 letters and digits, none repeated over 1,000 ids (across the refills of its random bytes)", () => {
    const ids = Array.from({ length: 1000 }, () => randomId());
    assert(
      ids.every((id) => /^[0-9A-Za-z]{24}$/.test(id)),
      "24 letters and digits",
    );
    assertEquals(new Set(ids).size, ids.length);
  });

  test("passed to `map`, gives tokens: an element is not taken as a prefix", () => {
    const ids = ["get_weather", "search"].map(randomId as (value: string) => string);
    assert(
      ids.every((id) => /^[0-9A-Za-z]{24}$/.test(id)),
      `tokens, not names and tokens: ${ids.join(", ")}`,
    );
  });
});
