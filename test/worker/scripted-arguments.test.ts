// The scripted model's arguments (worker/upstream/replay/scripted/arguments/): for any schema the
// library's checker reads, values it accepts, taken from the prompt where they fit; and which of
// the request's tools a prompt calls (worker/upstream/replay/scripted/tool-plan.ts).
import { describe, expect, it } from "vitest";
import { checkToolArguments, type JsonValue, type ToolSchema } from "../../src/index.ts";
import { samplePattern } from "../../worker/upstream/replay/scripted/arguments/pattern-sample.ts";
import { readValues } from "../../worker/upstream/replay/scripted/arguments/prompt-values.ts";
import { fillArguments } from "../../worker/upstream/replay/scripted/arguments/schema-fill.ts";
import { planCalls } from "../../worker/upstream/replay/scripted/tool-plan.ts";
import { readTranscript } from "../../worker/upstream/replay/scripted/transcript.ts";

const NOW = Date.UTC(2026, 11, 2, 9, 30);
const valid = (value: JsonValue, schema: object) =>
  expect(checkToolArguments(value, schema as ToolSchema, { assertFormats: true })).toEqual([]);
const fill = (prompt: string, schema: object) => {
  const args = fillArguments(schema as JsonValue, readValues(prompt), NOW);
  expect(args).toBeDefined();
  valid(args!, schema);
  return args!;
};

describe("a sample of a simple pattern, written from the pattern", () => {
  it("matches the pattern, for literals, classes, escapes, groups, alternation and quantifiers", () => {
    for (const pattern of [
      "^ORD-[0-9]+$",
      "^[A-Z]{3}-\\d{2,4}$",
      "^(foo|bar)+baz?$",
      "[^abc]x\\.y",
      "^(?:[a-z0-9]+\\.)*example\\.com$",
      "^(?<year>\\d{4})-(?<month>0[1-9]|1[0-2])$",
      "^\\w+@\\w+\\.[a-z]{2,}$",
      "^[\\u0041-\\u005A]{2}\\s?\\d*$",
      "^#[0-9a-fA-F]{6}$",
    ]) {
      const sample = samplePattern(pattern);
      expect(sample, pattern).toBeDefined();
      expect(new RegExp(pattern, "u").test(sample!), `${pattern}: ${sample}`).toBe(true);
    }
    expect(samplePattern("^ORD-[0-9]+$")).toBe("ORD-1");
  });

  it("has none for what it does not read (lookarounds, back-references, property escapes), or an unbalanced pattern", () => {
    for (const pattern of ["(?=a)b", "(a)\\1", "^\\p{L}+$", "[]"])
      expect(samplePattern(pattern), pattern).toBeUndefined();
    expect(samplePattern("(ab")).toBeUndefined();
    expect(samplePattern("ab)")).toBeUndefined();
    expect([samplePattern("^SKU-\\d+$"), samplePattern("^SKU-\\d+$", 1), samplePattern("^a{2,3}$", 5)]).toEqual([
      "SKU-1",
      "SKU-11",
      "aaa",
    ]);
    expect(samplePattern("(?=a)b")).toBeUndefined();
    expect(samplePattern("(a)\\1")).toBeUndefined();
    expect(samplePattern("x".repeat(1_001))).toBeUndefined();
  });
});

describe("arguments filled from a schema and a prompt", () => {
  it("takes the prompt's values where they fit: a token its pattern matches, a place, an enum value, numbers", () => {
    expect(
      fill("Where is my order ORD-1234?", {
        type: "object",
        properties: { order_id: { type: "string", pattern: "^ORD-[0-9]+$" } },
        required: ["order_id"],
      }),
    ).toEqual({ order_id: "ORD-1234" });
    expect(
      fill("weather in paris, in fahrenheit", {
        type: "object",
        properties: { city: { type: "string" }, unit: { enum: ["celsius", "fahrenheit"] } },
        required: ["city"],
      }),
    ).toEqual({ city: "Paris", unit: "fahrenheit" });
    expect(
      fill("Flights from Lisbon to Oslo for 3 people", {
        type: "object",
        properties: { origin: { type: "string" }, destination: { type: "string" }, count: { type: "integer" } },
        required: ["origin", "destination"],
      }),
    ).toEqual({ origin: "Lisbon", destination: "Oslo", count: 3 });
  });

  it("else uses const, default, examples, formats and pattern samples, within every bound", () => {
    const schema = {
      type: "object",
      additionalProperties: false,
      properties: {
        version: { const: 2 },
        unit: { type: "string", default: "metric" },
        tag: { type: "string", examples: ["alpha"], minLength: 3 },
        when: { type: "string", format: "date-time" },
        day: { type: "string", format: "date" },
        mail: { type: "string", format: "email" },
        site: { type: "string", format: "uri" },
        id: { type: "string", format: "uuid" },
        code: { type: "string", pattern: "^[A-Z]{2}\\d{3}$" },
        ratio: { type: "number", exclusiveMinimum: 0, maximum: 1 },
        step: { type: "integer", minimum: 10, multipleOf: 5 },
        ok: { type: "boolean" },
        nothing: { type: "null" },
      },
      required: [
        "version",
        "unit",
        "tag",
        "when",
        "day",
        "mail",
        "site",
        "id",
        "code",
        "ratio",
        "step",
        "ok",
        "nothing",
      ],
    };
    const args = fill("hello", schema);
    expect(args).toMatchObject({ version: 2, unit: "metric", tag: "alpha", day: "2026-12-02", code: "AA111" });
  });

  it("reads nested objects, arrays, $ref, allOf, anyOf, oneOf, type lists, nullable, prefixItems, uniqueItems, minProperties and dependentRequired", () => {
    const schema = {
      type: "object",
      $defs: {
        address: {
          type: "object",
          properties: { city: { type: "string" }, zip: { type: "string", pattern: "^\\d{5}$" } },
          required: ["city", "zip"],
        },
      },
      properties: {
        ship_to: { $ref: "#/$defs/address" },
        items: {
          type: "array",
          minItems: 2,
          uniqueItems: true,
          items: { type: "object", properties: { sku: { type: "string", pattern: "^SKU-\\d+$" } }, required: ["sku"] },
        },
        pair: { type: "array", prefixItems: [{ type: "string" }, { type: "integer" }], minItems: 2 },
        note: { type: ["string", "null"], maxLength: 5 },
        either: { anyOf: [{ type: "null" }, { type: "integer", minimum: 3 }] },
        one: { oneOf: [{ type: "string", enum: ["a"] }, { type: "integer" }] },
        merged: {
          allOf: [{ type: "object", properties: { a: { type: "string" } }, required: ["a"] }, { required: ["b"] }],
        },
        extra: { type: "object", minProperties: 1, properties: { x: { type: "string" }, y: { type: "string" } } },
        card: {
          type: "object",
          properties: { number: { type: "string" }, cvc: { type: "string" } },
          dependentRequired: { number: ["cvc"] },
          required: ["number"],
        },
      },
      required: ["ship_to", "items", "pair", "note", "either", "one", "merged", "extra", "card"],
    };
    const args = fill("Send it to Berlin", schema) as Record<string, unknown>;
    expect(args["ship_to"]).toMatchObject({ city: "Berlin" });
    expect(args["card"]).toHaveProperty("cvc");
  });

  it("never returns arguments the checker refuses: a schema nothing can match gives none", () => {
    expect(
      fillArguments({ type: "object", properties: { a: { not: {} } }, required: ["a"] }, readValues("hi"), NOW),
    ).toBeUndefined();
    expect(fillArguments(undefined, readValues("hi"), NOW)).toEqual({});
  });
});

describe("which of the request's tools a prompt calls", () => {
  const lookup = {
    name: "lookup_order",
    description: "Look up an order by its id.",
    parameters: {
      type: "object",
      properties: { order_id: { type: "string", pattern: "^ORD-[0-9]+$" } },
      required: ["order_id"],
    },
  };
  const weather = {
    name: "get_weather",
    parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
  };
  const tools = [lookup, weather];

  it("the tool the prompt names, or gives a value only it takes; none for a prompt that asks for none", () => {
    expect(planCalls("Where is my order ORD-1234?", tools)).toEqual([
      { name: "lookup_order", arguments: { order_id: "ORD-1234" } },
    ]);
    expect(planCalls("Status of ORD-77 please", tools)).toEqual([
      { name: "lookup_order", arguments: { order_id: "ORD-77" } },
    ]);
    expect(planCalls("What's the weather in Paris?", tools)).toEqual([
      { name: "get_weather", arguments: { city: "Paris" } },
    ]);
    expect(planCalls("Hello there", tools)).toEqual([]);
  });

  it("tool_choice: none calls nothing, required or a named tool calls one whatever the prompt", () => {
    expect(planCalls("Where is my order ORD-1234?", tools, { type: "none" })).toEqual([]);
    expect(planCalls("Hello there", tools, { type: "required" })).toEqual([
      { name: "lookup_order", arguments: { order_id: "ORD-1" } },
    ]);
    expect(planCalls("Where is my order ORD-1234?", tools, { type: "tool", name: "get_weather" })).toEqual([
      // A city is never the whole sentence: nothing in it is a place.
      { name: "get_weather", arguments: { city: "example" } },
    ]);
  });

  it("an agent's many tools with long descriptions: a prompt that names none calls none", () => {
    const agent = ["Bash", "Read", "Write", "Edit", "Glob", "Grep", "WebFetch", "TodoWrite"].map((name) => ({
      name,
      description:
        "A tool of the agent. It reads files, runs commands, searches the web and keeps a plan; use it when the user asks for anything at all.",
      parameters: { type: "object", properties: { input: { type: "string" } }, required: ["input"] },
    }));
    expect(planCalls("Say hello in French", agent)).toEqual([]);
    expect(planCalls("Read README.md", agent).map((call) => call.name)).toEqual(["Read"]);
  });

  it("Codex's exec_command: the quoted command alone, its file no `workdir` (a folder), which a folder of the prompt is", () => {
    const props = { cmd: { type: "string" }, workdir: { type: "string" }, tty: { type: "boolean" } };
    const exec = { type: "object", properties: props, required: ["cmd"], additionalProperties: false };
    expect(fill('Run the command "cat README.md"', exec)).toEqual({ cmd: "cat README.md" });
    expect(fill('Run "cat notes/todo.txt"', exec)).toEqual({ cmd: "cat notes/todo.txt" });
    expect(fill('Run "ls -la" in src/lib', exec)).toEqual({ cmd: "ls -la", workdir: "src/lib" });
  });
});

describe("the prompt an agent's request carries", () => {
  it("is the user's own words: not Claude Code's system-reminder blocks nor a system turn after it", () => {
    const body = {
      messages: [
        {
          role: "user",
          content: [
            { type: "text", text: "<system-reminder>\nSkills: Agent, ListAgents, Write.\n</system-reminder>" },
            { type: "text", text: "Read /tmp/work-agent/README.md" },
          ],
        },
        { role: "system", content: [{ type: "text", text: "# Environment\nWrite files in /tmp/work-agent." }] },
      ],
    };
    const transcript = readTranscript("anthropic", body);
    expect(transcript.prompt).toBe("Read /tmp/work-agent/README.md");
    const tools = ["Agent", "ListAgents", "Read", "Write"].map((name) => ({
      name,
      parameters: { type: "object", properties: { file_path: { type: "string" } }, required: ["file_path"] },
    }));
    // The path's "work-agent" names no tool: only Read is called.
    expect(planCalls(transcript.prompt, tools)).toEqual([
      { name: "Read", arguments: { file_path: "/tmp/work-agent/README.md" } },
    ]);
  });

  it("a client's self-nesting schema (arrays of 12 through a $ref, 16 deep) is filled within a bounded count of values, not 12^16", () => {
    const schema = {
      type: "object",
      properties: { grid: { $ref: "#/$defs/row" } },
      required: ["grid"],
      $defs: { row: { type: "array", minItems: 12, items: { $ref: "#/$defs/row" } } },
    };
    // Before the total, this never returned; now it returns (arguments or none) after at most 2,000 values.
    const args = fillArguments(schema as JsonValue, readValues("fill the grid"), NOW);
    expect(args === undefined || JSON.stringify(args).split("[").length <= 2_001).toBe(true);
  });
});
