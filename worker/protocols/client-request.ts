/**
 * What the three client-protocol endpoints (`/v1/chat/completions`, `/v1/ui`, `/v1/ag-ui`) share:
 * each reads its protocol's body into the body of `POST /v1/stream` (or of `POST /v1/run` in
 * run mode) and then goes through the same parser, so that every rule and limit of `/v1/stream`
 * (model ids, tool names and schemas, `tool_choice`, `max_tokens`, `temperature`, the number of
 * messages and tools) holds for all of them. The protocol parsers check their own structure
 * first, naming fields by their paths in that protocol.
 *
 * @module
 */
import type { JsonValue, ReasoningPart, RunnableTool, TurnOrderEntry } from "../../src/index.ts";
import { longMemberName, MAX_MEMBER_NAME_LENGTH } from "../../src/core.ts";
import { HttpError, invalidField } from "../response/json-error.ts";
import type { WireFilePart, WirePart } from "../request/file-parts.ts";
import { own, tooDeep, tooDeepError } from "../request/json-fields.ts";
import type { SamplingField } from "../request/parse-sampling.ts";
import { parseRunRequest } from "../request/parse-run-request.ts";
import { parseStreamRequest, type RequestBounds, STREAM_BOUNDS } from "../request/parse-stream-request.ts";
import { recountFiles } from "../request/request-settings.ts";
import type { ClientRequest } from "../services/client-events.ts";

/** A message of the `/v1/stream` body (see worker/request/stream-request.ts). */
export type WireMessage =
  | { role: "system"; content: string }
  /** `content` as parts when the message carries files (worker/request/file-parts.ts). */
  | { role: "user"; content: string | WirePart[] }
  | {
      role: "assistant";
      content: string;
      tool_calls: {
        id: string | null;
        name: string;
        arguments: JsonValue;
        /** `text`: a custom tool's free-text call, `arguments` its text (to OpenAI Responses: ./custom-calls.ts). */
        inputFormat?: "text";
        /** Data the provider needs back (a Gemini thought signature). */
        providerMetadata?: { [key: string]: JsonValue };
        /** Its place, by which `order` places it (./turn-order.ts). */
        index?: number;
      }[];
      /** The turn's reasoning a provider takes back (worker/protocols/reasoning-state.ts). */
      reasoning_parts?: ReasoningPart[];
      /** The turn's reasoning text, which Ollama takes back. */
      reasoning?: string;
      /** Where its text, calls and reasoning came in the client's history (./turn-order.ts). */
      order?: TurnOrderEntry[];
    }
  | { role: "tool"; tool_call_id: string; content: string; is_error?: true; files?: WireFilePart[] };

/** The fields of a `/v1/stream` body a client protocol fills in; absent ones stay absent. */
export interface WireRequest {
  provider: string;
  model: string;
  messages: WireMessage[];
  tools?: unknown;
  tool_choice?: unknown;
  max_tokens?: unknown;
  temperature?: unknown;
  /** `/v1/stream`'s `top_p`, `top_k`, `stop`, `seed` and penalties (worker/request/parse-sampling.ts). */
  sampling?: Partial<Record<SamplingField, unknown>>;
  /** `/v1/stream`'s `reasoning` (worker/request/parse-reasoning.ts). */
  reasoning?: unknown;
  /** `/v1/stream`'s `container`: Anthropic's code-execution container id. */
  container?: unknown;
}

/** Run mode: the Worker's tools by name, run at the edge in a loop, as `POST /v1/run` does. */
export interface RunFields {
  tools?: unknown;
  max_steps?: unknown;
}

/**
 * Validates a translated request with the rules of `/v1/stream`, or of `/v1/run` when `run` is
 * given. A 400 names the field in the client's protocol: `rename` turns a field of the `/v1/stream`
 * body (`provider`, `max_tokens`, `tools[0].name`) into its path in the protocol. The protocol
 * parsers check every message themselves, so a message's field never needs renaming; should one
 * slip through, the error names `messages` (renamed: `input` for Responses), never a path of the
 * translated body.
 */
export function clientRequest(
  wire: WireRequest,
  run: RunFields | undefined,
  providers: readonly string[],
  available: Readonly<Record<string, RunnableTool>>,
  rename: (field: string) => string = (field) => field,
  bounds: RequestBounds = STREAM_BOUNDS,
): ClientRequest {
  const body: Record<string, unknown> = {};
  const { sampling, ...fields } = wire;
  for (const [key, value] of Object.entries({ ...fields, ...sampling })) if (value !== undefined) body[key] = value;
  // The translation counted the client's files; the parse checks the same files again, from none.
  recountFiles();
  try {
    if (!run) return { mode: "stream", request: parseStreamRequest(body, providers, bounds) };
    if (run.max_steps !== undefined) body["max_steps"] = run.max_steps;
    return { mode: "run", request: parseRunRequest({ ...body, tools: run.tools }, providers, available, bounds) };
  } catch (error) {
    const field = error instanceof HttpError ? error.body.field : undefined;
    if (field === undefined || !(error instanceof HttpError)) throw error;
    const named = rename(field.startsWith("messages[") ? "messages" : field);
    const message = error.body.message.replaceAll(`\`${field}\``, `\`${named}\``);
    throw new HttpError(error.status, { ...error.body, message, field: named }, error.headers);
  }
}

/** A JSON object, or a 400 naming `path`. */
export function objectAt(value: unknown, path: string, what = "an object"): Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value))
    throw invalidField(path, `\`${path || "body"}\` must be ${what}.`);
  return value as Record<string, unknown>;
}

/** An array, or a 400 naming `path`. */
export function arrayAt(value: unknown, path: string): unknown[] {
  if (!Array.isArray(value)) throw invalidField(path, `\`${path}\` must be an array.`);
  return value;
}

/**
 * The upstreams whose next turn takes a refusal back apart from the text (OpenAI Chat's message
 * `refusal`, a Responses message's `refusal` part); the others have none, and a client's refusal
 * goes to them as the turn's text (what the model said, as the encoders show it their clients).
 */
export const TAKES_REFUSAL: ReadonlySet<string> = new Set(["openai", "openai-responses"]);

/** A string, or a 400 naming `path`. */
export function stringAt(value: unknown, path: string): string {
  if (typeof value !== "string") throw invalidField(path, `\`${path}\` must be a string.`);
  return value;
}

/**
 * The tool names OpenAI's Chat Completions takes: "a-z, A-Z, 0-9, or underscores and dashes, with
 * a maximum length of 64" (a leading digit or dash included). A provider with a stricter rule gets
 * a short name (worker/upstream/tool-names.ts).
 */
export const CHAT_BOUNDS: RequestBounds = {
  ...STREAM_BOUNDS,
  toolName: /^[A-Za-z0-9_-]{1,64}$/,
  toolNameRule: "1 to 64 letters, digits, _ or -",
};

/**
 * The tool names of the AI SDK (`/v1/ui`) and AG-UI (`/v1/ag-ui`): both type a tool's name as any
 * string (the AI SDK's `ToolSet` keys, AG-UI's `Tool.name: string`), so any is taken up to the
 * longest a provider takes (Anthropic's 128; MCP's naming guidance says the same), control
 * characters aside. Every provider gets a short name it takes.
 */
export const ANY_NAME_BOUNDS: RequestBounds = {
  ...STREAM_BOUNDS,
  toolName: /^\P{Cc}{1,128}$/u,
  toolNameRule: "1 to 128 characters, no control characters",
};

/** A tool name by `bounds`' rule, or a 400 naming `path`. */
export function toolNameAt(value: unknown, path: string, bounds: RequestBounds): string {
  if (typeof value !== "string" || !bounds.toolName.test(value))
    throw invalidField(path, `\`${path}\` must be a tool name: ${bounds.toolNameRule}.`);
  return value;
}

/** A tool definition a client protocol's parser gives the `/v1/stream` body. */
export interface WireTool {
  name: string;
  description?: string;
  parameters: unknown;
  /** Anthropic's per-tool fine-grained streaming, passed on as the tool entry's `eagerInputStreaming`. */
  eager_input_streaming?: boolean;
}

/**
 * A `tool_choice` naming a tool: the name when it is one of `tools`, else a 400 at `path` (the
 * client's own path, `tool_choice.name`, not the translated body's `tool_choice`).
 */
export function chosenToolAt(name: string, tools: readonly WireTool[] | undefined, path: string): { name: string } {
  if (!tools?.some((tool) => tool.name === name)) throw invalidField(path, `\`${path}\` names no tool of \`tools\`.`);
  return { name };
}

/** An id (of a call, or the call a result answers): a non-empty string, or a 400 naming `path`. */
export function idAt(value: unknown, path: string): string {
  if (typeof value !== "string" || value === "")
    throw invalidField(path, `\`${path}\` must be a non-empty string: the id of the call.`);
  return value;
}

/** `run`: absent or a boolean. */
export function runFlag(value: unknown, path: string): boolean {
  if (value === undefined || value === null) return false;
  if (typeof value !== "boolean")
    throw invalidField(path, `\`${path}\` must be true (run the Worker's tools at the edge) or false.`);
  return value;
}

/**
 * A call's arguments as a client sends them (JSON text): parsed, or kept as text when they are
 * not JSON (the model wrote them so). Parsed arguments nested too deep are a 400 naming `path`, and
 * so is a member name past 16,383 characters, before the parse (the body's own scan sees the text
 * as one string value: ../http/long-member-name.ts).
 */
export function argumentsOf(text: string, path: string): JsonValue {
  if (longMemberName(text) !== undefined)
    throw invalidField(path, `\`${path}\` has a member name longer than ${MAX_MEMBER_NAME_LENGTH} characters.`);
  let value: JsonValue;
  try {
    value = JSON.parse(text) as JsonValue;
  } catch {
    return text;
  }
  if (tooDeep(value) !== undefined) throw tooDeepError(path);
  return value;
}

/**
 * A tool call a client sends back in the OpenAI shape, `{id, function: {name, arguments}}`
 * (Chat Completions' `tool_calls` and AG-UI's `toolCalls` alike), its name by `bounds`' rule, or a
 * 400 naming the field at fault.
 */
export function toolCallAt(
  value: unknown,
  path: string,
  bounds: RequestBounds,
): { id: string; name: string; arguments: JsonValue } {
  const call = objectAt(value, path);
  const fn = objectAt(own(call, "function"), `${path}.function`);
  const args = `${path}.function.arguments`;
  return {
    id: idAt(own(call, "id"), `${path}.id`),
    name: toolNameAt(own(fn, "name"), `${path}.function.name`, bounds),
    arguments: argumentsOf(stringAt(own(fn, "arguments") ?? "{}", args), args),
  };
}

/** A tool result as the provider reads it: text as it is, anything else as JSON text. */
export function resultText(value: unknown): string {
  return typeof value === "string" ? value : JSON.stringify(value ?? null);
}

/**
 * The sampling fields of a client's body, under their `/v1/stream` names: `renamed` gives a
 * protocol's own name of one (Messages' `stop_sequences` for `stop`); `null` is the same as absent.
 */
export function samplingOf(
  fields: Readonly<Record<string, unknown>>,
  names: readonly SamplingField[],
  renamed: Partial<Record<SamplingField, string>> = {},
): Partial<Record<SamplingField, unknown>> {
  const sampling: Partial<Record<SamplingField, unknown>> = {};
  for (const field of names) sampling[field] = own(fields, renamed[field] ?? field) ?? undefined;
  return sampling;
}
