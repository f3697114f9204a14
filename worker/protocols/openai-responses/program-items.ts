/**
 * Programmatic tool calling and tool search through `POST /v1/responses`, as a Responses client
 * (Codex, the Agents SDK) sends them back on its next turn: OpenAI's `program` item (the code it
 * ran, with the `fingerprint` that must round-trip), the `caller` of each `function_call` (or
 * `custom_tool_call`) it made, its `program_output`, and `tool_search_call` / `tool_search_output`.
 *
 * To an OpenAI Responses upstream each goes back as the client sent it, through the library's
 * request kit: a `program` on the calls that name it (`providerMetadata.responsesProgram`, sent
 * once before them), a call's `caller` on its `providerMetadata.responsesItem`, a `program_output`
 * and a server search's call and output as kept blocks in their place, a client search as a call
 * named `tool_search` (its item on `providerMetadata.responsesItem`) answered by its output. To any
 * other provider, what OpenAI ran (a program, its output, a server search) is left out, and so is
 * a call's `caller` (the calls stay, as the model's); a client search stays a call of `tool_search`
 * with its result. The `tool_search` tool, with `execution: "client"`, is a function of that name
 * to every provider (an OpenAI upstream is sent it as given), whose calls reach the client as
 * `tool_search_call` items (`execution: "client"`); with `execution: "server"`, and the
 * `programmatic_tool_calling` tool, go to OpenAI as given and are dropped for the others, which
 * have no such tool.
 *
 * Going out, a call's `caller` is on its `function_call` (the encoder's), and the `program` item
 * that made it goes before its first call as a `block` reasoning part, which the client gets as a
 * `reasoning` item sealing it (worker/protocols/reasoning-state.ts) and sends back before the
 * call: coming back, it is the program of the calls that name it, as a `program` item would be.
 *
 * @module
 */
import type { EncodableEvent, JsonValue, ReasoningPart } from "../../../src/index.ts";
import { mapChunks } from "../../http/batch-map.ts";
import { invalidField } from "../../response/json-error.ts";
import { isObject, own } from "../../request/json-fields.ts";
import { idAt, objectAt, stringAt, type WireMessage, type WireTool } from "../client-request.ts";

type Assistant = Extract<WireMessage, { role: "assistant" }>;
type JsonObject = { [key: string]: JsonValue };

/** The provider that runs programs and server searches, and takes their items back. */
const OPENAI = "openai-responses";

/** The `program` items of a request, by their `call_id`, which their calls name as `caller.caller_id`. */
export type Programs = Map<string, JsonObject>;

/**
 * The events with each program an OpenAI call came from (`providerMetadata.responsesProgram`)
 * before the first of its calls, and each server tool search OpenAI ran as its `tool_search_call`
 * item, as `block` reasoning parts; unchanged for another provider.
 *
 * @example
 * ```ts
 * const batches = programParts(provider, agentBatches(provider, events));
 * ```
 */
export function programParts(
  provider: string,
  batches: ReadableStream<readonly EncodableEvent[]>,
): ReadableStream<readonly EncodableEvent[]> {
  if (provider !== OPENAI) return batches;
  const sent = new Set<unknown>();
  // A step of the answer's one stream (mapChunks), not a stream and a pipe of its own per response.
  return mapChunks(batches, (batch): readonly EncodableEvent[] => {
    let out: EncodableEvent[] | undefined;
    for (let i = 0; i < batch.length; i++) {
      const event = batch[i]!;
      // A program the stream kept in its place already reached the client: not again before its calls.
      if (event.type === "reasoning-part" && event.part.type === "block" && event.part.block["type"] === "program")
        sent.add(event.part.block["call_id"]);
      const program = event.type === "tool-call-start" ? event.providerMetadata?.["responsesProgram"] : undefined;
      const block = isObject(program) && !sent.has(program["call_id"]) ? (program as JsonObject) : serverSearch(event);
      if (block) {
        if (block === program) sent.add(block["call_id"]);
        out ??= batch.slice(0, i);
        out.push({ type: "reasoning-part", part: { type: "block", block } });
      }
      out?.push(event);
    }
    return out ?? batch;
  });
}

/**
 * A server tool search OpenAI ran (a `providerExecuted` call of `tool_search`, which the encoder
 * leaves out: a client runs every call it sees) as its `tool_search_call` item, kept: without it
 * the `tool_search_output` after it, which the client gets, would go back alone and be left out.
 */
function serverSearch(event: EncodableEvent): JsonObject | undefined {
  const item =
    event.type === "tool-call" && event.providerExecuted ? event.providerMetadata?.["responsesItem"] : undefined;
  if (!isObject(item) || item["type"] !== "tool_search_call" || item["execution"] === "client") return undefined;
  const { id, status } = item;
  return {
    type: "tool_search_call",
    ...(typeof id === "string" ? { id } : {}),
    call_id: null,
    execution: "server",
    arguments: (event as { arguments: JsonValue }).arguments,
    status: typeof status === "string" ? status : "completed",
  };
}

/**
 * A `tool_search` or `programmatic_tool_calling` tool as `/v1/stream` tools: the client's search
 * as the function `tool_search`, the others for an OpenAI upstream only (kept in `builtIns` by
 * name, sent as given); `null` for a tool dropped, undefined for another type.
 */
export function toolCallingToolOf(
  type: unknown,
  fields: Record<string, unknown>,
  at: string,
  builtIns: Map<string, Record<string, unknown>>,
  provider: string,
): WireTool | null | undefined {
  if (type !== "tool_search" && type !== "programmatic_tool_calling") return undefined;
  const client = type === "tool_search" && own(fields, "execution") === "client";
  if (!client && provider !== OPENAI) return null;
  // Kept by name: OpenAI is sent the tool as given, and a client search's calls, from any
  // provider, reach the client as `tool_search_call` items (the encoder's `builtInTools`).
  builtIns.set(type, fields);
  const description = own(fields, "description");
  const parameters = own(fields, "parameters") ?? { type: "object" };
  if (!isObject(parameters)) throw invalidField(`${at}.parameters`, "`parameters` must be a JSON Schema object.");
  return {
    name: type,
    description: typeof description === "string" ? description : "Search for tools to load by what they do.",
    parameters,
  };
}

/**
 * What a `function_call` or `custom_tool_call` item carries for OpenAI besides its input: its
 * `caller` (and, for a program's call, the `program` item before it), for an OpenAI upstream.
 */
export function callerMetadata(
  item: Record<string, unknown>,
  path: string,
  provider: string,
  programs: Programs,
): JsonObject | undefined {
  const caller = own(item, "caller") ?? undefined;
  if (caller === undefined) return undefined;
  const fields = objectAt(caller, `${path}.caller`);
  const type = own(fields, "type");
  if (type !== "direct" && type !== "program")
    throw invalidField(`${path}.caller.type`, "`caller.type` must be direct or program.");
  const program =
    type === "program" ? programs.get(stringAt(own(fields, "caller_id"), `${path}.caller.caller_id`)) : undefined;
  if (provider !== OPENAI) return undefined;
  const responsesItem = { type: String(own(item, "type")), caller: fields as JsonObject };
  return program ? { responsesItem, responsesProgram: program } : { responsesItem };
}

/**
 * A programmatic tool calling or tool search item of the client's input into the conversation;
 * false when the item is of another type. A client search's call joins the assistant turn and its
 * output answers it (a 400 at its `call_id` for an output of no earlier call).
 */
export function addToolCallingItem(
  type: unknown,
  item: Record<string, unknown>,
  path: string,
  assistant: () => Assistant,
  messages: WireMessage[],
  calls: Set<string>,
  context: { provider: string; programs: Programs },
): boolean {
  const { provider } = context;
  const kept = (block: Record<string, unknown>): void => {
    if (provider !== OPENAI) return;
    const turn = assistant();
    (turn.reasoning_parts ??= []).push({ type: "block", block: block as JsonObject } satisfies ReasoningPart);
  };
  const text = (field: string): string => stringAt(own(item, field), `${path}.${field}`);
  if (type === "program") {
    text("call_id");
    text("code");
    text("fingerprint");
    addProgram(item as JsonObject, context, assistant);
  } else if (type === "program_output") {
    text("call_id");
    text("result");
    kept(item);
  } else if (type === "tool_search_call" || type === "tool_search_output") {
    // An output's `execution` is optional (openai 6's param): without it, one that answers a
    // client search before it is that search's result, never a server search's left out.
    const execution = own(item, "execution");
    const client =
      execution === "client" ||
      (execution === undefined && type === "tool_search_output" && clientSearchOf(calls, own(item, "call_id")));
    if (!client) {
      kept(item);
      return true;
    }
    const id = idAt(own(item, "call_id"), `${path}.call_id`);
    if (type === "tool_search_call") {
      calls.add(id);
      calls.add(searchKey(id));
      const responsesItem: JsonObject = { type, execution: "client" };
      for (const key of ["id", "status"]) {
        const value = own(item, key);
        if (typeof value === "string") responsesItem[key] = value;
      }
      const args = objectAt(own(item, "arguments") ?? {}, `${path}.arguments`) as JsonObject;
      const metadata = provider === OPENAI ? { providerMetadata: { responsesItem } } : {};
      assistant().tool_calls.push({ id, name: "tool_search", arguments: args, ...metadata });
    } else {
      if (!calls.has(id)) throw invalidField(`${path}.call_id`, "`call_id` names no call of an earlier input item.");
      const tools = own(item, "tools");
      if (!Array.isArray(tools)) throw invalidField(`${path}.tools`, "`tools` must be an array of tool definitions.");
      messages.push({ role: "tool", tool_call_id: id, content: JSON.stringify(tools) });
    }
  } else return false;
  return true;
}

/**
 * How a client search's call id is kept among the calls' ids, apart from any of them (a NUL first):
 * an output without `execution` answers a client search when its `call_id` names one, found without
 * a walk over the conversation per output.
 */
const searchKey = (id: string): string => `\0search:${id}`;

/** Whether `id` names a client search's call of an earlier item. */
function clientSearchOf(calls: ReadonlySet<string>, id: unknown): boolean {
  return typeof id === "string" && calls.has(searchKey(id));
}

/**
 * A `program` item of the client's input (or one the Worker sealed in a reasoning item): the
 * program of the calls that name it, and, for OpenAI, a kept block in its place, so that a program
 * that called none of the client's tools goes back too (with the `fingerprint` that must round-trip).
 *
 * @example
 * ```ts
 * addProgram(item, { provider, programs }, assistant);
 * ```
 */
export function addProgram(
  program: JsonObject,
  context: { provider: string; programs: Programs },
  assistant: () => Assistant,
): void {
  context.programs.set(String(program["call_id"]), program);
  if (context.provider === OPENAI) (assistant().reasoning_parts ??= []).push({ type: "block", block: program });
}
