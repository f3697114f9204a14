import { describe, expect, it } from "vitest";
import { fixturesOf, summarize } from "../support/fixtures.ts";
import { upstreamProviders } from "../../worker/providers/index.ts";
import { replayDelay } from "../../worker/replay/pacing.ts";
import { pickRecording } from "../../worker/replay/recording.ts";
import { ManualTimers, eventually, readSSE, streamRequest, testEnv, validBody, worker } from "./support.ts";

describe("the replay upstream (no provider key)", () => {
  for (const [provider, upstream] of Object.entries(upstreamProviders)) {
    for (const recording of upstream.recordings) {
      it(`${provider}: "${recording.name}" streams the events of the recorded fixture`, async () => {
        const prompt = `Tell me about ${recording.keywords.join(" and ")}`;
        const response = await worker().call(streamRequest(validBody({ provider, messages: [{ role: "user", content: prompt }] })));
        expect(response.status).toBe(200);
        expect(response.headers.get("x-replay-recording")).toBe(recording.name);
        const fixture = fixturesOf(provider).find((f) => f.name === recording.name);
        expect(fixture, "the recording is a copy of a shared fixture").toBeDefined();
        expect(recording.events.join("")).toBe(fixture!.text);
        const { messages, events } = await readSSE(response);
        expect(summarize(events)).toEqual(fixture!.expected);
        expect(messages.map((m) => m.id)).toEqual(events.map((_, i) => String(i)));
      });
    }
  }

  it("a prompt that names nothing gets the provider's first recording", () => {
    const recordings = upstreamProviders.openai.recordings;
    expect(pickRecording(recordings, "hello")).toBe(recordings[0]);
    expect(pickRecording(recordings, "What is the CAPITAL of the UK?").name).toBe("chat-tool-call-gpt-4o-mini-usage");
  });

  // The idle timeout runs on the same clock, set far above any pacing delay so that the test
  // lets only the pacing timers fire.
  const IDLE = 999_999;
  const pacing = (ms: number) => ms !== IDLE;

  it("paces events like a model, on the injected clock: nothing arrives before its delay has passed", async () => {
    const timers = new ManualTimers();
    const env = testEnv({ REPLAY_DELAY_MS: "40", IDLE_TIMEOUT_MS: String(IDLE) });
    const response = await worker(undefined, timers).call(streamRequest(validBody({ messages: [{ role: "user", content: "capital of the UK" }] })), env);
    const reader = response.body!.getReader();
    let received = "";
    let done = false;
    const reading = (async () => {
      for (let r = await reader.read(); !r.done; r = await reader.read()) received += new TextDecoder().decode(r.value);
      done = true;
    })();
    let fired = 0;
    for (;;) {
      if (!(await eventually(() => done || timers.pendingDelays.some(pacing)))) throw new Error("the replay stalled");
      if (done) break;
      expect(received).not.toContain("event: finish");
      timers.fireWhere(pacing);
      fired++;
    }
    await reading;
    const paced = timers.scheduled.filter(pacing);
    expect(paced).toEqual(paced.map((_, i) => replayDelay(i, 40)));
    expect(paced[0]).toBe(240); // the wait for the first token
    expect(fired).toBe(upstreamProviders.openai.recordings[1]!.events.length);
    expect(received).toContain("event: finish");
  });

  it("the replay stops pacing when the client goes away", async () => {
    const timers = new ManualTimers();
    const env = testEnv({ REPLAY_DELAY_MS: "40", IDLE_TIMEOUT_MS: String(IDLE) });
    const response = await worker(undefined, timers).call(streamRequest(validBody()), env);
    const reader = response.body!.getReader();
    const first = reader.read();
    for (let i = 0; i < 3; i++) {
      expect(await eventually(() => timers.pendingDelays.some(pacing))).toBe(true);
      timers.fireWhere(pacing);
    }
    expect((await first).value).toBeDefined();
    await reader.cancel();
    expect(await eventually(() => timers.pending === 0)).toBe(true);
  });
});

