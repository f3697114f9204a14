// Fuzzing every POST endpoint with fast-check (fixed seed, so a run is repeatable and quick):
// random bodies, and valid requests with one field replaced by a wrong type, a huge value, a
// hostile key or deep nesting, sent with wrong content types or as invalid UTF-8. Whatever
// arrives, the answer is never a 5xx, a 4xx is in the endpoint's own error shape, and a 2xx
// stream ends.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { endpoints, type Endpoint } from "./endpoint-bodies.ts";
import { type Path, pathsOf } from "./fuzz-client-bodies.ts";
import { testEnv, worker } from "./support.ts";

const RUNS = 300;
const HOSTILE = [
  "__proto__",
  "constructor",
  "toString",
  "hasOwnProperty",
  "valueOf",
  "__defineGetter__",
  "then",
  "length",
];

/** A request to send: a JSON text (or raw bytes) with a content type. */
interface Sent {
  body: string | Uint8Array;
  contentType: string | null;
}

const nested = (depth: number) =>
  fc.constantFrom("[", '{"a":').map((open) => `${open.repeat(depth)}0${(open === "[" ? "]" : "}").repeat(depth)}`);
/** Values that replace a field: other types, huge ones, hostile shapes. */
const replacement = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }).map((value) => JSON.stringify(value) ?? "null"),
  fc.constantFrom(
    "null",
    "true",
    "0",
    "-1",
    "1e308",
    "-0",
    "1.5",
    '""',
    "[]",
    "{}",
    '"x"',
    '"\\u0000"',
    '"\\ud800"',
    "9007199254740993",
  ),
  fc.integer({ min: 1, max: 40_000 }).map((n) => JSON.stringify("é".repeat(n))),
  fc.integer({ min: 100, max: 5_000 }).map((n) => `[${Array.from({ length: n }, () => "{}").join(",")}]`),
  fc.oneof(fc.integer({ min: 60, max: 70 }), fc.integer({ min: 1_000, max: 100_000 })).chain(nested),
  fc
    .constantFrom(...HOSTILE)
    .chain((key) => fc.jsonValue({ maxDepth: 2 }).map((value) => `{${JSON.stringify(key)}: ${JSON.stringify(value)}}`)),
);

/** JSON text of `body` with the value at `path` replaced by `raw` (JSON text), or a key added or removed there. */
function mutate(
  body: Record<string, unknown>,
  path: Path,
  raw: string,
  how: "replace" | "add-key" | "delete",
  key: string,
): string {
  const marker = "__fuzz_mark_7f3a__";
  const copy = { root: structuredClone(body) };
  const full: Path = ["root", ...path];
  const parent = full.slice(0, -1).reduce<any>((value, step) => value[step], copy);
  const last = full.at(-1)!;
  if (how === "delete" && path.length > 0 && !Array.isArray(parent)) delete parent[last];
  else if (
    how === "add-key" &&
    typeof parent[last] === "object" &&
    parent[last] !== null &&
    !Array.isArray(parent[last])
  )
    parent[last][marker] = marker;
  else parent[last] = marker;
  const text = JSON.stringify(copy.root);
  if (how === "add-key") return text.replace(`"${marker}":"${marker}"`, `${JSON.stringify(key)}:${raw}`);
  return text.replace(`"${marker}"`, raw);
}

const contentType = fc.oneof(
  { weight: 8, arbitrary: fc.constant("application/json") },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      null,
      "text/plain",
      "application/x-www-form-urlencoded",
      "multipart/form-data; boundary=x",
      "application/json; charset=utf-16",
      "application/vnd.api+json",
      "APPLICATION/JSON",
      "application/jsonx",
    ),
  },
);

/** Valid JSON text as bytes with invalid UTF-8 put in (a lone continuation byte, an overlong form, a cut sequence). */
const invalidUtf8 = (text: string) =>
  fc
    .tuple(
      fc.nat(Math.max(0, text.length - 1)),
      fc.constantFrom([0xff], [0x80], [0xc0, 0xaf], [0xe2, 0x82], [0xed, 0xa0, 0x80], [0xf8, 0x88, 0x80, 0x80, 0x80]),
    )
    .map(([at, bad]) => {
      const bytes = new TextEncoder().encode(text);
      const cut = Math.min(at, bytes.length);
      return new Uint8Array([...bytes.subarray(0, cut), ...bad, ...bytes.subarray(cut)]);
    });

function requests(endpoint: Endpoint): fc.Arbitrary<Sent> {
  const valid = endpoint.valid();
  const paths = pathsOf(valid);
  const objects = paths.filter((path) => {
    const value = path.reduce<any>((item, step) => item[step], valid);
    return typeof value === "object" && value !== null && !Array.isArray(value);
  });
  const key = fc.oneof(fc.constantFrom(...HOSTILE), fc.string({ maxLength: 12 }));
  const mutated = fc.oneof(
    fc.tuple(fc.constantFrom(...paths), replacement).map(([path, raw]) => mutate(valid, path, raw, "replace", "")),
    // Half the added keys go to the body itself, where each endpoint reads its parameters.
    fc
      .tuple(fc.oneof(fc.constant<Path>([]), fc.constantFrom(...objects)), replacement, key)
      .map(([path, raw, name]) => mutate(valid, path, raw, "add-key", name)),
    fc.constantFrom(...paths).map((path) => mutate(valid, path, "", "delete", "")),
  );
  const json = fc.oneof(
    { weight: 6, arbitrary: mutated },
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 4 }).map((value) => JSON.stringify(value) ?? "null") },
    { weight: 1, arbitrary: fc.string({ maxLength: 200 }) },
    { weight: 1, arbitrary: fc.constant(JSON.stringify(valid)) },
  );
  return fc.oneof(
    { weight: 8, arbitrary: fc.record({ body: json as fc.Arbitrary<string | Uint8Array>, contentType }) },
    { weight: 1, arbitrary: mutated.chain(invalidUtf8).map((body) => ({ body, contentType: "application/json" })) },
    {
      weight: 1,
      arbitrary: fc.uint8Array({ maxLength: 300 }).map((body) => ({ body, contentType: "application/json" })),
    },
  );
}

describe("fuzzing the POST endpoints: never a 5xx, errors in the endpoint's shape", () => {
  const env = testEnv();
  for (const [name, endpoint] of Object.entries(endpoints)) {
    it(`${endpoint.path} (${name}): ${RUNS} random and mutated requests`, async () => {
      const statuses = new Map<number, number>();
      await fc.assert(
        fc.asyncProperty(requests(endpoint), async ({ body, contentType }) => {
          const headers: Record<string, string> = contentType === null ? {} : { "content-type": contentType };
          const response = await worker().call(
            new Request(`http://localhost:8787${endpoint.path}`, { method: "POST", headers, body }),
            env,
          );
          statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
          expect(response.status, name).toBeLessThan(500);
          if (response.status >= 400) {
            const error = await endpoint.expectError(response);
            expect(error.code).toMatch(/^[a-z_]+$/);
          } else {
            expect(response.status).toBe(200);
            // Offline, the replay or the scripted model answers: a stream that failed inside is the Worker's fault.
            expect(await response.text()).not.toMatch(/stream-failed|STREAM_FAILED/);
          }
        }),
        { seed: 20261124, numRuns: RUNS, endOnFailure: true },
      );
      // The seed reaches both sides: requests the Worker accepts, and ones it refuses.
      expect(statuses.get(200) ?? 0).toBeGreaterThan(0);
      expect([...statuses.keys()].some((status) => status >= 400)).toBe(true);
      // 300 whole requests: seconds on a loaded machine.
    }, 60_000);
  }
});
