// The scripted model (worker/upstream/replay/scripted/) with tools nobody in this repository
// wrote: schemas with unique enum lists, recursive `$ref`s, `minProperties` over
// `additionalProperties`, `if`/`then`/`else`, number enums, formats the prompt gives, and prompts
// in other languages. Each call's arguments are checked with the library's checker, formats
// asserted; each was a tool not called, or a value not the prompt's, before.
import { describe, expect, it } from "vitest";
import { checkToolArguments, type ToolSchema } from "../../src/index.ts";
import { demoTools } from "../../worker/demo-tools/index.ts";
import {
  type OfferedTool,
  planCalls,
  type ScriptedToolChoice,
} from "../../worker/upstream/replay/scripted/tool-plan.ts";

const NOW = Date.UTC(2026, 11, 2, 9, 30);
const object = (properties: object, extra: object = {}) => ({
  type: "object",
  properties,
  required: Object.keys(properties),
  ...extra,
});

/** A tool as a client declares it (its schema any object). */
type Tool = { name: string; parameters?: object };

/** The calls for a prompt, each checked against its tool's schema. */
function plan(prompt: string, tools: Tool[], choice: ScriptedToolChoice = { type: "auto" }) {
  const calls = planCalls(prompt, tools as OfferedTool[], choice, NOW);
  for (const call of calls) {
    const tool = tools.find((t) => t.name === call.name);
    expect(tool, call.name).toBeDefined();
    const schema = (tool!.parameters ?? { type: "object" }) as ToolSchema;
    expect(checkToolArguments(call.arguments, schema, { assertFormats: true }), JSON.stringify(call)).toEqual([]);
  }
  return calls.map((call) => [call.name, call.arguments]);
}

const addProduct: Tool = {
  name: "add_product",
  parameters: object({
    sku: { type: "string", pattern: "^SKU-\\d{4}$", examples: ["SKU-0001"] },
    tags: { type: "array", items: { enum: ["new", "sale", "eco"] }, minItems: 2, uniqueItems: true },
  }),
};

describe("schemas the scripted model could not fill before", () => {
  it("writes distinct values of an enum for a list of unique items, and takes the ones the prompt names", () => {
    expect(plan("Add product SKU-1234", [addProduct])).toEqual([
      ["add_product", { sku: "SKU-1234", tags: ["new", "sale"] }],
    ]);
    expect(plan("Add product SKU-1234 tagged eco and sale", [addProduct])).toEqual([
      ["add_product", { sku: "SKU-1234", tags: ["eco", "sale"] }],
    ]);
  });

  it("writes the fewest items of a list of what is being written (a tree), so a recursive $ref ends", () => {
    const orgChart = {
      name: "org_chart",
      parameters: {
        type: "object",
        definitions: {
          node: object({ name: { type: "string" }, reports: { type: "array", items: { $ref: "#/definitions/node" } } }),
        },
        properties: { root: { $ref: "#/definitions/node" } },
        required: ["root"],
      },
    };
    expect(plan("Save an org chart with Ada at the top", [orgChart])).toEqual([
      ["org_chart", { root: { name: "Ada", reports: [] } }],
    ]);
  });

  it("adds properties up to minProperties where additionalProperties, patternProperties or propertyNames take them", () => {
    const setEnv = {
      name: "set_env",
      parameters: object({
        vars: {
          type: "object",
          propertyNames: { pattern: "^[A-Z_]+$" },
          additionalProperties: { type: "string" },
          minProperties: 1,
        },
      }),
    };
    const [[, args]] = plan("Set env var DEBUG to 1", [setEnv]) as [[string, { vars: object }]];
    expect(Object.keys(args.vars)).toEqual(["DEBUG"]);
    const labels = {
      name: "set_labels",
      parameters: object({
        labels: { type: "object", patternProperties: { "^x-[a-z]+$": { type: "integer" } }, minProperties: 2 },
      }),
    };
    expect(plan("go", [labels], { type: "required" })).toHaveLength(1);
  });

  it("takes the branch of an anyOf the prompt gives a value of (a Unix time, not a date-time of now)", () => {
    const reminder = {
      name: "set_reminder",
      parameters: object({
        text: { type: "string" },
        at: { anyOf: [{ type: "string", format: "date-time" }, { type: "integer" }] },
      }),
    };
    expect(plan("Set a reminder to stretch at 1767225600", [reminder])[0]![1]).toMatchObject({ at: 1767225600 });
    expect(plan("Set a reminder to stretch at 2026-12-24", [reminder])[0]![1]).toMatchObject({
      at: "2026-12-24T00:00:00Z",
    });
  });

  it("reads if/then/else as two branches", () => {
    const shipping = {
      name: "set_shipping",
      parameters: {
        ...object({ country: { enum: ["US", "CA"] }, zip: { type: "string" } }),
        if: { properties: { country: { const: "US" } } },
        then: { properties: { zip: { pattern: "^\\d{5}$" } } },
        else: { properties: { zip: { pattern: "^[A-Z]\\d[A-Z] \\d[A-Z]\\d$" } } },
      },
    };
    expect(plan("Ship to US zip 94105", [shipping], { type: "required" })).toEqual([
      ["set_shipping", { country: "US", zip: "94105" }],
    ]);
    expect(plan("ok", [shipping], { type: "tool", name: "set_shipping" })).toHaveLength(1);
  });

  it("takes a number enum's value the prompt says, and any format's value from the prompt's tokens", () => {
    const level = { name: "set_level", parameters: object({ level: { type: "integer", enum: [1, 2, 3] } }) };
    expect(plan("Set level 2", [level])).toEqual([["set_level", { level: 2 }]]);
    const device = {
      name: "register-device",
      parameters: object({ ip: { type: "string", format: "ipv4" }, host: { type: "string", format: "hostname" } }),
    };
    expect(plan("Register the device at 10.0.0.7 as db1.internal.example", [device])).toEqual([
      ["register-device", { ip: "10.0.0.7", host: "db1.internal.example" }],
    ]);
  });

  it("writes a time and a date-time from the prompt's clock times and dates", () => {
    const alarm = { name: "set_alarm", parameters: object({ at: { type: "string", format: "time" } }) };
    expect(plan("Set an alarm for 07:15", [alarm])).toEqual([["set_alarm", { at: "07:15:00Z" }]]);
    const meeting = {
      name: "schedule_meeting",
      parameters: object({ start: { type: "string", format: "date-time" } }),
    };
    expect(plan("Schedule a meeting on 2026-12-24 at 19:30", [meeting])).toEqual([
      ["schedule_meeting", { start: "2026-12-24T19:30:00Z" }],
    ]);
  });

  it("prefers a token with a sign or a digit for a pattern (`@octocat`, not `the`)", () => {
    const profile = {
      name: "getUserProfile",
      parameters: object({ username: { type: "string", pattern: "^@?[a-z0-9_]{3,15}$" } }),
    };
    expect(plan("Show me the profile of @octocat", [profile])).toEqual([["getUserProfile", { username: "@octocat" }]]);
  });
});

describe("which tool a prompt calls, beyond its name", () => {
  const tools: Tool[] = [
    { name: "get_weather", parameters: object({ city: { type: "string" } }) },
    { name: "get_stock_price", parameters: object({ symbol: { type: "string", pattern: "^[A-Z]{1,5}$" } }) },
    { name: "translate", parameters: object({ text: { type: "string" }, target_lang: { enum: ["en", "de"] } }) },
  ];

  it("calls the tool whose property's name says what the prompt holds, in any language (a place for `city`)", () => {
    expect(plan("Wie ist das Wetter in Berlin?", tools)).toEqual([["get_weather", { city: "Berlin" }]]);
    expect(plan("Quel temps fait-il à Paris ?", tools)).toEqual([["get_weather", { city: "Paris" }]]);
  });

  it("reads a value nested in a required object's oneOf branch: a const the prompt says, a pattern it matches", () => {
    const payment = {
      name: "set_payment",
      parameters: object({
        method: {
          oneOf: [
            object(
              { kind: { const: "card" }, last4: { type: "string", pattern: "^\\d{4}$" } },
              { additionalProperties: false },
            ),
            object({ kind: { const: "iban" }, iban: { type: "string", pattern: "^[A-Z]{2}\\d{2}[A-Z0-9]{11,30}$" } }),
          ],
        },
      }),
    };
    expect(plan("Pay with my card ending 4242", [payment])).toEqual([
      ["set_payment", { method: { kind: "card", last4: "4242" } }],
    ]);
  });

  it("with a call required, calls the first tool whose arguments can be written when the first cannot", () => {
    const impossible = {
      name: "impossible",
      parameters: object({ x: { type: "string", minLength: 5, maxLength: 2 } }),
    };
    expect(plan("hi", [impossible, ...tools], { type: "required" })).toEqual([["get_weather", { city: "example" }]]);
    expect(plan("hi", [impossible], { type: "required" })).toEqual([]);
  });

  it("reads no enum value in a word any sentence has, and names no tool apart by a word of a chosen one", () => {
    const demo = Object.entries(demoTools()).map(([name, tool]) => ({ name, parameters: tool.parameters as object }));
    // "in" (inches) of convert_units' units is the preposition here: nothing to convert.
    expect(plan("Wie spät ist es in Tokio?", demo)).toEqual([]);
    // "unit" names unit_table, which the prompt asks for; convert_units is not asked for too.
    expect(plan("a unit table from kg to lb for 1, 5 and 10", demo)).toEqual([
      ["unit_table", { from: "kg", to: "lb", values: [1, 5, 10] }],
    ]);
  });

  it("calls a tool once per value the prompt lists for its property (parallel calls), not for two properties", () => {
    const city = { name: "get_weather", parameters: object({ city: { type: "string" } }) };
    expect(plan("What's the weather in Paris and in Rome?", [city])).toEqual([
      ["get_weather", { city: "Paris" }],
      ["get_weather", { city: "Rome" }],
    ]);
    expect(plan("Wie ist das Wetter in Berlin und München?", [city])).toHaveLength(2);
    const order = {
      name: "lookup_order",
      parameters: object({ order_id: { type: "string", pattern: "^ORD-[0-9]+$" } }),
    };
    expect(plan("Where are my orders ORD-1, ORD-2 and ORD-3?", [order]).map(([, args]) => args)).toEqual([
      { order_id: "ORD-1" },
      { order_id: "ORD-2" },
      { order_id: "ORD-3" },
    ]);
    const flights = {
      name: "search_flights",
      parameters: object({ origin: { type: "string" }, destination: { type: "string" } }),
    };
    expect(plan("Flights from Lisbon to Oslo", [flights])).toEqual([
      ["search_flights", { origin: "Lisbon", destination: "Oslo" }],
    ]);
  });

  it("takes a repository's owner and name from `owner/repo`, and calls a tool named by generic words only", () => {
    const issue = {
      name: "create_issue",
      parameters: object({ owner: { type: "string" }, repo: { type: "string" }, title: { type: "string" } }),
    };
    expect(plan("Open an issue in octocat/hello-world titled 'Crash on start'", [issue])).toEqual([
      ["create_issue", { owner: "octocat", repo: "hello-world", title: "Crash on start" }],
    ]);
    const query = {
      name: "run_query",
      description: "Run a read-only SQL query",
      parameters: object({ sql: { type: "string" } }),
    };
    expect(plan("Run the query SELECT 1", [query])).toHaveLength(1);
  });

  it("takes a move's source and destination from the prompt's paths, and a trip's from its places", () => {
    const move = {
      name: "move_file",
      parameters: object({ source: { type: "string" }, destination: { type: "string" } }),
    };
    expect(plan("Move notes.txt to archive/notes.txt", [move])).toEqual([
      ["move_file", { source: "notes.txt", destination: "archive/notes.txt" }],
    ]);
    const trip = {
      name: "plan_trip",
      parameters: object({ origin: { type: "string" }, destination: { type: "string" } }),
    };
    expect(plan("Plan a trip from Lisbon to Oslo", [trip])).toEqual([
      ["plan_trip", { origin: "Lisbon", destination: "Oslo" }],
    ]);
  });
});

describe("schemas whose references never end, or cannot be read", () => {
  it("an allOf that names the schema it is in, and a pointer with a malformed escape, give a call, never a crash", () => {
    const city = { city: { type: "string" } };
    for (const parameters of [
      { type: "object", allOf: [{ $ref: "#" }], properties: city, required: ["city"] },
      { type: "object", properties: { city: { $ref: "#/$defs/a" } }, $defs: { a: { allOf: [{ $ref: "#/$defs/a" }] } } },
      { type: "object", properties: { city: { $ref: "#/$defs/%E0" } }, $defs: { a: {} } },
    ])
      expect(plan("What's the weather in Paris?", [{ name: "get_weather", parameters }], { type: "required" })).toEqual(
        [["get_weather", { city: "Paris" }]],
      );
  });
});
