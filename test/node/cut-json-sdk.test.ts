// wholeOfCutJson against @anthropic-ai/sdk's own reading of a cut `partial_json` (the partial JSON
// parser its MessageStream gives a tool_use's `input` from): on every prefix of JSON texts of
// every shape, the same value, and `undefined` where the SDK's parser throws (nothing whole yet).
import { partialParse } from "@anthropic-ai/sdk/_vendor/partial-json-parser/parser";
import { describe, expect, it } from "vitest";
import { jsonErrorPosition } from "../../src/index.ts";
import { wholeOfCutJson } from "../../src/json/cut-json.ts";

const TEXTS = [
  '{"a":true,"b":{"c":[1,2.5e3,"x\\"y\\u00e9\\\\",null,false],"d":{}},"e":"f","g":-0.5,"h":[{"i":1},[]]}',
  ' { "city" : "杭州" , "days" : [ 1 , 2 ] , "units" : null , "ok" : false } ',
  '{"filename": "taxes.txt", "lines_of_text": [\n"# GUIDE",\n"",\n"## W-2s"]}',
  '[{"a":[[[]]]},"😀",-1E+2,true]',
];

describe("wholeOfCutJson reads a cut JSON text as @anthropic-ai/sdk does", () => {
  for (const text of TEXTS)
    it(JSON.stringify(text.slice(0, 24)), () => {
      for (let end = 0; end < text.length; end++) {
        const cut = text.slice(0, end);
        expect(jsonErrorPosition(cut)).toBe(cut.length);
        let sdk: unknown;
        try {
          sdk = partialParse(cut);
        } catch {
          sdk = undefined;
        }
        expect([cut, wholeOfCutJson(cut)]).toEqual([cut, sdk]);
      }
    });
});
