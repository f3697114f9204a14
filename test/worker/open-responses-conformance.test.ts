// Open Responses conformance of POST /v1/responses in workerd, in front of every provider: the
// cases of the spec's compliance suite (a basic text answer, streamed, a system prompt, a function
// tool called, streamed, an image in the input, a PDF in the input, a multi-turn history), each
// against a fake of the provider answering in its own wire format (the scripted model's writers)
// and against the offline replay, plus a fault mid-stream. Every event and every response object is checked against the spec's own OpenAPI
// schemas (test/support/open-responses.ts), and the stream against the rules of its text.
import { describe, expect, it } from "vitest";
import type { Provider } from "../../src/index.ts";
import type { Env } from "../../worker/env.ts";
import { readConformingResponse, readConformingStream } from "../support/open-responses.ts";
import { sharedData } from "../support/shared-data.ts";
import { post } from "./client-support.ts";
import { AUTH, LIVE, live, scripted, WEATHER } from "./open-responses-support.ts";
import { FakeUpstream, testEnv, worker } from "./support.ts";

const PROVIDERS = Object.keys(LIVE) as Provider[];

const user = (content: string) => ({ type: "message", role: "user", content });

/**
 * The compliance cases: a request, whether it streams, whether its answer holds a call, and the
 * providers that cannot take it (a 400 naming the field instead: Cohere and Ollama read no PDF).
 */
const CASES: { id: string; body: Record<string, unknown>; stream: boolean; call: boolean; refused?: string }[] = [
  { id: "basic-response", body: { input: [user("Say hello in three words.")] }, stream: false, call: false },
  { id: "streaming-response", body: { input: [user("Count from 1 to 5.")] }, stream: true, call: false },
  {
    id: "system-prompt",
    body: { input: [{ type: "message", role: "system", content: "Answer as a pirate." }, user("Say hello.")] },
    stream: false,
    call: false,
  },
  {
    id: "tool-calling",
    body: { input: [user("Weather in San Francisco?")], tools: [WEATHER] },
    stream: false,
    call: true,
  },
  {
    id: "tool-calling-streaming",
    body: { input: [user("Weather in San Francisco?")], tools: [WEATHER] },
    stream: true,
    call: true,
  },
  {
    // A 4x4 blue PNG of our own as a data URL (the suite's case sends one too): base64 bytes every
    // provider takes, so no provider needs a URL fetched.
    id: "image-input",
    body: {
      input: [
        {
          type: "message",
          role: "user",
          content: [
            { type: "input_text", text: "What do you see in this image? Answer in one sentence." },
            {
              type: "input_image",
              image_url:
                "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAQAAAAECAIAAAAmkwkpAAAAEElEQVR42mNQSDgARwzEcQD+QxQBBBkyzAAAAABJRU5ErkJggg==",
            },
          ],
        },
      ],
    },
    stream: false,
    call: false,
  },
  {
    // A one-line PDF of our own as base64 `file_data` with its `filename` (the suite's case sends one too).
    id: "file-input",
    body: {
      input: [
        {
          type: "message",
          role: "user",
          content: [
            { type: "input_text", text: "Read the attached file and answer with its title only." },
            {
              type: "input_file",
              filename: "title.pdf",
              file_data: "data:application/pdf;base64,JVBERi0xLjEKJSVFT0Y=",
            },
          ],
        },
      ],
    },
    stream: false,
    call: false,
    refused: "cohere ollama",
  },
  {
    id: "multi-turn",
    body: {
      input: [
        user("My name is Alice."),
        { type: "message", role: "assistant", content: "Hello Alice!" },
        user("What is my name?"),
      ],
    },
    stream: false,
    call: false,
  },
];

/** Sends a case and checks its answer; the issues found, the final response. */
async function conformance(
  provider: Provider,
  body: Record<string, unknown>,
  stream: boolean,
  upstream: FakeUpstream,
  env: Env,
) {
  const answer = await worker(upstream).call(
    post("/v1/responses", { model: `${provider}/test-model`, ...body, stream }, AUTH),
    env,
  );
  expect(answer.status).toBe(200);
  return stream ? readConformingStream(answer) : readConformingResponse(answer);
}

/** The output items of `type` (any type for `""`). */
const calls = (response: Record<string, unknown> | undefined, type = "function_call") =>
  ((response?.["output"] ?? []) as { type: string }[]).filter((item) => type === "" || item.type === type);

/**
 * The events the suite's `tool-calling-streaming` case requires of a streamed call that are
 * missing: its item added and done, at least one arguments delta, and the arguments' `.done`
 * (a provider that sends a call whole still streams it so).
 */
function missingCallEvents(reading: object): string[] {
  const events = "events" in reading ? (reading.events as Record<string, unknown>[]) : [];
  const seen = events.map((event) => {
    const item = (event["item"] as { type?: string } | undefined)?.type;
    return item ? `${event["type"]} ${item}` : String(event["type"]);
  });
  return [
    "response.output_item.added function_call",
    "response.function_call_arguments.delta",
    "response.function_call_arguments.done",
    "response.output_item.done function_call",
  ].filter((type) => !seen.includes(type));
}

describe.skipIf(!sharedData["open-responses"].available)("Open Responses conformance of /v1/responses", () => {
  for (const provider of PROVIDERS) {
    describe(provider, () => {
      for (const { id, body, stream, call, refused } of CASES) {
        if (refused?.split(" ").includes(provider)) {
          it(`${id}: a 400 naming the part it cannot take, live and offline`, async () => {
            for (const [upstream, env] of [
              [scripted(provider, {}), live(provider)] as const,
              [new FakeUpstream({ kind: "hang" }), testEnv()] as const,
            ]) {
              const answer = await worker(upstream).call(
                post("/v1/responses", { model: `${provider}/test-model`, ...body, stream }, AUTH),
                env,
              );
              const { error } = (await answer.json()) as { error: { type: string; param: string } };
              expect([answer.status, error.type, error.param]).toEqual([
                400,
                "invalid_request_error",
                "input[0].content[1].file_data",
              ]);
            }
          });
          continue;
        }
        it(`${id}, live: every event and the response conform`, async () => {
          const turn = call
            ? { calls: [{ name: "get_weather", arguments: { location: "San Francisco, CA" } }] }
            : { text: "Ahoy there, friend!" };
          const reading = await conformance(provider, body, stream, scripted(provider, turn), live(provider));
          const { issues, response } = reading;
          expect(issues).toEqual([]);
          expect(response?.["status"]).toBe("completed");
          expect(calls(response, "").length).toBeGreaterThan(0);
          expect(calls(response).length).toBe(call ? 1 : 0);
          if (stream && call) expect(missingCallEvents(reading)).toEqual([]);
        });

        it(`${id}, offline replay: every event and the response conform`, async () => {
          const reading = await conformance(provider, body, stream, new FakeUpstream({ kind: "hang" }), testEnv());
          const { issues, response } = reading;
          expect(issues).toEqual([]);
          expect(response?.["status"]).toBe("completed");
          expect(calls(response, "").length).toBeGreaterThan(0);
          if (stream && call) expect(missingCallEvents(reading)).toEqual([]);
        });
      }

      it("a connection broken mid-answer: an error event, then response.failed, then [DONE]", async () => {
        const upstream = scripted(provider, { text: "Ahoy there, friend! ".repeat(20) }, true);
        const { issues, response, events } = await readConformingStream(
          await worker(upstream).call(
            post("/v1/responses", { model: `${provider}/test-model`, input: "Hi", stream: true }, AUTH),
            live(provider),
          ),
        );
        expect(issues).toEqual([]);
        expect(events.slice(-2).map((event) => event["type"])).toEqual(["error", "response.failed"]);
        expect(response?.["status"]).toBe("failed");
      });

      it("a connection broken before a call's end: the call is discarded, never done and not in response.failed's output", async () => {
        const turn = {
          text: "Let me look.",
          calls: [{ name: "get_weather", arguments: { location: "San Francisco, CA" } }],
        };
        const body = { model: `${provider}/test-model`, input: "Weather?", tools: [WEATHER], stream: true };
        const upstream = scripted(provider, turn, { last: 3 });
        const { issues, response, events } = await readConformingStream(
          await worker(upstream).call(post("/v1/responses", body, AUTH), live(provider)),
        );
        expect(issues).toEqual([]);
        expect(response?.["status"]).toBe("failed");
        // Never done (Gemini and Ollama send a call whole: not even added), and not in the failed
        // output: a call whose end did not come is one no client should run.
        const shown = events.filter((e) => (e["item"] as { type?: string })?.type === "function_call");
        expect(shown.map((e) => e["type"])).not.toContain("response.output_item.done");
        expect(calls(response)).toEqual([]);
      });
    });
  }
});
