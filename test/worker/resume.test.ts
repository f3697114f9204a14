// Resumable responses through the RESPONSES Durable Objects: a client that disconnects at any
// point and reconnects with Last-Event-ID gets exactly the rest, with no second provider call.
import { describe, expect, it } from "vitest";
import { objectNameOf } from "../../worker/resumable/response-id.ts";
import {
  FakeUpstream,
  newTestResponseId,
  objectOf,
  readSSE,
  readThenDisconnect,
  responses,
  streamRequest,
  testEnv,
  testMac,
  validBody,
  worker,
} from "./support.ts";
import { runExpiryAlarm } from "./durable-support.ts";

const env = testEnv({ RESPONSES: responses });
const app = worker(new FakeUpstream({ kind: "network-error" }));
const resumeRequest = (id: string, lastEventId?: string, method = "GET"): Request =>
  new Request(`http://localhost:8787/v1/stream/${id}`, {
    method,
    headers: lastEventId === undefined ? {} : { "last-event-id": lastEventId },
  });

/** Seeded choice of cut points (no Math.random in tests). */
function cutPoints(total: number, seed: number, count: number): number[] {
  let state = seed;
  return Array.from({ length: count }, () => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state % (total + 1);
  });
}

describe("resumable responses (Durable Objects)", () => {
  it("a client that disconnects anywhere and resumes with Last-Event-ID gets the uninterrupted run, with no duplicate and no gap", async () => {
    for (const provider of ["openai", "anthropic", "gemini", "openai-responses"]) {
      const first = await app.call(streamRequest(validBody({ provider })), env);
      expect(first.status).toBe(200);
      const whole = (await readSSE(first)).messages;
      expect(whole.map((m) => m.id)).toEqual(whole.map((_, i) => String(i)));
      for (const cut of cutPoints(whole.length, provider.length * 7919, 4)) {
        const started = await app.call(streamRequest(validBody({ provider })), env);
        const id = started.headers.get("x-response-id")!;
        expect(id).toMatch(/^any-\d{1,2}\.[0-9a-f-]{36}\.[\w-]{22}$/);
        const before = await readThenDisconnect(started, cut);
        const resumed = await app.call(resumeRequest(id, before.at(-1)?.id ?? "-1"), env);
        expect(resumed.status).toBe(200);
        const after = (await readSSE(resumed)).messages;
        const received = [...before, ...after];
        expect(received.map((m) => m.id)).toEqual(whole.map((m) => m.id));
        expect(received.map((m) => [m.event, m.data])).toEqual(whole.map((m) => [m.event, m.data]));
      }
    }
  });

  it("resumes of one response at once, from the same and other points, each get exactly their rest; a HEAD takes none from them", async () => {
    const first = await app.call(streamRequest(validBody({ provider: "anthropic" })), env);
    const whole = (await readSSE(first)).messages;
    const started = await app.call(streamRequest(validBody({ provider: "anthropic" })), env);
    const id = started.headers.get("x-response-id")!;
    const before = await readThenDisconnect(started, 2);
    const head = await app.call(resumeRequest(id, "1", "HEAD"), env);
    expect([head.status, head.headers.get("content-type"), await head.text()]).toEqual([
      200,
      expect.stringMatching(/^text\/event-stream/),
      "",
    ]);
    const points = ["1", "1", "-1", "0", String(whole.length - 1)];
    const resumed = await Promise.all(points.map((point) => app.call(resumeRequest(id, point), env)));
    const read = await Promise.all(resumed.map(async (response) => (await readSSE(response)).messages));
    for (const [i, point] of points.entries())
      expect(
        read[i]!.map((m) => [m.id, m.event, m.data]),
        point,
      ).toEqual(whole.slice(Number(point) + 1).map((m) => [m.id, m.event, m.data]));
    expect(before.map((m) => m.data)).toEqual(whole.slice(0, 2).map((m) => m.data));
  });

  it("resuming never calls the provider again: the replay recording is not restarted", async () => {
    const started = await app.call(streamRequest(validBody()), env);
    const id = started.headers.get("x-response-id")!;
    const all = (await readSSE(started)).messages;
    const again = (await readSSE(await app.call(resumeRequest(id, "-1"), env))).messages;
    expect(again).toEqual(all);
  });

  it("an unknown id is 404 unknown_response; an id not of our shape, or not minted here, too", async () => {
    const started = await app.call(streamRequest(validBody()), env);
    const minted = started.headers.get("x-response-id")!;
    await started.text();
    const unsigned = minted.slice(0, minted.lastIndexOf("."));
    for (const id of [crypto.randomUUID(), "not-an-id", newTestResponseId(), `${unsigned}.${testMac()}`]) {
      const response = await app.call(resumeRequest(id, "3"), env);
      expect(response.status).toBe(404);
      expect(((await response.json()) as { error: { code: string } }).error.code).toBe("unknown_response");
    }
    // Signed with the isolate's key when RESPONSE_ID_SECRET is unset: another secret refuses it,
    // and so does a smaller pool (its slot is past the end).
    const slot = Number(objectNameOf(minted)!.split("-")[1]);
    for (const other of [{ RESPONSE_ID_SECRET: "another" }, { RESPONSE_OBJECTS: String(slot) }]) {
      if (other.RESPONSE_OBJECTS === "0") continue;
      const response = await app.call(resumeRequest(minted, "0"), { ...env, ...other });
      expect(response.status).toBe(404);
    }
    expect((await app.call(resumeRequest(minted, "0"), env)).status).toBe(200);
  });

  it("with RESPONSE_ID_SECRET set, ids are signed with it: any isolate that holds it accepts them", async () => {
    const signed = { ...env, RESPONSE_ID_SECRET: "deploy-secret" };
    const started = await app.call(streamRequest(validBody()), signed);
    const id = started.headers.get("x-response-id")!;
    const all = (await readSSE(started)).messages;
    expect((await app.call(resumeRequest(id, "-1"), env)).status).toBe(404);
    const resumed = await app.call(resumeRequest(id, "-1"), { ...signed });
    expect((await readSSE(resumed)).messages).toEqual(all);
  });

  it("a Last-Event-ID past the end or malformed is a clear error", async () => {
    const started = await app.call(streamRequest(validBody()), env);
    const id = started.headers.get("x-response-id")!;
    await started.text();
    const past = await app.call(resumeRequest(id, "100000"), env);
    expect(past.status).toBe(400);
    expect(await past.json()).toMatchObject({ error: { code: "invalid_request" } });
    expect((await app.call(resumeRequest(id, "abc"), env)).status).toBe(400);
  });

  it("a Last-Event-ID the response never sent as an id (-0, 01, 1e2, +1) is a 400 naming it, never read as a number", async () => {
    const started = await app.call(streamRequest(validBody()), env);
    const id = started.headers.get("x-response-id")!;
    const all = (await readSSE(started)).messages;
    // The ids it sent, and -1 (no event seen yet), each resume where they say.
    expect((await readSSE(await app.call(resumeRequest(id, "0"), env))).messages).toEqual(all.slice(1));
    expect((await readSSE(await app.call(resumeRequest(id, "-1"), env))).messages).toEqual(all);
    // Past what a number holds exactly, or 100,000 digits: refused as ids it never sent, not rounded.
    const huge = ["9007199254740993", "9".repeat(100_000), "1".repeat(400)];
    for (const lastEventId of ["-0", "01", "00", "1e2", "+1", "1.0", "0x1", "-2", "1, 2", ...huge]) {
      const refused = await app.call(resumeRequest(id, lastEventId), env);
      expect(refused.status, lastEventId).toBe(400);
      expect(await refused.json(), lastEventId).toMatchObject({
        error: { code: "invalid_request", field: "Last-Event-ID", message: expect.stringContaining("Last-Event-ID") },
      });
    }
    // The query parameter of EventSource polyfills, taken as sent (a header's edges are trimmed by HTTP).
    const spaced = await app.call(new Request(`http://localhost:8787/v1/stream/${id}?lastEventId=%201`), env);
    expect([spaced.status, ((await spaced.json()) as { error: { field: string } }).error.field]).toEqual([
      400,
      "lastEventId",
    ]);
  });

  it("an expired response (its time to live passed) is 404", async () => {
    const started = await app.call(streamRequest(validBody()), env);
    const id = started.headers.get("x-response-id")!;
    await started.text();
    expect(await runExpiryAlarm(objectOf(id))).toBe(true);
    expect((await app.call(resumeRequest(id, "0"), env)).status).toBe(404);
  });

  it("resuming needs the client token like starting does", async () => {
    const locked = testEnv({ RESPONSES: responses, CLIENT_TOKEN: "secret-token" });
    const response = await app.call(resumeRequest(crypto.randomUUID(), "0"), locked);
    expect(response.status).toBe(401);
  });
});
