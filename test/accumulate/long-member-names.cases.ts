// A model's arguments (or a provider's payload) with member names past 16,383 characters are never
// parsed: V8 hashes such a name by its length alone and interns every member name, whether
// `JSON.parse` reads it or a parser sets it on an object, and the names stay in the isolate's one
// string table until a full collection, so each call of them costs the next more, another
// client's too (src/shared/long-member-name.ts). The call is an `invalid-tool-call` of code
// `long-member-name`, its raw text kept; a payload holding one is read with a reserved key in its
// place (test/pipeline/long-member-name-payloads.cases.ts).
import {
  IncrementalJsonParser,
  repairJson,
  ToolCallAccumulator,
  type ToolCallAccumulatorOptions,
  type ToolCallEvent,
} from "../../src/index.ts";
import { LONG_MEMBER_NAME_KEY, parseJsonText } from "../../src/shared/long-member-name.ts";
import { pushCall } from "../support/accumulator-runs.ts";
import { name, parsedLongNames } from "../support/long-names.ts";
import { assert, assertEquals, group } from "../support/harness.ts";

/** An object of two names of 16,400 characters, alike but for their ends. */
const LONG = `{"a":1,"${name("a")}":1,"${name("b")}":2}`;

/** The events of one call of arguments `text`, fed in fragments of 1,000 characters. */
function callEvents(text: string, options: ToolCallAccumulatorOptions = {}): ToolCallEvent[] {
  const events: ToolCallEvent[] = [];
  pushCall(new ToolCallAccumulator((event) => void events.push(event), options), text, { fragment: 1000 });
  return events;
}

group("Member names V8 interns in quadratic time, written by a model", (test) => {
  for (const [label, options] of [
    ["JSON.parse", {}],
    ["a repairer", { repairer: repairJson }],
    ["the partial parser", { partialParser: IncrementalJsonParser, repairer: repairJson }],
  ] as const)
    test(`a call's arguments of such names are an invalid-tool-call, never parsed (${label})`, async () => {
      let events: ToolCallEvent[] = [];
      assertEquals(await parsedLongNames(() => (events = callEvents(LONG, options))), 0, "texts parsed");
      const end = events.find((event) => event.type === "invalid-tool-call" || event.type === "tool-call");
      assert(end?.type === "invalid-tool-call", `an invalid call: ${end?.type}`);
      assertEquals(end.rawArguments, LONG);
      assertEquals(end.error, {
        code: "long-member-name",
        message: "The tool arguments have a member name longer than 16383 characters (at offset 7).",
        position: 7,
      });
      // The live value never held the name either (the partial parser stops at it).
      for (const event of events)
        if (event.type === "tool-call-delta" && event.partialArguments)
          assert(!JSON.stringify(event.partialArguments).includes(name("a")), "a partial value holds the name");
    });

  test("the same text as string values is a call as before", () => {
    const text = `{"a":"${name("a")}","b":["${name("b")}"]}`;
    for (const options of [{}, { partialParser: IncrementalJsonParser }]) {
      const end = callEvents(text, options).find((event) => event.type === "tool-call");
      assertEquals(end?.type === "tool-call" && end.arguments, { a: name("a"), b: [name("b")] });
    }
  });

  test("the partial parser stops at such a name, with its own reason", () => {
    const parser = new IncrementalJsonParser();
    parser.feed(LONG);
    // At the quote that ends the name (V8 interns every key set on an object: see the module).
    assertEquals(parser.failure, { reason: "long-member-name", offset: 7 + 16_401 });
    assertEquals(parser.value, { a: 1 });
  });

  test("a payload reads each such name as the reserved key, a count apart; values and short names as sent", () => {
    const escaped = `\\u006b${"k".repeat(16_399)}`; // 16,400 characters once read
    const text = `{"${name("a")}":{"${escaped}":"${name("v")}","b":2},"c":["${name("s")}"],"${name("b")}" : 3}`;
    assertEquals(parseJsonText(text), {
      [`${LONG_MEMBER_NAME_KEY}1`]: { [`${LONG_MEMBER_NAME_KEY}2`]: name("v"), b: 2 },
      c: [name("s")],
      [`${LONG_MEMBER_NAME_KEY}3`]: 3,
    });
    assertEquals(LONG_MEMBER_NAME_KEY.charCodeAt(0), 0);
  });
});
