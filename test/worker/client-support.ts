// Helpers of the client-protocol tests: the real clients (openai-node, @anthropic-ai/sdk, the AI SDK, @ag-ui/client)
// talk to the Worker's fetch handler through their `fetch` option (no network, no sockets), and
// what `POST /v1/stream` gives for the same request is the reference.
import Anthropic from "@anthropic-ai/sdk";
import type * as ai from "ai";
import OpenAI from "openai";
import OpenAI7 from "openai-v7";
import { expect } from "vitest";
import type { FinishEvent } from "../../src/index.ts";
import type { Env } from "../../worker/env.ts";
import { upstreamProviders } from "../../worker/upstream/providers/index.ts";
import type { Recording } from "../../worker/upstream/replay/recording.ts";
import type { Timers } from "../../worker/runtime.ts";
import { declaredTools, FakeUpstream, ManualTimers, readSSE, streamRequest, testEnv, worker } from "./support.ts";

/** A tool definition, as each request offers it. */
export interface ToolDefinition {
  name: string;
  description: string;
  parameters: { type: "object"; properties?: Record<string, unknown> };
}

/** A tool definition each request offers. */
export const TOOL: ToolDefinition = {
  name: "lookup",
  description: "Look something up.",
  parameters: { type: "object", properties: { query: { type: "string" } } },
};

/**
 * Every recording the Worker replays, with a prompt that picks it (by its name), by provider, and
 * the tools a request declares for it: {@link TOOL} and each tool the recording calls (a call to a
 * tool the request did not declare is an `invalid-tool-call`: the request's tools are a contract).
 */
export const replays: { provider: string; recording: Recording; prompt: string; tools: ToolDefinition[] }[] =
  Object.entries(upstreamProviders).flatMap(([provider, upstream]) =>
    upstream.recordings.map((recording) => ({
      provider,
      recording,
      prompt: `Replay ${recording.name}: tell me about ${recording.keywords.join(" and ")}`,
      tools: [TOOL, ...declaredTools(recording.tools.filter((name) => name !== TOOL.name))],
    })),
  );

/** A `fetch` that sends every request to the Worker's handler, as a client on localhost would. */
export function workerFetch(options: { env?: Env; upstream?: FakeUpstream; timers?: Timers } = {}): typeof fetch {
  const { call } = worker(options.upstream ?? new FakeUpstream({ kind: "hang" }), options.timers ?? new ManualTimers());
  const env = options.env ?? testEnv();
  return (async (input: RequestInfo | URL, init?: RequestInit) => call(new Request(input, init), env)) as typeof fetch;
}

/** A {@link workerFetch} that notes each path (and query) the client sent, as `paths`. */
export function recordingFetch(upstream: FakeUpstream, env: Env): { fetch: typeof fetch; paths: string[] } {
  const paths: string[] = [];
  const inner = workerFetch({ env, upstream });
  const fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(input instanceof Request ? input.url : input);
    paths.push(`${url.pathname}${url.search}`);
    return inner(input, init);
  }) as typeof globalThis.fetch;
  return { fetch, paths };
}

/** An env with an OpenAI and an Anthropic upstream on their own fake hosts, and client token `t`. */
export const OPENAI_ANTHROPIC_ENV: Env = testEnv({
  OPENAI_API_KEY: "k",
  OPENAI_BASE_URL: "https://provider.test/v1",
  ANTHROPIC_API_KEY: "a",
  ANTHROPIC_BASE_URL: "https://anthropic.test/v1",
  CLIENT_TOKEN: "t",
});

/** An env with every provider live on its default (fake) host, and client token `t`. */
export const EVERY_PROVIDER_ENV: Env = testEnv({
  CLIENT_TOKEN: "t",
  OPENAI_API_KEY: "k",
  ANTHROPIC_API_KEY: "k",
  GEMINI_API_KEY: "k",
  COHERE_API_KEY: "k",
  AWS_ACCESS_KEY_ID: "AKIDEXAMPLE",
  AWS_SECRET_ACCESS_KEY: "secret",
  AWS_REGION: "us-east-1",
  OLLAMA_BASE_URL: "http://ollama.test:11434/",
});

/** openai-node as a client of the Worker (token `t`, no retries), its upstream `upstream`. */
export function openAIClient(upstream: FakeUpstream, env: Env = OPENAI_ANTHROPIC_ENV): OpenAI {
  return new OpenAI(clientOptions(upstream, env));
}

/** @anthropic-ai/sdk as a client of the Worker (token `t`, no retries), its upstream `upstream`. */
export function anthropicClient(upstream: FakeUpstream, env: Env = OPENAI_ANTHROPIC_ENV): Anthropic {
  return new Anthropic({ ...clientOptions(upstream, env), baseURL: "http://localhost:8787" });
}

/** {@link openAIClient} with openai-node 7 (npm alias `openai-v7`), for its newer types. */
export function openAI7Client(upstream: FakeUpstream, env: Env = OPENAI_ANTHROPIC_ENV): OpenAI7 {
  return new OpenAI7(clientOptions(upstream, env));
}

const clientOptions = (upstream: FakeUpstream, env: Env) => ({
  baseURL: "http://localhost:8787/v1",
  apiKey: "t",
  fetch: workerFetch({ env, upstream }),
  maxRetries: 0,
});

/** The calls `POST /v1/stream` gives for a prompt: the reference every protocol must match. */
export async function streamCalls(
  provider: string,
  prompt: string,
  tools: readonly ToolDefinition[] = [TOOL],
  env: Env = testEnv(),
): Promise<{ finish: FinishEvent; recording: string | null }> {
  const response = await worker().call(
    streamRequest({ provider, model: "test-model", messages: [{ role: "user", content: prompt }], tools }),
    env,
  );
  const { events } = await readSSE(response);
  const finish = events.at(-1);
  if (finish?.type !== "finish") throw new Error(`/v1/stream ends with finish: ${JSON.stringify(finish)}`);
  return { finish, recording: response.headers.get("x-replay-recording") };
}

/**
 * The calls of a finish as `{id, name, arguments}`, ids of providers that give none left out: the
 * calls a client gets, which are not the provider's own (built-in tools it ran) unless the
 * protocol shows those too (`withProviderExecuted`: the AI SDK's UI stream does).
 */
export function referenceCalls(
  finish: FinishEvent,
  withProviderExecuted = false,
): { id: string | null; name: string; arguments: unknown; rawArguments: string }[] {
  return finish.toolCalls
    .filter((call) => withProviderExecuted || !call.providerExecuted)
    .map((call) => ({
      id: call.id,
      name: call.name,
      arguments: call.arguments,
      rawArguments: call.rawArguments,
    }));
}

/** A `POST` with a JSON body (or a raw one) to a path of the Worker on localhost. */
export function post(
  path: string,
  body: unknown,
  init: { headers?: Record<string, string>; raw?: string; host?: string } = {},
): Request {
  return new Request(`http://${init.host ?? "localhost:8787"}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...init.headers },
    body: init.raw ?? JSON.stringify(body),
  });
}

/**
 * A client's JSON `POST` (bearer `t`) to `path` of the Worker under `env`, its provider a fake that
 * answers 500: the Worker's status and text, and the requests that reached the provider.
 */
export async function postToFailingProvider(
  path: string,
  body: unknown,
  env: Env,
): Promise<{ status: number; text: string; upstream: FakeUpstream }> {
  const upstream = new FakeUpstream({ kind: "response", status: 500, body: "{}" });
  const response = await worker(upstream).call(post(path, body, { headers: { authorization: "Bearer t" } }), env);
  return { status: response.status, text: await response.text(), upstream };
}

/**
 * Reads a Messages stream as @anthropic-ai/sdk yields it, and checks its blocks: indexes
 * contiguous from 0, each started once and stopped once, in order, and no delta of a block never
 * started. Gives the tool_use blocks' names and the stop reason.
 */
export async function readMessageBlocks(
  events: AsyncIterable<Anthropic.RawMessageStreamEvent>,
): Promise<{ toolNames: string[]; stopReason: string | null }> {
  const [started, stopped, deltas, toolNames] = [[] as number[], [] as number[], new Set<number>(), [] as string[]];
  let stopReason: string | null = null;
  for await (const event of events) {
    if (event.type === "content_block_start") started.push(event.index);
    if (event.type === "content_block_start" && event.content_block.type === "tool_use")
      toolNames.push(event.content_block.name);
    if (event.type === "content_block_stop") stopped.push(event.index);
    if (event.type === "content_block_delta") deltas.add(event.index);
    if (event.type === "message_delta") stopReason = event.delta.stop_reason;
  }
  expect(started, "block indexes contiguous from 0").toEqual(started.map((_, i) => i));
  expect(stopped, "each block stopped once, in order").toEqual(started);
  expect(
    [...deltas].filter((index) => !started.includes(index)),
    "deltas of blocks never started",
  ).toEqual([]);
  return { toolNames, stopReason };
}

/**
 * What openai-node reads of a Responses stream's citations: the text each annotation of the
 * message's output_text spans (`""` for one that is no `url_citation`), and how many
 * `response.output_text.annotation.added` events announced one.
 */
export async function responsesCitedSpans(
  client: OpenAI,
  model: string,
  input: string,
): Promise<{ spans: string[]; announced: number }> {
  const stream = client.responses.stream({ model, input });
  let announced = 0;
  for await (const event of stream) if (event.type === "response.output_text.annotation.added") announced++;
  const response = await stream.finalResponse();
  const message = response.output.find((item) => item.type === "message");
  const part = message?.type === "message" ? message.content[0] : undefined;
  const annotations = part?.type === "output_text" ? part.annotations : [];
  const spans = annotations.map((annotation) =>
    annotation.type === "url_citation" ? response.output_text.slice(annotation.start_index, annotation.end_index) : "",
  );
  return { spans, announced };
}

/**
 * What openai-node reads of a Chat Completions answer's citations, asked twice (`client` makes a
 * client each time): the text each `url_citation` of the whole message spans, their titles, and
 * whether the streamed answer's final message has the same annotations.
 */
export async function chatCitedSpans(
  client: () => OpenAI,
  model: string,
  question: string,
): Promise<{ spans: string[]; titles: string[]; streamedSame: boolean }> {
  const messages = [{ role: "user" as const, content: question }];
  const message = (await client().chat.completions.create({ model, messages })).choices[0]!.message;
  const annotations = message.annotations ?? [];
  const streamed = await client().chat.completions.stream({ model, messages }).finalChatCompletion();
  return {
    spans: annotations.map(({ url_citation: { start_index, end_index } }) =>
      message.content!.slice(start_index, end_index),
    ),
    titles: annotations.map(({ url_citation }) => url_citation.title),
    streamedSame: JSON.stringify(streamed.choices[0]!.message.annotations) === JSON.stringify(message.annotations),
  };
}

/**
 * The assistant message the AI SDK (`sdk`: ai 6's API, which ai 7 keeps) reads when its
 * `DefaultChatTransport` sends `messages` to POST /v1/ui through `fetch`, with `body` and a client token.
 */
export async function uiAnswer(
  sdk: Pick<typeof ai, "DefaultChatTransport" | "readUIMessageStream">,
  fetch: typeof globalThis.fetch,
  body: Record<string, unknown>,
  messages: ai.UIMessage[],
): Promise<ai.UIMessage | undefined> {
  const transport = new sdk.DefaultChatTransport({
    api: "http://localhost:8787/v1/ui",
    fetch,
    headers: { authorization: "Bearer t" },
    body,
  });
  const chunks = await transport.sendMessages({
    chatId: "c",
    messages,
    abortSignal: undefined,
    trigger: "submit-message",
    messageId: undefined,
  });
  let last: ai.UIMessage | undefined;
  for await (const message of sdk.readUIMessageStream({ stream: chunks })) last = message;
  return last;
}

/** The text parts of a UI message, joined. */
export const uiText = (message: ai.UIMessage | undefined): string =>
  (message?.parts ?? []).flatMap((part) => (part.type === "text" ? [part.text] : [])).join("");
