// A model's arguments (or a provider's payload) with member names past 16,383 characters are never
// parsed: V8 hashes such a name by its length alone and interns every member name, whether
// `JSON.parse` reads it or a parser sets it on an object, and the names stay in the isolate's one
// string table until a full collection, so each call of them costs the next more, another
// client's too (src/shared/long-member-name.ts). The call is an `invalid-tool-call` of code
// `long-member-name`, its raw text kept; a payload holding one is read with a long name of ours in its
// place (test/pipeline/long-member-name-payloads.cases.ts).
import {
  IncrementalJsonParser,
  repairJson,
  ToolCallAccumulator,
  type ToolCallAccumulatorOptions,
  ToolCallEventDecoder,
  type ToolCallEvent,
} from "../../src/index.ts";
import { longMemberName, longMemberNameKey, parseJsonText } from "../../src/shared/long-member-name.ts";
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

  test("a short name a model writes as stop 70's reserved key is a call as any other", () => {
    // "\u0000long-member-name1": stop 70's key in place of a long name, which a model can write too.
    const text = `{"\\u0000long-member-name1":1,"a":2}`;
    for (const options of [{}, { partialParser: IncrementalJsonParser }]) {
      const end = callEvents(text, options).find((event) => event.type.endsWith("tool-call"));
      assertEquals(end?.type === "tool-call" && end.arguments, { "\u0000long-member-name1": 1, a: 2 });
    }
  });

  test("a frame of the library's own events with such a name is skipped, its error naming the cause", () => {
    const events: ToolCallEvent[] = [];
    const decoder = new ToolCallEventDecoder((event) => void events.push(event));
    decoder.push({ event: "tool-call", data: `{"type":"tool-call","arguments":${LONG}}` });
    decoder.push({ event: "tool-call", data: '{"type":"tool-call","arguments":{}' });
    assertEquals(
      events.map((event) => event.type === "error" && event.error.message),
      [
        'A "tool-call" event has a member name longer than 16383 characters; it was skipped.',
        `A "tool-call" event does not carry that event's data; it was skipped.`,
      ],
    );
  });

  test("longMemberName skims: JSON's own long stretches are no name, a long name of any characters is", () => {
    const numbers = Array.from({ length: 5_000 }, (_, i) => i);
    // A stretch longer than a name's limit without a quote, then a string beginning with a colon.
    assertEquals(longMemberName(JSON.stringify({ a: numbers, b: ": x" })), undefined);
    assertEquals(longMemberName(JSON.stringify([numbers, ":", { c: 1 }], null, 1)), undefined);
    for (const long of ["1".repeat(16_400), ",1:[".repeat(4_100), '"'.repeat(16_400), `${"k".repeat(16_399)}\\`])
      assertEquals(longMemberName(JSON.stringify([numbers, { [long]: 1 }])), JSON.stringify([numbers]).length + 1);
    assertEquals(longMemberName(JSON.stringify({ a: "v".repeat(40_000), b: 1 })), undefined);
  });

  test("the partial parser stops at such a name, with its own reason", () => {
    const parser = new IncrementalJsonParser();
    parser.feed(LONG);
    // At the quote that ends the name (V8 interns every key set on an object: see the module).
    assertEquals(parser.failure, { reason: "long-member-name", offset: 7 + 16_401 });
    assertEquals(parser.value, { a: 1 });
  });

  test("a payload reads each such name as a long name of its own, one length per count; values and short names as sent", () => {
    const escaped = `\\u006b${"k".repeat(16_399)}`; // 16,400 characters once read
    const text = `{"${name("a")}":{"${escaped}":"${name("v")}","b":2},"c":["${name("s")}"],"${name("b")}" : 3}`;
    assertEquals(parseJsonText(text), {
      [longMemberNameKey(1)]: { [longMemberNameKey(2)]: name("v"), b: 2 },
      c: [name("s")],
      [longMemberNameKey(3)]: 3,
    });
    assertEquals(
      [1, 2, 3].map((count) => longMemberNameKey(count).length),
      [16_384, 16_385, 16_386],
    );
    // One of those a provider wrote is itself replaced: no name it writes is taken for one of ours.
    assertEquals(parseJsonText(`{"${longMemberNameKey(2)}":1,"${longMemberNameKey(1)}":2}`), {
      [longMemberNameKey(1)]: 1,
      [longMemberNameKey(2)]: 2,
    });
  });

  test("a payload whose long name is not a JSON string (a raw line feed, a bad escape) is refused as JSON.parse refuses it", () => {
    for (const bad of ["\n", "\\x", "\t"]) {
      const text = `{"${"k".repeat(16_384)}${bad}":1,"a":2}`;
      let refused = false;
      try {
        parseJsonText(text);
      } catch (error) {
        refused = error instanceof SyntaxError;
      }
      assert(refused, `${JSON.stringify(bad)} in a long name`);
    }
  });
});
