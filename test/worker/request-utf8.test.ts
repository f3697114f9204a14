// A request body that is not UTF-8 is not JSON (RFC 8259 §8.1): it is refused with a 400 in the
// endpoint's own error shape, never decoded with U+FFFD in place of the bytes and sent on to the
// provider as if the client had written that. A body in another charset (UTF-16 or UTF-32, told by
// its BOM or its NUL bytes, named by the `charset` it declares if any; or bytes that are not UTF-8
// under another declared charset) is a 415 that names it; a `charset` alone changes nothing
// (RFC 8259 §11: UTF-8 JSON under `charset=utf-16` is read), and a UTF-8 BOM is skipped.
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

/** `text` as UTF-16 or UTF-32, little- or big-endian, with a BOM or without. */
function encoded(text: string, width: 2 | 4, littleEndian: boolean, bom: boolean): Uint8Array {
  const units = (bom ? "\ufeff" : "") + text;
  const bytes = new Uint8Array(units.length * width);
  const view = new DataView(bytes.buffer);
  for (let i = 0; i < units.length; i++) {
    if (width === 2) view.setUint16(i * 2, units.charCodeAt(i), littleEndian);
    else view.setUint32(i * 4, units.charCodeAt(i), littleEndian);
  }
  return bytes;
}

describe("a request body in another charset", () => {
  const send = (app: ReturnType<typeof worker>, path: string, body: BodyInit, type = "application/json") =>
    app.call(
      new Request(`http://localhost:8787${path}`, {
        method: "POST",
        headers: { "content-type": type, authorization: "Bearer t" },
        body,
      }),
      env,
    );

  for (const [name, endpoint] of Object.entries(endpoints)) {
    it(`${endpoint.path} (${name}): UTF-16 and UTF-32 are a 415 naming them, in the endpoint's shape`, async () => {
      const upstream = new FakeUpstream({ kind: "response", status: 500, body: "" });
      const text = JSON.stringify(endpoint.valid());
      const cases: [Uint8Array, string, string][] = [
        [encoded(text, 2, true, true), "application/json", "UTF-16LE, by its byte order mark"],
        [encoded(text, 2, false, true), "application/json", "UTF-16BE, by its byte order mark"],
        [encoded(text, 4, true, true), "application/json", "UTF-32LE, by its byte order mark"],
        [encoded(text, 4, false, true), "application/json", "UTF-32BE, by its byte order mark"],
        [encoded(text, 2, true, false), "application/json", "UTF-16 or UTF-32, by its NUL bytes"],
        [encoded(text, 2, false, false), "application/json; charset=UTF-16", "`charset=utf-16`"],
        [encoded(text, 2, true, false), 'application/json; charset="utf-16le"', "`charset=utf-16le`"],
        [withBytes(text, text.indexOf("?"), [0xe9]), "application/json; charset=ISO-8859-1", "`charset=iso-8859-1`"],
      ];
      for (const [body, type, which] of cases) {
        const response = await send(worker(upstream), endpoint.path, body, type);
        expect(response.status, `${type} ${which}`).toBe(415);
        const error = await endpoint.expectError(response);
        expect(error.message).toBe(`The request body is not UTF-8 (${which}): send the JSON as UTF-8 (RFC 8259 §8.1).`);
      }
      expect(upstream.requests).toEqual([]);
    });
  }

  it("a BOM split across the body's first chunks is told whole (first chunks of 1, 2 and 3 bytes)", async () => {
    const upstream = new FakeUpstream({ kind: "response", status: 500, body: "" });
    const text = JSON.stringify(endpoints["stream"]!.valid());
    const chunked = (bytes: Uint8Array, ...cuts: number[]) =>
      new ReadableStream<Uint8Array>({
        start(controller) {
          let at = 0;
          for (const cut of [...cuts, bytes.length]) controller.enqueue(bytes.slice(at, (at = cut)));
          controller.close();
        },
      });
    for (const [bytes, which] of [
      [encoded(text, 4, true, true), "UTF-32LE"],
      [encoded(text, 4, false, true), "UTF-32BE"],
      [encoded(text, 2, false, true), "UTF-16BE"],
    ] as const)
      for (const cuts of [[1], [2], [3], [1, 2], [0, 1, 3]]) {
        const response = await send(worker(upstream), "/v1/stream", chunked(bytes, ...cuts));
        expect(response.status, `${which} cut at ${cuts}`).toBe(415);
        expect((await endpoints["stream"]!.expectError(response)).message).toContain(`(${which}, by its byte`);
      }
    expect(upstream.requests).toEqual([]);
  });

  it("a charset alone changes nothing (RFC 8259 §11): ASCII under ISO-8859-1, UTF-8 under utf8 and under utf-16, and a UTF-8 BOM are read", async () => {
    const upstream = new FakeUpstream({ kind: "response", status: 500, body: "" });
    const text = JSON.stringify(endpoints["stream"]!.valid());
    const bom = new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode(text)]);
    for (const [body, type] of [
      [text, "application/json; charset=ISO-8859-1"],
      [text.replace("Paris", "Zürich"), "application/json; charset=utf8"],
      [bom, "application/json"],
      // A label that names another charset than the bytes are in: they are UTF-8 JSON, so they are read.
      [text, "application/json; charset=utf-16"],
    ] as const) {
      const response = await send(worker(upstream), "/v1/stream", body, type);
      await response.body?.cancel();
    }
    expect(upstream.requests).toHaveLength(4);
    expect(JSON.stringify(upstream.requests[1]!.body)).toContain("Zürich");
  });
});
