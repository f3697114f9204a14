// POST /v1/stream with Bedrock, Cohere and Ollama configured, against a fake upstream that
// answers with each provider's recorded body in its own framing (binary event stream, SSE,
// NDJSON) cut into small chunks: what is sent, what streams back, provider failures,
// cancellation and the credentials that make each provider live.
import { AwsV4Signer } from "aws4fetch";
import { describe, expect, it } from "vitest";
import { joinDeltas, streamToolCalls, type ToolCallEvent } from "../../src/index.ts";
import { createFetchHandler } from "../../worker/app.ts";
import type { Env } from "../../worker/env.ts";
import { exceptionMessage, converse, concat } from "../support/event-stream.ts";
import { fixturesOf, recordingsAvailable, summarize } from "../support/fixtures.ts";
import { collect } from "../support/streams.ts";
import {
  declaredTools,
  eventually,
  FakeUpstream,
  ManualTimers,
  readSSE,
  settled,
  streamRequest,
  testEnv,
  validBody,
  worker,
  type UpstreamAnswer,
} from "./support.ts";

const SECRET = "wJalrXUtnFEMI/K7MDENG+bPxRfiCYSECRETKEY";
const TOKEN = "FQoGZXIvYXdzSESSIONTOKEN/example==";
const COHERE_KEY = "co-SECRETKEY0123456789";
const OLLAMA_KEY = "ollama-SECRETKEY0123";

interface Case {
  provider: "bedrock" | "cohere" | "ollama";
  fixture: string;
  contentType: string;
  model: string;
  env: Partial<Env>;
  url: string;
}

const cases: Case[] = [
  {
    provider: "bedrock",
    fixture: "converse-nova-text-then-tool-use",
    contentType: "application/vnd.amazon.eventstream",
    model: "amazon.nova-micro-v1:0",
    env: {
      AWS_ACCESS_KEY_ID: "AKIDEXAMPLE",
      AWS_SECRET_ACCESS_KEY: SECRET,
      AWS_SESSION_TOKEN: TOKEN,
      AWS_REGION: "eu-central-1",
    },
    url: "https://bedrock-runtime.eu-central-1.amazonaws.com/model/amazon.nova-micro-v1%3A0/converse-stream",
  },
  {
    provider: "cohere",
    fixture: "tool-plan-then-parallel-tool-calls",
    contentType: "text/event-stream",
    model: "command-a-03-2025",
    env: { COHERE_API_KEY: COHERE_KEY },
    url: "https://api.cohere.com/v2/chat",
  },
  {
    provider: "ollama",
    fixture: "native-tool-call",
    contentType: "application/x-ndjson",
    model: "llama3.2",
    env: { OLLAMA_BASE_URL: "http://ollama.test:11434/" },
    url: "http://ollama.test:11434/api/chat",
  },
];

const auth = { headers: { authorization: "Bearer t" } };
const envOf = (c: Case, overrides: Partial<Env> = {}) => testEnv({ ...c.env, CLIENT_TOKEN: "t", ...overrides });
const fixtureOf = (c: Case) => fixturesOf(c.provider).find((f) => f.name === c.fixture)!;
/** The request's tools: get_weather, and those the case's recording calls (all there is without the recordings). */
const toolsOf = (c: Case) =>
  declaredTools(["get_weather", ...(fixtureOf(c)?.expected.toolCalls.map((call) => call.name) ?? [])]);
const requestOf = (c: Case, overrides: Record<string, unknown> = {}) =>
  streamRequest(validBody({ provider: c.provider, model: c.model, tools: toolsOf(c), ...overrides }), auth);

/** The body in chunks of `size` bytes: binary messages and UTF-8 text split anywhere. */
function chunked(body: Uint8Array, size: number): Uint8Array[] {
  const chunks: Uint8Array[] = [];
  for (let at = 0; at < body.length; at += size) chunks.push(body.slice(at, at + size));
  return chunks;
}

/** A fetch that keeps each request's body text as sent (what a signature covers) before the fake reads it. */
function keepingBodies(upstream: FakeUpstream) {
  const texts: string[] = [];
  const fetch = async (url: string, init: RequestInit): Promise<Response> => {
    const request = new Request(url, init);
    texts.push(await request.clone().text());
    return upstream.fetch(url, init);
  };
  return { texts, fetch };
}

function expectNoSecret(text: string): void {
  for (const secret of [SECRET, TOKEN, COHERE_KEY, OLLAMA_KEY, "SECRETKEY", "internal-host"])
    expect(text).not.toContain(secret);
}

describe.skipIf(!recordingsAvailable)("POST /v1/stream to Bedrock, Cohere and Ollama", () => {
  for (const c of cases) {
    it(`${c.provider}: the recorded ${c.contentType} body, cut into 7-byte chunks, streams the events the library reads from it`, async () => {
      const fixture = fixtureOf(c);
      const upstream = new FakeUpstream({
        kind: "sse",
        chunks: chunked(fixture.body, 7),
        headers: { "content-type": c.contentType },
      });
      const response = await worker(upstream).call(requestOf(c), envOf(c));
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
      expect(response.headers.get("x-replay-recording")).toBeNull();
      const text = await response.clone().text();
      const { messages, events } = await readSSE(response);
      const expected = await collect(
        streamToolCalls(new Response(fixture.body, { headers: { "content-type": c.contentType } }), {
          provider: c.provider,
        }),
      );
      // The same events, a call's (or the text's) fragments from one network chunk joined in one frame.
      expect(joinDeltas(events)).toEqual(JSON.parse(JSON.stringify(joinDeltas(expected))));
      expect(messages.map((m) => m.event)).toEqual(events.map((e) => e.type));
      expect(summarize(events)).toEqual(fixture.expected);
      expect(events.at(-1)).toMatchObject({ type: "finish" });
      expect(upstream.requests[0]?.url).toBe(c.url);
      expectNoSecret(text);
    });
  }

  it("bedrock: the request is signed as AWS checks it, over the body as sent, with the session token, and carries no secret", async () => {
    const c = cases[0]!;
    const upstream = new FakeUpstream({
      kind: "sse",
      chunks: [fixtureOf(c).body],
      headers: { "content-type": c.contentType },
    });
    const sent = keepingBodies(upstream);
    const handler = { call: createFetchHandler({ fetch: sent.fetch, timers: new ManualTimers() }) };
    const response = await handler.call(requestOf(c), envOf(c));
    await response.text();
    const seen = upstream.requests[0]!;
    const amzDate = seen.headers.get("x-amz-date")!;
    expect(amzDate).toMatch(/^\d{8}T\d{6}Z$/);
    expect(seen.headers.get("x-amz-security-token")).toBe(TOKEN);
    expect(seen.headers.get("content-type")).toBe("application/json");
    // What AWS computes on its side: the same canonical request from what it received.
    const received = { "content-type": "application/json", "x-amz-date": amzDate, "x-amz-security-token": TOKEN };
    const oracle = new AwsV4Signer({
      url: seen.url,
      method: "POST",
      headers: received,
      body: sent.texts[0]!,
      accessKeyId: "AKIDEXAMPLE",
      secretAccessKey: SECRET,
      sessionToken: TOKEN,
      service: "bedrock",
      region: "eu-central-1",
      datetime: amzDate,
      allHeaders: true,
    });
    expect(seen.headers.get("authorization")).toBe(await oracle.authHeader());
    expect(seen.headers.get("authorization")).toContain(
      `Credential=AKIDEXAMPLE/${amzDate.slice(0, 8)}/eu-central-1/bedrock/aws4_request, SignedHeaders=content-type;host;x-amz-date;x-amz-security-token, Signature=`,
    );
    const headerText = JSON.stringify([...seen.headers]);
    expect(headerText).not.toContain(SECRET);
    expect(JSON.parse(sent.texts[0]!)).toEqual(seen.body);
    expect(seen.body).toMatchObject({
      messages: [{ role: "user", content: [{ text: "What is the weather in Paris?" }] }],
      toolConfig: { tools: toolsOf(c).map((tool) => ({ toolSpec: { name: tool.name } })) },
    });
  });

  it("cohere sends its key as a bearer token; ollama sends none unless OLLAMA_API_KEY is set", async () => {
    for (const c of cases.slice(1)) {
      const upstream = new FakeUpstream({
        kind: "sse",
        chunks: [fixtureOf(c).body],
        headers: { "content-type": c.contentType },
      });
      await (await worker(upstream).call(requestOf(c), envOf(c))).text();
      expect(upstream.requests[0]?.headers.get("authorization")).toBe(
        c.provider === "cohere" ? `Bearer ${COHERE_KEY}` : null,
      );
      expect(upstream.requests[0]?.body).toMatchObject({ model: c.model, stream: true });
    }
    const ollama = cases[2]!;
    const upstream = new FakeUpstream({
      kind: "sse",
      chunks: [fixtureOf(ollama).body],
      headers: { "content-type": ollama.contentType },
    });
    await (await worker(upstream).call(requestOf(ollama), envOf(ollama, { OLLAMA_API_KEY: OLLAMA_KEY }))).text();
    expect(upstream.requests[0]?.headers.get("authorization")).toBe(`Bearer ${OLLAMA_KEY}`);
  });
});

describe.skipIf(!recordingsAvailable)("POST /v1/stream: failures of Bedrock, Cohere and Ollama", () => {
  const leaky = (message: string) => JSON.stringify({ message: `${message} ${SECRET} ${COHERE_KEY} internal-host-7` });
  const failures: [Case, UpstreamAnswer, number, string][] = [
    [
      cases[0]!,
      {
        kind: "response",
        status: 403,
        body: leaky("The security token included in the request is invalid."),
        headers: { "x-amzn-errortype": "UnrecognizedClientException" },
      },
      502,
      "upstream_auth_failed",
    ],
    [
      cases[0]!,
      {
        kind: "response",
        status: 400,
        body: leaky("ValidationException: The provided model identifier is invalid."),
        headers: { "x-amzn-errortype": "ValidationException" },
      },
      400,
      "upstream_rejected",
    ],
    [
      cases[0]!,
      {
        kind: "response",
        status: 429,
        body: leaky("ThrottlingException: Too many requests"),
        headers: { "x-amzn-errortype": "ThrottlingException", "retry-after": "3" },
      },
      429,
      "upstream_rate_limited",
    ],
    [
      cases[0]!,
      { kind: "response", status: 503, body: leaky("ServiceUnavailableException") },
      503,
      "upstream_overloaded",
    ],
    // A 200 of another type than the stream's or a whole answer's (application/json: ./whole-own-framings.test.ts).
    [
      cases[0]!,
      { kind: "response", status: 200, body: leaky("not a stream"), headers: { "content-type": "text/html" } },
      502,
      "upstream_error",
    ],
    [cases[1]!, { kind: "response", status: 401, body: leaky("invalid api token") }, 502, "upstream_auth_failed"],
    [cases[1]!, { kind: "response", status: 422, body: leaky("invalid request") }, 400, "upstream_rejected"],
    [
      cases[2]!,
      {
        kind: "response",
        status: 404,
        body: JSON.stringify({ error: `model "llama3.2" not found, try pulling it first ${SECRET}` }),
      },
      404,
      "upstream_rejected",
    ],
    [
      cases[2]!,
      { kind: "response", status: 200, body: leaky("not a stream"), headers: { "content-type": "text/plain" } },
      502,
      "upstream_error",
    ],
    [cases[2]!, { kind: "network-error" }, 502, "upstream_unreachable"],
  ];
  for (const [c, answer, status, code] of failures) {
    const what =
      answer.kind === "response" ? `${answer.status} ${answer.headers?.["content-type"] ?? ""}` : answer.kind;
    it(`${c.provider}: ${what} before the stream is ${status} ${code}, without the provider's body or any credential`, async () => {
      const upstream = new FakeUpstream(answer);
      const response = await worker(upstream).call(requestOf(c), envOf(c));
      const text = await response.text();
      expect(response.status).toBe(status);
      expect(JSON.parse(text)).toMatchObject({ error: { code } });
      if (answer.kind === "response") expect(JSON.parse(text).error.upstreamStatus).toBe(answer.status);
      if (status === 429) expect(response.headers.get("retry-after")).toBe("3");
      expectNoSecret(text);
      expect(text).not.toMatch(/security token|ValidationException|not found/);
    });
  }

  it("bedrock: an exception message mid-stream is an error event (its code, its kind and the Worker's sentence, never Bedrock's payload), after the text before it, then an abort", async () => {
    const c = cases[0]!;
    const body = concat([
      converse([
        ["messageStart", { role: "assistant" }],
        ["contentBlockDelta", { contentBlockIndex: 0, delta: { text: "Hello" } }],
      ]),
      exceptionMessage("throttlingException", { message: "Too many tokens, please wait before trying again." }),
    ]);
    const upstream = new FakeUpstream({
      kind: "sse",
      chunks: chunked(body, 5),
      headers: { "content-type": c.contentType },
    });
    const { events } = await readSSE(await worker(upstream).call(requestOf(c), envOf(c)));
    expect(events.map((e) => e.type)).toEqual(["text-delta", "error", "abort"]);
    expect(events[1]).toEqual({
      type: "error",
      error: {
        code: "provider-error",
        message: "The provider's rate limit was reached; retry after a pause.",
        kind: "rate-limited",
        // What the limit counts, in OpenAI's terms: all that is kept of Bedrock's payload.
        data: { error: { type: "tokens" } },
      },
    });
    expect(JSON.stringify(events)).not.toMatch(/Too many tokens/);
  });

  it("ollama: an error line with status 200 is an error event after what came before it, then an abort", async () => {
    const c = cases[2]!;
    const lines = [
      '{"model":"llama3.2","message":{"role":"assistant","content":"Hi"},"done":false}\n',
      '{"error":"an error was encountered while running the model"}\n',
    ];
    const upstream = new FakeUpstream({ kind: "sse", chunks: lines, headers: { "content-type": c.contentType } });
    const { events } = await readSSE(await worker(upstream).call(requestOf(c), envOf(c)));
    expect(events[0]).toMatchObject({ type: "text-delta", text: "Hi" });
    expect(events.find((e) => e.type === "error")).toMatchObject({ error: { code: "provider-error" } });
    expect(events.at(-1)).toMatchObject({ type: "abort" });
  });

  it("bedrock: a body cut inside a message ends with an error, then an abort (a finish after messageStop), never a hang", async () => {
    const c = cases[0]!;
    const body = fixtureOf(c).body;
    const read = async (length: number) => {
      const upstream = new FakeUpstream({
        kind: "sse",
        chunks: [body.slice(0, length)],
        headers: { "content-type": c.contentType },
      });
      return (await readSSE(await worker(upstream).call(requestOf(c), envOf(c)))).events;
    };
    const half = await read(body.length >> 1);
    expect(half.at(-2)).toMatchObject({ type: "error", error: { code: "truncated-event" } });
    expect(half.at(-1)).toMatchObject({ type: "abort" });
    // Inside the last frame (the metadata after messageStop): the answer was complete, as an SSE body cut there.
    const tail = await read(body.length - 9);
    expect(tail.some((e) => e.type === "tool-call")).toBe(true);
    expect(tail.at(-2)).toMatchObject({ type: "error", error: { code: "truncated-event" } });
    expect(tail.at(-1)).toMatchObject({ type: "finish" });
  });
});

describe.skipIf(!recordingsAvailable)("POST /v1/stream: Bedrock, Cohere and Ollama cancelled and timed out", () => {
  for (const c of cases) {
    it(`${c.provider}: a client that disconnects cancels the provider request`, async () => {
      const body = fixtureOf(c).body;
      const upstream = new FakeUpstream({
        kind: "sse",
        chunks: chunked(body, Math.ceil(body.length / 4)).slice(0, 2),
        headers: { "content-type": c.contentType },
        then: "stall",
      });
      const response = await worker(upstream).call(requestOf(c), envOf(c));
      const reader = response.body!.getReader();
      expect((await reader.read()).done).toBe(false);
      expect(upstream.cancelled).toBeUndefined();
      await reader.cancel("client went away");
      expect(await eventually(() => upstream.cancelled !== undefined)).toBe(true);
      expect(upstream.requests[0]?.signal.aborted).toBe(true);
    });
  }

  it("bedrock: a provider that stalls past IDLE_TIMEOUT_MS ends the stream with an error event and is cancelled", async () => {
    const c = cases[0]!;
    const body = converse([
      ["messageStart", { role: "assistant" }],
      ["contentBlockDelta", { contentBlockIndex: 0, delta: { text: "Hel" } }],
    ]);
    const upstream = new FakeUpstream({
      kind: "sse",
      chunks: [body],
      headers: { "content-type": c.contentType },
      then: "stall",
    });
    const timers = new ManualTimers();
    const response = await worker(upstream, timers).call(requestOf(c), envOf(c, { IDLE_TIMEOUT_MS: "5000" }));
    const reader = response.body!.getReader();
    let received = new TextDecoder().decode((await reader.read()).value);
    expect(await eventually(() => timers.handlesOf(5000).length === 1)).toBe(true);
    await settled();
    timers.fire(timers.handlesOf(5000)[0]!);
    for (let r = await reader.read(); !r.done; r = await reader.read()) received += new TextDecoder().decode(r.value);
    const { events } = await readSSE(new Response(received));
    expect(events.map((e) => e.type)).toEqual(["text-delta", "error", "abort"]);
    expect(events[1]).toMatchObject({ error: { code: "idle-timeout" } });
    expect(await eventually(() => upstream.cancelled !== undefined)).toBe(true);
  });
});

describe.skipIf(!recordingsAvailable)("what makes Bedrock, Cohere and Ollama live", () => {
  it("without their credentials each is answered by its replay, and with any of them the localhost open mode ends", async () => {
    for (const c of cases) {
      const upstream = new FakeUpstream({ kind: "hang" });
      const replay = [{ role: "user", content: `Replay ${fixtureOf(c).name}` }];
      const replayed = await worker(upstream).call(
        streamRequest(validBody({ provider: c.provider, model: c.model, messages: replay, tools: toolsOf(c) })),
        testEnv(),
      );
      expect(replayed.status).toBe(200);
      expect(replayed.headers.get("x-replay-recording")).toBe(fixtureOf(c).name);
      const events: ToolCallEvent[] = (await readSSE(replayed)).events;
      expect(summarize(events)).toEqual(fixtureOf(c).expected);
      expect(upstream.requests).toHaveLength(0);
      const open = await worker(upstream).call(
        streamRequest(validBody({ provider: c.provider, model: c.model })),
        testEnv(c.env),
      );
      expect(open.status).toBe(401);
    }
  });

  it("half the AWS key pair, or a region that is no region, is a 500 that names the variable and not its value", async () => {
    const c = cases[0]!;
    for (const env of [{ AWS_SECRET_ACCESS_KEY: SECRET }, { ...c.env, AWS_REGION: "attacker.example#" }]) {
      const upstream = new FakeUpstream({ kind: "hang" });
      const response = await worker(upstream).call(requestOf(c), testEnv({ ...env, CLIENT_TOKEN: "t" }));
      const text = await response.text();
      expect(response.status).toBe(500);
      expect(JSON.parse(text)).toMatchObject({ error: { code: "worker_misconfigured" } });
      expect(text).toMatch(/AWS_/);
      expect(text).not.toContain("attacker");
      expectNoSecret(text);
      expect(upstream.requests).toHaveLength(0);
    }
  });

  it("BEDROCK_BASE_URL replaces the regional endpoint (a VPC or FIPS endpoint)", async () => {
    const c = cases[0]!;
    const upstream = new FakeUpstream({
      kind: "sse",
      chunks: [fixtureOf(c).body],
      headers: { "content-type": c.contentType },
    });
    const env = envOf(c, {
      AWS_REGION: "us-east-1",
      BEDROCK_BASE_URL: "https://bedrock-runtime-fips.us-east-1.amazonaws.com",
    });
    await (await worker(upstream).call(requestOf(c), env)).text();
    expect(upstream.requests[0]?.url).toBe(
      "https://bedrock-runtime-fips.us-east-1.amazonaws.com/model/amazon.nova-micro-v1%3A0/converse-stream",
    );
    expect(upstream.requests[0]?.headers.get("authorization")).toContain("/us-east-1/bedrock/aws4_request");
  });
});
