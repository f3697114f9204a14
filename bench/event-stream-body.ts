// A generated Bedrock ConverseStream body: the event-stream messages Bedrock sends for one tool
// call (headers `:event-type`, `:content-type`, `:message-type`; a `p` padding in every payload),
// each payload's keys in alphabetical order as Bedrock writes them (../shared/fixtures/bedrock/*.bin).
import { crc32 } from "../src/framing/crc32.ts";
import { argumentsOf, fragments } from "./bodies.ts";

const encoder = new TextEncoder();
/** Varies the padding's length from message to message, as Bedrock's random padding does. */
let padding = 0;

function header(name: string, value: string): number[] {
  const n = encoder.encode(name);
  const v = encoder.encode(value);
  return [n.length, ...n, 7, v.length >> 8, v.length & 0xff, ...v];
}

/** `value` with every object's keys in alphabetical order: Bedrock's layout (`"contentBlockIndex","p","start"`). */
function sorted(value: unknown): unknown {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return value;
  const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : 1));
  return Object.fromEntries(entries.map(([key, item]) => [key, sorted(item)]));
}

function message(eventType: string, payload: Record<string, unknown>): Uint8Array {
  const headers = [
    ...header(":event-type", eventType),
    ...header(":content-type", "application/json"),
    ...header(":message-type", "event"),
  ];
  const body = encoder.encode(
    JSON.stringify(
      sorted({ ...payload, p: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ".slice(0, 5 + (padding++ % 46)) }),
    ),
  );
  const total = 12 + headers.length + body.length + 4;
  const out = new Uint8Array(total);
  const view = new DataView(out.buffer);
  view.setUint32(0, total);
  view.setUint32(4, headers.length);
  view.setUint32(8, crc32(out, 0, 8));
  out.set(headers, 12);
  out.set(body, 12 + headers.length);
  view.setUint32(total - 4, crc32(out, 0, total - 4));
  return out;
}

/** One call of `size` bytes of arguments in `fragment`-character deltas, between the events around it. */
export function converseBody(size: number, fragment: number): { body: Uint8Array; messages: number } {
  const parts = [
    message("messageStart", { role: "assistant" }),
    message("contentBlockStart", {
      contentBlockIndex: 0,
      start: { toolUse: { toolUseId: "tooluse_bench", name: "write_file" } },
    }),
    ...fragments(argumentsOf(size), fragment).map((input) =>
      message("contentBlockDelta", { contentBlockIndex: 0, delta: { toolUse: { input } } }),
    ),
    message("contentBlockStop", { contentBlockIndex: 0 }),
    message("messageStop", { stopReason: "tool_use" }),
    message("metadata", { usage: { inputTokens: 10, outputTokens: 20, totalTokens: 30 }, metrics: { latencyMs: 100 } }),
  ];
  const body = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    body.set(part, at);
    at += part.length;
  }
  return { body, messages: parts.length };
}
