/**
 * One input item of `POST /v1/responses` (or of the stored conversation before it) into the
 * Worker's messages, each type in its place: messages, calls and their outputs, reasoning, the
 * items of the tools OpenAI ran, and those of ./built-in-tools.ts, ./program-items.ts and
 * ./mcp-items.ts. The body's other fields are read in ./request.ts. A function call's or its
 * output's `status` outside OpenAI's enum, and an unknown `phase`, are 400s at their path, as
 * OpenAI answers them, when the client wrote them: not in a stored item (of `previous_response_id`
 * or an `item_reference`), whose values an upstream gave. A `call_id` over OpenAI's 64 characters
 * is not: the ids this Worker gives Gemini's calls carry their thought signature
 * (../thought-signatures.ts) and are longer.
 *
 * @module
 */
import type { JsonValue } from "../../../src/index.ts";
import { invalidField } from "../../response/json-error.ts";
import { own } from "../../request/json-fields.ts";
import { upstreamProviders } from "../../upstream/providers/index.ts";
import { reasoningItemPart, withReasoningText } from "../reasoning-state.ts";
import { callIdOf, echoedCall } from "../thought-signatures.ts";
import { argumentsOf, idAt, objectAt, stringAt, TAKES_REFUSAL, type WireMessage } from "../client-request.ts";
import { toolNameIn } from "../tool-names.ts";
import { addBuiltInItem } from "./built-in-tools.ts";
import { addMcpItem } from "./mcp-items.ts";
import { addProgram, addToolCallingItem, callerMetadata, type Programs } from "./program-items.ts";
import { customCall } from "../custom-calls.ts";
import { inputParts, joinedText, outputMessage, withFiles } from "./input-files.ts";
import { checkInputRole, checkSummary, summaryText, textOf } from "./input-text.ts";
import { isItemReference, unstoredReference } from "./conversation.ts";
import { isOpenAIStateItem } from "../../request/kept-blocks.ts";
import { withoutWorkerId } from "./stored-ids.ts";

/** The items of the tools OpenAI runs itself, and its compaction item, which the request kit sends back as kept blocks. */
const OPENAI_RAN = /^((web_search|code_interpreter|image_generation|file_search)_call|compaction)$/;

/** OpenAI's items that take no `status` (openai 7's `ResponseInputItem`), which the Worker stored on them before. */
const NO_STATUS = /^(compaction|configuration_update|program)$/;

/**
 * An item of OpenAI's own (a tool it ran, its context, a program, a server search) as OpenAI takes
 * it back: without an id the Worker made (./stored-ids.ts), and, stored, without a `status` its
 * type has none of (OpenAI refuses the field: the Worker added one to the items it stored before).
 * A client's own item keeps the `status` it sent.
 */
function asOpenAITakesIt(item: Record<string, unknown>, stored: boolean | undefined): { [key: string]: JsonValue } {
  const given = withoutWorkerId(item) as { [key: string]: JsonValue };
  if (!stored || !NO_STATUS.test(String(own(item, "type"))) || "content" in item) return given;
  const { status: _status, ...rest } = given;
  return rest;
}

/** An assistant message's `phase` (OpenAI's and Open Responses' enum). */
const PHASES: ReadonlySet<string> = new Set(["commentary", "final_answer"]);

/** A function call's (and its output's) `status`: OpenAI refuses a value outside the spec's enum, so does this Worker. */
const STATUSES: ReadonlySet<string> = new Set(["in_progress", "completed", "incomplete"]);

function checkStatus(item: Record<string, unknown>, path: string, stored: boolean | undefined): void {
  if (stored) return; // not the client's: the Worker's, or an upstream's, value
  const status = own(item, "status") ?? undefined;
  if (status !== undefined && !STATUSES.has(status as string))
    throw invalidField(`${path}.status`, "`status` must be in_progress, completed or incomplete.");
}

/** The tool names OpenAI takes, which a Responses client may send. */
const NAMES = upstreamProviders["openai-responses"].toolNames;

/**
 * One input item into the `/v1/stream` messages: a call joins the assistant message before it.
 * `calls` holds the earlier items' call ids: an output for none of them is a 400 at its
 * `call_id`, as OpenAI answers it (and Gemini and Ollama, which need the call's name, could not be
 * sent it).
 */
export function addItem(
  messages: WireMessage[],
  value: unknown,
  path: string,
  calls: Set<string>,
  context: { provider: string; programs: Programs; added: [unknown, string][]; stored?: boolean; earlier?: boolean },
): void {
  const { provider } = context;
  const item = objectAt(value, path);
  const type = isItemReference(item) ? "item_reference" : (own(item, "type") ?? "message");
  // Tools offered from this item on: among the request's tools (./request-tools.ts).
  if (type === "additional_tools") return void context.added.push([own(item, "tools"), `${path}.tools`]);
  const last = messages.at(-1);
  const assistant = (): Extract<WireMessage, { role: "assistant" }> => {
    if (last?.role === "assistant") return last;
    const message: WireMessage = { role: "assistant", content: "", tool_calls: [] };
    messages.push(message);
    return message;
  };
  if (type === "message") {
    const role = own(item, "role");
    if (!context.stored) checkInputRole(role, own(item, "content"), path);
    // A user message may hold images and files (./input-files.ts); the other roles text only.
    if (role === "user" && Array.isArray(own(item, "content"))) {
      const parts = inputParts(own(item, "content"), `${path}.content`, provider);
      return void messages.push({ role: "user", content: withFiles(parts) ? parts : joinedText(parts) });
    }
    // A refusal part, to an upstream that takes a refusal back (OpenAI Chat's `refusal`, a Responses
    // `refusal` part), is a refusal field part: without the item's id, which is this Worker's, not
    // the upstream's. The others (Anthropic, Gemini, Bedrock, Cohere, Ollama) have none: it is left
    // out, not sent as the model's words (Anthropic's refusal is its classifier's explanation, and
    // its guidance is not to continue the refused content).
    const turn = role === "assistant" ? assistant() : undefined;
    // Its `phase` (Codex's `commentary` / `final_answer`), which gpt-5.3-codex and later need back,
    // before its text, as the library keeps it (`ResponsesCitations`); the others have no such field.
    const phase = own(item, "phase") ?? undefined;
    // The client's, as OpenAI checks it; a stored item's is what an OpenAI upstream gave (OpenAI adds
    // values): back to it as it came, not a 400 for a value the client never wrote.
    if (phase !== undefined && !PHASES.has(phase as string) && !context.stored)
      throw invalidField(`${path}.phase`, "`phase` must be commentary or final_answer.");
    if (turn && typeof phase === "string" && provider === "openai-responses")
      (turn.reasoning_parts ??= []).push({ type: "block", block: { type: "phase", phase } });
    const refusal =
      turn &&
      ((value: string) =>
        TAKES_REFUSAL.has(provider) && (turn.reasoning_parts ??= []).push({ type: "field", field: "refusal", value }));
    const content = textOf(own(item, "content"), `${path}.content`, refusal);
    // A message item's text right after another's (the turn's last run is text): a paragraph of its own, not
    // glued to the last word. After a call or reasoning it is a run of its own (its own block): none needed.
    if (turn) turn.content += turn.order?.at(-1)?.type === "text" && content !== "" ? `\n\n${content}` : content;
    else if (role === "user") messages.push({ role: "user", content });
    else if (role === "system" || role === "developer") messages.push({ role: "system", content });
    else throw invalidField(`${path}.role`, "`role` must be user, assistant, system or developer.");
  } else if (type === "function_call" || type === "custom_tool_call") {
    if (type === "function_call") checkStatus(item, path, context.stored);
    const id = idAt(own(item, "call_id"), `${path}.call_id`);
    calls.add(id);
    // Programmatic tool calling: who made the call, and the program that did, for OpenAI (./program-items.ts).
    const openAI = callerMetadata(item, path, provider, context.programs);
    const call = {
      ...(openAI
        ? { id: callIdOf(id, provider), providerMetadata: openAI }
        : echoedCall(id, provider, `${path}.call_id`)),
      name: toolNameIn(own(item, "name"), `${path}.name`, NAMES),
      // A custom call: to OpenAI Responses the `custom_tool_call` it is, else the function's call (../custom-calls.ts).
      ...(type === "function_call"
        ? { arguments: argumentsOf(stringAt(own(item, "arguments") ?? "{}", `${path}.arguments`), `${path}.arguments`) }
        : customCall(stringAt(own(item, "input"), `${path}.input`), provider)),
    };
    assistant().tool_calls.push(call);
  } else if (type === "function_call_output" || type === "custom_tool_call_output") {
    if (type === "function_call_output") checkStatus(item, path, context.stored);
    const output = own(item, "output");
    const id = idAt(own(item, "call_id"), `${path}.call_id`);
    if (!calls.has(id)) throw invalidField(`${path}.call_id`, "`call_id` names no call of an earlier input item.");
    messages.push(outputMessage(callIdOf(id, provider), output, `${path}.output`, provider));
  } else if (type === "reasoning") {
    if (!context.stored) checkSummary(own(item, "summary"), `${path}.summary`);
    // Its state, when it has some, opens (or joins) the assistant turn it reasoned for.
    // An id the Worker made binds no content of OpenAI's: as the item came without one (./stored-ids.ts).
    const [encrypted, id] = [own(item, "encrypted_content"), own(withoutWorkerId(item), "id")];
    const part = reasoningItemPart(
      typeof id === "string" ? id : "",
      typeof encrypted === "string" ? encrypted : undefined,
      own(item, "summary"),
      { path: `${path}.encrypted_content`, provider },
    );
    // A program the Worker sealed (./program-items.ts) is the program of the calls that name it.
    const program = part?.type === "block" && part.block["type"] === "program" ? part.block : undefined;
    if (program) return void addProgram(program, context, assistant);
    const turn = assistant();
    if (part) (turn.reasoning_parts ??= []).push(part);
    const summary = summaryText(own(item, "summary"));
    const reasoning = withReasoningText(turn.reasoning, summary);
    if (reasoning !== undefined) turn.reasoning = reasoning;
  } else if (typeof type === "string" && OPENAI_RAN.test(type)) {
    // A tool OpenAI ran, or a compacted context: back to OpenAI in its place (a reasoning model
    // refuses a reasoning item without the item that followed it); nothing another provider can take back.
    if (provider === "openai-responses")
      (assistant().reasoning_parts ??= []).push({ type: "block", block: asOpenAITakesIt(item, context.stored) });
  } else if (
    context.earlier &&
    (type === "compaction_trigger" || (type === "configuration_update" && provider !== "openai-responses"))
  ) {
    // An earlier turn's (`previous_response_id`): a `compaction_trigger` did its work (its response's
    // `compaction` item carries the context on), and a `configuration_update` holds at OpenAI only:
    // another provider goes on without it, as without OpenAI's compaction item. Only the client's are 400s.
    return;
  } else if (isOpenAIStateItem(type, `${path}.type`, provider)) {
    (assistant().reasoning_parts ??= []).push({ type: "block", block: asOpenAITakesIt(item, context.stored) });
  } else if (
    !addBuiltInItem(type, item, path, assistant, messages, calls) &&
    !addToolCallingItem(type, asOpenAITakesIt(item, context.stored), path, assistant, messages, calls, context) &&
    !addMcpItem(type, item, path, assistant, messages, calls, provider)
  )
    throw type === "item_reference"
      ? unstoredReference(`${path}.${own(item, "type") == null ? "id" : "type"}`) // resolved before, where responses are stored (./conversation.ts)
      : invalidField(
          `${path}.type`,
          "An input item is a message, function_call, custom_tool_call, apply_patch_call, shell_call, local_shell_call, an output of one of these calls, reasoning, program, program_output, tool_search_call, tool_search_output, an item of a tool OpenAI ran (web_search_call, ...), a compaction item, or (to an OpenAI model) a compaction_trigger, a configuration_update or an MCP item.",
        );
}
