// A member name repeated in one object (`{"a":"x","a":1}`): the early check reads the text and
// saw the first value, `JSON.parse` keeps the last. Both checks reject it, wherever it is, so the
// early check never flags (or, with abortOnViolation, cancels) a call the final check accepts.
import fc from "fast-check";
import type { JsonValue, ProviderDelta, ToolCallEvent, ToolDefinition, ToolSchema } from "../../src/index.ts";
import { checkToolArguments, earlySchemaValidator, IncrementalJsonParser } from "../../src/index.ts";
import { repairJson, ToolCallAccumulator, toolSchemaValidator } from "../../src/index.ts";
import { repeatedName } from "../../src/json/repeated-name.ts";
import { SchemaWatcher } from "../../src/schema/schema-watcher.ts";
import { assert, assertEquals, group } from "../support/harness.ts";
import { fragmentsOf } from "../support/schema-arbitraries.ts";

const INTEGER_A: ToolSchema = { type: "object", properties: { a: { type: "integer" } } };

/** One call of tool `f` through the accumulator with both checks and repair, its arguments in `fragments`. */
function accumulate(schema: ToolSchema, fragments: readonly string[], abortOnViolation = false): ToolCallEvent[] {
  const tools: ToolDefinition[] = [{ name: "f", parameters: schema }];
  const events: ToolCallEvent[] = [];
  const accumulator = new ToolCallAccumulator((event) => events.push(event), {
    validator: toolSchemaValidator(tools),
    earlyValidator: earlySchemaValidator(tools, { abortOnViolation }),
    repairer: repairJson,
  });
  const deltas: ProviderDelta[] = fragments.map((argumentsDelta, i) => ({
    type: "tool-call-chunk",
    index: 0,
    argumentsDelta,
    ...(i === 0 ? { id: "call_f", name: "f" } : {}),
  }));
  for (const delta of [...deltas, { type: "finish", rawReason: "tool_calls" } as const]) accumulator.push(delta);
  accumulator.end();
  return events.filter((event) => event.type !== "tool-call-delta");
}

/** The early violation's path, and the final check's issues (none: the call was accepted). */
function verdicts(events: ToolCallEvent[]): { early: string | undefined; final: readonly string[] } {
  const violation = events.find((event) => event.type === "tool-call-violation");
  const invalid = events.find((event) => event.type === "invalid-tool-call");
  return {
    early: violation?.type === "tool-call-violation" ? violation.error.path : undefined,
    final: invalid?.type === "invalid-tool-call" ? (invalid.error.issues ?? [invalid.error.code]) : [],
  };
}

// Texts built directly (JSON.stringify never repeats a name), from few names, so objects often repeat one.
const text: fc.Memo<string> = fc.memo((depth) => {
  const leaf = fc.constantFrom("1", '"x"', "null", "2.5", "[]", "{}");
  if (depth <= 1) return leaf;
  const members = fc.array(fc.tuple(fc.constantFrom("a", "b", "\\u0061"), text(depth - 1)), { maxLength: 4 });
  return fc.oneof(
    leaf,
    members.map((list) => `{${list.map(([key, value]) => `"${key}":${value}`).join(",")}}`),
    fc.array(text(depth - 1), { maxLength: 3 }).map((items) => `[${items.join(",")}]`),
  );
});
const schemas = fc.constantFrom<ToolSchema>(
  INTEGER_A,
  { type: "object", properties: { a: { type: "object", properties: { b: { type: "string" } } } } },
  { type: "array", items: { type: "object", additionalProperties: false, properties: { a: {} } } },
  {
    anyOf: [
      { type: "object", required: ["b"] },
      { type: "array", maxItems: 1 },
    ],
  } as ToolSchema,
);

group("A member name repeated in one object: both checks reject it", (test) => {
  test('{"a":"x","a":1} against an integer a: the early violation is the final verdict, never a cancelled valid call', () => {
    const text = '{"a":"x","a":1}';
    for (const fragments of [[text], fragmentsOf(text, [], true), ['{"a":"x",', '"a":1}']]) {
      const events = accumulate(INTEGER_A, fragments);
      // It was: a violation at /a ("x"), then a tool-call of {a: 1}.
      assertEquals(
        events.map((event) => event.type),
        ["tool-call-start", "tool-call-violation", "invalid-tool-call", "finish"],
      );
      const { final } = verdicts(events);
      assertEquals(final, ["$.a is a property name its object already has"]);
    }
    // Repaired (a single-quoted key after them): the names the early check read are the final check's too.
    const repaired = accumulate(INTEGER_A, ['{"a":1,"a":2,', " 'b': 3}"]);
    assertEquals(verdicts(repaired), { early: "/a", final: ["$.a is a property name its object already has"] });
    const aborted = accumulate(INTEGER_A, ['{"a":"x",', '"a":1}'], true);
    assertEquals(
      aborted.map((event) => event.type),
      ["tool-call-start", "tool-call-violation", "abort"],
    );
  });

  test("a repeated name is a violation wherever it is, the values valid or not, escaped or not", () => {
    const cases: [ToolSchema, string, string, string][] = [
      [INTEGER_A, '{"a":1,"a":2}', "/a", "$.a"],
      [{ type: "object" }, '{"x":[{"k":1},{"k":1,"\\u006b":2}]}', "/x/1/k", "$.x[1].k"],
      [{ type: "object", properties: { x: {} } }, '{"x":{"a/b":{},"b":0,"a/b":[]}}', "/x/a~1b", "$.x.a/b"],
      [true as unknown as ToolSchema, '[{"a":1},{"a":{"a":0,"a":0}}]', "/1/a/a", "$[1].a.a"],
    ];
    for (const [schema, text, pointer, path] of cases) {
      for (const fragments of [[text], fragmentsOf(text, [], true)]) {
        const { early, final } = verdicts(accumulate(schema, fragments));
        assertEquals(early, pointer, text);
        assertEquals(final[0], `${path} is a property name its object already has`, text);
      }
    }
    // The same name in two objects, and names alike but not equal, are not repeated.
    for (const text of ['{"a":{"a":1},"b":[{"a":1},{"a":2}]}', '{"a":1,"A":2,"a ":3,"\\"a":4}', '{"s":"\\",\\"s\\":"}'])
      assertEquals(verdicts(accumulate({ type: "object" }, fragmentsOf(text, [], true))), {
        early: undefined,
        final: [],
      });
  });

  test("checkToolArguments given the text reports it; given the value alone, reads the value", () => {
    const text = '{"a":"x","a":1}';
    const value = JSON.parse(text) as JsonValue;
    assertEquals(checkToolArguments(value, INTEGER_A), []);
    assertEquals(checkToolArguments(value, INTEGER_A, { text }), ["$.a is a property name its object already has"]);
    assertEquals(checkToolArguments({ a: 1 }, INTEGER_A, { text: '{"a": 1}' }), []);
  });

  test("repeatedName reads JSON as far as it is JSON: strings hold no names, a single quote ends it", () => {
    assertEquals(repeatedName('{"list":[{"a":1},{"a":2,"\\u0061":3}]}'), ["list", 1, "a"]);
    assertEquals(repeatedName('{"a":"{\\"a\\":1,\\"a\\":2}","b":["a","a"]}'), undefined);
    assertEquals(repeatedName('[1,[2,{"a":[]}],{"b":true,"c":null,"b":-1e3}]'), [2, "b"]);
    assertEquals(
      repeatedName("{'k': '\"b\":1, \"b\":2'}"),
      undefined,
      "text a repair rewrites is not read past its quote",
    );
    assertEquals(repeatedName('{"a":1,"a'), undefined, "cut short: no name repeated yet");
    assertEquals(repeatedName('{"a":1,"a":2,'), ["a"]);
  });

  test("generated JSON with repeated names, split anywhere: an early violation is always a final issue", () => {
    let repeated = 0;
    fc.assert(
      fc.property(schemas, text(4), fc.array(fc.nat(), { maxLength: 8 }), (schema, json, cuts) => {
        const watcher = new SchemaWatcher(schema);
        const parser = new IncrementalJsonParser({ listener: watcher });
        for (const fragment of fragmentsOf(json, cuts)) parser.feed(fragment);
        const issues = checkToolArguments(JSON.parse(json) as JsonValue, schema, { text: json });
        const at = repeatedName(json);
        if (at) repeated++;
        if (watcher.violation)
          assert(issues.length > 0, `early ${JSON.stringify(watcher.violation)}, final accepts ${json}`);
        // A repeated name is found by both, and it is the early check's first violation when no other came before.
        if (at) assert(issues.length > 0 && watcher.violation !== undefined, `${json}: both reject it`);
      }),
      { seed: 7, numRuns: 3000 },
    );
    assert(repeated > 300, `repeated names generated often enough to prove something (${repeated})`);
  });

  test("a tool given by a validator: no early violation for a name repeated, as its validator judges the last value", () => {
    // Its validator (not the JSON Schema checks) judges the final value, which holds the last: the
    // early check flagged the repeat, and with abortOnViolation cancelled a call the validator accepts.
    const schema = {
      "~standard": {
        version: 1,
        vendor: "test",
        validate: (value: unknown) => ({ value }),
        jsonSchema: { input: () => INTEGER_A, output: () => INTEGER_A },
      },
    };
    for (const abortOnViolation of [false, true]) {
      const tools = [{ name: "f", schema }] as unknown as ToolDefinition[];
      const events: ToolCallEvent[] = [];
      const accumulator = new ToolCallAccumulator((event) => events.push(event), {
        validator: toolSchemaValidator(tools),
        earlyValidator: earlySchemaValidator(tools, { abortOnViolation }),
      });
      accumulator.push({ type: "tool-call-chunk", index: 0, id: "c", name: "f", argumentsDelta: '{"a":1,"a":2}' });
      accumulator.push({ type: "finish", rawReason: "tool_calls" });
      accumulator.end();
      const kinds = events.filter((event) => event.type !== "tool-call-delta").map((event) => event.type);
      assertEquals(kinds, ["tool-call-start", "tool-call", "finish"], `abortOnViolation ${abortOnViolation}`);
    }
  });
});

group("A member name repeated in arguments a repair rewrites: both checks read the repaired text", (test) => {
  test("in a code fence, single-quoted, unquoted, beside Python literals: the final check rejects it", () => {
    // Each was a tool-call of {a: 1}: the name scan read the text as it came, and stopped at its
    // first character JSON never holds outside a string (the fence, the quote, the bare key).
    for (const text of [
      '```json\n{"a":"x","a":1}\n```',
      "{'a':'x','a':1}",
      '{a:"x",a:1}',
      '{"b":True,"a":"x","a":1}',
      '{"a":"x","a":1,}',
    ]) {
      const events = accumulate(INTEGER_A, fragmentsOf(text, [], true));
      assertEquals(verdicts(events).final, ["$.a is a property name its object already has"], text);
    }
  });

  test("JSON up to a bare key: the early violation of the first value is the final verdict too", () => {
    // It was: a violation at /a ("x", read before the bare key), then a tool-call of {a: 1, b: 1}.
    const text = '{"a":"x", b:1, "a":1}';
    for (const fragments of [[text], fragmentsOf(text, [], true)])
      assertEquals(verdicts(accumulate(INTEGER_A, fragments)), {
        early: "/a",
        final: ["$.a is a property name its object already has"],
      });
  });
});

group("Repaired arguments with repeated names: the checks agree, split anywhere", (test) => {
  test("generated JSON made not strict (fence, quotes, bare keys, trailing commas, Python): the verdict is the JSON's", () => {
    // Each mistake a repair undoes, applied to JSON whose objects often repeat a name.
    const mistakes: [string, (json: string) => string][] = [
      ["bare keys", (json) => json.replace(/"([ab])":/g, "$1:")],
      ["single quotes", (json) => json.replaceAll('"', "'")],
      ["trailing commas", (json) => json.replace(/[}\]]/g, ",$&")],
      ["Python", (json) => json.replaceAll("null", "None")],
      ["code fence", (json) => `\`\`\`json\n${json}\n\`\`\``],
    ];
    let repaired = 0;
    fc.assert(
      fc.property(
        schemas,
        text(4),
        fc.subarray(mistakes, { minLength: 1 }),
        fc.array(fc.nat(), { maxLength: 6 }),
        (schema, json, made, cuts) => {
          const given = made.reduce((out, [, mistake]) => mistake(out), json);
          const events = accumulate(schema, fragmentsOf(given, cuts));
          const { early, final } = verdicts(events);
          const call = events.find((event) => event.type === "tool-call");
          if (call) repaired++;
          const why = `${made.map(([name]) => name).join(", ")}: ${given}`;
          // The verdict of the JSON itself: what a repair undid changes nothing.
          const expected = checkToolArguments(JSON.parse(json) as JsonValue, schema, { text: json });
          assertEquals(final, expected, why);
          if (early !== undefined) assert(final.length > 0, `early ${early}, final accepts ${why}`);
          if (call?.type === "tool-call") assertEquals(call.arguments, JSON.parse(json), why);
        },
      ),
      { seed: 11, numRuns: 600 },
    );
    assert(repaired > 50, `calls repaired and accepted often enough to prove something (${repaired})`);
  });
});
