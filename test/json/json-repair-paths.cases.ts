// Each repair the docs promise, checked where users meet it: through `streamToolCalls` (repair on
// by default) and the low-level accumulator with `repairer: repairJson`, with the arguments split
// into fragments anywhere, with and without partial values. The repair's own cases are in
// json-repair-and-schema.cases.ts.
import fc from "fast-check";
import {
  repairJson,
  streamToolCalls,
  ToolCallAccumulatorStream,
  type StreamToolCallsOptions,
  type ToolCallEvent,
} from "../../src/index.ts";
import { assert, assertEquals, group } from "../support/harness.ts";
import { bytes, chatChunk, collect, fromChunks, openAISSE } from "../support/streams.ts";

/** Each step: the arguments as a model wrote them, the value and the repairs reported. */
const STEPS: [string, unknown, string[]][] = [
  ['```json\n{"city": "Paris"}\n```', { city: "Paris" }, ["code-fence"]],
  ['```\n{"a": [1, 2,]}\n```\n', { a: [1, 2] }, ["code-fence", "trailing-commas"]],
  ['{"ok": True, "no": False, "x": None}', { ok: true, no: false, x: null }, ["python-literals"]],
  ["{'city': 'Paris'}", { city: "Paris" }, ["single-quotes"]],
  // A bracket in a single-quoted string looks like the end of the value to a scan that knows only `"`.
  ["{'q': 'a } and a ]'}", { q: "a } and a ]" }, ["single-quotes"]],
  ["[{'q': ']'}]", [{ q: "]" }], ["single-quotes"]],
  ["{'say': '\"\"'}", { say: '""' }, ["single-quotes"]],
  ['{city: "Paris"}', { city: "Paris" }, ["unquoted-keys"]],
  ['{"a": [1, 2,],}', { a: [1, 2] }, ["trailing-commas"]],
  ['{"city": "Par', { city: "Par" }, ["truncated"]],
];

/** The arguments split at `cuts` (taken modulo their length) into Chat Completions chunks, then a normal finish. */
function chunked(args: string, cuts: readonly number[]): Uint8Array {
  const at = [...new Set(cuts.map((cut) => cut % args.length))].filter((cut) => cut > 0).sort((a, b) => a - b);
  const pieces = [0, ...at].map((from, i) => args.slice(from, at[i] ?? args.length));
  const first = { index: 0, id: "c1", type: "function" };
  const payloads = pieces.map((piece, i) =>
    chatChunk({
      tool_calls: [{ ...(i === 0 && first), function: { ...(i === 0 && { name: "f" }), arguments: piece } }],
    }),
  );
  return bytes(openAISSE([...payloads, chatChunk({}, "tool_calls")]));
}

/** The call `streamToolCalls` (main entry, OpenAI) ends with. */
async function final(body: Uint8Array, options: Partial<StreamToolCallsOptions> = {}): Promise<ToolCallEvent> {
  const events = await collect(streamToolCalls(fromChunks([body]), { provider: "openai", ...options }));
  const call = events.find((e) => e.type === "tool-call" || e.type === "invalid-tool-call");
  assert(call !== undefined, "the call completes");
  return call;
}

/** The call the low-level accumulator ends with, given the arguments in `pieces`. */
async function accumulated(pieces: readonly string[], repair: boolean): Promise<ToolCallEvent | undefined> {
  const deltas = [
    ...pieces.map((argumentsDelta, i) => ({
      type: "tool-call-chunk" as const,
      index: 0,
      ...(i === 0 && { id: "c1", name: "f" }),
      argumentsDelta,
    })),
    { type: "finish" as const, rawReason: "tool_calls" },
  ];
  const stream = fromChunks(deltas).pipeThrough(new ToolCallAccumulatorStream(repair ? { repairer: repairJson } : {}));
  return (await collect(stream)).find((e) => e.type === "tool-call" || e.type === "invalid-tool-call");
}

group("JSON repair on the accumulator path", (test) => {
  test("double quotes in a single-quoted string are escaped, however many and wherever they stand", () => {
    const cases: [string, string][] = [
      ["''", ""],
      ["'\"'", '"'],
      ["'\"\"'", '""'],
      ['\'"""\'', '"""'],
      ["'\"x'", '"x'],
      ["'x\"'", 'x"'],
      ['\'"x""\'', '"x""'],
      ["'it\\'s \"q\"'", 'it\'s "q"'],
      ["'\\'\"\\''", "'\"'"],
      // An escaped backslash before a quote escapes nothing; an escaped double quote stays one.
      ["'a\\\\\"b'", 'a\\"b'],
      ["'\\\"'", '"'],
      ["'\\n\"\"\\t'", '\n""\t'],
    ];
    for (const [quoted, value] of cases) {
      assertEquals(
        repairJson(`{'a': ${quoted}}`, { closeTruncated: false }),
        { ok: true, value: { a: value }, repairs: ["single-quotes"], text: `{"a": ${JSON.stringify(value)}}` },
        quoted,
      );
    }
  });

  test("each documented repair applies through streamToolCalls, however the arguments are chunked", async () => {
    for (const [args, value, repairs] of STEPS) {
      await fc.assert(
        fc.asyncProperty(fc.array(fc.nat(), { maxLength: 6 }), fc.boolean(), async (cuts, partialArguments) => {
          const call = await final(chunked(args, cuts), { partialArguments });
          assertEquals(call.type === "tool-call" && [call.arguments, call.repairs], [value, repairs], args);
        }),
        { seed: 56, numRuns: 8 },
      );
    }
  });

  test("each documented repair applies through the accumulator with repairer: repairJson, fragment by fragment", async () => {
    for (const [args, value, repairs] of STEPS) {
      const call = await accumulated([...args], true);
      assertEquals(call?.type === "tool-call" && [call.arguments, call.repairs], [value, repairs], args);
    }
  });

  test("without repair a fenced argument stays invalid, its raw text kept", async () => {
    const args = '```json\n{"city": "Paris"}\n```';
    // Not JSON from its first character, as the parser says: no value was closed before it.
    for (const partialArguments of [false, true]) {
      const call = await final(chunked(args, [4, 12]), { repair: false, partialArguments });
      assert(call?.type === "invalid-tool-call", "invalid");
      assertEquals([call.error.code, call.error.position, call.rawArguments], ["invalid-json", 0, args]);
    }
    // The low-level stage without plug-ins: no value closed before the closing fence either, and no position.
    const call = await accumulated([args], false);
    assert(call?.type === "invalid-tool-call", "invalid");
    assertEquals([call.error.code, call.error.position], ["invalid-json", undefined]);
  });

  test("a fence the model never closed is repaired as a closed one is; a value cut short in it only after a normal finish", async () => {
    for (const args of ['```json\n{"city": "Paris"}', '```json\n{"city": "Paris"}\n', '  ```\n{"city": "Paris"}  ']) {
      for (const partialArguments of [false, true]) {
        const call = await final(chunked(args, [5, 11]), { partialArguments });
        assertEquals(
          call.type === "tool-call" && [call.arguments, call.repairs],
          [{ city: "Paris" }, ["code-fence"]],
          args,
        );
      }
    }
    assertEquals(repairJson('```json\n{"city": "Par', { closeTruncated: true }), {
      ok: true,
      value: { city: "Par" },
      repairs: ["code-fence", "truncated"],
      text: '{"city": "Par"}',
    });
    assertEquals(repairJson('```json\n{"city": "Par', { closeTruncated: false }), {
      ok: false,
      code: "invalid-json",
      position: 0,
    });
  });

  test("a repair that would nest past the user's maxDepth is too-deep on both paths, where the parser of the repaired text stops", async () => {
    for (const [args, position] of [
      ["{'a': [[[1]]]}", 8],
      ['```json\n{"a": [[[1]]]}\n```', 16],
      ['```json\n{"a": [[[1]]]}', 16],
    ] as const) {
      for (const partialArguments of [false, true]) {
        const call = await final(chunked(args, [3]), { maxDepth: 3, partialArguments });
        assert(call.type === "invalid-tool-call", `${args}: invalid`);
        assertEquals([call.error.code, call.error.position], ["too-deep", position], args);
      }
    }
  });

  test("bytes after a closed value that no repair makes one value stay trailing-data with repair on", async () => {
    for (const [args, position] of [
      ['{"a": 1} {"b": 2}', 9],
      ['{"a": 1}\n```', 9],
      ["{'a': 1} x", 9],
      ["{a: 1}\n{b: 2}", 7],
    ] as const) {
      for (const partialArguments of [false, true]) {
        const call = await final(chunked(args, [3]), { partialArguments });
        assert(call.type === "invalid-tool-call", args);
        assertEquals([call.error.code, call.error.position], ["trailing-data", position], args);
      }
    }
  });

  test("a fenced value nested past maxDepth is too-deep with repair on: the repair never goes past the limit", async () => {
    const call = await final(chunked('```json\n{"a": [[[1]]]}\n```', [9]), { maxDepth: 3 });
    assert(call.type === "invalid-tool-call", "invalid");
    assertEquals([call.error.code, call.error.position], ["too-deep", 16]);
  });
  test("a string cut short is closed whatever escape it ends in, through streamToolCalls too", async () => {
    const cases: [string, string][] = [
      ['"C:\\\\Users\\\\', "C:\\Users\\"],
      ['"x\\\\\\\\', "x\\\\"],
      // An escape cut in two: a lone backslash is kept as one, a `\u` short of its digits is left out.
      ['"x\\', "x\\"],
      ['"x\\\\\\', "x\\\\"],
      ['"x\\u00', "x"],
      ['"x\\u', "x"],
      ['"x\\\\u00', "x\\u00"],
      ["'x\\\\", "x\\"],
    ];
    for (const [cut, value] of cases) {
      assertEquals(
        repairJson(`{"a": ${cut}`, { closeTruncated: true }),
        {
          ok: true,
          value: { a: value },
          repairs: cut.startsWith("'") ? ["single-quotes", "truncated"] : ["truncated"],
          text: `{"a": ${JSON.stringify(value)}}`,
        },
        cut,
      );
    }
    const call = await final(chunked('{"path": "C:\\\\Users\\\\', [11]));
    assertEquals(call.type === "tool-call" && [call.arguments, call.repairs], [{ path: "C:\\Users\\" }, ["truncated"]]);
  });
});
