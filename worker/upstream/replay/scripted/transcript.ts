/**
 * Reads a provider request body (any of the library's wire formats, as the Worker's request builders
 * and the library's next-turn builders write them) into what the scripted model needs: the last
 * prompt, the calls made and the results sent back since, and the tools offered.
 *
 * @module
 */
import { type JsonValue, type Provider, providerKit } from "../../../../src/index.ts";
import { longMemberName } from "../../../../src/core.ts";
import { anthropicToolSchema } from "../../../request/anthropic-tool-schemas.ts";

/** A call of an earlier turn. */
export interface TranscriptCall {
  id: string | null;
  name: string;
  arguments: JsonValue;
}

/** A result sent back for a call; `content` is the parsed JSON when the text is JSON. */
export interface TranscriptResult {
  id: string | null;
  name: string | null;
  content: JsonValue;
  isError: boolean;
}

/** What a request tells the scripted model. */
export interface Transcript {
  /** The text of the last prompt. */
  prompt: string;
  /** Calls after the last prompt, in order. */
  calls: TranscriptCall[];
  /** Results after the last prompt, in order. */
  results: TranscriptResult[];
  /** The tools the request offers. */
  tools: { name: string; description?: string; parameters?: JsonValue }[];
}

type Entry =
  | { kind: "prompt"; text: string }
  | ({ kind: "call" } & TranscriptCall)
  | ({ kind: "result" } & TranscriptResult);
type Json = { [key: string]: JsonValue };

/** The transcript of a request body of `provider`'s wire format; unreadable parts are skipped. */
export function readTranscript(provider: Provider, body: unknown): Transcript {
  const request = object(body);
  // The conversation is in the field the provider's kit writes it to.
  const entries = READERS[provider](request[providerKit(provider).conversationField]);
  let last = entries.length - 1;
  while (last >= 0 && entries[last]!.kind !== "prompt") last--;
  const prompt = last >= 0 ? withoutReminders((entries[last] as { text: string }).text) : "";
  const after = entries.slice(last + 1);
  const strip = <T extends { kind: string }>({ kind: _kind, ...rest }: T): Omit<T, "kind"> => rest;
  return {
    prompt,
    calls: after.flatMap((entry) => (entry.kind === "call" ? [strip(entry)] : [])),
    results: after.flatMap((entry) => (entry.kind === "result" ? [strip(entry)] : [])),
    tools: TOOLS[provider](request),
  };
}

/**
 * The prompt without what an agent adds to the user's turn for the model (Claude Code's
 * `<system-reminder>` blocks: its skills, its agents, the date), which is not what the user asked.
 */
function withoutReminders(text: string): string {
  const open = "<system-reminder>";
  const close = "</system-reminder>";
  let out = "";
  let at = 0;
  for (let start = text.indexOf(open); start >= 0; start = text.indexOf(open, at)) {
    const end = text.indexOf(close, start);
    if (end < 0) break;
    out += text.slice(at, start);
    at = end + close.length;
  }
  return (out + text.slice(at)).trim();
}

const chatTools = (request: Json) => list(request["tools"]).map((tool) => definition(object(object(tool)["function"])));

const READERS: { readonly [P in Provider]: (conversation: JsonValue | undefined) => Entry[] } = {
  openai: (messages) => list(messages).flatMap(chatEntries),
  ollama: (messages) => list(messages).flatMap(chatEntries),
  cohere: (messages) => list(messages).flatMap(chatEntries),
  "openai-responses": (input) =>
    (typeof input === "string" ? [{ role: "user", content: input }] : list(input)).flatMap((value): Entry[] => {
      const item = object(value);
      if (item["role"] === "user") return [{ kind: "prompt", text: text(item["content"]) }];
      if (item["type"] === "function_call") return [call(item["call_id"], item["name"], parse(item["arguments"]))];
      // A custom tool's call (its text), as the Worker's function of one string `input` (worker/protocols/custom-calls.ts).
      if (item["type"] === "custom_tool_call")
        return [call(item["call_id"], item["name"], { input: item["input"] ?? "" })];
      if (item["type"] === "function_call_output" || item["type"] === "custom_tool_call_output")
        return [result(item["call_id"], null, item["output"], false)];
      return [];
    }),
  anthropic: (messages) =>
    list(messages).flatMap((value): Entry[] => {
      const message = object(value);
      if (typeof message["content"] === "string")
        return message["role"] === "user" ? [{ kind: "prompt", text: message["content"] }] : [];
      const blocks = list(message["content"]).map(object);
      if (message["role"] === "assistant")
        return blocks.filter((b) => b["type"] === "tool_use").map((b) => call(b["id"], b["name"], b["input"]));
      const results = blocks
        .filter((b) => b["type"] === "tool_result")
        .map((b) => result(b["tool_use_id"], null, b["content"], b["is_error"] === true));
      // A system turn inside the conversation (Claude Code's environment) is not the prompt.
      return results.length > 0 || message["role"] !== "user" ? results : [{ kind: "prompt", text: text(blocks) }];
    }),
  gemini: (contents) =>
    list(contents).flatMap((value): Entry[] => {
      const content = object(value);
      const parts = list(content["parts"]).map(object);
      if (content["role"] === "model")
        return parts
          .filter((p) => "functionCall" in p)
          .map((p) => object(p["functionCall"]))
          .map((c) => call(c["id"], c["name"], c["args"]));
      const responses = parts.filter((p) => "functionResponse" in p).map((p) => object(p["functionResponse"]));
      if (responses.length === 0) return [{ kind: "prompt", text: text(parts) }];
      return responses.map((r) => {
        const response = object(r["response"]);
        if ("error" in response) return result(r["id"], r["name"], response["error"], true);
        // The library wraps a text result as `{result: text}` (the response must be an object).
        const wrapped = Object.keys(response).length === 1 && typeof response["result"] === "string";
        return result(r["id"], r["name"], wrapped ? response["result"] : response, false);
      });
    }),
  "gemini-interactions": (input) =>
    (typeof input === "string" ? [{ type: "user_input", content: input }] : list(input)).flatMap((value): Entry[] => {
      const step = object(value);
      if (step["type"] === "user_input") return [{ kind: "prompt", text: text(step["content"]) }];
      if (step["type"] === "function_call") return [call(step["id"], step["name"], step["arguments"])];
      if (step["type"] === "function_result")
        return [result(step["call_id"], step["name"], step["result"], step["is_error"] === true)];
      return [];
    }),
  bedrock: (messages) =>
    list(messages).flatMap((value): Entry[] => {
      const message = object(value);
      const blocks = list(message["content"]).map(object);
      if (message["role"] === "assistant")
        return blocks
          .filter((b) => "toolUse" in b)
          .map((b) => object(b["toolUse"]))
          .map((u) => call(u["toolUseId"], u["name"], u["input"]));
      const results = blocks.filter((b) => "toolResult" in b).map((b) => object(b["toolResult"]));
      if (results.length === 0) return [{ kind: "prompt", text: text(blocks) }];
      return results.map((r) => {
        const first = object(list(r["content"])[0]);
        return result(r["toolUseId"], null, "json" in first ? first["json"] : first["text"], r["status"] === "error");
      });
    }),
};

const TOOLS: { readonly [P in Provider]: (request: Json) => Transcript["tools"] } = {
  openai: chatTools,
  ollama: chatTools,
  cohere: chatTools,
  "openai-responses": (request) => list(request["tools"]).map((tool) => definition(customAsFunction(object(tool)))),
  // One of Anthropic's client-run tools comes by its type alone: its documented schema, as Claude knows it.
  anthropic: (request) =>
    list(request["tools"]).map((tool) => {
      const known = anthropicToolSchema(object(tool)["type"]);
      const described = known ? { description: known.description } : {};
      return definition({
        ...described,
        ...object(tool),
        parameters: object(tool)["input_schema"] ?? known?.parameters ?? null,
      });
    }),
  gemini: (request) =>
    list(request["tools"]).flatMap((tool) =>
      list(object(tool)["functionDeclarations"]).map((fn) =>
        definition({
          ...object(fn),
          parameters: object(fn)["parametersJsonSchema"] ?? object(fn)["parameters"] ?? null,
        }),
      ),
    ),
  "gemini-interactions": (request) =>
    list(request["tools"]).flatMap((tool) => (object(tool)["type"] === "function" ? [definition(object(tool))] : [])),
  bedrock: (request) =>
    list(object(request["toolConfig"])["tools"]).map((tool) => {
      const spec = object(object(tool)["toolSpec"]);
      return definition({ ...spec, parameters: object(spec["inputSchema"])["json"] ?? null });
    }),
};

/** Chat-shaped messages (OpenAI, Cohere, Ollama): user prompts, assistant `tool_calls`, `tool` results. */
function chatEntries(value: JsonValue): Entry[] {
  const message = object(value);
  if (message["role"] === "user") return [{ kind: "prompt", text: text(message["content"]) }];
  if (message["role"] === "assistant") {
    return list(message["tool_calls"]).map((value) => {
      const wire = object(value);
      const fn = object(wire["function"]);
      return call(
        wire["id"],
        fn["name"],
        typeof fn["arguments"] === "string" ? parse(fn["arguments"]) : (fn["arguments"] ?? {}),
      );
    });
  }
  if (message["role"] === "tool")
    return [
      result(
        message["tool_call_id"],
        message["tool_name"] ?? message["name"] ?? null,
        documents(message["content"]),
        false,
      ),
    ];
  return [];
}

function call(id: JsonValue | undefined, name: JsonValue | undefined, args: JsonValue | undefined): Entry {
  return {
    kind: "call",
    id: typeof id === "string" ? id : null,
    name: typeof name === "string" ? name : "",
    arguments: args ?? {},
  };
}

function result(
  id: JsonValue | undefined,
  name: JsonValue | undefined,
  content: JsonValue | undefined,
  isError: boolean,
): Entry {
  const value =
    typeof content === "string" ? parse(content) : Array.isArray(content) ? parse(text(content)) : (content ?? null);
  return {
    kind: "result",
    id: typeof id === "string" ? id : null,
    name: typeof name === "string" ? name : null,
    content: value,
    isError,
  };
}

/** Cohere sends a result as documents (`{type: "document", document: {data}}`); the others as text. */
function documents(content: JsonValue | undefined): JsonValue {
  if (!Array.isArray(content)) return content ?? null;
  const data = content.map(object).map((part) => object(part["document"])["data"] ?? part["text"] ?? "");
  return data.length === 1
    ? data[0]!
    : data.map((value) => (typeof value === "string" ? value : JSON.stringify(value))).join("\n");
}

function definition(fn: Json): Transcript["tools"][number] {
  const tool: Transcript["tools"][number] = { name: typeof fn["name"] === "string" ? fn["name"] : "" };
  if (typeof fn["description"] === "string") tool.description = fn["description"];
  if (fn["parameters"] !== undefined && fn["parameters"] !== null) tool.parameters = fn["parameters"];
  return tool;
}

/**
 * A `custom` tool (free text) as the function of one string `input` other providers are sent
 * (worker/protocols/custom-calls.ts): the scripted model writes its call so, which the Worker reads as the text.
 */
function customAsFunction(tool: Json): Json {
  if (tool["type"] !== "custom") return tool;
  const input = { type: "string", description: "The tool's input, as free text." };
  return { ...tool, parameters: { type: "object", properties: { input }, required: ["input"] } };
}

/** Text of a message content: a string, or the text of its parts (`text`, `input_text`, ...). */
function text(content: JsonValue | undefined): string {
  if (typeof content === "string") return content;
  return list(content)
    .map((part) => (typeof part === "string" ? part : object(part)["text"]))
    .filter((part): part is string => typeof part === "string")
    .join("");
}

function parse(value: JsonValue | undefined): JsonValue {
  if (typeof value !== "string") return value ?? null;
  // A client's text with a member name V8 would intern in quadratic time stays a text.
  if (longMemberName(value) !== undefined) return value;
  try {
    return JSON.parse(value) as JsonValue;
  } catch {
    return value;
  }
}

function list(value: JsonValue | unknown): JsonValue[] {
  return Array.isArray(value) ? (value as JsonValue[]) : [];
}

function object(value: unknown): Json {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Json) : {};
}
