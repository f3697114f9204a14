// POST /v1/stream takes an assistant message's `reasoning_parts` as the stream's
// `finish.reasoningParts` gave them (worker/README.md): every part the library's decoders keep
// passes its parser unchanged, and the provider's next request carries it as the library's own
// request builder would from the finish itself. Every recording (ours and other projects') is read
// by the library and its finish sent back, so a decoder that keeps a block of a new shape fails
// here until the parser takes it; the shapes no recording holds come from streams written from
// the providers' documented events (kept-block-streams.ts). A malformed part is a 400 naming the
// field at fault.
import { describe, expect, it } from "vitest";
import {
  assistantMessage,
  providerKit,
  streamToolCalls,
  type FinishEvent,
  type Provider,
  type ReasoningPart,
} from "../../src/index.ts";
import { HttpError } from "../../worker/response/json-error.ts";
import { parseStreamRequest } from "../../worker/request/parse-stream-request.ts";
import type { StreamRequest } from "../../worker/request/stream-request.ts";
import { providerNames } from "../../worker/upstream/providers/index.ts";
import { requestBody } from "../../worker/upstream/providers/request-body.ts";
import { externalBodies, externalFixtures, externalProvider } from "../support/external-fixtures.ts";
import { supportedProvider } from "../support/fixture-provider.ts";
import { allFixtures, recordingsAvailable } from "../support/fixtures.ts";
import { bytes, collect, fromChunks } from "../support/streams.ts";
import { KEPT_BLOCK_STREAMS } from "./kept-block-streams.ts";

/** A turn that kept reasoning parts: where it came from, its provider and its finish. */
interface KeptTurn {
  name: string;
  provider: Provider;
  finish: FinishEvent & { reasoningParts: ReasoningPart[] };
}

/** The finishes of a body that kept reasoning parts (a body may hold several responses' worth). */
async function keptTurns(name: string, provider: Provider, body: Uint8Array<ArrayBuffer>): Promise<KeptTurn[]> {
  const events = await collect(streamToolCalls(fromChunks([body]), { provider }));
  return events.flatMap((event) =>
    event.type === "finish" && event.reasoningParts?.length
      ? [{ name, provider, finish: event as KeptTurn["finish"] }]
      : [],
  );
}

/**
 * The next turn's `/v1/stream` body as a client writes it from the finish (as JSON): the turn's
 * text, calls, parts and order, each call of the client's answered, then a question (its tools
 * declared).
 */
function nextTurn(turn: KeptTurn): Record<string, unknown> {
  const { text, toolCalls, reasoningParts, order } = JSON.parse(JSON.stringify(turn.finish)) as FinishEvent;
  const calls = toolCalls.map(({ id, name, arguments: args, index, providerMetadata, inputFormat }) => ({
    id,
    name,
    arguments: args,
    index,
    ...(providerMetadata && { providerMetadata }),
    ...(inputFormat && { inputFormat }),
  }));
  const results = toolCalls
    .filter((call) => !call.providerExecuted)
    .map((call) => ({ role: "tool", tool_call_id: call.id, name: call.name, content: "done" }));
  return {
    provider: turn.provider,
    model: "m-1",
    messages: [
      { role: "user", content: "Go on." },
      { role: "assistant", content: text, tool_calls: calls, reasoning_parts: reasoningParts, ...(order && { order }) },
      ...results,
      { role: "user", content: "And then?" },
    ],
    // Bedrock takes a turn with calls only with the tools listed.
    tools: [...new Set(toolCalls.map((call) => call.name))].map((name) => ({ name, parameters: { type: "object" } })),
  };
}

/** The provider request the Worker makes of the parsed body. */
const upstream = (request: StreamRequest) => requestBody(request.provider as Provider, request);

/** What the library's request builder makes of the same turn with the finish's own parts: the oracle. */
function libraryUpstream(request: StreamRequest, parts: ReasoningPart[]): unknown {
  const messages = request.messages.map((message) =>
    message.role === "assistant" ? { ...message, reasoningParts: parts } : message,
  );
  const tools = request.tools.map((tool) => ({ ...tool, jsonSchema: true }));
  return providerKit(request.provider as Provider).requestBody({ ...request, messages, tools });
}

/** JSON with each object's keys sorted: a value's text is then found in the text of any value that holds it. */
const canonical = (value: unknown): string =>
  JSON.stringify(value, (_key, member: unknown) =>
    typeof member === "object" && member !== null && !Array.isArray(member)
      ? Object.fromEntries(Object.entries(member).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : member,
  );

/**
 * Sends `turn` back: its parts pass unchanged, the provider request is the library's request
 * builder's from the finish's own parts, and each part that the library's next turn
 * (`assistantMessage`) sends back as it came (a kept block, a Responses reasoning item) is in it.
 * The number of parts so found.
 */
function sendsBack(turn: KeptTurn): number {
  const request = parseStreamRequest(nextTurn(turn), providerNames);
  expect(request.messages[1]!.role).toBe("assistant");
  expect(request.messages[1]).toHaveProperty("reasoningParts", turn.finish.reasoningParts);
  const body = upstream(request);
  expect(body).toEqual(libraryUpstream(request, turn.finish.reasoningParts));
  const library = [assistantMessage(turn.provider, turn.finish)].flat();
  const sent = canonical(body);
  let found = 0;
  for (const part of turn.finish.reasoningParts) {
    // A reasoning item of its id alone is left out of a request (the Worker sends `store: false`,
    // and OpenAI has no item of that id to read): one with encrypted content or raw reasoning goes.
    const item = part.type === "item" && (part.encryptedContent ?? part.content) !== undefined ? part.id : undefined;
    const form =
      part.type === "block"
        ? part.block
        : library.find((sent) => item !== undefined && sent["type"] === "reasoning" && sent["id"] === item);
    if (form === undefined || !canonical(library).includes(canonical(form))) continue;
    expect(sent, `${turn.name}: its ${part.type} part reaches the provider`).toContain(canonical(form));
    found++;
  }
  return found;
}

/** Every recording's turns that kept parts. */
async function recordedTurns(): Promise<KeptTurn[]> {
  const turns: KeptTurn[] = [];
  for (const fixture of allFixtures) {
    const provider = supportedProvider(fixture);
    if (provider) turns.push(...(await keptTurns(`${fixture.provider}/${fixture.name}`, provider, fixture.body)));
  }
  for (const fixture of externalFixtures)
    for (const body of externalBodies(fixture))
      turns.push(...(await keptTurns(`external ${fixture.name}`, externalProvider(fixture), body)));
  return turns;
}

/** The 400's `field` of a body `parseStreamRequest` refuses, or undefined when it takes it. */
function refusedField(body: unknown): string | undefined {
  try {
    parseStreamRequest(body, providerNames);
  } catch (error) {
    if (error instanceof HttpError && error.status === 400) return (error.body as { field?: string }).field;
    throw error;
  }
  return undefined;
}

describe("/v1/stream: an assistant message's reasoning_parts as finish.reasoningParts gave them", () => {
  it.skipIf(!recordingsAvailable)("every recording's kept parts pass unchanged and reach the provider", async () => {
    const turns = await recordedTurns();
    const failures: string[] = [];
    let found = 0;
    for (const turn of turns)
      try {
        found += sendsBack(turn);
      } catch (error) {
        failures.push(`${turn.name} (${turn.provider}): ${error instanceof Error ? error.message : String(error)}`);
      }
    expect(failures).toEqual([]);
    // The recordings hold blocks of many shapes: signed, redacted, items, fields, and kept blocks of each provider.
    const kinds = new Set(
      turns.flatMap((turn) => turn.finish.reasoningParts.map((part) => `${turn.provider} ${part.type}`)),
    );
    expect(kinds.size).toBeGreaterThan(10);
    expect(found).toBeGreaterThan(20);
  });

  for (const stream of KEPT_BLOCK_STREAMS)
    it(`${stream.name} passes unchanged and reaches the provider`, async () => {
      const read = typeof stream.body === "string" ? bytes(stream.body) : stream.body;
      const [turn] = await keptTurns(stream.name, stream.provider, read);
      expect(turn?.finish.reasoningParts.length).toBeGreaterThan(0);
      sendsBack(turn!);
      const body = upstream(parseStreamRequest(nextTurn(turn!), providerNames));
      const list = [body["messages"], body["input"], body["contents"]].find(Array.isArray);
      if (stream.sent) expect(list).toContainEqual(stream.sent);
      else expect(JSON.stringify(list)).not.toContain("yr.no");
    });
});

describe("/v1/stream: a malformed reasoning part is a 400 naming the field", () => {
  const at = "messages[1].reasoning_parts[0]";
  const sent = (provider: string, part: unknown) => ({
    provider,
    model: "m-1",
    messages: [
      { role: "user", content: "Go on." },
      { role: "assistant", content: "Sunny.", reasoning_parts: [part] },
      { role: "user", content: "And then?" },
    ],
  });
  const block = (value: unknown) => ({ type: "block", block: value });
  const cases: [string, string, unknown, string][] = [
    [
      "annotations that are no array",
      "openai-responses",
      block({ type: "text", text: "x", annotations: "a" }),
      `${at}.block.annotations`,
    ],
    ["a cited text without its text", "openai", block({ type: "text", annotations: [] }), `${at}.block.text`],
    ["a text block of no citations", "anthropic", block({ type: "text", text: "x" }), `${at}.block.citations`],
    [
      "a shell_call_output of no call",
      "openai-responses",
      block({ type: "shell_call_output", output: [] }),
      `${at}.block.call_id`,
    ],
    [
      "a toolResult of no toolUseId",
      "bedrock",
      block({ toolResult: { toolUseId: 7, content: [] } }),
      `${at}.block.toolResult.toolUseId`,
    ],
    [
      "a citationsContent of no citations",
      "bedrock",
      block({ citationsContent: { content: [] } }),
      `${at}.block.citationsContent.citations`,
    ],
    [
      "a Bedrock image of no bytes",
      "bedrock",
      block({ image: { format: "png", source: { s3Location: { uri: "s3://b/o" } } } }),
      `${at}.block.image.source.bytes`,
    ],
    [
      "groundingMetadata that is no object",
      "gemini",
      block({ groundingMetadata: "x" }),
      `${at}.block.groundingMetadata`,
    ],
    [
      "groundingMetadata beside another member",
      "gemini",
      block({ groundingMetadata: {}, fileData: {} }),
      `${at}.block`,
    ],
    [
      "a Gemini part naming a file",
      "gemini",
      block({ executableCode: {}, fileData: { fileUri: "gs://b/o" } }),
      `${at}.block`,
    ],
    [
      "a block of no shape a decoder keeps",
      "anthropic",
      block({ type: "tool_use", id: "t", name: "n", input: {} }),
      `${at}.block`,
    ],
    [
      "an item's content that is no array",
      "openai-responses",
      { type: "item", id: "rs_1", content: "x" },
      `${at}.content`,
    ],
    [
      "a refusal's id that is no string",
      "openai-responses",
      { type: "field", field: "refusal", value: "no", id: 3 },
      `${at}.id`,
    ],
  ];
  for (const [name, provider, part, field] of cases)
    it(name, () => expect(refusedField(sent(provider, part))).toBe(field));
});
