// A model's arguments (or a provider's payload) with member names past 16,383 characters are never
// parsed: V8 hashes such a name by its length alone and interns every member name, whether
// `JSON.parse` reads it or a parser sets it on an object, and the names stay in the isolate's one
// string table until a full collection, so each call of them costs the next more, another
// client's too (src/shared/long-member-name.ts). The call is an `invalid-tool-call` of code
// `long-member-name`, its raw text kept; a payload holding one is a `malformed-payload`, skipped.
import {
  IncrementalJsonParser,
  repairJson,
  streamToolCalls,
  ToolCallAccumulator,
  type ToolCallAccumulatorOptions,
  type ToolCallEvent,
} from "../../src/index.ts";
import { pushCall } from "../support/accumulator-runs.ts";
import { assert, assertEquals, group } from "../support/harness.ts";
import { bytes, collect, fromChunks } from "../support/streams.ts";

const name = (end: string): string => `${"k".repeat(16_399)}${end}`;
/** An object of two names of 16,400 characters, alike but for their ends. */
const LONG = `{"a":1,"${name("a")}":1,"${name("b")}":2}`;

/** The texts holding a name past 16,383 characters `run` gives `JSON.parse`. */
async function parsedLongNames(run: () => unknown): Promise<number> {
  const parse = JSON.parse;
  let seen = 0;
  JSON.parse = (text: string, reviver?: Parameters<typeof parse>[1]) => {
    if (typeof text === "string" && text.includes(name("a"))) seen++;
    return parse(text, reviver);
  };
  try {
    await run();
  } finally {
    JSON.parse = parse;
  }
  return seen;
}

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

  test("a provider payload holding such a name is skipped as malformed, never parsed", async () => {
    const call = { functionCall: { name: "t", args: { a: 1, [name("a")]: 1, [name("b")]: 2 } } };
    const chunk = { candidates: [{ content: { role: "model", parts: [call] }, index: 0 }] };
    const done = { candidates: [{ content: { role: "model", parts: [{ text: "" }] }, finishReason: "STOP" }] };
    const text = { candidates: [{ content: { role: "model", parts: [{ text: "Calling." }] }, index: 0 }] };
    // A first event that tells the protocol (detection parses events too, and would not know this one).
    const body = [text, chunk, done].map((event) => `data: ${JSON.stringify(event)}\r\n\r\n`).join("");
    for (const provider of ["gemini", undefined] as const) {
      let events: { type: string; error?: { code: string } }[] = [];
      const run = async () => (events = await collect(streamToolCalls(fromChunks([bytes(body)]), { provider })));
      assertEquals(await parsedLongNames(run), 0, `${provider}: payloads parsed`);
      assert(!events.some((event) => event.type === "tool-call"), `${provider}: a call`);
      assertEquals(
        events.filter((event) => event.type === "error").map((event) => event.error?.code),
        ["malformed-payload"],
      );
    }
  });
});
