import type { ReasoningPart } from "../../shared/deltas.ts";
import type { JsonValue } from "../../shared/json.ts";
import { isRecord } from "../../shared/values.ts";

type Item = Record<string, unknown>;

/**
 * The items of the tools OpenAI runs itself, which go back as they came, in place.
 *
 * @example
 * ```ts
 * SERVER_CALL.test("web_search_call"); // true
 * ```
 */
export const SERVER_CALL: RegExp = /^(web_search|code_interpreter|image_generation|file_search)_call$/;

/**
 * OpenAI's items about the context itself, which go back in place: its `compaction` item (not
 * Anthropic's `compaction` block of the same `type`, which has a `content` and which Responses
 * refuses: a conversation that changed provider holds either), a client's `compaction_trigger`
 * and `configuration_update` (a reasoning effort or text format from that item on), and
 * `additional_tools` (tools made available from that item on, openai 7.60's
 * `ResponseOutputItem.AdditionalTools`, which the model's later calls may use), and
 * `mcp_list_tools` (a remote MCP server's tools, `ResponseOutputItem.McpListTools`: OpenAI lists
 * them again, calling the server, when the conversation lacks the item).
 *
 * @example
 * ```ts
 * isContextItem({ id: "cmp_1", type: "compaction", encrypted_content: "..." }); // true
 * isContextItem({ type: "configuration_update", reasoning: { effort: "low" } }); // true
 * isContextItem({ id: "at_1", type: "additional_tools", role: "developer", tools: [] }); // true
 * isContextItem({ id: "mcpl_1", type: "mcp_list_tools", server_label: "links", tools: [] }); // true
 * ```
 */
export const isContextItem = (block: Readonly<Record<string, unknown>>): boolean =>
  /^(compaction(_trigger)?|configuration_update|additional_tools|mcp_list_tools)$/.test(String(block["type"])) &&
  !("content" in block);
type CallFields = { arguments: JsonValue; providerMetadata?: Readonly<Record<string, unknown>> | undefined };

/**
 * The output items of tools OpenAI ran itself that a turn holds (kept blocks: a server tool
 * search's `tool_search_output`, a program's `program_output`), as the next turn's input takes
 * them back in their place: a server tool search's call (`tool_search_call` with `execution:
 * "server"`, which names no `call_id`) with the output that followed it, in order; a program's
 * output after its program's calls when the program is of the turn, else before the turn's text;
 * a hosted shell's `shell_call_output` right after its `shell_call`.
 * A server search's call kept as a block itself (how the Worker carries a Responses client's
 * `tool_search_call` item, which names no call to run) goes back with its output before the text.
 *
 * @example
 * ```ts
 * const outputs = new ServerOutputs(finish.reasoningParts);
 * items.push(...outputs.before(programs)); // ...then the text, the calls (with `outputs.afterCall(call)`), `outputs.after(programs)`
 * ```
 */
export class ServerOutputs {
  readonly #searches: Item[] = [];
  readonly #programs: Item[] = [];
  /** Server searches kept as blocks, each with the output that followed it. */
  readonly #keptSearches: Item[] = [];
  /** A hosted shell's outputs, by their call's id. */
  readonly #shellOutputs = new Map<unknown, Item>();

  /** Reads the turn's kept blocks. */
  constructor(parts: readonly ReasoningPart[] | undefined) {
    let search: Item | undefined;
    for (const part of parts ?? []) {
      if (part.type !== "block") continue;
      const type = part.block["type"];
      if (type === "tool_search_call") search = part.block;
      else if (type === "tool_search_output" && search) {
        this.#keptSearches.push(search, part.block);
        search = undefined;
      } else if (type === "tool_search_output") this.#searches.push(part.block);
      else if (type === "program_output") this.#programs.push(part.block);
      else if (type === "shell_call_output") this.#shellOutputs.set(part.block["call_id"], part.block);
    }
  }

  /**
   * The server searches kept as blocks, each with its output, then the program outputs whose
   * program came in an earlier turn (not among `programs`, the turn's programs' call ids).
   */
  before(programs: ReadonlySet<unknown>): Item[] {
    return [...this.#keptSearches, ...this.#programs.filter((output) => !programs.has(output["call_id"]))];
  }

  /** The program outputs of the turn's own programs, after their calls. */
  after(programs: ReadonlySet<unknown>): Item[] {
    return this.#programs.filter((output) => programs.has(output["call_id"]));
  }

  /** The output a hosted shell's call (OpenAI ran it) got in the turn, to go back right after it. */
  shellOutput(callId: string | null): Item[] {
    const output = this.#shellOutputs.get(callId);
    return output ? [output] : [];
  }

  /**
   * A server tool search's call as its item, with the output that followed it (nothing for a
   * server search with no output in the turn: OpenAI pairs the two); nothing for the call of
   * another tool OpenAI ran (its item goes back as a kept block, in place); undefined for any other call.
   */
  afterCall(call: CallFields): Item[] | undefined {
    const item = call.providerMetadata?.["responsesItem"];
    if (!isRecord(item)) return undefined;
    if (SERVER_CALL.test(String(item["type"]))) return [];
    if (item["type"] !== "tool_search_call" || item["execution"] === "client") return undefined;
    const output = this.#searches.shift();
    if (!output) return [];
    const id = typeof item["id"] === "string" ? { id: item["id"] } : {};
    const status = typeof item["status"] === "string" ? item["status"] : "completed";
    return [
      { type: "tool_search_call", ...id, call_id: null, execution: "server", arguments: call.arguments, status },
      output,
    ];
  }
}

/**
 * The item of a tool OpenAI ran (`web_search_call`, `code_interpreter_call`,
 * `image_generation_call`, `file_search_call`), or the `compaction` item of a response that
 * compacted its context, a kept block holds, as it came, else none: it goes back among the turn's
 * reasoning items, where it came (a reasoning model refuses a reasoning item without the item that
 * followed it; the compaction item stands for the context before it).
 *
 * @example
 * ```ts
 * serverCallItem({ type: "block", block: { type: "web_search_call", id: "ws_1", status: "completed" } }); // [that item]
 * ```
 */
export const serverCallItem = (part: ReasoningPart): Item[] =>
  part.type === "block" && (SERVER_CALL.test(String(part.block["type"])) || isContextItem(part.block))
    ? [part.block]
    : [];
