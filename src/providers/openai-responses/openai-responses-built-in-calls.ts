import type { ToolCallChunkDelta } from "../../shared/deltas.ts";
import { isRecord, nonEmptyString, ownValue } from "../../shared/values.ts";
import type { DecoderLimits, Emit } from "../provider-decoder.ts";
import { SERVER_CALL } from "./openai-responses-server-items.ts";

/**
 * The Responses output items of OpenAI's built-in tools that stream as calls, by item type: the
 * name the call gets (the tool's type, which is the name an application registers it under; an
 * MCP call keeps its tool's name) and the field of the item that is the call's input.
 */
const BUILT_IN: Record<string, { name?: string; input: string }> = {
  apply_patch_call: { name: "apply_patch", input: "operation" },
  shell_call: { name: "shell", input: "action" },
  local_shell_call: { name: "local_shell", input: "action" },
  mcp_call: { input: "arguments" },
  tool_search_call: { name: "tool_search", input: "arguments" },
  // The computer tool: one `action` (computer_use_preview) or the GA tool's batched `actions`.
  computer_call: { name: "computer", input: "action" },
};

/** What streamed of one built-in call so far. */
interface Open {
  type: string;
  /** apply_patch: the operation of `output_item.added` (its type and path lead the arguments). */
  operation?: Record<string, unknown>;
  /** apply_patch: the arguments' prefix went out, the diff's string is open. */
  diffOpen?: boolean;
  /** apply_patch: the diff of `operation_diff.done`, for an item that ends without its operation. */
  diff?: string;
  /** code_interpreter: the code's string is open (its prefix went out). */
  codeOpen?: boolean;
  /** shell: how many commands opened, and whether the last one's string is still open. */
  commands?: number;
  commandOpen?: boolean;
}

/** One fragment of JSON string content: `JSON.stringify` of the text without its quotes. */
const escaped = (text: string): string => JSON.stringify(text).slice(1, -1);

/**
 * The built-in client tools of OpenAI Responses (`apply_patch_call`, `shell_call`,
 * `local_shell_call`) and its MCP calls, as the decoder's calls: an `apply_patch_call`'s arguments
 * are its `operation` (`{ type, path, diff }`, the diff from the
 * `apply_patch_call_operation_diff` deltas), a `shell_call`'s its `action` (`{ commands, ... }`,
 * the commands from the `shell_call_command` events, which carry an `output_index` and a
 * `command_index` and no `item_id`), a `local_shell_call`'s its `action`, whole at its end, a
 * `computer_call`'s (a call named `computer`) its `action` or its batched `actions`, as
 * `{ action }` or `{ actions }`, whole at its end (its `pending_safety_checks` stay on the item). Each
 * completes at its `output_item.done`, whose item gives the final arguments, in the key order
 * that streamed, so what streamed is their prefix. The item's other fields (its `type`, `id`,
 * `status`, `caller`, `environment`; an MCP call's `server_label`, `output` and `error`) are the
 * call's `providerMetadata.responsesItem`, which the next turn's items are made from. A
 * `shell_call` in a container (the hosted shell) ran on OpenAI's side, as an `mcp_call` did: it is
 * `providerExecuted` (its `shell_call_output` a kept block). An `mcp_call` ran there too: it is
 * `providerExecuted`, named after the MCP tool, and completes at its `output_item.done`, so that
 * its output is on it. A `tool_search_call` is a
 * call named `tool_search` whose arguments (an object, not JSON text) come whole with its
 * `output_item.done`, which opens and completes it at once, with that item's `call_id` (the added
 * item's may differ): the application runs it when its `execution` is `client`, OpenAI otherwise.
 * The items of the tools OpenAI runs itself (`web_search_call`, `code_interpreter_call`,
 * `image_generation_call`, `file_search_call`) are `providerExecuted` calls named after the tool
 * (`web_search`, ...), by the item's id, opened at `output_item.added`; a code interpreter's code
 * streams as its input (`response.code_interpreter_call_code.delta`); each completes at its
 * `output_item.done`, its input the item's fields but its id, type, status and result (`{ action }`,
 * `{ code, container_id }`, `{ queries }`, `{}`); the item itself, result included, then follows
 * as the decoder's kept block (its result), which the next turn sends back in its place. Without
 * the plug-in, such an item is that kept block alone.
 *
 * A plug-in of `OpenAIResponsesDecoder` (its `builtInCalls` option), which
 * `OpenAIResponsesDeltaStream` and the main entry's `streamToolCalls` pass themselves, and
 * `tool-call-stream/openai-responses`' `streamToolCalls` takes as `builtInCalls`: a bundle that
 * reads no built-in tool's call holds none of this. Without it, such an item ends the stream with
 * an `unknown-provider` error naming the plug-in.
 *
 * @example
 * ```ts
 * const calls = new ResponsesBuiltInCalls((delta) => deltas.push(delta));
 * calls.added({ type: "shell_call", id: "sh_1", call_id: "call_1", action: { commands: [] } }, 0);
 * calls.event("response.shell_call_command.added", { output_index: 0, command_index: 0, command: "ls" }, 0);
 * ```
 */
export class ResponsesBuiltInCalls {
  readonly #emit: Emit;
  /** The open built-in calls, by output index. */
  readonly #open = new Map<number, Open>();

  /** Reports through `emit`; the decoder's `limits` bound only what a subclass keeps (`ResponsesCitations`' annotations). */
  constructor(emit: Emit, _limits?: DecoderLimits) {
    this.#emit = emit;
  }

  /** The output index is an open built-in call. */
  has(index: number): boolean {
    return this.#open.has(index);
  }

  /** `output_item.added`: opens the call when the item is a built-in one; false when it is not. */
  added(item: Record<string, unknown>, index: number): boolean {
    const type = String(item["type"]);
    // A tool OpenAI ran (web search, code interpreter, image generation, file search): named after it.
    const server = SERVER_CALL.test(type);
    const kind: { name?: string } | undefined = server ? { name: type.slice(0, -5) } : ownValue(BUILT_IN, type);
    if (kind === undefined) return false;
    const id = nonEmptyString(item["call_id"]) ?? nonEmptyString(item["id"]);
    const name = kind.name ?? nonEmptyString(item["name"]);
    const operation = item["operation"];
    this.#open.set(index, { type, ...(isRecord(operation) && { operation }) });
    if (type === "tool_search_call") return true;
    const chunk: ToolCallChunkDelta = {
      type: "tool-call-chunk",
      index,
      providerMetadata: server ? { responsesItem: { type } } : metadataOf(item),
    };
    if (id) chunk.id = id;
    if (name) chunk.name = name;
    if (type === "mcp_call" || server || hostedShell(item)) chunk.providerExecuted = true;
    this.#emit(chunk);
    return true;
  }

  /**
   * A built-in call's own streaming event, of the call at `index`: `apply_patch_call_operation_diff.delta`
   * (a fragment of the operation's diff) and `.done` (the whole diff, kept for an item that ends
   * without its operation), `shell_call_command.added` / `.delta` / `.done` (which carry a
   * `command_index`). Any other event changes nothing: a refusal's delta (`response.refusal.delta`,
   * which the decoder keeps itself) comes too, at index -1, for a subclass's bound (`ResponsesCitations`').
   * Nor do, knowingly, the events that carry no text, call or error the items do not (`openai` 7.60's
   * types): the tools' statuses, `response.compaction.compacting`, a hosted shell's
   * `shell_call_output_content` (its `shell_call_output` item is kept whole), audio and its transcript
   * (no output item holds them), and event types added later.
   */
  event(type: string, event: Record<string, unknown>, index: number): void {
    switch (type) {
      case "response.apply_patch_call_operation_diff.delta": {
        const delta = nonEmptyString(event["delta"]);
        return delta === undefined ? undefined : this.#diffDelta(index, delta);
      }
      case "response.apply_patch_call_operation_diff.done": {
        const open = this.#open.get(index);
        const diff = event["diff"];
        if (open?.type === "apply_patch_call" && typeof diff === "string") open.diff = diff;
        return;
      }
      case "response.code_interpreter_call_code.delta": {
        const open = this.#open.get(index);
        const delta = nonEmptyString(event["delta"]);
        if (open?.type !== "code_interpreter_call" || delta === undefined) return;
        this.#emit({
          type: "tool-call-chunk",
          index,
          argumentsDelta: (open.codeOpen ? "" : '{"code":"') + escaped(delta),
        });
        open.codeOpen = true;
        return;
      }
      case "response.shell_call_command.added":
      case "response.shell_call_command.delta":
      case "response.shell_call_command.done": {
        const phase = type.slice(type.lastIndexOf(".") + 1) as "added" | "delta" | "done";
        const command = event["command_index"];
        const text = event[phase === "delta" ? "delta" : "command"];
        if (typeof command === "number" && Number.isInteger(command) && command >= 0)
          this.#command(index, command, typeof text === "string" ? text : undefined, phase);
      }
    }
  }

  /** A fragment of an apply_patch operation's diff. */
  #diffDelta(index: number, delta: string): void {
    const open = this.#open.get(index);
    if (open?.type !== "apply_patch_call") return;
    let text = escaped(delta);
    if (!open.diffOpen) {
      open.diffOpen = true;
      const { type, path } = open.operation ?? {};
      text = `${JSON.stringify({ type, path }).slice(0, -1)}${type === undefined && path === undefined ? "" : ","}"diff":"${text}`;
    }
    this.#emit({ type: "tool-call-chunk", index, argumentsDelta: text });
  }

  /**
   * A command of the shell call at `index` opened, grew, or ended. Commands stream one after
   * another; an event for a command already closed changes nothing (the item at the end has the
   * commands as they are).
   */
  #command(index: number, commandIndex: number, text: string | undefined, phase: "added" | "delta" | "done"): void {
    const open = this.#open.get(index);
    if (open?.type !== "shell_call") return;
    const opened = open.commands ?? 0;
    let out = "";
    if (commandIndex >= opened) {
      if (phase === "done") return;
      if (open.commandOpen) out += '"';
      out += `${opened === 0 ? '{"commands":[' : ","}"`;
      open.commands = commandIndex + 1;
      open.commandOpen = true;
    } else if (commandIndex !== opened - 1 || !open.commandOpen) return;
    if (phase === "done") {
      out += '"';
      open.commandOpen = false;
    } else if (text !== undefined) out += escaped(text);
    if (out !== "") this.#emit({ type: "tool-call-chunk", index, argumentsDelta: out });
  }

  /**
   * `output_item.done`: completes the built-in call at `index` with the item's input; true when
   * the item is used up, false when it is none or, a tool OpenAI ran, the decoder keeps it too.
   */
  done(item: Record<string, unknown>, index: number): boolean {
    const open = this.#open.get(index);
    if (open && SERVER_CALL.test(open.type)) {
      this.#open.delete(index);
      // Its input is what the item holds besides its result (`action`; `code`, `container_id`; `queries`).
      const { id: _i, type: _t, status: _s, outputs: _o, result: _r, results: _rs, ...input } = item;
      this.#emit({ type: "tool-call-end", index, arguments: JSON.stringify(input) });
      return false; // the item follows as a kept block: the call's result, which goes back in place
    }
    const kind = ownValue(BUILT_IN, String(item["type"]));
    if (open === undefined || kind === undefined) return false;
    this.#open.delete(index);
    const chunk: ToolCallChunkDelta = { type: "tool-call-chunk", index, providerMetadata: metadataOf(item) };
    const input = item[kind.input];
    if (open.type === "tool_search_call") {
      const id = nonEmptyString(item["call_id"]) ?? nonEmptyString(item["id"]);
      if (id) chunk.id = id;
      chunk.name = "tool_search";
      if (item["execution"] !== "client") chunk.providerExecuted = true;
    }
    this.#emit(chunk);
    const final =
      open.type === "mcp_call"
        ? typeof input === "string"
          ? input
          : undefined
        : open.type === "tool_search_call"
          ? isRecord(input)
            ? JSON.stringify(input)
            : undefined
          : open.type === "apply_patch_call"
            ? operationText(isRecord(input) ? input : { ...open.operation, diff: open.diff })
            : open.type === "computer_call"
              ? JSON.stringify({ action: item["action"], actions: item["actions"] })
              : isRecord(input)
                ? actionText(input, open.type === "shell_call" ? "commands" : "command")
                : undefined;
    this.#emit(
      final === undefined ? { type: "tool-call-end", index } : { type: "tool-call-end", index, arguments: final },
    );
    return true;
  }
}

/**
 * A `shell_call` OpenAI runs itself: its `environment` is a container (`container_reference`, the
 * hosted shell of a tool with `container_auto` or a container id), not `local` (or absent: a local
 * shell), and its output comes as a `shell_call_output` item in the same response.
 */
const hostedShell = (item: Record<string, unknown>): boolean => {
  const environment = item["environment"];
  return item["type"] === "shell_call" && isRecord(environment) && environment["type"] !== "local";
};

/** The item without its input and call id: what the next turn's item needs besides the call's arguments. */
function metadataOf(item: Record<string, unknown>): Record<string, unknown> {
  const { operation: _o, action: _a, actions: _s, arguments: _r, call_id: _c, name: _n, ...rest } = item;
  return { responsesItem: rest };
}

/** An operation as JSON, `type`, `path` and `diff` first, as its prefix streamed. */
function operationText(operation: Record<string, unknown>): string {
  const { type, path, diff, ...rest } = operation;
  return JSON.stringify({ type, path, diff, ...rest });
}

/** An action as JSON, its command list first, as its prefix streamed. */
function actionText(action: Record<string, unknown>, first: string): string {
  return JSON.stringify({ [first]: action[first], ...action });
}
