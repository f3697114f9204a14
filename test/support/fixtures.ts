// The recorded provider streams of ../shared/fixtures, bundled as JSON by scripts/bundle-fixtures.mjs
// (none when the folder is absent: the cases that read them say `needs: ["recordings"]`).
import recordings from "../generated/recordings.json" with { type: "json" };
import type { ToolCallEvent } from "../../src/index.ts";

/** The framing of a recorded body, from its file's extension. */
export type FixtureFormat = "sse" | "event-stream" | "ndjson" | "json-array";

/** One recorded stream and what a correct accumulator produces from it. */
export interface Fixture {
  provider: string;
  name: string;
  format: FixtureFormat;
  /** The body's exact bytes. */
  body: Uint8Array<ArrayBuffer>;
  /** The body as text, for the text framings (empty for the binary event stream). */
  text: string;
  expected: Expected;
}

/** A fixture as scripts/bundle-fixtures.mjs stores it: text bodies as text, binary ones as base64. */
interface StoredFixture {
  provider: string;
  name: string;
  format: FixtureFormat;
  text?: string;
  base64?: string;
  expected: Expected;
}

/**
 * Recordings the library reads otherwise than their `.expected.json`, and what differs: OpenAI
 * Responses' `error` event ends the stream (openai-node throws at it and aborts the request), so
 * the `response.failed` the recording has after it is not read and no finish comes.
 */
const READ_OTHERWISE: Readonly<Record<string, Partial<Expected>>> = {
  "openai-responses/error-event-then-response-failed": { finishReason: null },
};

function load(stored: StoredFixture): Fixture {
  const otherwise = READ_OTHERWISE[`${stored.provider}/${stored.name}`];
  if (otherwise) stored = { ...stored, expected: { ...stored.expected, ...otherwise } };
  const { text, base64, ...rest } = stored;
  if (base64 === undefined)
    return { ...rest, text: text ?? "", body: new TextEncoder().encode(text ?? "") as Uint8Array<ArrayBuffer> };
  const binary = atob(base64);
  const body = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) body[i] = binary.charCodeAt(i);
  return { ...rest, text: "", body };
}

/** The `.expected.json` shape (see shared/fixtures/README.md). */
export interface Expected {
  text: string;
  toolCalls: { id: string | null; name: string; arguments: unknown; providerExecuted?: true }[];
  finishReason: string | null;
  error?: unknown;
}

/** Every recorded stream. */
export const allFixtures: Fixture[] = (recordings.fixtures as StoredFixture[]).map(load);

/** Whether the recordings were found (a vitest file skips what reads them: `describe.skipIf(!recordingsAvailable)`). */
export const recordingsAvailable: boolean = recordings.available;

/** The recordings of these provider folders. */
export function fixturesOf(...providers: string[]): Fixture[] {
  return allFixtures.filter((f) => providers.includes(f.provider));
}

/**
 * Reduces an event sequence to the `.expected.json` shape: visible text, every complete call
 * (invalid ones as `{invalid: true, raw}`, the provider's own marked `providerExecuted: true`) in index order, the raw finish reason,
 * and the first provider error.
 */
export function summarize(events: readonly ToolCallEvent[]): Expected {
  const calls: { index: number; id: string | null; name: string; arguments: unknown; providerExecuted?: true }[] = [];
  let text = "";
  let finishReason: string | null = null;
  let error: unknown;
  for (const event of events) {
    if (event.type === "text-delta" && !event.choice) text += event.text;
    if (event.type === "tool-call")
      calls.push({
        index: event.index,
        id: event.id,
        name: event.name,
        arguments: event.arguments,
        ...(event.providerExecuted ? { providerExecuted: true as const } : {}),
      });
    if (event.type === "invalid-tool-call") {
      calls.push({
        index: event.index,
        id: event.id,
        name: event.name,
        arguments: { invalid: true, raw: event.rawArguments },
      });
    }
    if (event.type === "finish") finishReason = event.rawReason;
    if (event.type === "error" && error === undefined && event.error.code === "provider-error")
      error = event.error.data;
  }
  const summary: Expected = {
    text,
    toolCalls: calls.sort((a, b) => a.index - b.index).map(({ index: _index, ...call }) => call),
    finishReason,
  };
  if (error !== undefined) summary.error = error;
  return summary;
}

const absent: Fixture = {
  provider: "",
  name: "",
  format: "sse",
  body: new Uint8Array(),
  text: "",
  expected: { text: "", toolCalls: [], finishReason: null },
};

/**
 * One recording by its folder and name. Without the recordings (a clone without ../shared), an
 * empty stand-in, so that a case file that picks its recordings at load time still loads: its cases
 * say `needs: ["recordings"]` and are skipped. With them, a name that is not there throws.
 */
export function recording(provider: string, name: string): Fixture {
  if (!recordingsAvailable) return absent;
  const found = allFixtures.find((f) => f.provider === provider && f.name === name);
  if (found === undefined) throw new Error(`No recording ${provider}/${name} in the bundled fixtures`);
  return found;
}
