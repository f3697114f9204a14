// The scripted model's work on a client's schema is bounded by the schema's size, not by the
// number of paths through it: `allOf` parts and required properties that name one `$def` several
// times, nested, are each read a bounded number of times. Counted as `$ref`s followed.
import { afterEach, describe, expect, it, vi } from "vitest";
import { promptFits } from "../../worker/upstream/replay/scripted/arguments/prompt-fit.ts";
import { readValues } from "../../worker/upstream/replay/scripted/arguments/prompt-values.ts";
import { Filler } from "../../worker/upstream/replay/scripted/arguments/schema-fill.ts";
import { SchemaReader } from "../../worker/upstream/replay/scripted/arguments/schema-parts.ts";
import { planCalls } from "../../worker/upstream/replay/scripted/tool-plan.ts";

afterEach(() => vi.restoreAllMocks());

describe("scripted model: work on a schema's repeated $refs", () => {
  it("resolves an allOf whose parts name their own $def once per allOf, not once per path", () => {
    const pointer = vi.spyOn(SchemaReader.prototype, "pointer");
    const parts = [{ $ref: "#/$defs/a" }, { $ref: "#/$defs/a" }];
    const root = { $defs: { a: { type: "object", allOf: parts } }, $ref: "#/$defs/a" };
    const resolved = new SchemaReader(root).resolve(root);
    expect(resolved["type"]).toBe("object");
    // 2^17 before (and 3^17, a minute of CPU, with a third part).
    expect(pointer.mock.calls.length).toBeLessThan(20);
  });

  it("reads a bounded number of required properties whose $refs repeat one object", () => {
    const pointer = vi.spyOn(SchemaReader.prototype, "pointer");
    const required = Array.from({ length: 12 }, (_, i) => `p${i}`);
    const properties = Object.fromEntries(required.map((key) => [key, { $ref: "#/$defs/a" }]));
    const a = { type: "object", required, properties };
    expect(promptFits({ ...a, $defs: { a } }, readValues("hello world"))).toBe(false);
    // 12^5 paths before.
    expect(pointer.mock.calls.length).toBeLessThan(1000);
  });

  it("still finds a fit nested in a $ref", () => {
    const a = { type: "object", required: ["code"], properties: { code: { type: "string", pattern: "^ORD-\\d+$" } } };
    const parameters = {
      type: "object",
      required: ["order"],
      properties: { order: { $ref: "#/$defs/a" } },
      $defs: { a },
    };
    expect(promptFits(parameters, readValues("Where is ORD-1234?"))).toBe(true);
  });

  it("writes each tool's arguments once when a call is required and none could be written", () => {
    const value = vi.spyOn(Filler.prototype, "value");
    // Named by the prompt, so picked first, then tried again by the required call: its two
    // strings' bounds leave nothing to write.
    const impossible = {
      name: "lookup_order",
      parameters: {
        type: "object",
        properties: { x: { type: "string", minLength: 5, maxLength: 2 } },
        required: ["x"],
      },
    };
    expect(planCalls("Look up my order", [impossible], { type: "required" })).toEqual([]);
    // Two tries (from the prompt, then from the schema alone), each starting at the root; 6 before.
    expect(value.mock.calls.filter(([, key, depth]) => key === undefined && depth === 0)).toHaveLength(2);
  });
});
