// A seeded fuzzer over the bodies the real clients send (openai-node with files and the legacy
// `functions`, Claude Code's Messages with thinking, images and documents, Codex's Responses with
// reasoning items and files, the AI SDK's UI parts, AG-UI's binary parts), each mutated once: a type
// swapped, a string given a lone surrogate, a NUL or a BOM, a key written twice, a prototype key, an
// array grown to thousands of parts, a value nested deep or made huge. Unlike fuzz-requests.test.ts
// the upstream answers (OpenAI and Anthropic fakes), so every translation runs. Whatever arrives:
// never a 5xx, a 4xx in the protocol's own shape, a 400 naming the field by its path, an error
// message of bounded size, and what the provider is sent bounded by what the client sent.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createFetchHandler } from "../../worker/app.ts";
import { textTurn } from "./anthropic-blocks.ts";
import { OPENAI_ANTHROPIC_ENV, post } from "./client-support.ts";
import { endpoints } from "./endpoint-bodies.ts";
import { clientBodies, type Path, pathsOf } from "./fuzz-client-bodies.ts";
import { AUTH, live, scripted } from "./open-responses-support.ts";
import { chatChunk, ManualTimers, openAIChunks, responses, worker } from "./support.ts";

// Small and seeded: a repeatable run of seconds; raise it locally to hunt (600 each passed on this branch).
const RUNS = 60;
const at = (value: unknown, path: Path): any => path.reduce<any>((item, step) => item?.[step], value);

/** The same value as another JSON type: what a client with a wrong type in its model sends. */
function swapped(value: unknown, to: number): unknown {
  const kinds = [
    () => (typeof value === "string" ? value.length : (JSON.stringify(value) ?? "")),
    () => (typeof value === "number" ? String(value) : typeof value === "string" ? Number(value) || 1 : 0),
    () => null,
    () => [value],
    () => ({ value }),
    () => typeof value !== "boolean",
  ];
  return kinds[to % kinds.length]!();
}

const EDGES = ["\ud800", "\udfff", "\u0000", "\ufeff", "\uffff", "\u202e", "\ud83d", "a\u0301", "\u2028"];
const PROTO = ["__proto__", "constructor", "prototype", "toString", "hasOwnProperty"];

const MARK = "__fuzz_mark_9c1e__";
/** `body` with the value at `path` written as `raw` (JSON text). */
function put(body: Record<string, unknown>, path: Path, raw: string): string {
  if (path.length === 0) return raw;
  const copy = structuredClone(body);
  const parent = at(copy, path.slice(0, -1));
  parent[path.at(-1)!] = MARK;
  return JSON.stringify(copy).replace(`"${MARK}"`, () => raw);
}
/** `body` with `"key": raw` written first in the object at `path` (a key already there is then written twice). */
function addKey(body: Record<string, unknown>, path: Path, key: string, raw: string): string {
  const copy = structuredClone(body);
  const target = path.length === 0 ? copy : at(copy, path);
  if (typeof target !== "object" || target === null || Array.isArray(target)) return JSON.stringify(copy);
  const text = JSON.stringify(Object.fromEntries([[MARK, 0], ...Object.entries(target)]));
  const marked = put(copy, path, text);
  return marked.replace(`"${MARK}":0`, () => `${JSON.stringify(key)}:${raw}`);
}

function mutations(body: Record<string, unknown>): fc.Arbitrary<string> {
  const paths = pathsOf(body);
  const leaves = paths.filter((path) => typeof at(body, path) !== "object" || at(body, path) === null);
  const strings = paths.filter((path) => typeof at(body, path) === "string");
  const objects = paths.filter((path) => {
    const value = at(body, path);
    return typeof value === "object" && value !== null && !Array.isArray(value);
  });
  const arrays = paths.filter((path) => Array.isArray(at(body, path)) && at(body, path).length > 0);
  const pick = <T>(items: T[]) => fc.constantFrom(...items);
  return fc.oneof(
    // A type swapped, anywhere.
    fc.tuple(pick(paths), fc.nat(5)).map(([path, to]) => put(body, path, JSON.stringify(swapped(at(body, path), to)))),
    // A lone surrogate, a NUL, a BOM, a combining mark in a string; or the string made of it alone.
    fc
      .tuple(pick(strings), pick(EDGES), fc.boolean())
      .map(([path, edge, alone]) => put(body, path, JSON.stringify(alone ? edge : `${edge}${at(body, path)}${edge}`))),
    // A string given an Object.prototype key as its extension (`a.png.constructor`), or made of it alone (a format `constructor`).
    fc
      .tuple(pick(strings), pick(PROTO), fc.boolean())
      .map(([path, key, alone]) => put(body, path, JSON.stringify(alone ? key : `${at(body, path)}.${key}`))),
    // A huge string where a string was (past the body limits too).
    fc
      .tuple(pick(strings), fc.constantFrom(70_000, 300_000, 9_000_000), pick(["x", "é", "\ud83d\ude00"]))
      .map(([path, size, unit]) => put(body, path, JSON.stringify(unit.repeat(size / unit.length)))),
    // A key written twice: the second (JSON.parse's pick) of another type.
    fc.tuple(pick(objects), fc.nat(5)).chain(([path, to]) => {
      const keys = Object.keys(at(body, path));
      return pick(keys.length > 0 ? keys : ["x"]).map((key) =>
        addKey(body, path, key, JSON.stringify(swapped(at(body, [...path, key]), to))),
      );
    }),
    // A prototype key holding a plausible value.
    fc
      .tuple(pick(objects), pick(PROTO), fc.jsonValue({ maxDepth: 2 }))
      .map(([path, key, value]) => addKey(body, path, key, JSON.stringify(value) ?? "null")),
    // An array of thousands of copies of one of its items.
    fc.tuple(pick(arrays), fc.constantFrom(300, 3_001, 20_000)).map(([path, count]) => {
      const item = JSON.stringify(at(body, [...path, 0]));
      return put(body, path, `[${Array(count).fill(item).join(",")}]`);
    }),
    // Deep nesting where a leaf was.
    fc
      .tuple(pick(leaves), fc.constantFrom(63, 65, 5_000), fc.constantFrom("[", '{"a":'))
      .map(([path, depth, open]) =>
        put(body, path, `${open.repeat(depth)}1${(open === "[" ? "]" : "}").repeat(depth)}`),
      ),
    // A BOM before the whole body.
    fc.constant(`\ufeff${JSON.stringify(body)}`),
  );
}

/** An upstream per provider host: OpenAI's answer on provider.test, Anthropic's on anthropic.test. */
function upstream() {
  const sent: number[] = [];
  const fetch = async (url: string, init: RequestInit) => {
    const request = new Request(url, init);
    const text = await request.text();
    sent.push(text.length);
    const anthropic = new URL(request.url).host === "anthropic.test";
    const chunks = anthropic
      ? textTurn("ok")
      : openAIChunks([chatChunk({ role: "assistant", content: "ok" }), chatChunk({}, "stop")]);
    return new Response(chunks.join(""), { headers: { "content-type": "text/event-stream" } });
  };
  return { sent, fetch };
}

describe("fuzzing the client routes with the real clients' bodies, the upstream answering", () => {
  for (const client of clientBodies) {
    const endpoint = endpoints[client.endpoint]!;
    it(`${client.name}: ${RUNS} mutated bodies on ${client.path}`, async () => {
      const statuses = new Map<number, number>();
      const unnamed: string[] = [];
      await fc.assert(
        fc.asyncProperty(fc.constantFrom(...client.models), mutations(client.body), async (model, text) => {
          const body = text.replace(client.model, () => model);
          const { sent, fetch } = upstream();
          const handler = createFetchHandler({ fetch, timers: new ManualTimers() });
          const response = await handler(
            new Request(`http://localhost:8787${client.path}`, {
              method: "POST",
              headers: { "content-type": "application/json", authorization: "Bearer t", "x-api-key": "t" },
              body,
            }),
            OPENAI_ANTHROPIC_ENV,
          );
          statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
          expect(response.status, text.slice(0, 300)).toBeLessThan(500);
          if (response.status >= 400) {
            const error = await endpoint.expectError(response);
            expect(error.message.length, error.message.slice(0, 300)).toBeLessThan(2_000);
            if (response.status === 400 && !error.field && !/`[^`]+`/.test(error.message)) unnamed.push(error.message);
          } else {
            const answer = await response.text();
            expect(answer).not.toMatch(/stream-failed|STREAM_FAILED|internal/i);
          }
          // What the provider is sent grows with what the client sent, not past it by a factor.
          for (const size of sent) expect(size).toBeLessThan(4 * body.length + 65_536);
        }),
        { seed: 20261207, numRuns: RUNS, endOnFailure: true },
      );
      expect(unnamed, unnamed.join("\n")).toEqual([]);
      expect(statuses.get(200) ?? 0).toBeGreaterThan(0);
    }, 120_000);
  }
});

/** A stored response's id, changed the ways a client or an attacker might: cut, grown, escaped, forged. */
const idLike = (id: string) =>
  fc.oneof(
    fc.constant(id),
    fc.nat(id.length - 1).map((n) => id.slice(0, n)),
    fc.constantFrom("%00", "%2F", "..", "%E0%A4%A", "%F0%9F%98%80", "resp_", "x".repeat(70_000), "%ud800"),
    fc
      .tuple(fc.nat(id.length - 1), fc.constantFrom("A", "0", "_", "-", "%41"))
      .map(([n, c]) => `${id.slice(0, n)}${c}${id.slice(n + 1)}`),
    fc.constantFrom("%20", "%0A", "\u00e9", "%C0%AF").map((c) => `${id}${c}`),
  );
/** Query values of the reads: numbers as text written every way, empty, repeated, huge, unicode. */
const queryValue = fc.constantFrom(
  "",
  "0",
  "1",
  "-1",
  "100",
  "101",
  "1e2",
  "+1",
  "01",
  "0x10",
  "NaN",
  "asc",
  "ASC",
  "desc",
  "true",
  "%00",
  "%ud800",
  "x".repeat(20_000),
  "msg_1",
  "item_1",
);
const query = fc
  .array(
    fc.tuple(
      fc.constantFrom(
        "limit",
        "order",
        "after",
        "before",
        "include[]",
        "include",
        "stream",
        "starting_after",
        "lastEventId",
        "api-version",
        "__proto__",
      ),
      queryValue,
    ),
    { maxLength: 4 },
  )
  .map((pairs) => pairs.map(([key, value]) => `${key}=${value}`).join("&"));
const lastEventId = fc.constantFrom(
  undefined,
  "",
  "-1",
  "0",
  "1",
  "-0",
  "01",
  "1e2",
  "+1",
  " 1",
  "999999999999999999999",

  "NaN",
);

describe("fuzzing the reads: a stored response's GET, DELETE, input_items and cancel, a resumable stream's GET and DELETE", () => {
  it(`${RUNS} reads of mutated ids, queries and Last-Event-IDs: never a 5xx, errors in the route's shape, the response kept`, async () => {
    const env = { ...live("anthropic"), RESPONSES: responses };
    const { call } = worker(scripted("anthropic", { text: "Sunny." }));
    const created = await call(post("/v1/responses", { model: "anthropic/test-model", input: "Weather?" }, AUTH), env);
    const id = ((await created.json()) as { id: string }).id;
    const statuses = new Map<number, number>();
    const read = fc.tuple(
      fc.constantFrom(
        "/v1/responses/%s",
        "/v1/responses/%s/input_items",
        "/v1/responses/%s/cancel",
        "/openai/v1/responses/%s",
        "/v1/stream/%s",
        "/v1/run/%s",
        "/v1/ui/%s/stream",
      ),
      fc.constantFrom("GET", "DELETE", "POST", "HEAD"),
      idLike(id),
      query,
      lastEventId,
    );
    await fc.assert(
      fc.asyncProperty(read, async ([route, method, target, search, after]) => {
        // DELETE only the others: the response read at the end must still be there.
        if (method === "DELETE" && target === id) return;
        const headers: Record<string, string> = {
          ...AUTH.headers,
          ...(after !== undefined && { "last-event-id": after }),
        };
        const url = `http://localhost:8787${route.replace("%s", target)}${search ? `?${search}` : ""}`;
        const response = await call(new Request(url, { method, headers }), env);
        statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
        expect(response.status, `${method} ${url.slice(0, 200)}`).toBeLessThan(500);
        const text = await response.text();
        expect(text.length).toBeLessThan(route.includes("input_items") || route.endsWith("%s") ? 1_000_000 : 4_000);
        if (response.status >= 400 && method !== "HEAD" && route.includes("responses")) {
          const body = JSON.parse(text) as { error: { message: string; type: string; param: unknown; code: unknown } };
          expect(Object.keys(body), text.slice(0, 300)).toEqual(["error"]);
          expect(body.error.message.length).toBeLessThan(2_000);
        }
      }),
      { seed: 20261207, numRuns: RUNS, endOnFailure: true },
    );
    const kept = await call(new Request(`http://localhost:8787/v1/responses/${id}`, AUTH), env);
    expect(kept.status).toBe(200);
    expect([...statuses.keys()].some((status) => status >= 400)).toBe(true);
  }, 120_000);
});
