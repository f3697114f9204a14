// Other projects' recordings (../shared/external-fixtures, bundled by scripts/bundle-fixtures.mjs),
// each with the result THAT project's tests expect: an oracle independent of this project's code.
// The bodies are rebuilt as each source's README says (SSE `data:` lines, with `event:` names for
// Anthropic, Responses and Cohere; AWS event-stream frames for Bedrock; NDJSON lines for Ollama),
// one body per HTTP response where a file holds several back to back.
import bundle from "../generated/external-fixtures.json" with { type: "json" };
import { assistantMessage, type FinishReason, type Provider, type ToolCallEvent, type Usage } from "../../src/index.ts";
import { eventMessage } from "./event-stream.ts";
import { deepEqual } from "./harness.ts";
import { bytes } from "./streams.ts";

/** The normalized usage counts an expectation may state. */
type UsageCount = Exclude<keyof Usage, "raw">;

/** One expected call: a field that is absent (or null) is not compared. */
type ExpectedCall = { id?: string | null; name?: string | null; arguments?: unknown };

/** What the source's tests assert; a null field is not compared. */
export interface ExternalExpected {
  text: string | null;
  /** The calls the client must run, in order (`null`: not compared). */
  toolCalls: ExpectedCall[] | null;
  /** The calls the provider ran itself, where the source lists them (vercel/ai). */
  providerExecutedToolCalls?: ExpectedCall[] | null;
  finishReason: { unified?: string | null; raw?: string | null; notUnified?: string } | null;
  /** Counts the last body's finish usage must hold (the provider's own, read from the recording); absent: not compared. */
  usage?: Partial<Record<UsageCount, number>>;
  /**
   * The next turn `assistantMessage` must build from the last body's finish, as the source (or the
   * provider's docs) says it goes back: each content block's or input item's `type`, with `:id`
   * where it carries one (`id`, `call_id`, `tool_use_id`; Chat Completions: `content`,
   * `reasoning_content` and `tool_call:<id>`, `+extra_content` when the call carries one; Gemini: each part's fields joined by `+`, as
   * `functionCall:<id>+thoughtSignature`; Bedrock: each block's one key, as `toolUse:<id>` or `toolResult:<id>`).
   * Absent: not compared.
   */
  nextTurn?: string[];
}

/** One recording of another project. */
export interface ExternalFixture {
  /** The source folder: `vercel-ai`, `ollama`, `anthropic-sdk-typescript`, `openai-node`, `js-genai`. */
  source: string;
  /** The wire protocol's folder: `anthropic`, `openai`, `openai-responses`, `gemini`, `bedrock`, `cohere`, `ollama`. */
  provider: string;
  name: string;
  /** `raw`: the HTTP body itself; `chunks`: one payload a line. */
  wire: "raw" | "chunks";
  text: string;
  expected: ExternalExpected;
  /** Repository, commit and path of the recording. */
  origin: string;
  /** The manifest's note on how the recording was rebuilt or what is compared. */
  note?: string;
  /** Why this project differs from the source on purpose: run, but not counted. */
  disputed?: string;
  /** Rebuilt in this repository (test/recordings/external/): runs without ../shared. */
  inRepo?: boolean;
}

/** Every recording of every source (only the ones rebuilt in this repository without ../shared/external-fixtures). */
export const externalFixtures: ExternalFixture[] = bundle.fixtures as ExternalFixture[];

/** The library's provider for a recording's protocol folder. */
export function externalProvider(fixture: ExternalFixture): Provider {
  return fixture.provider as Provider;
}

const lines = (text: string): string[] => text.split("\n").filter((line) => line.trim() !== "");

/** The payload lines of each HTTP response: a new one starts at each `message_start` / `response.created` after the first. */
function responses(fixture: ExternalFixture): string[][] {
  const starts = fixture.provider === "anthropic" ? "message_start" : "response.created";
  const bodies: string[][] = [];
  for (const line of lines(fixture.text)) {
    const type = fixture.provider === "bedrock" ? undefined : (JSON.parse(line) as { type?: unknown }).type;
    if (bodies.length === 0 || type === starts) bodies.push([]);
    bodies[bodies.length - 1]!.push(line);
  }
  return bodies;
}

/** One response's wire bytes from its payload lines. */
function wireOf(provider: string, payloads: readonly string[]): Uint8Array<ArrayBuffer> {
  switch (provider) {
    case "bedrock": {
      const frames = payloads.map((line) => {
        const [[type, payload]] = Object.entries(JSON.parse(line) as Record<string, unknown>) as [[string, unknown]];
        return eventMessage(type, payload);
      });
      const out = new Uint8Array(frames.reduce((sum, frame) => sum + frame.length, 0));
      let at = 0;
      for (const frame of frames) {
        out.set(frame, at);
        at += frame.length;
      }
      return out;
    }
    case "ollama":
      return bytes(payloads.map((line) => `${line}\n`).join(""));
    case "anthropic":
    case "openai-responses":
    case "cohere":
      return bytes(
        payloads.map((line) => `event: ${(JSON.parse(line) as { type: string }).type}\ndata: ${line}\n\n`).join(""),
      );
    case "openai":
      return bytes(`${payloads.map((line) => `data: ${line}\n\n`).join("")}data: [DONE]\n\n`);
    default:
      return bytes(payloads.map((line) => `data: ${line}\n\n`).join(""));
  }
}

/** The HTTP bodies of a recording, in order. */
export function externalBodies(fixture: ExternalFixture): Uint8Array<ArrayBuffer>[] {
  if (fixture.wire === "raw") return [bytes(fixture.text)];
  return responses(fixture).map((payloads) => wireOf(fixture.provider, payloads));
}

/** What a recording's bodies gave: every body's calls and text, the last body's finish. */
export interface ExternalResult {
  text: string;
  /** Calls the client must run (an invalid one as `{invalid: true, raw}` arguments), in order. */
  toolCalls: { id: string | null; name: string; arguments: unknown }[];
  /** Calls the provider ran itself. */
  providerExecuted: { id: string | null; name: string }[];
  finish: { reason: FinishReason; rawReason: string | null } | undefined;
  /** The last body's finish event, for the next turn. */
  finishEvent: Extract<ToolCallEvent, { type: "finish" }> | undefined;
}

/** Reduces the events of each body, in order, to what the expectations compare. */
export function externalResult(runs: readonly (readonly ToolCallEvent[])[]): ExternalResult {
  const result: ExternalResult = {
    text: "",
    toolCalls: [],
    providerExecuted: [],
    finish: undefined,
    finishEvent: undefined,
  };
  for (const events of runs) {
    result.finish = undefined;
    result.finishEvent = undefined;
    for (const event of events) {
      if (event.type === "text-delta" && !event.choice) result.text += event.text;
      if (event.type === "tool-call" && event.providerExecuted)
        result.providerExecuted.push({ id: event.id, name: event.name });
      else if (event.type === "tool-call")
        result.toolCalls.push({ id: event.id, name: event.name, arguments: event.arguments });
      if (event.type === "invalid-tool-call")
        result.toolCalls.push({
          id: event.id,
          name: event.name,
          arguments: { invalid: true, raw: event.rawArguments },
        });
      if (event.type === "finish") {
        result.finish = { reason: event.reason, rawReason: event.rawReason };
        result.finishEvent = event;
      }
    }
  }
  return result;
}

/** Each call's stated fields; `fields` limits them (a provider-executed call's name and input are the source's own renaming). */
function callMismatches(
  what: string,
  actual: readonly Record<string, unknown>[],
  expected: readonly ExpectedCall[],
  fields: readonly (keyof ExpectedCall)[],
  generatedIds: boolean,
): string[] {
  if (actual.length !== expected.length) return [`${what}: ${actual.length} calls, expected ${expected.length}`];
  const out: string[] = [];
  expected.forEach((call, i) => {
    for (const field of fields) {
      const want = call[field];
      if (want === undefined || want === null) continue;
      if (field === "id" && generatedIds && actual[i]![field] === null) continue;
      if (!deepEqual(actual[i]![field], want))
        out.push(`${what}[${i}].${field}: ${JSON.stringify(actual[i]![field])}, expected ${JSON.stringify(want)}`);
    }
  });
  return out;
}

/**
 * Where a result differs from the source's expectation (empty: it agrees). Compared: the text, the
 * client's calls (their stated id, name and arguments), the provider-executed calls by id (vercel/ai
 * renames them and their input: `text_editor_code_execution` becomes `code_execution` with a
 * `type`), and the finish reason (`unified` against the normalized reason, `raw` against the
 * provider's, `notUnified` a reason it must not be) unless the manifest's note says it is not compared.
 */
export function externalMismatches(result: ExternalResult, fixture: ExternalFixture): string[] {
  const { expected } = fixture;
  // Gemini sends no call ids: the source's are its own (vercel/ai's mocked `generateId`, "test-id").
  const generatedIds = fixture.provider === "gemini";
  const out: string[] = [];
  if (expected.text !== null && result.text !== expected.text)
    out.push(
      `text: ${JSON.stringify(result.text.slice(0, 80))}..., expected ${JSON.stringify(expected.text.slice(0, 80))}...`,
    );
  if (expected.toolCalls)
    out.push(
      ...callMismatches("toolCalls", result.toolCalls, expected.toolCalls, ["id", "name", "arguments"], generatedIds),
    );
  if (expected.providerExecutedToolCalls)
    out.push(
      ...callMismatches(
        "providerExecuted",
        result.providerExecuted,
        expected.providerExecutedToolCalls,
        ["id"],
        generatedIds,
      ),
    );
  // A file of several responses whose expectation is the source's reading of them as one stream.
  const finish = fixture.note?.includes("finish reason not compared") ? null : expected.finishReason;
  if (finish) {
    if (!result.finish) out.push("no finish event");
    else {
      if (finish.unified != null && result.finish.reason !== finish.unified)
        out.push(`finish reason ${result.finish.reason}, expected ${finish.unified}`);
      if (finish.raw != null && result.finish.rawReason !== finish.raw)
        out.push(`raw finish reason ${result.finish.rawReason}, expected ${finish.raw}`);
      if (finish.notUnified !== undefined && result.finish.reason === finish.notUnified)
        out.push(`finish reason ${result.finish.reason}, which the source rules out`);
    }
  }
  for (const [key, count] of Object.entries(expected.usage ?? {})) {
    const actual = result.finishEvent?.usage?.[key as UsageCount];
    if (actual !== count) out.push(`usage.${key}: ${actual}, expected ${count}`);
  }
  if (expected.nextTurn) {
    const turn = result.finishEvent ? nextTurnShape(fixture.provider, result.finishEvent) : [];
    if (!deepEqual(turn, expected.nextTurn))
      out.push(`next turn ${JSON.stringify(turn)}, expected ${JSON.stringify(expected.nextTurn)}`);
  }
  return out;
}

/** A block's or item's `type` (Bedrock: its one key), with its id (`call_id`, `id`, `tool_use_id`, Bedrock's `toolUseId`). */
const entryOf = (part: Record<string, unknown>): string => {
  const type = part["type"] ?? Object.keys(part)[0];
  const bedrock = (part["toolUse"] ?? part["toolResult"]) as { toolUseId?: unknown } | undefined;
  const id = part["call_id"] ?? part["id"] ?? part["tool_use_id"] ?? bedrock?.toolUseId;
  return typeof id === "string" ? `${String(type)}:${id}` : String(type);
};

/** The next turn `assistantMessage` builds, as an expectation's `nextTurn` lists it. */
function nextTurnShape(provider: string, finish: Extract<ToolCallEvent, { type: "finish" }>): string[] {
  const message = assistantMessage(provider as Provider, finish) as unknown;
  if (Array.isArray(message)) return (message as Record<string, unknown>[]).map(entryOf);
  const record = message as Record<string, unknown>;
  // Gemini: each part's fields, the call's id after `functionCall`.
  if (Array.isArray(record["parts"]))
    return (record["parts"] as Record<string, unknown>[]).map((part) =>
      Object.keys(part)
        .map((key) => {
          const id = (part[key] as { id?: unknown } | undefined)?.id;
          return key === "functionCall" && typeof id === "string" ? `${key}:${id}` : key;
        })
        .join("+"),
    );
  if (Array.isArray(record["content"])) return (record["content"] as Record<string, unknown>[]).map(entryOf);
  const calls = (record["tool_calls"] ?? []) as { id: string; extra_content?: unknown }[];
  return [
    // An empty one counts: DeepSeek refuses a call's turn without the field.
    ...(typeof record["reasoning_content"] === "string" ? ["reasoning_content"] : []),
    ...(record["content"] ? ["content"] : []),
    // Gemini's OpenAI compatibility carries a call's thought signature in its `extra_content`.
    ...calls.map((call) => `tool_call:${call.id}${call.extra_content === undefined ? "" : "+extra_content"}`),
  ];
}
