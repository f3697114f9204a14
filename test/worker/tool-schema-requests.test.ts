// Tool schemas are checked at the request: every endpoint that takes tools answers a schema the
// validators could not read (an `enum` that is not an array, an `anyOf` that is not a list of
// schemas) with a 400 in its protocol's shape, naming the field by its path as that protocol
// writes it; the provider is never called. (Before, such a schema crashed validation mid-stream
// and the client got an empty 200.)
import { describe, expect, it } from "vitest";
import { endpoints } from "./endpoint-bodies.ts";
import { FakeUpstream, testEnv, worker } from "./support.ts";

/** The broken schemas of issue 26, and the path of the fault inside `parameters`. */
const broken: ReadonlyArray<[Record<string, unknown>, string]> = [
  [{ type: "object", properties: { city: { enum: "abc" } } }, ".properties.city.enum"],
  [{ type: "object", properties: { city: { anyOf: "x" } } }, ".properties.city.anyOf"],
  [{ type: "object", properties: { city: { enum: 5 } } }, ".properties.city.enum"],
  [{ type: "object", properties: { city: { anyOf: [null] } } }, ".properties.city.anyOf[0]"],
  [{ enum: "abc" }, ".enum"],
  // Patterns a linear-time matcher cannot run (issue 33): refused, never run by backtracking.
  [{ type: "object", properties: { code: { pattern: "^(a)\\1$" } } }, ".properties.code.pattern"],
  [{ type: "object", properties: { code: { pattern: "^(?!x)" } } }, ".properties.code.pattern"],
  [{ type: "object", properties: { code: { pattern: "(a{1000}){1000}" } } }, ".properties.code.pattern"],
  // Unicode property escapes past the request's 64, each of which costs the runtime's RegExp up to 250 µs.
  [
    { type: "object", properties: { a: { pattern: "\\p{L}".repeat(40) }, b: { pattern: "\\p{N}".repeat(40) } } },
    ".properties.b.pattern",
  ],
  // Patterns that compile to more than the request's 250,000 instructions (each kept once run, 12 bytes one).
  [
    {
      type: "object",
      properties: Object.fromEntries(Array.from({ length: 13 }, (_, i) => [`p${i}`, { pattern: "a{19999}" }])),
    },
    "",
  ],
  // Schemas reached only through a $ref (under a keyword JSON Schema does not have) past the 20,000 a
  // tool compiles to: they accepted anything, unsaid (a 60 KB body).
  [{ $ref: "#/x", x: { prefixItems: Array.from({ length: 20_001 }, () => ({})) } }, ""],
  // Two different schemas with one URI (the first won, unsaid), and 2020-12's forbidden `$id: "#name"`.
  [
    { $defs: { a: { $id: "https://x.example/s.json", type: "string" }, b: { $id: "https://x.example/s.json" } } },
    ".$defs.b.$id",
  ],
  [{ $schema: "https://json-schema.org/draft/2020-12/schema", $defs: { a: { $id: "#name" } } }, ".$defs.a.$id"],
];

type Case = {
  path: string;
  body: (parameters: Record<string, unknown>) => Record<string, unknown>;
  /** Where `parameters` is, as this protocol writes it. */
  at: string;
  /** The field the error names, as this endpoint says it. */
  fieldOf: (response: Response) => Promise<string | null | undefined>;
};

const withTool =
  (name: string, edit: (body: Record<string, unknown>, p: Record<string, unknown>) => void) =>
  (parameters: Record<string, unknown>) => {
    const body = endpoints[name]!.valid();
    edit(body, parameters);
    return body;
  };
const toolsOf = (body: Record<string, unknown>) => body["tools"] as Array<Record<string, unknown>>;
const viaExpectError = (name: string) => async (response: Response) =>
  (await endpoints[name]!.expectError(response)).field;
/** The path in backticks at the start of the message (the agent protocols' errors have no field member). */
const fromMessage = async (response: Response): Promise<string | undefined> =>
  /`([^`]+)`/.exec(await response.text())?.[1];

const cases: Case[] = [
  {
    path: "/v1/stream",
    body: withTool("stream", (body, p) => void (toolsOf(body)[0]!["parameters"] = p)),
    at: "tools[0].parameters",
    fieldOf: viaExpectError("stream"),
  },
  {
    path: "/v1/stream",
    body: withTool("validated", (body, p) => void (toolsOf(body)[0]!["parameters"] = p)),
    at: "tools[0].parameters",
    fieldOf: viaExpectError("validated"),
  },
  {
    path: "/v1/chat/completions",
    body: withTool(
      "chat",
      (body, p) => void ((toolsOf(body)[0]!["function"] as Record<string, unknown>)["parameters"] = p),
    ),
    at: "tools[0].function.parameters",
    fieldOf: viaExpectError("chat"),
  },
  {
    path: "/v1/ui",
    body: withTool("ui", (body, p) => void (toolsOf(body)[0]!["parameters"] = p)),
    at: "tools[0].parameters",
    fieldOf: viaExpectError("ui"),
  },
  {
    path: "/v1/ag-ui",
    body: withTool("agui", (body, p) => void (toolsOf(body)[0]!["parameters"] = p)),
    at: "tools[0].parameters",
    fieldOf: viaExpectError("agui"),
  },
  {
    path: "/v1/messages",
    body: (parameters) => ({
      model: "openai/gpt-4o-mini",
      max_tokens: 256,
      messages: [{ role: "user", content: "Weather in Paris?" }],
      tools: [{ name: "get_weather", input_schema: parameters }],
    }),
    at: "tools[0].input_schema",
    fieldOf: fromMessage,
  },
  {
    path: "/v1/responses",
    // A built-in tool the Worker drops comes first: the path keeps the client's index.
    body: (parameters) => ({
      model: "openai/gpt-4o-mini",
      input: "Weather in Paris?",
      tools: [{ type: "web_search" }, { type: "function", name: "get_weather", parameters }],
    }),
    at: "tools[1].parameters",
    fieldOf: async (response) => ((await response.json()) as { error: { param: string | null } }).error.param,
  },
];

describe("tool schemas checked at the request", () => {
  for (const c of cases) {
    it(`${c.path}: a schema the validators cannot read is a 400 naming ${c.at}... in the protocol's shape, and no provider call`, async () => {
      for (const [parameters, inside] of broken) {
        const upstream = new FakeUpstream({ kind: "hang" });
        const response = await worker(upstream).call(
          new Request(`http://localhost:8787${c.path}`, {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify(c.body(parameters)),
          }),
          testEnv(),
        );
        expect(response.status).toBe(400);
        expect(await c.fieldOf(response)).toBe(`${c.at}${inside}`);
        expect(upstream.requests).toHaveLength(0);
      }
    });
  }

  it("the tools of a request share one budget of Unicode property escapes: the tool that goes past it is named", async () => {
    for (const [path, at] of [
      ["/v1/stream", "tools[1].parameters.properties.code.pattern"],
      ["/v1/responses", "tools[1].parameters.properties.code.pattern"],
      // Codex's additional_tools item: its tools draw on the budget of the request's tools.
      ["/v1/responses", "input[0].tools[0].parameters.properties.code.pattern"],
    ] as const) {
      const parameters = (n: number) => ({
        type: "object",
        properties: { code: { pattern: `^\\p{L}{${n}}`.repeat(40) } },
      });
      const body =
        path === "/v1/stream"
          ? withTool(
              "stream",
              (b) => void (b["tools"] = [0, 1].map((i) => ({ name: `f${i}`, parameters: parameters(i) }))),
            )({})
          : at.startsWith("input")
            ? {
                model: "openai/gpt-4o-mini",
                input: [
                  {
                    type: "additional_tools",
                    role: "developer",
                    tools: [{ type: "function", name: "f1", parameters: parameters(1) }],
                  },
                  { role: "user", content: "Weather in Paris?" },
                ],
                tools: [{ type: "function", name: "f0", parameters: parameters(0) }],
              }
            : {
                model: "openai/gpt-4o-mini",
                input: "Weather in Paris?",
                tools: [0, 1].map((i) => ({ type: "function", name: `f${i}`, parameters: parameters(i) })),
              };
      const upstream = new FakeUpstream({ kind: "hang" });
      const response = await worker(upstream).call(
        new Request(`http://localhost:8787${path}`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify(body),
        }),
        testEnv(),
      );
      expect(response.status).toBe(400);
      const text = await response.text();
      expect(text).toContain(at);
      expect(text).toContain("Unicode property escapes");
      expect(upstream.requests).toHaveLength(0);
    }
  });

  it("a schema with many problems names the first and counts the rest, in a bounded message", async () => {
    const properties = Object.fromEntries(Array.from({ length: 500 }, (_, i) => [`p${i}`, { enum: i }]));
    const response = await worker().call(
      new Request("http://localhost:8787/v1/stream", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(
          withTool("stream", (body, p) => void (toolsOf(body)[0]!["parameters"] = p))({ type: "object", properties }),
        ),
      }),
      testEnv(),
    );
    expect(response.status).toBe(400);
    const { error } = (await response.json()) as { error: { field: string; message: string } };
    expect(error.field).toBe("tools[0].parameters.properties.p0.enum");
    expect(error.message).toMatch(/more problems/);
    expect(error.message.length).toBeLessThan(600);
  });
});
