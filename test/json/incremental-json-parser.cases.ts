import fc from "fast-check";
import { IncrementalJsonParser, jsonErrorPosition, type JsonValue } from "../../src/index.ts";
import { NUMBER_PREFIX, numberFailureOffset } from "../../src/json/json-grammar.ts";
import { assert, assertEquals, deepEqual, group } from "../support/harness.ts";

/** Every JSON value shape: escapes, surrogate pairs, exponents, nesting, hostile keys, non-ASCII. */
const CORPUS = [
  "{}",
  "[]",
  '""',
  "0",
  "-0",
  "1.5e+10",
  "-2E-3",
  "true",
  "false",
  "null",
  '{"a":1}',
  ' { "a" : [ 1 , 2 ] , "b" : { } } ',
  '[1,2,[3,{"x":null}],[],{}]',
  '"esc \\" \\\\ \\/ \\b \\f \\n \\r \\t \\u00e9 \\ud83d\\ude00"',
  '{"杭州":"市","emoji":"😀","e":[true,false,null,0,1.5,-2E-3,123456789012]}',
  '{"__proto__":{"polluted":1},"constructor":{"prototype":2}}',
  '{"a":{"a":{"a":{"a":{"a":{"a":{"a":{"a":[[[[[[["deep"]]]]]]]}}}}}}}}',
  '{"dup":1,"dup":2}',
];

function parse(parts: readonly string[]): IncrementalJsonParser {
  const parser = new IncrementalJsonParser();
  for (const part of parts) parser.feed(part);
  parser.end();
  return parser;
}

/** A partial value only grows toward the final one: every member seen is in the final value. */
function growsInto(partial: JsonValue | undefined, final: JsonValue): boolean {
  if (partial === undefined) return true;
  if (typeof partial === "string") return typeof final === "string" && final.startsWith(partial);
  if (typeof partial === "number") return typeof final === "number";
  if (Array.isArray(partial))
    return (
      Array.isArray(final) && partial.length <= final.length && partial.every((item, i) => growsInto(item, final[i]!))
    );
  if (partial !== null && typeof partial === "object") {
    return (
      final !== null &&
      typeof final === "object" &&
      !Array.isArray(final) &&
      Object.keys(partial).every((key) => Object.hasOwn(final, key) && growsInto(partial[key], final[key]!))
    );
  }
  return partial === final;
}

group("IncrementalJsonParser", (test) => {
  test("every two-way split of every corpus document parses to what JSON.parse gives", () => {
    for (const text of CORPUS) {
      const expected = JSON.parse(text) as JsonValue;
      for (let cut = 0; cut <= text.length; cut++) {
        const parser = parse([text.slice(0, cut), text.slice(cut)]);
        assert(parser.isComplete, `${text} split at ${cut} is complete`);
        assertEquals(parser.value, expected, `${text} split at ${cut}`);
      }
    }
  });

  test("random splits give the same value, and every partial value grows into the final one", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...CORPUS, JSON.stringify({ list: [1, "two", { three: [3.5e3] }], text: "x".repeat(50) })),
        fc.array(fc.nat(), { maxLength: 12 }),
        (text, cuts) => {
          const offsets = [...new Set(cuts.map((c) => c % (text.length + 1)))].sort((a, b) => a - b);
          const parser = new IncrementalJsonParser();
          const final = JSON.parse(text) as JsonValue;
          let start = 0;
          for (const offset of [...offsets, text.length]) {
            parser.feed(text.slice(start, offset));
            start = offset;
            assert(growsInto(parser.value, final), `partial of ${text} at ${offset} grows into the final value`);
          }
          parser.end();
          assertEquals(parser.value, final);
        },
      ),
      { seed: 11, numRuns: 150 },
    );
  });

  test("arbitrary JSON values round-trip in random fragments (fast-check)", () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 4 }), fc.array(fc.nat(), { maxLength: 8 }), (value, cuts) => {
        const text = JSON.stringify(value);
        const offsets = [...new Set(cuts.map((c) => c % (text.length + 1)))].sort((a, b) => a - b);
        const parts = [...offsets, text.length].map((end, i, all) => text.slice(i === 0 ? 0 : all[i - 1], end));
        const parser = parse(parts);
        assert(parser.isComplete, "complete");
        assert(deepEqual(parser.value, JSON.parse(text)), `round trip of ${text}`);
      }),
      { seed: 12, numRuns: 200 },
    );
  });

  test('shows a string\'s partial content: {"city": "杭 fills in', () => {
    const parser = new IncrementalJsonParser();
    parser.feed('{"city": "杭');
    assertEquals(parser.value, { city: "杭" });
    parser.feed('州", "n": [1, 2');
    assertEquals(parser.value, { city: "杭州", n: [1, 2] });
    assert(!parser.isComplete, "not complete before the brace");
    parser.feed("]}");
    assert(parser.isComplete, "complete at the closing brace");
  });

  test("knows the exact character that closes the value", () => {
    const text = '{"a": [1, {"b": "}"}]}';
    const parser = new IncrementalJsonParser();
    for (let i = 0; i < text.length; i++) {
      parser.feed(text[i]!);
      assertEquals(parser.isComplete, i === text.length - 1, `after character ${i}`);
    }
  });

  test("rejects what JSON.parse rejects, at the first bad character", () => {
    for (const [text, offset] of [
      ['{"a":1,}', 7],
      ["[1,]", 3],
      ["{'a':1}", 1],
      ['{"a" 1}', 5],
      ["01", 1],
      ["[1 2]", 3],
      ['{"a":tru}', 8],
      ['"\u0001"', 1],
      ["-", 1],
      ["1.", 2],
    ] as const) {
      const parser = parse([text]);
      assert(!parser.isComplete, `${text} is rejected`);
      assertEquals(parser.failure?.offset ?? parser.offset, offset, `${text} fails at ${offset}`);
    }
  });

  test("bytes after the closed value are trailing data", () => {
    const parser = parse(['{"a":1} ', '{"b":2}']);
    assertEquals(parser.failure, { reason: "trailing-data", offset: 8 });
  });

  test("__proto__, constructor and prototype keys are own properties and touch no prototype", () => {
    const value = parse(['{"__proto__": {"polluted": true}, "constructor": {"prototype": {"x": 1}}}']).value as Record<
      string,
      unknown
    >;
    assert(Object.hasOwn(value, "__proto__"), "__proto__ is own");
    assertEquals(Object.getPrototypeOf(value), Object.prototype);
    assert(({} as Record<string, unknown>)["polluted"] === undefined, "Object.prototype untouched");
    assertEquals(JSON.stringify(value), '{"__proto__":{"polluted":true},"constructor":{"prototype":{"x":1}}}');
  });

  test("nesting past maxDepth is a clear too-deep failure", () => {
    const parser = new IncrementalJsonParser({ maxDepth: 3 });
    parser.feed("[[[[1]]]]");
    assertEquals(parser.failure, { reason: "too-deep", offset: 3 });
  });

  test("jsonErrorPosition, a scan that builds nothing, gives the parser's offset on any text (JSON cut, spliced and corrupted)", () => {
    const pieces = [
      "{",
      "}",
      "[",
      "]",
      ",",
      ":",
      '"',
      "\\",
      "\\u00g",
      "\\x",
      "u",
      "01",
      "-",
      ".",
      "e",
      "+",
      " ",
      "\n",
      "\u0001",
    ];
    const words = ["tru", "trux", "true", "nul", "fals", "1.5e3", "-0", "T", "x", "é", '"k":'];
    const text = fc
      .tuple(
        fc.json(),
        fc.array(fc.tuple(fc.nat(), fc.constantFrom(...pieces, ...words, ""), fc.boolean()), { maxLength: 3 }),
      )
      .map(([json, edits]) =>
        edits.reduce((t, [at, piece, cut]) => {
          const i = at % (t.length + 1);
          return cut ? t.slice(0, i) + piece : t.slice(0, i) + piece + t.slice(i + 1);
        }, json),
      );
    fc.assert(
      fc.property(text, (t) => {
        const parser = new IncrementalJsonParser({ maxDepth: Number.POSITIVE_INFINITY });
        parser.feed(t);
        assertEquals(jsonErrorPosition(t), parser.failure?.offset ?? t.length, JSON.stringify(t));
      }),
      { numRuns: 3000 },
    );
  });

  test("a number that is not JSON fails at its first bad character in one match, not one pattern test per prefix", () => {
    // The definition: the first prefix no number may start with.
    const reference = (token: string, at: number): number => {
      let valid = 1;
      while (valid <= token.length && NUMBER_PREFIX.test(token.slice(0, valid))) valid++;
      return valid <= token.length ? at - token.length + valid - 1 : at;
    };
    const token = fc.stringMatching(/^[-+.eE0-9a-z]{0,12}$/);
    fc.assert(
      fc.property(token, fc.nat(99), (word, extra) => {
        assertEquals(numberFailureOffset(word, word.length + extra), reference(word, word.length + extra), word);
      }),
      { seed: 62, numRuns: 2000 },
    );
    // Pattern calls counted, not timed: testing each prefix of 20,000 digits was 20,000 tests (quadratic work).
    const calls = { count: 0 };
    const { test: realTest, exec: realExec } = RegExp.prototype;
    RegExp.prototype.test = function (this: RegExp, input: string) {
      calls.count++;
      return realTest.call(this, input);
    };
    RegExp.prototype.exec = function (this: RegExp, input: string) {
      calls.count++;
      return realExec.call(this, input);
    };
    const parser = new IncrementalJsonParser();
    try {
      parser.feed(`{"a": ${"1".repeat(20_000)}e}`);
    } finally {
      RegExp.prototype.test = realTest;
      RegExp.prototype.exec = realExec;
    }
    assertEquals(parser.failure, { reason: "invalid-json", offset: 20_007 });
    assert(calls.count < 10, `${calls.count} pattern calls`);
  });
  test("value after every fragment of a long number reads it again only when it has doubled", () => {
    // A reviewer's probe: each read tested the whole number token against NUMBER_PREFIX, so a
    // value read per delta (partialArguments) over a 20,000-digit number was quadratic work.
    // Characters handed to patterns counted, not timed.
    const read = { characters: 0 };
    const realTest = RegExp.prototype.test;
    RegExp.prototype.test = function (this: RegExp, input: string) {
      read.characters += String(input).length;
      return realTest.call(this, input);
    };
    const parser = new IncrementalJsonParser();
    const seen: JsonValue[] = [];
    try {
      parser.feed('{"a": ');
      for (let i = 0; i < 20_000; i++) {
        parser.feed("1");
        if (i === 9 || i === 99 || i === 125) seen.push((parser.value as { a: number }).a);
        else void parser.value;
      }
      parser.feed("}");
    } finally {
      RegExp.prototype.test = realTest;
    }
    // At 100 digits, as read at 63; at 126 (twice 63), read again.
    assertEquals(seen, [1_111_111_111, Number("1".repeat(63)), Number("1".repeat(126))]);
    assertEquals(parser.value, { a: Number("1".repeat(20_000)) });
    assert(read.characters < 200_000, `${read.characters} characters tested for 20,000 fed`);
    // A new number is read afresh, however long the one before.
    const next = new IncrementalJsonParser();
    next.feed(`[${"2".repeat(300)}`);
    void next.value;
    next.feed(`, ${"3".repeat(100)}`);
    assertEquals(next.value, [Number("2".repeat(300)), Number("3".repeat(100))]);
  });
});
