// A request body with a `Content-Encoding`: gzip and deflate are decoded, the body limit holding for
// the bytes sent and for what they decode to (a zip bomb is a 413, its decoding stopped at the
// limit, never inflated whole); a body that is not what its coding says is a 400 (a gzip body of
// several members too: the platform's decoder reads one, and the message says so); another coding
// (zstd, br) a 415 whose `Accept-Encoding` names those taken (RFC 9110 §15.5.16), each in the
// endpoint's own error shape, and nothing reaches the provider.
import { describe, expect, it } from "vitest";
import { endpoints } from "./endpoint-bodies.ts";
import { FakeUpstream, liveOpenAI, testEnv, worker } from "./support.ts";

const LIMIT = 4096;
const env = testEnv({ ...liveOpenAI, CLIENT_TOKEN: "t", MAX_BODY_BYTES: `${LIMIT}`, MAX_AGENT_BODY_BYTES: `${LIMIT}` });

async function compressed(bytes: Uint8Array, format: "gzip" | "deflate"): Promise<Uint8Array> {
  const stream = new Blob([bytes]).stream().pipeThrough(new CompressionStream(format));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/** A body whose chunks are counted as they are pulled: how much of it the Worker read. */
function counted(bytes: Uint8Array): { body: ReadableStream<Uint8Array>; pulled: () => number } {
  let at = 0;
  const body = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (at >= bytes.length) return controller.close();
        controller.enqueue(bytes.slice(at, at + 256));
        at += 256;
      },
    },
    { highWaterMark: 0 },
  );
  return { body, pulled: () => at };
}

function send(
  app: ReturnType<typeof worker>,
  path: string,
  body: BodyInit,
  coding: string,
  length?: number,
): Promise<Response> {
  const headers: Record<string, string> = {
    "content-type": "application/json",
    authorization: "Bearer t",
    "content-encoding": coding,
  };
  if (length !== undefined) headers["content-length"] = `${length}`;
  return app.call(new Request(`http://localhost:8787${path}`, { method: "POST", headers, body }), env);
}

describe("a request body with a content coding", () => {
  for (const [name, endpoint] of Object.entries(endpoints)) {
    it(`${endpoint.path} (${name}): gzip and deflate are read as the JSON they hold`, async () => {
      const json = new TextEncoder().encode(JSON.stringify(endpoint.valid()));
      for (const format of ["gzip", "deflate"] as const) {
        const upstream = new FakeUpstream({ kind: "response", status: 500, body: "" });
        const response = await send(worker(upstream), endpoint.path, await compressed(json, format), format);
        await response.body?.cancel();
        // Read, checked, and sent on: the provider saw the request (its 500 is the provider's).
        expect(upstream.requests.length, format).toBeGreaterThan(0);
      }
    });

    it(`${endpoint.path} (${name}): a zip bomb is a 413 in the endpoint's shape`, async () => {
      const upstream = new FakeUpstream({ kind: "response", status: 500, body: "" });
      // About 1 KB sent, 1 MB of JSON whitespace decoded: within the limit as sent, past it decoded.
      const bomb = await compressed(new Uint8Array(1024 * 1024).fill(0x20), "gzip");
      expect(bomb.length).toBeLessThan(LIMIT);
      const answer = await send(worker(upstream), endpoint.path, bomb, "gzip", bomb.length);
      expect(answer.status).toBe(413);
      expect((await endpoint.expectError(answer)).message).toContain(`${LIMIT} bytes`);
      expect(upstream.requests).toEqual([]);
    });

    it(`${endpoint.path} (${name}): bytes that are not what their coding says are a 400; zstd a 415`, async () => {
      const upstream = new FakeUpstream({ kind: "response", status: 500, body: "" });
      const json = JSON.stringify(endpoint.valid());
      const broken = await send(worker(upstream), endpoint.path, json, "gzip");
      expect(broken.status).toBe(400);
      expect((await endpoint.expectError(broken)).message).toContain("gzip");
      for (const coding of ["zstd", "br", "gzip, gzip"]) {
        const refused = await send(worker(upstream), endpoint.path, json, coding);
        expect(refused.status, coding).toBe(415);
        expect(refused.headers.get("accept-encoding"), coding).toBe("gzip, deflate");
        expect((await endpoint.expectError(refused)).message, coding).toContain("Content-Encoding");
      }
      expect(upstream.requests).toEqual([]);
    });
  }

  it("a gzip body of two members (RFC 1952 §2.2) is a 400 that says one member is read", async () => {
    const upstream = new FakeUpstream({ kind: "response", status: 500, body: "" });
    const json = new TextEncoder().encode(JSON.stringify(endpoints["chat"]!.valid()));
    const half = json.length >> 1;
    const [first, second] = [
      await compressed(json.subarray(0, half), "gzip"),
      await compressed(json.subarray(half), "gzip"),
    ];
    const response = await send(
      worker(upstream),
      "/v1/chat/completions",
      new Uint8Array([...first, ...second]),
      "gzip",
    );
    expect(response.status).toBe(400);
    expect((await endpoints["chat"]!.expectError(response)).message).toBe(
      "The request body is not valid JSON: it is not valid gzip (`Content-Encoding`), or more than one gzip member, which this Worker does not read.",
    );
    expect(upstream.requests).toEqual([]);
  });

  it("a coded body past the limit as sent, with no Content-Length, is a 413 read no further than the limit", async () => {
    const bomb = await compressed(new Uint8Array(16 * 1024 * 1024).fill(0x20), "gzip");
    expect(bomb.length).toBeGreaterThan(2 * LIMIT);
    const { body, pulled } = counted(bomb);
    const response = await send(worker(), "/v1/stream", body, "gzip");
    expect(response.status).toBe(413);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe("body_too_large");
    expect(pulled()).toBeLessThanOrEqual(LIMIT + 512);
  });

  it("identity and no coding are read as they are", async () => {
    const upstream = new FakeUpstream({ kind: "response", status: 500, body: "" });
    const json = JSON.stringify(endpoints["stream"]!.valid());
    for (const coding of ["identity", ""]) {
      const response = await send(worker(upstream), "/v1/stream", json, coding);
      await response.body?.cancel();
    }
    expect(upstream.requests).toHaveLength(2);
  });
});
