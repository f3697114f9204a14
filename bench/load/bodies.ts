// The recorded provider bodies of `npm run bench:load` (bench/load/run.ts): each provider's answer
// written once by the Worker's scripted writers (the same bytes as its offline answers, in the
// provider's own wire format), then replayed byte for byte by the scripted providers
// (bench/load/providers.ts). Two answers per provider:
//   small  a little text and one tool call, about 30 events (1 to 3 KB): the field's "small
//          streamed answer", where a gateway's fixed cost per request shows;
//   big    one call whose arguments are 10 KB, in fragments of 1 to 6 characters (about 2,000
//          events): a tool-argument-heavy stream.
// The upstream picks one by the request's `model` ("small" or "big"), so the Worker, the
// pass-through and the direct request ask for the same body the same way.
import { Dice } from "../../worker/upstream/replay/scripted/pieces.ts";
import type { ScriptedCall } from "../../worker/upstream/replay/scripted/script.ts";
import { scriptWriters } from "../../worker/upstream/replay/scripted/writers/index.ts";

/** The providers the load bench calls, by the protocol of their body. */
export type LoadProvider = "openai" | "anthropic" | "openai-responses";

/** The two answers each provider has. */
export type LoadSize = "small" | "big";

/** A call as a client reads it back: its name and its arguments' JSON text. */
export interface ExpectedCall {
  name: string;
  arguments: string;
}

/** One recorded body: its bytes, content type, and the calls and text it carries. */
export interface LoadBody {
  contentType: string;
  bytes: Uint8Array;
  events: number;
  calls: ExpectedCall[];
  text: string;
}

/** The upstream path of each provider, after the base URL's `/v1`. */
export const UPSTREAM_PATHS: Record<LoadProvider, string> = {
  openai: "/v1/chat/completions",
  anthropic: "/v1/messages",
  "openai-responses": "/v1/responses",
};

/** The tool every answer calls, as a client declares it. */
export const LOAD_TOOL = {
  name: "write_file",
  description: "Writes a file.",
  parameters: {
    type: "object",
    properties: { path: { type: "string" }, content: { type: "string" } },
    required: ["path", "content"],
  },
} as const;

/** Ten kilobytes of prose-like text, the same each run. */
function tenKilobytes(): string {
  const dice = new Dice(7);
  let text = "";
  while (text.length < 10 * 1024) text += `${dice.token(dice.between(2, 9), "abcdefghijklmnopqrstuvwxyz")} `;
  return text.slice(0, 10 * 1024);
}

/** Every provider's two bodies, written with fixed seeds (the same bytes each run). */
export function loadBodies(): Record<LoadProvider, Record<LoadSize, LoadBody>> {
  const calls: Record<LoadSize, ScriptedCall> = {
    small: { name: LOAD_TOOL.name, arguments: { path: "notes/todo.md", content: "Buy milk." } },
    big: { name: LOAD_TOOL.name, arguments: { path: "notes/long.md", content: tenKilobytes() } },
  };
  const texts: Record<LoadSize, string> = { small: "I will write the file for you now.", big: "" };
  const write = (provider: LoadProvider, size: LoadSize): LoadBody => {
    const call = calls[size];
    const wire = scriptWriters[provider](
      {
        model: size,
        text: texts[size],
        plan: "",
        calls: [call],
        inputTokens: 42,
        tools: [
          {
            name: LOAD_TOOL.name,
            description: LOAD_TOOL.description,
            // A mutable copy of the readonly `required`, which no JsonValue array is.
            parameters: { ...LOAD_TOOL.parameters, required: [...LOAD_TOOL.parameters.required] },
          },
        ],
        now: Date.UTC(2026, 10, 27),
      },
      new Dice(size === "small" ? 1 : 2),
    );
    const length = wire.chunks.reduce((sum, chunk) => sum + chunk.length, 0);
    const bytes = new Uint8Array(length);
    let at = 0;
    for (const chunk of wire.chunks) {
      bytes.set(chunk, at);
      at += chunk.length;
    }
    return {
      contentType: wire.contentType,
      bytes,
      events: wire.chunks.length,
      calls: [{ name: call.name, arguments: JSON.stringify(call.arguments) }],
      text: texts[size],
    };
  };
  const both = (provider: LoadProvider): Record<LoadSize, LoadBody> => ({
    small: write(provider, "small"),
    big: write(provider, "big"),
  });
  return { openai: both("openai"), anthropic: both("anthropic"), "openai-responses": both("openai-responses") };
}
