// Hostile values outside the tool schemas: numbers JSON can write but no setting means (1e400
// parses to Infinity, -0, integers past 2^53), lone surrogates in every string of every endpoint's
// body, and ids in paths that are huge, not ASCII or shaped like a traversal. Each is the
// endpoint's own 4xx naming the field, or an accepted request; never a 500.
import { describe, expect, it } from "vitest";
import { endpoints } from "./endpoint-bodies.ts";
import { post } from "./client-support.ts";
import { FakeUpstream, responses, testEnv, worker } from "./support.ts";

/** JSON text of `name`'s valid body with `set` putting the marker where `raw` (JSON text) goes. */
function rawBody(name: string, set: (body: any) => void, raw: string): string {
  const body = endpoints[name]!.valid();
  set(body);
  return JSON.stringify(body).replace('"__VALUE__"', raw);
}

describe("numbers no setting means", () => {
  const M = "__VALUE__";
  // [endpoint, where the number goes, the field the error names, whether -0 is refused (an integer's)]
  const places: [string, (body: any) => void, string, boolean][] = [
    ["stream", (b) => (b.max_tokens = M), "max_tokens", true],
    ["stream", (b) => (b.temperature = M), "temperature", false],
    ["run", (b) => (b.max_steps = M), "max_steps", true],
    ["chat", (b) => (b.max_completion_tokens = M), "max_completion_tokens", true],
    ["chat", (b) => (b.top_p = M), "top_p", false],
    ["chat", (b) => (b.seed = M), "seed", false],
    ["chat", (b) => (b.n = M), "n", true],
    ["messages", (b) => (b.max_tokens = M), "max_tokens", true],
    ["messages", (b) => (b.top_k = M), "top_k", true],
    ["responses", (b) => (b.max_output_tokens = M), "max_output_tokens", true],
    ["responses", (b) => (b.max_tool_calls = M), "max_tool_calls", true],
    ["responses", (b) => (b.top_logprobs = M), "top_logprobs", false],
    ["ui", (b) => (b.max_tokens = M), "max_tokens", true],
    ["agui", (b) => (b.forwardedProps.max_tokens = M), "forwardedProps.max_tokens", true],
    ["agui", (b) => (b.forwardedProps.temperature = M), "forwardedProps.temperature", false],
  ];
  it("1e400 (Infinity), -1e400, 1e30 and an integer past 2^53 are a 400 naming the field, in each endpoint's shape", async () => {
    for (const [name, set, field, integer] of places) {
      for (const raw of ["1e400", "-1e400", "1e30", "123456789012345678901234567890", ...(integer ? ["-0"] : [])]) {
        const endpoint = endpoints[name]!;
        const response = await worker().call(post(endpoint.path, undefined, { raw: rawBody(name, set, raw) }));
        expect(response.status, `${name} ${field}=${raw}`).toBe(400);
        expect((await endpoint.expectError(response)).field, `${name} ${field}=${raw}`).toBe(field);
      }
    }
  });
});

describe("lone surrogates", () => {
  /** The paths of every string in `value`. */
  const stringPaths = (value: unknown, at: (string | number)[] = []): (string | number)[][] =>
    typeof value === "string"
      ? [at]
      : typeof value === "object" && value !== null
        ? Object.entries(value).flatMap(([key, item]) => stringPaths(item, [...at, Array.isArray(value) ? +key : key]))
        : [];

  for (const [name, endpoint] of Object.entries(endpoints)) {
    it(`${name}: a lone or doubled surrogate before each string of the body is never a 5xx`, async () => {
      const failures: string[] = [];
      for (const path of stringPaths(endpoint.valid())) {
        for (const surrogate of ["\\ud800", "\\udfff", "\\udbff\\udbff"]) {
          const body = endpoint.valid();
          const parent = path.slice(0, -1).reduce<any>((value, key) => value[key], body);
          const old = parent[path.at(-1)!] as string;
          parent[path.at(-1)!] = "__VALUE__";
          // A UI tool part's type keeps its `tool-` prefix: the surrogate goes into the name.
          const at = old.startsWith("tool-") ? 5 : 0;
          const inner = (text: string) => JSON.stringify(text).slice(1, -1);
          const text = JSON.stringify(body).replace(
            '"__VALUE__"',
            () => `"${inner(old.slice(0, at))}${surrogate}${inner(old.slice(at))}"`,
          );
          const response = await worker().call(post(endpoint.path, undefined, { raw: text }));
          if (response.status >= 500) failures.push(`${path.join(".")} ${surrogate}: ${response.status}`);
          if (response.status >= 400) await endpoint.expectError(response);
          else await response.text();
        }
      }
      expect(failures).toEqual([]);
    }, 60_000);
  }
});

describe("ids in paths", () => {
  const env = testEnv({ RESPONSES: responses });
  const ids = ["x".repeat(100_000), "%ED%A0%80", "%F0%9F%98%80", "..%2F..%2Fetc", "%00", "resp_%FF", "%C3%A9"];

  it("GET, DELETE, input_items and cancel of /v1/responses/{id}: OpenAI's 404 naming response_id", async () => {
    for (const id of ids)
      for (const [method, path] of [
        ["GET", `/v1/responses/${id}`],
        ["DELETE", `/v1/responses/${id}`],
        ["GET", `/v1/responses/${id}/input_items`],
        ["POST", `/v1/responses/${id}/cancel`],
      ] as const) {
        const response = await worker().call(new Request(`http://localhost:8787${path}`, { method }), env);
        expect(response.status, `${method} ${path.slice(0, 40)}`).toBe(404);
        expect(await endpoints.responses!.expectError(response)).toMatchObject({
          code: "unknown_response",
          field: "response_id",
        });
      }
  });

  it("GET and DELETE /v1/stream/{id} and /v1/run/{id}: the Worker's 404 unknown_response", async () => {
    const app = worker(new FakeUpstream({ kind: "network-error" }));
    for (const id of ids)
      for (const method of ["GET", "DELETE"])
        for (const route of ["stream", "run"]) {
          const response = await app.call(new Request(`http://localhost:8787/v1/${route}/${id}`, { method }), env);
          expect(response.status, `${method} /v1/${route}/${id.slice(0, 40)}`).toBe(404);
          expect((await endpoints.stream!.expectError(response)).code).toBe("unknown_response");
        }
  });
});
