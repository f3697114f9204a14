import {
  CheckBudget,
  checkToolArguments,
  type JsonValue,
  type Provider,
  streamToolCalls,
  type ToolCall,
  type ToolSchema,
} from "../../../src/index.ts";

/** A recorded provider response, replayed by the built-in upstream. */
export interface Recording {
  /** The fixture's name in shared/fixtures. */
  name: string;
  /** Words of a prompt that make this recording the answer (lower case). */
  keywords: readonly string[];
  /** The tools the recording calls, by name (none for a text answer). */
  tools: readonly string[];
  /**
   * The messages of the body, each with its framing, exactly as recorded: SSE events with their
   * blank line, NDJSON lines with their newline, or, with `binary`, AWS event-stream messages
   * (prelude to message CRC) as base64.
   */
  events: readonly string[];
  /**
   * The media type the body is served with.
   * @defaultValue "text/event-stream; charset=utf-8"
   */
  contentType?: string;
  /** True when `events` are binary messages written as base64. */
  binary?: boolean;
}

/** The recording's messages as the bytes of the body, one array per message. */
export function recordingChunks(recording: Recording): Uint8Array[] {
  if (!recording.binary) return recording.events.map((event) => new TextEncoder().encode(event));
  return recording.events.map((event) => Uint8Array.from(atob(event), (c) => c.charCodeAt(0)));
}

/** A tool of the request, as a recording's calls are checked against it. */
/** The work one request's pick of a recording may take on its schemas, as a turn of the scripted model may. */
export const MAX_PICK_STEPS = 250_000;

interface DeclaredTool {
  readonly name: string;
  readonly parameters?: Record<string, unknown>;
}

/**
 * The recording that answers a prompt offline, if any: the one the prompt names ("replay" and its
 * `name`, such as `replay chat-parallel-tool-calls-two-functions`, whatever tools the request
 * declares), else, with `tool_choice` auto, the one whose keywords the prompt mentions most among
 * those the request could have asked for: every call to a tool the request declares, with
 * arguments valid against that tool's `parameters`, each short value (a city, a country: three
 * words at most) named by the prompt. "What's the weather in Paris?" with a `get_weather` whose
 * schema takes `city` gets no recording of Tokyo's weather, nor one that sends `location`: the
 * scripted model then calls the request's own tools. A replay cannot answer an arbitrary prompt;
 * this only lets a demo play a recording by asking the question it answers, with the tools it
 * calls. `protocol` reads the recording's calls. The checks of the calls against the request's
 * schemas draw from one `budget` ({@link MAX_PICK_STEPS}): a schema that costs more fits no
 * recording (each check had 2,000,000 steps of its own: a 2.7 KB schema cost a pick 71 ms).
 */
export async function pickRecording(
  recordings: readonly Recording[],
  prompt: string,
  tools: readonly DeclaredTool[],
  protocol: Provider,
  choice: { type: string } = { type: "auto" },
  budget: CheckBudget = new CheckBudget(Number.POSITIVE_INFINITY, MAX_PICK_STEPS),
): Promise<Recording | undefined> {
  const text = prompt.toLowerCase();
  const head = text.slice(0, 1_000); // a recording is named at the start, and the pattern need not read a huge prompt
  const named = recordings.find((recording) =>
    new RegExp(`\\breplay:? ${escapeRegExp(recording.name.toLowerCase())}(?![\\w.-])`).test(head),
  );
  if (named) return named;
  if (choice.type !== "auto") return undefined;
  const declared = new Map(tools.map((tool) => [tool.name, tool]));
  const candidates = recordings
    .filter((recording) => recording.tools.length > 0 && recording.tools.every((tool) => declared.has(tool)))
    .map((recording) => ({ recording, score: recording.keywords.filter((keyword) => text.includes(keyword)).length }))
    .filter(({ score }) => score > 0)
    .sort((a, b) => b.score - a.score);
  const words = new Set(text.match(/[\p{L}\p{N}]+/gu) ?? []);
  for (const { recording } of candidates) {
    const calls = await recordedCalls(recording, protocol);
    const fits = calls.every((call) => {
      const parameters = declared.get(call.name)?.parameters;
      const valid =
        parameters === undefined ||
        checkToolArguments(call.arguments, parameters as ToolSchema, { budget }).length === 0;
      return (
        valid &&
        declaresEach(call.arguments, parameters) &&
        shortValues(call.arguments).every((value) => value.some((word) => words.has(word)))
      );
    });
    if (fits) return recording;
  }
  return undefined;
}

/**
 * The calls each recording makes, per protocol, read once per isolate: the recordings are the
 * Worker's own constants and never change, and a prompt that could pick one would otherwise run
 * the library's chain over each candidate on every request. Bounded by the recordings there are
 * (a weak key: nothing is kept for a recording no longer referenced). The calls are kept, not the
 * promise of them: workerd ties a pending promise to the request that made it.
 */
const readCalls = new WeakMap<Recording, Map<Provider, readonly ToolCall[]>>();

/** The calls a recording makes, read by the library (once per recording and protocol). */
async function recordedCalls(recording: Recording, protocol: Provider): Promise<readonly ToolCall[]> {
  const known = readCalls.get(recording)?.get(protocol);
  if (known !== undefined) return known;
  const calls = await readRecordedCalls(recording, protocol);
  const byProtocol = readCalls.get(recording) ?? new Map<Provider, readonly ToolCall[]>();
  readCalls.set(recording, byProtocol.set(protocol, calls));
  return calls;
}

async function readRecordedCalls(recording: Recording, protocol: Provider): Promise<ToolCall[]> {
  const chunks = recordingChunks(recording);
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
  for await (const event of streamToolCalls(body, { provider: protocol }))
    if (event.type === "finish") return event.toolCalls;
  return [];
}

/**
 * Whether each argument is a property the schema declares, where it declares some: a model names
 * the properties it is given, so `{"location": ...}` answers no tool whose schema has `city`,
 * even one that requires nothing.
 */
function declaresEach(args: JsonValue, parameters: Record<string, unknown> | undefined): boolean {
  const properties = parameters?.["properties"];
  if (typeof properties !== "object" || properties === null || typeof args !== "object" || args === null) return true;
  return Object.keys(args).every((key) => Object.hasOwn(properties, key));
}

/** The words (three letters or more, lower case) of each string of three words at most in `value`. */
function shortValues(value: JsonValue): string[][] {
  if (typeof value === "string") {
    const words = value.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
    const long = words.filter((word) => word.length >= 3);
    return words.length <= 3 && long.length > 0 ? [long] : [];
  }
  if (Array.isArray(value)) return value.flatMap(shortValues);
  if (typeof value === "object" && value !== null) return Object.values(value).flatMap(shortValues);
  return [];
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
