// Hostile request bodies: keys that name Object.prototype's members, and deep nesting, at every
// place a parsed body is read, on every POST endpoint. Each is a 4xx in the endpoint's own error
// shape or an accepted request, never a 500.
import { describe, expect, it } from "vitest";
import { endpoints, type Endpoint } from "./endpoint-bodies.ts";
import { post } from "./client-support.ts";
import { testEnv, worker } from "./support.ts";

const HOSTILE = [
  "__proto__",
  "constructor",
  "toString",
  "hasOwnProperty",
  "valueOf",
  "__defineGetter__",
  "isPrototypeOf",
];

const PROTOTYPE = Object.getOwnPropertyNames(Object.prototype).join();

/** Sends `raw` (JSON text, so that `__proto__` stays an own key); the bodies answered with a 5xx are added to `failures`. */
async function expectHandled(endpoint: Endpoint, raw: string, failures: string[]): Promise<void> {
  const response = await worker().call(post(endpoint.path, undefined, { raw }), testEnv());
  if (response.status >= 500) failures.push(raw);
  if (Object.getOwnPropertyNames(Object.prototype).join() !== PROTOTYPE)
    failures.push(`polluted Object.prototype: ${raw}`);
  else if (response.status >= 400) await endpoint.expectError(response);
  else await response.text();
}

/** The paths of every object in `value`, as key lists. */
function objectPaths(value: unknown, at: (string | number)[] = []): (string | number)[][] {
  if (Array.isArray(value)) return value.flatMap((item, i) => objectPaths(item, [...at, i]));
  if (typeof value !== "object" || value === null) return [];
  return [at, ...Object.entries(value).flatMap(([key, item]) => objectPaths(item, [...at, key]))];
}

function at(root: unknown, path: (string | number)[]): Record<string, unknown> {
  return path.reduce<unknown>((value, key) => (value as Record<string | number, unknown>)[key], root) as Record<
    string,
    unknown
  >;
}

describe("hostile keys", () => {
  for (const [name, endpoint] of Object.entries(endpoints)) {
    it(`${name}: a key naming an Object.prototype member, added to each object of a valid body or replacing each string, is never a 500`, async () => {
      const base = endpoint.valid();
      const failures: string[] = [];
      for (const path of objectPaths(base)) {
        for (const key of HOSTILE) {
          for (const value of [1, "x", null, {}, [], true]) {
            const body = endpoint.valid();
            // `__proto__` is written into the JSON text: an own key, as JSON.parse makes it.
            at(body, path)["__KEY__"] = value;
            await expectHandled(endpoint, JSON.stringify(body).replace('"__KEY__"', JSON.stringify(key)), failures);
          }
        }
      }
      expect(failures).toEqual([]);
      // Hundreds of whole requests (one per object, key and value): seconds on a loaded machine.
    }, 60_000);

    it(`${name}: hostile strings as values (roles, types, names, ids, models) are never a 500`, async () => {
      const base = endpoint.valid();
      const strings: (string | number)[][] = [];
      const failures: string[] = [];
      const walk = (value: unknown, path: (string | number)[]): void => {
        if (typeof value === "string") strings.push(path);
        else if (typeof value === "object" && value !== null)
          for (const [key, item] of Object.entries(value))
            walk(item, [...path, Array.isArray(value) ? Number(key) : key]);
      };
      walk(base, []);
      for (const path of strings) {
        for (const key of HOSTILE) {
          const body = endpoint.valid();
          const parent = at(body, path.slice(0, -1));
          const last = path.at(-1)!;
          const old = parent[last] as string;
          parent[last] = old.startsWith("tool-") ? `tool-${key}` : old.includes("/") ? `${key}/${key}` : key;
          await expectHandled(endpoint, JSON.stringify(body), failures);
        }
      }
      expect(failures).toEqual([]);
    });
  }
});

const nested = (levels: number): string => "[".repeat(levels) + "]".repeat(levels);
/** `body` as JSON text with the string `"DEEP"` replaced by `levels` nested arrays. */
const withDeep = (body: unknown, levels: number): string => JSON.stringify(body).replace('"DEEP"', nested(levels));

describe("deep nesting", () => {
  const send = (endpoint: Endpoint, raw: string) => worker().call(post(endpoint.path, undefined, { raw }), testEnv());
  const cases: [string, (body: Record<string, unknown>) => void, string][] = [
    [
      "stream",
      (body) => ((body.tools as any)[0].parameters.properties.city = "DEEP"),
      "tools[0].parameters.properties.city[0]",
    ],
    ["stream", (body) => ((body.messages as any)[0].content = "DEEP"), "messages[0].content[0]"],
    ["run", (body) => ((body.messages as any)[0].content = "DEEP"), "messages[0].content[0]"],
    ["chat", (body) => ((body.tools as any)[0].function.parameters = "DEEP"), "tools[0].function.parameters[0]"],
    ["chat", (body) => ((body.messages as any)[0].content = "DEEP"), "messages[0].content[0]"],
    ["ui", (body) => ((body.tools as any)[0].parameters = "DEEP"), "tools[0].parameters[0]"],
    ["ui", (body) => ((body.messages as any)[1].parts[1].output = "DEEP"), "messages[1].parts[1].output[0]"],
    ["agui", (body) => ((body.tools as any)[0].parameters = "DEEP"), "tools[0].parameters[0]"],
    ["agui", (body) => ((body.state as any) = "DEEP"), "state[0]"],
  ];
  for (const [name, place, field] of cases) {
    it(`${name}: 100,000 nested arrays at ${field.replace(/\[0\]$/, "")} are a 400 naming the field`, async () => {
      const endpoint = endpoints[name]!;
      const body = endpoint.valid();
      place(body);
      const response = await send(endpoint, withDeep(body, 100_000));
      expect(response.status).toBe(400);
      const error = await endpoint.expectError(response);
      expect(error.code).toBe("invalid_request");
      expect(error.field).toBe(`${field}${"[0]".repeat(63 - field.split(/[.[]/).length + 1)}`);
      expect(error.message).toMatch(/nested more than 64 levels/);
    });
  }

  it("64 levels are accepted; 65 are not", async () => {
    const endpoint = endpoints.stream!;
    const at = (levels: number) => {
      const body = endpoint.valid();
      (body.tools as any)[0].parameters.properties.city.examples = "DEEP";
      return send(endpoint, withDeep(body, levels));
    };
    // The root object, tools, tools[0], parameters, properties, city: 6 levels before the arrays.
    const ok = await at(58);
    expect(ok.status).toBe(200);
    await ok.text();
    expect((await at(59)).status).toBe(400);
  });

  it("a call's arguments sent back as JSON text that nests too deep are a 400 naming the arguments", async () => {
    for (const [name, path] of [
      ["chat", "messages[1].tool_calls[0].function.arguments"],
      ["agui", "messages[1].toolCalls[0].function.arguments"],
    ] as const) {
      const endpoint = endpoints[name]!;
      const body = endpoint.valid();
      const call = (body.messages as any)[1][name === "chat" ? "tool_calls" : "toolCalls"][0];
      call.function.arguments = nested(100_000);
      const response = await send(endpoint, JSON.stringify(body));
      expect(response.status).toBe(400);
      expect((await endpoint.expectError(response)).field).toBe(path);
    }
  });
});

describe("errors name the field in the client protocol's terms", () => {
  const fieldOf = async (name: string, change: (body: any) => void) => {
    const endpoint = endpoints[name]!;
    const body = endpoint.valid();
    change(body);
    const response = await worker().call(post(endpoint.path, body), testEnv());
    expect(response.status).toBe(400);
    const error = await endpoint.expectError(response);
    return { field: error.field, message: error.message };
  };

  it("/v1/chat/completions: OpenAI's param", async () => {
    expect(await fieldOf("chat", (b) => (b.max_completion_tokens = 0))).toEqual({
      field: "max_completion_tokens",
      message: expect.stringMatching(/^`max_completion_tokens` must be/),
    });
    expect((await fieldOf("chat", (b) => (b.max_tokens = 0))).field).toBe("max_tokens");
    expect((await fieldOf("chat", (b) => (b.tools[0].function.name = "has space"))).field).toBe(
      "tools[0].function.name",
    );
    expect((await fieldOf("chat", (b) => (b.tools[0].function.description = 5))).field).toBe(
      "tools[0].function.description",
    );
    expect((await fieldOf("chat", (b) => (b.tools[0].function.parameters = 5))).field).toBe(
      "tools[0].function.parameters",
    );
    expect((await fieldOf("chat", (b) => (b.messages[1].tool_calls[0].function.name = "has space"))).field).toBe(
      "messages[1].tool_calls[0].function.name",
    );
    expect((await fieldOf("chat", (b) => (b.model = "openai/a..b"))).field).toBe("model");
  });

  it("/v1/ui: the UI message's fields", async () => {
    expect((await fieldOf("ui", (b) => (b.max_tokens = 0))).field).toBe("max_tokens");
    expect((await fieldOf("ui", (b) => (b.model = "openai/a..b"))).field).toBe("model");
    expect((await fieldOf("ui", (b) => (b.tools[0].name = "x".repeat(129)))).field).toBe("tools[0].name");
    expect((await fieldOf("ui", (b) => (b.messages[1].parts[1].type = `tool-${"x".repeat(129)}`))).field).toBe(
      "messages[1].parts[1].type",
    );
    expect((await fieldOf("ui", (b) => Object.assign(b, { run: true, tools: ["nope"] }))).field).toBe("tools[0]");
  });

  it("/v1/ag-ui: RunAgentInput's fields", async () => {
    expect((await fieldOf("agui", (b) => (b.forwardedProps.max_tokens = 0))).field).toBe("forwardedProps.max_tokens");
    expect((await fieldOf("agui", (b) => (b.forwardedProps.temperature = 9))).field).toBe("forwardedProps.temperature");
    expect((await fieldOf("agui", (b) => (b.forwardedProps.tool_choice = { name: "missing" }))).field).toBe(
      "forwardedProps.tool_choice",
    );
    expect((await fieldOf("agui", (b) => (b.forwardedProps.model = "openai/a..b"))).field).toBe("forwardedProps.model");
    expect((await fieldOf("agui", (b) => (b.messages[1].toolCalls[0].function.name = "\u0007bell"))).field).toBe(
      "messages[1].toolCalls[0].function.name",
    );
    expect(
      (
        await fieldOf("agui", (b) =>
          Object.assign(b, { tools: [], forwardedProps: { model: "openai/m", run: true, tools: ["nope"] } }),
        )
      ).field,
    ).toBe("forwardedProps.tools[0]");
    expect(
      (
        await fieldOf("agui", (b) =>
          Object.assign(b, { tools: [], forwardedProps: { model: "openai/m", run: true, max_steps: 99 } }),
        )
      ).field,
    ).toBe("forwardedProps.max_steps");
  });
});
