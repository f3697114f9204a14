import type { ReasoningPart } from "../shared/deltas.ts";
import type { ApprovalRequestEvent } from "../shared/events.ts";
import type { JsonValue } from "../shared/json.ts";
import type { SequencedBlock } from "./block-sequencer.ts";
import type { OpenAIResponsesOutputItem } from "./openai-responses-wire.ts";
import type { SendResponsesEvent } from "./openai-responses-stream-events.ts";

/** The item each built-in tool's calls are, by the tool's name (its `type` in a Responses request). */
const ITEMS = {
  apply_patch: { type: "apply_patch_call", prefix: "apc", input: "operation" },
  shell: { type: "shell_call", prefix: "sh", input: "action" },
  local_shell: { type: "local_shell_call", prefix: "lsh", input: "action" },
  tool_search: { type: "tool_search_call", prefix: "ts", input: "arguments" },
} as const;

type Item = Extract<
  OpenAIResponsesOutputItem,
  { type: "apply_patch_call" | "shell_call" | "local_shell_call" | "tool_search_call" }
>;

const isObject = (value: unknown): value is { [key: string]: JsonValue } =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * The calls of the built-in tools a Responses client offered (`apply_patch`, `shell`,
 * `local_shell`), written as the tool's own items: nothing while the call streams (its input is
 * JSON the item does not hold as text), then at its end the whole item, `output_item.added` and
 * `output_item.done`. The input's own events (`apply_patch_call_operation_diff.*`,
 * `shell_call_command.*`), which OpenAI may send, are not written: openai-node's stream helper
 * (v6) throws "Unhandled response stream event" on them, and an item added whole needs none. A call
 * whose input is not an object is written as the function call it was.
 *
 * @example
 * ```ts
 * const calls = new BuiltInCalls(new Set(["shell"]));
 * if (calls.defers(block)) return; // in the encoder's `open`
 * ```
 */
export class BuiltInCalls {
  readonly #tools: ReadonlySet<string>;
  /** The output indexes of the calls held to their end. */
  readonly #held = new Set<number>();
  /** Held calls whose input was not an object: written as function calls after all. */
  readonly #plain = new Set<number>();

  /** `tools`: the built-in tools' names the client offered. */
  constructor(tools: ReadonlySet<string> | undefined) {
    this.#tools = tools ?? new Set();
  }

  /** The block opens a built-in tool's call: it is held to its end, and nothing goes out now. */
  defers(block: SequencedBlock): boolean {
    if (block.kind !== "call" || block.textInput || this.#plain.has(block.index)) return false;
    if (!this.#tools.has(block.start.name) || !Object.hasOwn(ITEMS, block.start.name)) return false;
    this.#held.add(block.index);
    return true;
  }

  /** The block is a held call (its fragments are not sent). */
  holds(block: SequencedBlock): boolean {
    return this.#held.has(block.index);
  }

  /**
   * Writes a held call whole, at its end, and gives its item; undefined when its input is not an
   * object, and the caller writes it as a function call (`defers` then lets it open).
   */
  write(block: SequencedBlock, id: string, callId: string, send: SendResponsesEvent): Item | undefined {
    this.#held.delete(block.index);
    const completion = block.kind === "call" ? block.completion : undefined;
    const kind = block.kind === "call" ? ITEMS[block.start.name as keyof typeof ITEMS] : undefined;
    const given = completion?.type === "tool-call" ? completion.arguments : undefined;
    // A local shell's action is an `exec` with its environment, which a function's arguments may leave out.
    const input: JsonValue | undefined =
      isObject(given) && kind?.type === "local_shell_call" ? { type: "exec", env: {}, ...given } : given;
    if (kind === undefined || !isObject(input)) {
      this.#plain.add(block.index);
      return undefined;
    }
    const at = { output_index: block.index };
    const item: Item = { type: kind.type, id: `${kind.prefix}_${id}`, status: "in_progress", call_id: callId };
    const metadata = completion?.type === "tool-call" ? completion.providerMetadata?.["responsesItem"] : undefined;
    if (kind.type === "shell_call")
      item.environment = isObject(metadata) && metadata["environment"] !== undefined ? metadata["environment"] : null;
    if (kind.type === "tool_search_call") item.execution = "client";
    item[kind.input] = input;
    send("response.output_item.added", { ...at, item });
    Object.assign(item, { status: "completed", [kind.input]: input });
    send("response.output_item.done", { ...at, item });
    return item;
  }
}

type ApprovalItem = Extract<OpenAIResponsesOutputItem, { type: "mcp_approval_request" }>;

/**
 * A provider's approval request (OpenAI's MCP approvals) as the block the encoder writes whole: a
 * kept block (it goes back as it came) holding its `mcp_approval_request` item, under the
 * provider's own id, which the client's `mcp_approval_response` names.
 *
 * @example
 * ```ts
 * blocks.reasoningPart(approvalBlock(event)); // then `approvalItemOf(block.part)` in the encoder's `open`
 * ```
 */
export function approvalBlock(event: ApprovalRequestEvent): Extract<ReasoningPart, { type: "block" }> {
  const item: ApprovalItem = {
    type: "mcp_approval_request",
    id: event.id,
    server_label: event.serverLabel ?? "",
    name: event.name,
    arguments: event.rawArguments,
  };
  return { type: "block", block: item };
}

/**
 * What an OpenAI Responses call came with that its `function_call` or `custom_tool_call` item
 * carries back (its `providerMetadata.responsesItem`): the `namespace` of a tool a tool search
 * loaded ("Round-trip the model's function_call item with its namespace field included", OpenAI's
 * 400 says), and the `caller` of programmatic tool calling (`{ type: "program", caller_id }`, or
 * `{ type: "direct" }`).
 *
 * @example
 * ```ts
 * const item = { type: "function_call", call_id, name, arguments: "", ...responsesCallFields(start.providerMetadata) };
 * ```
 */
export function responsesCallFields(metadata: Readonly<Record<string, unknown>> | undefined): {
  namespace?: string;
  caller?: { [key: string]: JsonValue };
} {
  const item = metadata?.["responsesItem"];
  if (!isObject(item)) return {};
  const { namespace, caller } = item;
  return { ...(typeof namespace === "string" && { namespace }), ...(isObject(caller) && { caller }) };
}

/**
 * The `mcp_approval_request` item a kept block holds ({@link approvalBlock}); undefined for any other block.
 *
 * @example
 * ```ts
 * const item = block.kind === "kept" ? approvalItemOf(block.part) : undefined;
 * ```
 */
export function approvalItemOf(part: Extract<ReasoningPart, { type: "block" }>): ApprovalItem | undefined {
  return part.block["type"] === "mcp_approval_request" ? (structuredClone(part.block) as ApprovalItem) : undefined;
}
