// The Responses decoder's fast path (a delta event of OpenAI's own serialization read without its
// payload object) gives exactly what the full parse gives, near misses included.
import fc from "fast-check";
import { OpenAIResponsesDecoder, type ProviderDelta } from "../../src/index.ts";
import { ResponsesFastDelta } from "../../src/providers/openai-responses/responses-fast-delta.ts";
import { assertEquals, group } from "../support/harness.ts";
import { jsonLiterals, usually } from "../support/json-literal-arbitraries.ts";

const { literal, anyLiteral } = jsonLiterals('"}');
const integer = usually(fc.constantFrom("0", "1", "2", "12", "40"), "01", "-1", "1.0", "1e0", "9999999999999999", "");
/** One delta event as OpenAI serializes it (its optional fields present or not), or a near miss. */
const eventData = fc
  .record({
    type: fc.oneof(
      fc.constantFrom(
        "response.function_call_arguments.delta",
        "response.output_text.delta",
        "response.reasoning_summary_text.delta",
        "response.reasoning_text.delta",
        "response.reasoning.delta", // Open Responses' name of the raw reasoning's
      ),
      fc.constantFrom(
        "response.custom_tool_call_input.delta",
        "response.output_text.done",
        "response.x.delta",
        "response.refusal.delta", // read whole, at its .done
      ),
    ),
    sequence: fc.option(integer, { nil: undefined }),
    itemId: literal,
    index: integer,
    swapped: fc.boolean(),
    part: fc.option(fc.tuple(fc.constantFrom("content_index", "summary_index"), integer), { nil: undefined }),
    delta: fc.oneof(literal, anyLiteral, fc.constantFrom("null", "1", '["a"]')),
    logprobs: fc.option(usually("[]", "[1]", "null"), { nil: undefined }),
    obfuscation: fc.option(literal, { nil: undefined }),
    trailer: usually("", " ", "}", ',"x":1', "\n"),
    sorted: fc.boolean(),
  })
  .map((e) => {
    if (e.sorted) return sortedData(e);
    let data = `{"type":"${e.type}"`;
    if (e.sequence !== undefined) data += `,"sequence_number":${e.sequence}`;
    const item = `"item_id":${e.itemId}`;
    const index = `"output_index":${e.index}`;
    data += e.swapped ? `,${index},${item}` : `,${item},${index}`;
    if (e.part !== undefined) data += `,"${e.part[0]}":${e.part[1]}`;
    data += `,"delta":${e.delta}`;
    if (e.logprobs !== undefined) data += `,"logprobs":${e.logprobs}`;
    if (e.obfuscation !== undefined) data += `,"obfuscation":${e.obfuscation}`;
    return `${data}}${e.trailer}`;
  });

/** The same event as OpenAI writes it now: `type`, then the other keys in alphabetical order. */
function sortedData(e: {
  type: string;
  sequence: string | undefined;
  itemId: string;
  index: string;
  part: [string, string] | undefined;
  delta: string;
  logprobs: string | undefined;
  obfuscation: string | undefined;
  trailer: string;
}): string {
  const fields: [string, string | undefined][] = [
    ["content_index", e.part?.[0] === "content_index" ? e.part[1] : undefined],
    ["delta", e.delta],
    ["item_id", e.itemId],
    ["logprobs", e.logprobs],
    ["obfuscation", e.obfuscation],
    ["output_index", e.index],
    ["sequence_number", e.sequence],
    ["summary_index", e.part?.[0] === "summary_index" ? e.part[1] : undefined],
  ];
  const rest = fields.filter(([, value]) => value !== undefined).map(([key, value]) => `,"${key}":${value}`);
  return `{"type":"${e.type}"${rest.join("")}}${e.trailer}`;
}

/** The item the deltas belong to, so that argument fragments reach a call. */
const ADDED = (index: number) =>
  `{"type":"response.output_item.added","sequence_number":0,"output_index":${index},"item":{"id":"fc_1","type":"function_call","call_id":"call_1","name":"f","arguments":""}}`;

group("OpenAI Responses fast path", (test) => {
  test("a delta event read without its payload object gives what the full parse gives", () => {
    fc.assert(
      fc.property(fc.array(eventData, { maxLength: 10 }), fc.constantFrom(0, 1, 2), (events, index) => {
        // The same data after one space is parsed the same way, but never by the fast path.
        const decodeAll = (prefix: string): unknown[] => {
          const out: ProviderDelta[] = [];
          const decoder = new OpenAIResponsesDecoder((delta) => out.push(delta));
          decoder.decode({ data: ADDED(index) });
          for (const data of events) decoder.decode({ data: prefix + data });
          decoder.end();
          return out.map((delta) => (delta.type === "error" ? { type: "error", code: delta.error.code } : delta));
        };
        assertEquals(decodeAll(""), decodeAll(" "), JSON.stringify(events));
      }),
      { seed: 37, numRuns: 600 },
    );
  });

  test("OpenAI's own delta events, and many of the generated ones, take the fast path", () => {
    const data =
      '{"type":"response.function_call_arguments.delta","sequence_number":5,"item_id":"fc_1","output_index":1,"delta":"{\\"a","obfuscation":"x"}';
    const reader = new ResponsesFastDelta();
    const read = (text: string) => {
      const delta = reader.read(text);
      return delta === undefined
        ? undefined
        : { type: reader.type, sequence: reader.sequence, itemId: reader.itemId, index: reader.index, delta };
    };
    const expected = {
      type: "response.function_call_arguments.delta",
      sequence: 5,
      itemId: "fc_1",
      index: 1,
      delta: '{"a',
    };
    assertEquals(read(data), expected);
    // Again with the start and the middle it keeps, then another item, then the other order.
    assertEquals(read(data.replace(":5,", ":6,")), { ...expected, sequence: 6 });
    assertEquals(read(data.replace('"fc_1","output_index":1', '"fc_2","output_index":2')), {
      ...expected,
      itemId: "fc_2",
      index: 2,
    });
    assertEquals(
      read(data.replace('"item_id":"fc_1","output_index":1', '"output_index":1,"item_id":"fc_1"')),
      expected,
    );
    // OpenAI's order now (its keys sorted after `type`), as recorded in 2026: the same fields.
    const sorted =
      '{"type":"response.function_call_arguments.delta","delta":"{\\"a","item_id":"fc_1","obfuscation":"x","output_index":1,"sequence_number":5}';
    const text = new ResponsesFastDelta();
    const readSorted = (line: string) => {
      const delta = text.read(line);
      return delta === undefined
        ? undefined
        : { type: text.type, sequence: text.sequence, itemId: text.itemId, index: text.index, delta };
    };
    assertEquals(readSorted(sorted), expected);
    assertEquals(readSorted(sorted.replace(":5}", ":6}")), { ...expected, sequence: 6 });
    assertEquals(readSorted(sorted.replace('"fc_1"', '"fc_2"').replace(":1,", ":2,")), {
      ...expected,
      itemId: "fc_2",
      index: 2,
    });
    // The old order after the sorted one, on the same reader: the item's id and index read again.
    assertEquals(readSorted(data), expected);
    assertEquals(
      readSorted(
        '{"type":"response.output_text.delta","content_index":0,"delta":"Hi","item_id":"msg_1","logprobs":[],"obfuscation":"ab","output_index":0,"sequence_number":4}',
      ),
      { type: "response.output_text.delta", sequence: 4, itemId: "msg_1", index: 0, delta: "Hi" },
    );
    assertEquals(readSorted(`${sorted.slice(0, -1)},"x":1}`), undefined);
    // Open Responses' raw reasoning, named as the spec names it (not OpenAI's reasoning_text).
    const raw = new ResponsesFastDelta();
    assertEquals(raw.read(data.replace("function_call_arguments", "reasoning")), '{"a');
    assertEquals(raw.type, "response.reasoning.delta");
    assertEquals(read(` ${data}`), undefined);
    assertEquals(read(data.replace('"obfuscation":"x"', '"obfuscation":"x","y":1')), undefined);
    // The property above compares both paths only where the fast one is taken.
    const taken = fc
      .sample(eventData, { seed: 37, numRuns: 1000 })
      .filter((d) => new ResponsesFastDelta().read(d) !== undefined);
    assertEquals(taken.length > 50, true, `${taken.length} of 1000 generated events read fast`);
  });
});
