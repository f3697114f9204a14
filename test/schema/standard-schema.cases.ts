import { z } from "zod";
import { schemasByName, standardJsonSchema, toolSchemaValidator, type StandardSchemaV1 } from "../../src/index.ts";
import { describeIssue, isStandardSchema, validateStandard } from "../../src/schema/standard-schema.ts";
import { assert, assertEquals, group } from "../support/harness.ts";
import { asyncWeather, syncWeather } from "../support/validators.ts";

const weather = z.object({
  city: z.string().min(1),
  unit: z.enum(["c", "f"]).default("c"),
  days: z.coerce.number().int().optional(),
});

group("Standard Schema validators", (test) => {
  test("zod 4: the output has the defaults and coercions applied, synchronously", () => {
    assertEquals(validateStandard(weather, { city: "Paris", days: "3" }), {
      ok: true,
      value: { city: "Paris", unit: "c", days: 3 },
    });
  });

  test("zod 4: each issue is a readable reason that starts with its path", () => {
    const outcome = validateStandard(z.object({ items: z.array(z.object({ qty: z.number() })) }), {
      items: [{ qty: 1 }, { qty: "two" }],
    });
    assert(!(outcome instanceof Promise) && !outcome.ok, "rejected");
    assertEquals(outcome.issues.length, 1);
    assert(outcome.issues[0]!.startsWith("$.items[1].qty: "), outcome.issues[0]);
    assert(outcome.issues[0]!.includes("expected number"), "the library's own message follows the path");
  });

  test("a hand-written validator, sync and async, gives the same outcome", async () => {
    for (const schema of [syncWeather(), asyncWeather()]) {
      const good = validateStandard(schema, { city: "Oslo", days: "2" });
      const bad = validateStandard(schema, { city: "", unit: "k", stops: [{ name: "a" }, {}] });
      assertEquals(await good, { ok: true, value: { city: "Oslo", unit: "c", days: 2 } });
      assertEquals(await bad, {
        ok: false,
        issues: ["$.city: Expected a city name", "$.unit: Expected c or f", "$.stops[1].name: Expected a name"],
      });
    }
    assert(validateStandard(asyncWeather(), {}) instanceof Promise, "an async validator gives a promise");
    assert(!(validateStandard(syncWeather(), {}) instanceof Promise), "a sync one does not");
  });

  test("paths: indexes in brackets, identifiers after a dot, other keys quoted, the root alone", () => {
    const path = (segments: StandardSchemaV1.Issue["path"]): string => describeIssue({ message: "m", path: segments });
    assertEquals(path(["a", 0, { key: "b_1" }, { key: 2 }]), "$.a[0].b_1[2]: m");
    assertEquals(path(["odd key", "$ok", "1x"]), '$["odd key"].$ok["1x"]: m');
    assertEquals(path([Symbol("s")]), '$["Symbol(s)"]: m');
    assertEquals(path(undefined), "$: m");
    assertEquals(path([]), "$: m");
  });

  test("a validator that throws, rejects or answers nonsense rejects the call without its error text", async () => {
    const failing = (validate: StandardSchemaV1["~standard"]["validate"]): StandardSchemaV1 => ({
      "~standard": { version: 1, vendor: "x", validate },
    });
    const secret = "password=hunter2";
    const outcomes = [
      validateStandard(
        failing(() => {
          throw new Error(secret);
        }),
        {},
      ),
      await validateStandard(
        failing(() => Promise.reject(new Error(secret))),
        {},
      ),
      validateStandard(
        failing(() => null as never),
        {},
      ),
      validateStandard(
        failing(() => ({ issues: [] })),
        {},
      ),
    ];
    for (const outcome of outcomes) {
      assert(!(outcome instanceof Promise) && !outcome.ok && outcome.issues.length === 1, JSON.stringify(outcome));
      assert(!outcome.issues[0]!.includes("hunter2"), "no error text");
    }
  });

  test("isStandardSchema: zod and hand-written validators are; JSON Schemas and look-alikes are not", () => {
    assert(isStandardSchema(weather) && isStandardSchema(syncWeather()), "validators");
    for (const value of [
      { type: "object" },
      null,
      "x",
      { "~standard": { version: 2, validate: () => ({}) } },
      { "~standard": { version: 1 } },
    ])
      assert(!isStandardSchema(value), JSON.stringify(value));
  });
});

group("Standard JSON Schema", (test) => {
  test("zod 4 gives the draft-07 JSON Schema of its input, without $schema: a default makes a property optional", () => {
    const schema = standardJsonSchema(weather);
    assert(schema !== undefined && !("$schema" in schema), "a schema without $schema");
    assertEquals(schema["type"], "object");
    assertEquals(schema["required"], ["city"]);
    assertEquals((schema["properties"] as Record<string, unknown>)["unit"], {
      default: "c",
      type: "string",
      enum: ["c", "f"],
    });
    assert(standardJsonSchema(weather) === schema, "computed once per validator");
  });

  test("no JSON Schema: a type JSON Schema cannot express, a validator without the interface, not a validator", () => {
    assertEquals(standardJsonSchema(z.object({ when: z.date() })), undefined);
    assertEquals(standardJsonSchema(z.map(z.string(), z.number())), undefined);
    assertEquals(
      standardJsonSchema(z.string().transform((s) => s.length)),
      { type: "string" },
      "a transform has the JSON Schema of its input",
    );
    assertEquals(standardJsonSchema(syncWeather()), undefined);
    assertEquals(standardJsonSchema({ type: "object" }), undefined);
    assertEquals(standardJsonSchema(undefined), undefined);
  });

  test("schemasByName gives a validator tool the JSON Schema of its validator, for early checks and requests", () => {
    const schemas = schemasByName([
      { name: "get_weather", schema: weather },
      { name: "hand", schema: syncWeather() },
      { type: "function", function: { name: "f", parameters: { type: "object" } } },
    ]);
    assertEquals([...schemas.keys()], ["get_weather", "f"]);
    assertEquals(schemas.get("get_weather")?.required, ["city"]);
  });

  test("toolSchemaValidator leaves a validator tool to its validator (which may accept what its JSON Schema does not) and still rejects unknown names", () => {
    const validate = toolSchemaValidator([{ name: "get_weather", schema: weather }]);
    assertEquals(
      validate("get_weather", { city: "Paris", days: "3" }),
      undefined,
      "zod coerces the string; its JSON Schema says integer",
    );
    assertEquals(validate("get_time", {}), ["get_time is not one of the request's tools"]);
  });
});
