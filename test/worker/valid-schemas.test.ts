// A tool schema the isolate found valid is not checked again when a later request resends it (an
// agent resends its tools every turn): kept by its exact JSON text, bounded in entries and text,
// never for a schema with patterns (their check counts them into the request's budget). What a
// request is answered must not change: these requests go through the parser one after another, in
// the one isolate that keeps the schemas.
import { describe, expect, it } from "vitest";
import { HttpError } from "../../worker/response/json-error.ts";
import { parseStreamRequest } from "../../worker/request/parse-stream-request.ts";
import { schemaKey, ValidSchemas } from "../../worker/request/valid-schemas.ts";
import { providerNames } from "../../worker/upstream/providers/index.ts";
import { validBody } from "./support.ts";

/** The field of the 400 a body with these tools' schemas is refused with, or `undefined` when it parses. */
function refusedField(...schemas: Record<string, unknown>[]): string | undefined {
  const tools = schemas.map((parameters, i) => ({ name: `tool_${i}`, parameters }));
  try {
    parseStreamRequest(validBody({ tools }), providerNames);
    return undefined;
  } catch (error) {
    if (!(error instanceof HttpError)) throw error;
    return error.body.field;
  }
}

describe("a valid tool schema kept by the isolate", () => {
  it("keeps the answers: a schema sent again passes, a broken one is refused every time", () => {
    const valid = { type: "object", properties: { city: { type: "string", enum: ["Paris"] } } };
    for (let turn = 0; turn < 3; turn++) expect(refusedField(valid)).toBeUndefined();
    // The same schema with one value changed deep inside: its own check, its own 400.
    const broken = { type: "object", properties: { city: { type: "string", enum: "Paris" } } };
    for (let turn = 0; turn < 3; turn++) expect(refusedField(broken)).toBe("tools[0].parameters.properties.city.enum");
    expect(refusedField(valid, broken)).toBe("tools[1].parameters.properties.city.enum");
  });

  it("keeps a request's pattern budget: schemas with patterns are checked, and counted, every time", () => {
    // 40 Unicode property escapes each: one passes alone, two in one request are past its 64.
    const letters = { type: "object", properties: { a: { type: "string", pattern: "\\p{L}".repeat(40) } } };
    const digits = { type: "object", properties: { b: { type: "string", pattern: "\\p{N}".repeat(40) } } };
    expect(refusedField(letters)).toBeUndefined();
    expect(refusedField(digits)).toBeUndefined();
    // A store that kept these two (each passed above) would pass the pair.
    expect(refusedField(letters, digits)).toBe("tools[1].parameters.properties.b.pattern");
  });

  it("is keyed by the whole JSON text, never by a schema with a pattern", () => {
    expect(schemaKey({ type: "object", required: ["a"] })).toBe('{"type":"object","required":["a"]}');
    expect(schemaKey({ type: "object", required: ["a"] })).not.toBe(schemaKey({ type: "object", required: ["b"] }));
    expect(schemaKey({ properties: { a: { pattern: "^x" } } })).toBeUndefined();
    expect(schemaKey({ patternProperties: { "^x": {} } })).toBeUndefined();
    // A property named so, or a description that says it: not kept either (the test is on the text).
    expect(schemaKey({ properties: { pattern: { type: "string" } } })).toBeUndefined();
  });

  it("holds at most so many schemas and so much text, the least recently seen dropped first", () => {
    const valid = new ValidSchemas(3, 20, 10);
    valid.add("aaaaaaaaaaa"); // longer than 10: not kept
    expect(valid.size).toBe(0);
    valid.add("a");
    valid.add("b");
    valid.add("c");
    expect(valid.has("a")).toBe(true); // now the most recent: "b" is the oldest
    valid.add("d");
    expect([valid.has("a"), valid.has("b"), valid.has("c"), valid.has("d")]).toEqual([true, false, true, true]);
    expect(valid.size).toBe(3);
    // Past the text in all: the oldest go until it fits.
    const text = new ValidSchemas(10, 20, 10);
    for (const kept of ["aaaaa", "bbbbb", "ccccc"]) text.add(kept);
    text.add("dddddddddd");
    expect(text.chars).toBe(20);
    expect([text.has("aaaaa"), text.has("bbbbb"), text.has("ccccc"), text.has("dddddddddd")]).toEqual([
      false,
      true,
      true,
      true,
    ]);
  });

  it("keeps no text V8 would hash by its length alone (past 16,383 characters)", () => {
    // Such keys of one length are each compared with all the others at a look-up.
    const valid = new ValidSchemas();
    valid.add("a".repeat(16_383));
    valid.add("b".repeat(16_384));
    expect([valid.has("a".repeat(16_383)), valid.has("b".repeat(16_384))]).toEqual([true, false]);
  });
});
