import type { ReasoningPart } from "../../shared/deltas.ts";
import type { JsonValue } from "../../shared/json.ts";
import { isRecord } from "../../shared/values.ts";
import { asText, idOf, type AssistantTurn, type ToolResult } from "../turn.ts";
import { approvalAnswer, approvalRequestItem, approvalResponses } from "./openai-responses-approvals.ts";
import { computerOutput, itemOf, type CallFields } from "./openai-responses-computer.ts";
import { responsesTurnItems } from "./openai-responses-turn-items.ts";
import { parseStrictJsonText } from "../../shared/long-member-name.ts";

/**
 * OpenAI Responses: the input items that replay the turn: its `reasoning` items (from
 * `reasoningParts`, in order, with `encrypted_content` when it came, as a reasoning model requires
 * before its calls), then `message`, `function_call` and `custom_tool_call` items; a built-in
 * tool's call goes back as the item it came as (`apply_patch_call` with its `operation`,
 * `shell_call` with its `action`, `local_shell_call`, `computer_call` with its `action` or
 * `actions` and `pending_safety_checks`, a client `tool_search_call` with its
 * `arguments`), and an `mcp_call`, which OpenAI ran, with its output. A call a program made goes
 * back with its `caller`, after the `program` item that made it, once, with its `fingerprint`, and
 * a program's `program_output` after its calls (before the text when the program came in an earlier
 * turn); a server tool search as its `tool_search_call` with the `tool_search_output` that followed
 * it (kept blocks), and a tool OpenAI ran (`web_search_call`, ...) as its item among the reasoning
 * items, where it came. An annotated `output_text` (kept by `ResponsesCitations`) goes back as its
 * `message` item with that part and its `annotations`, the text around it as plain messages.
 * Approval requests go last, as `mcp_approval_request` items.
 *
 * @example
 * ```ts
 * for await (const event of streamToolCalls(response, { provider: "openai-responses" })) {
 *   if (event.type === "finish") input.push(...responsesInputItems(event));
 * }
 * ```
 */
export function responsesInputItems(turn: AssistantTurn): Record<string, unknown>[] {
  const ordered = { text: turn.text ?? "", calls: turn.toolCalls, parts: turn.reasoningParts, order: turn.order };
  return responsesTurnItems(
    ordered,
    {
      reasoning: (part) => [reasoningItem(part)],
      text: (text) => ({ type: "message", role: "assistant", content: text }),
      call: (call, outputs) => {
        const builtIn = builtInItem(call);
        if (builtIn) return [builtIn, ...outputs.shellOutput(call.id)];
        if (call.providerExecuted) return outputs.afterCall(call) ?? [];
        const item =
          call.inputFormat === "text"
            ? { type: "custom_tool_call", call_id: idOf(call), name: call.name, input: call.rawArguments }
            : {
                type: "function_call",
                call_id: idOf(call),
                name: call.name,
                arguments: call.rawArguments || JSON.stringify(call.arguments),
              };
        return [{ ...item, ...callFields(call) }];
      },
    },
    (turn.approvalRequests ?? []).map(approvalRequestItem),
  );
}

/**
 * A reasoning part as its `reasoning` input item: its `id` and `summary`, its raw reasoning
 * `content` and its `encrypted_content` when it has them. Of no encrypted content, OpenAI finds the
 * item by its id among the stored response's (`store` true, its default).
 *
 * @example
 * ```ts
 * reasoningItem({ type: "item", id: "rs_1", summary: [] }); // { type: "reasoning", id: "rs_1", summary: [] }
 * ```
 */
export function reasoningItem(part: Extract<ReasoningPart, { type: "item" }>): Record<string, unknown> {
  return {
    type: "reasoning",
    id: part.id,
    summary: part.summary ?? [],
    // gpt-oss's raw reasoning (vLLM, LM Studio, Ollama): it has no encrypted content, and takes this back.
    ...(part.content !== undefined ? { content: part.content } : {}),
    ...(part.encryptedContent !== undefined ? { encrypted_content: part.encryptedContent } : {}),
  };
}

/**
 * OpenAI Responses: one output item per result: `function_call_output` (or
 * `custom_tool_call_output`); for a built-in tool's call, `apply_patch_call_output` (`failed`
 * when the result is an error), `shell_call_output` (the result as it is when it is a list of
 * `{ stdout, stderr, outcome }`, else its text as the stdout of a command that exited 0, or the
 * stderr of one that exited 1 for an error; with the action's `max_output_length`) or
 * `local_shell_call_output`, `computer_call_output` (the result a screenshot: a `data:image/` or
 * `https:` URL, `{ image_url }` or `{ file_id }`, with the result's `acknowledgedSafetyChecks` as
 * the `acknowledged_safety_checks` the user confirmed; any other result of a computer call, an
 * error above all, throws an `invalid-request` `ToolCallStreamError`, as OpenAI takes nothing else
 * there), or `tool_search_output` (the result's tool definitions, a list or `{ tools }`). An output of a call a program made carries the call's `caller`, so
 * that it goes back to the program. An answer to an approval request carried as a call (its
 * `responsesItem` an `mcp_approval_request`, as the Worker carries a client's) is its
 * `mcp_approval_response`, the output `{ approve, reason }` or its JSON text.
 *
 * @example
 * ```ts
 * input.push(...responsesToolOutputs([{ call, output: { temperature: 21 } }]));
 * ```
 */
export function responsesToolOutputs(results: readonly ToolResult[]): Record<string, unknown>[] {
  return results.map((result, i) => toolOutput(result, `results[${i}].output`));
}

/**
 * One result as its output item: a built-in call's (by its `providerMetadata.responsesItem`) of
 * its own kind, else `function_call_output` or `custom_tool_call_output`. `path` names the result
 * in the `invalid-request` error of a computer call's result that is no screenshot.
 *
 * @example
 * ```ts
 * const item = toolOutput({ call, output: "done" });
 * ```
 */
export function toolOutput(result: ToolResult, path: string = "output"): Record<string, unknown> {
  const call_id = idOf(result.call);
  const caller = callerOf(result.call);
  switch (builtInType(result.call)) {
    case "apply_patch_call":
      return {
        type: "apply_patch_call_output",
        call_id,
        status: result.isError ? "failed" : "completed",
        output: asText(result.output),
        ...caller,
      };
    case "shell_call": {
      const limit = isRecord(result.call.arguments) ? result.call.arguments["max_output_length"] : undefined;
      return {
        type: "shell_call_output",
        call_id,
        output: shellOutput(result),
        ...(typeof limit === "number" ? { max_output_length: limit } : {}),
        ...caller,
      };
    }
    case "local_shell_call":
      return { type: "local_shell_call_output", id: call_id, output: asText(result.output) };
    case "computer_call":
      return computerOutput(result, call_id, path);
    case "tool_search_call":
      return { type: "tool_search_output", call_id, execution: "client", tools: loadedTools(result), ...caller };
    case "mcp_approval_request":
      return approvalResponses([{ request: { id: call_id }, ...approvalAnswer(result.output) }])[0]!;
    default:
      return {
        type: result.call.inputFormat === "text" ? "custom_tool_call_output" : "function_call_output",
        call_id,
        output: asText(result.output),
        ...caller,
      };
  }
}

const builtInType = (call: CallFields): unknown => itemOf(call)?.["type"];

/**
 * The `caller` a function or custom tool call came with (`providerMetadata.responsesItem.caller`:
 * `{ type: "program", caller_id }` for a call a program made), to send back on its item.
 *
 * @example
 * ```ts
 * const item = { type: "function_call", call_id: "call_1", name: "lookup", arguments: "{}", ...callerOf(call) };
 * ```
 */
export function callerOf(call: CallFields): { caller?: Record<string, unknown> } {
  const caller = itemOf(call)?.["caller"];
  return isRecord(caller) ? { caller } : {};
}

/**
 * What a function or custom tool call's item carries back besides its input: its `namespace` (a
 * tool that tool search loaded: OpenAI refuses the item without it) and its `caller`.
 *
 * @example
 * ```ts
 * const item = { type: "function_call", call_id: "call_1", name: "rates", arguments: "{}", ...callFields(call) };
 * ```
 */
export function callFields(call: CallFields): { namespace?: string; caller?: Record<string, unknown> } {
  const namespace = itemOf(call)?.["namespace"];
  return { ...(typeof namespace === "string" ? { namespace } : {}), ...callerOf(call) };
}

/**
 * A built-in call as its input item (`apply_patch_call`, `shell_call`, `local_shell_call`,
 * `mcp_call`), by its `providerMetadata.responsesItem`, with the input the model streamed
 * (`rawArguments`, else `arguments`); undefined for a function or custom call.
 *
 * @example
 * ```ts
 * const item = builtInItem({ id: "call_1", name: "shell", arguments: { commands: ["ls"] }, rawArguments: "", providerMetadata: { responsesItem: { type: "shell_call" } } });
 * ```
 */
export function builtInItem(call: {
  id: string | null;
  name: string;
  arguments: JsonValue;
  rawArguments?: string;
  providerMetadata?: Readonly<Record<string, unknown>> | undefined;
}): Record<string, unknown> | undefined {
  const item = itemOf(call);
  const type = item?.["type"];
  if (item === undefined || typeof type !== "string") return undefined;
  // What the model sent, as `function_call` items carry it: an invalid call (a tool the loop has
  // no handler for) is answered with `{}` as its arguments, which OpenAI refuses as an action.
  call = { ...call, arguments: sentInput(call) };
  const status = item["status"] === "in_progress" || item["status"] === "incomplete" ? item["status"] : "completed";
  const caller = isRecord(item["caller"]) ? { caller: item["caller"] } : {};
  switch (type) {
    case "apply_patch_call":
      return { type, call_id: idOf(call), operation: call.arguments, status, ...caller };
    case "shell_call": {
      const environment = isRecord(item["environment"]) ? { environment: item["environment"] } : {};
      return { type, call_id: idOf(call), action: call.arguments, status, ...environment, ...caller };
    }
    case "local_shell_call":
      return { type, id: item["id"], call_id: idOf(call), action: call.arguments, status };
    case "computer_call":
      return {
        type,
        id: item["id"],
        call_id: idOf(call),
        ...(isRecord(call.arguments) ? call.arguments : {}),
        pending_safety_checks: item["pending_safety_checks"] ?? [],
        status,
      };
    case "tool_search_call":
      // One OpenAI ran (`execution: "server"`) is not the client's to send back.
      return item["execution"] === "client"
        ? { type, call_id: idOf(call), execution: "client", arguments: call.arguments, status }
        : undefined;
    case "mcp_approval_request":
      return approvalRequestItem({
        id: typeof item["id"] === "string" ? item["id"] : idOf(call),
        name: call.name,
        rawArguments: call.rawArguments || JSON.stringify(call.arguments),
        serverLabel: typeof item["server_label"] === "string" ? item["server_label"] : "",
      });
    case "mcp_call":
      return {
        type,
        id: item["id"] ?? idOf(call),
        name: call.name,
        arguments: call.rawArguments ?? JSON.stringify(call.arguments),
        server_label: item["server_label"],
        ...outcome(item),
      };
    default:
      return undefined;
  }
}

/** A call's input as it streamed (`rawArguments`, JSON its decoder wrote), else its arguments. */
function sentInput(call: { arguments: JsonValue; rawArguments?: string }): JsonValue {
  if (!call.rawArguments) return call.arguments;
  try {
    return parseStrictJsonText(call.rawArguments) as JsonValue;
  } catch {
    return call.arguments;
  }
}

/** An MCP call's `output` and `error`, where it has them. */
function outcome(item: Record<string, unknown>): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  for (const key of ["output", "error", "status", "approval_request_id"])
    if (item[key] !== undefined && item[key] !== null) fields[key] = item[key];
  return fields;
}

/** A client tool search's result as `tool_search_output.tools`: the tool definitions it found, as a list or `{ tools }`. */
function loadedTools(result: ToolResult): JsonValue[] {
  const output = result.output;
  if (Array.isArray(output)) return output;
  const tools = isRecord(output) ? output["tools"] : undefined;
  return Array.isArray(tools) ? tools : [];
}

/** A shell result as `shell_call_output.output`: one entry per command. */
function shellOutput(result: ToolResult): JsonValue[] {
  const output = result.output;
  if (Array.isArray(output) && output.length > 0 && output.every((entry) => isRecord(entry) && "outcome" in entry))
    return output;
  const text = asText(output);
  return [
    {
      stdout: result.isError ? "" : text,
      stderr: result.isError ? text : "",
      outcome: { type: "exit", exit_code: result.isError ? 1 : 0 },
    },
  ];
}
