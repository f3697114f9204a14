// A request body that is not UTF-8 is not JSON (RFC 8259 §8.1): it is refused with a 400 in the
// endpoint's own error shape, never decoded with U+FFFD in place of the bytes and sent on to the
// provider as if the client had written that.
import { describe, expect, it } from "vitest";
import { endpoints } from "./endpoint-bodies.ts";
import { FakeUpstream, liveOpenAI, testEnv, worker } from "./support.ts";

const env = testEnv({ ...liveOpenAI, CLIENT_TOKEN: "t" });

/** `text` as UTF-8 with `bad` put in before its character `at`. */
function withBytes(text: string, at: number, bad: number[]): Uint8Array {
  const bytes = new TextEncoder().encode(text);
  const cut = new TextEncoder().encode(text.slice(0, at)).length;
  return new Uint8Array([...bytes.subarray(0, cut), ...bad, ...bytes.subarray(cut)]);
}

/** A lone continuation byte, an overlong `/`, a surrogate's encoding, a sequence cut by the body's end. */
const BAD: [string, number[], boolean][] = [
  ["a lone continuation byte", [0x80], false],
  ["an overlong form", [0xc0, 0xaf], false],
  ["an encoded surrogate", [0xed, 0xa0, 0x80], false],
  ["a sequence the body's end cuts", [0xe2, 0x82], true],
];

describe("a request body that is not UTF-8", () => {
  for (const [name, endpoint] of Object.entries(endpoints)) {
    it(`${endpoint.path} (${name}): 400 invalid_json in the endpoint's shape, no provider request`, async () => {
      // An upstream that answers at once: a body sent on fails fast (a 502) rather than waits.
      const upstream = new FakeUpstream({ kind: "response", status: 500, body: "" });
      for (const [, bad, atEnd] of BAD) {
        const text = JSON.stringify(endpoint.valid());
        // Inside the text the user wrote (each endpoint's question ends with its first `?`), or at the end.
        const body = withBytes(text, atEnd ? text.length : text.indexOf("?"), bad);
        const response = await worker(upstream).call(
          new Request(`http://localhost:8787${endpoint.path}`, {
            method: "POST",
            headers: { "content-type": "application/json", authorization: "Bearer t" },
            body,
          }),
          env,
        );
        expect(response.status).toBe(400);
        const error = await endpoint.expectError(response);
        // Messages' error carries its type alone (invalid_request_error), not the Worker's code.
        expect(error.code).toBe(name === "messages" ? "invalid_request_error" : "invalid_json");
        expect(error.message).toBe("The request body is not valid JSON: it is not UTF-8.");
      }
      expect(upstream.requests).toEqual([]);
    });
  }
});
