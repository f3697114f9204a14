import { wholeOfCutJson } from "../../src/json/cut-json.ts";
import { assertEquals, group } from "../support/harness.ts";

group("wholeOfCutJson: the whole part of a JSON text cut short", (test) => {
  test("the value the cut ends in is left out with its member; the containers open are closed", () => {
    assertEquals(wholeOfCutJson('{"city":"Paris","days":[1,2'), { city: "Paris", days: [1] });
    assertEquals(wholeOfCutJson('{"city":"Par'), {});
    assertEquals(wholeOfCutJson('{"que'), {});
    assertEquals(wholeOfCutJson('{"a":"x","b":'), { a: "x" });
    assertEquals(wholeOfCutJson('{"a":{"b":1'), { a: {} });
    assertEquals(wholeOfCutJson('{"a":[{"b":2},{"c'), { a: [{ b: 2 }, {}] });
  });

  test("a number at the end may go on (left out), a literal there is whole; white space ends a number", () => {
    assertEquals(wholeOfCutJson('{"n":12'), {});
    assertEquals(wholeOfCutJson('{"n":12 '), { n: 12 });
    assertEquals(wholeOfCutJson('{"t":true'), { t: true });
    assertEquals(wholeOfCutJson('{"t":tru'), {});
  });

  test("an escaped quote does not end a string; nothing whole is undefined", () => {
    assertEquals(wholeOfCutJson('{"q":"say \\"hi\\"","r":"a\\"'), { q: 'say "hi"' });
    assertEquals(wholeOfCutJson(""), undefined);
    assertEquals(wholeOfCutJson('"abc'), undefined);
  });
});
