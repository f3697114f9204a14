import { type ToolDefinition, toolName } from "../schema/tool-definition.ts";
import type { ProviderDelta } from "../shared/deltas.ts";
import { withChoice } from "../shared/values.ts";
import { parseStrictJsonText } from "../shared/long-member-name.ts";

/** What the unwrapper reads of a call: its name, id, event index, choice and arguments text so far. */
export interface WrapperCall {
  /** The tool name the model called. */
  readonly name: string;
  /** The call's id (`null` when the provider gave none): the wrapped calls' ids are made from it. */
  readonly id: string | null;
  /** The call's event index, never given to another call of its choice: the ids' base without an id. */
  readonly index: number;
  /** The choice it belongs to. */
  readonly choice: number;
  /** Its arguments text so far (whole once it completed). */
  readonly args: { readonly text: string };
}

/**
 * Plug-in of the accumulator: a call that wraps others. Asked while the call streams (no
 * `accumulator`), it says whether the call is held (not started) until it completes; asked at its
 * completion, it pushes to the accumulator the calls the wrapper stands for, each a whole call
 * with its end, and says whether it did (if not, the call surfaces as it came). `calls` is the
 * accumulator's count of the calls opened, which `maxToolCalls` bounds: a wrapper it replaces is
 * taken out of it first, so only the calls it stands for count.
 */
export type CallUnwrapper = (
  call: WrapperCall,
  accumulator?: { push(delta: ProviderDelta): void },
  calls?: { count: number },
) => boolean;

/** The names OpenAI models give the wrapper (Chat Completions' `multi_tool_use.parallel`, Responses' `parallel`). */
const WRAPPERS = new Set(["multi_tool_use.parallel", "parallel"]);

/**
 * OpenAI models sometimes call a tool nobody declared, `multi_tool_use.parallel` (or `parallel`,
 * seen from gpt-5 and codex models on the Responses API), whose arguments list the calls they
 * meant, `{"tool_uses": [{"recipient_name": "functions.get_weather", "parameters": {...}}]}`:
 * the internal form of parallel calls leaking out. Given the request's tools, such a call of an
 * undeclared wrapper name whose every entry names a declared tool stands for those calls, which
 * the accumulator then streams and completes one by one as if the provider had sent them (ids
 * `<wrapper id>_<n>`, or `call_<wrapper index>_<n>` for a wrapper with no id, so that two in one
 * response never give the same id; each counted by `maxToolCalls`, the wrapper not); anything
 * else surfaces as it came (an undeclared tool, then). vercel/ai expands it the same way (its
 * recording issue-19067-parallel-tool-call-wrapper.chunks.txt). The
 * main entry's `streamToolCalls` passes it by default; a provider subpath's takes it as
 * `unwrapParallel`.
 *
 * @example
 * ```ts
 * import { streamToolCalls } from "tool-call-stream/openai-responses";
 * import { parallelUnwrapper } from "tool-call-stream/core";
 *
 * const events = streamToolCalls(response, { tools, unwrapParallel: parallelUnwrapper });
 * const call = { name: "parallel", id: "call_1", index: 0, choice: 0, args: { text: '{"tool_uses":[{"recipient_name":"functions.search","parameters":{"q":"x"}}]}' } };
 * const deltas: ProviderDelta[] = [];
 * parallelUnwrapper([{ name: "search" }])(call, deltas); // true; deltas: the chunk of call_1_0 (search, {"q":"x"}), its end
 * ```
 */
export function parallelUnwrapper(tools: readonly ToolDefinition[]): CallUnwrapper {
  const names = new Set(tools.map(toolName));
  return (call, accumulator, calls) => {
    const held = WRAPPERS.has(call.name) && !names.has(call.name);
    if (!accumulator || !held) return held;
    let value: unknown;
    try {
      value = parseStrictJsonText(call.args.text);
    } catch {
      return false;
    }
    const uses = isObject(value) ? value.tool_uses : undefined;
    if (!Array.isArray(uses) || uses.length === 0) return false;
    const deltas: ProviderDelta[] = [];
    for (const use of uses) {
      if (!isObject(use) || typeof use.recipient_name !== "string" || !isObject(use.parameters)) return false;
      const name = use.recipient_name.replace(/^functions\./, "");
      if (!names.has(name)) return false;
      // A provider index of its own below 0, which no provider sends: the call gets the next free event index.
      const index = -1 - deltas.length / 2;
      // Without an id, the wrapper's index (per choice) keeps two wrappers' calls apart.
      const id = `${call.id ?? `call_${call.choice ? `${call.choice}_` : ""}${call.index}`}_${deltas.length / 2}`;
      const argumentsDelta = JSON.stringify(use.parameters);
      deltas.push(
        withChoice({ type: "tool-call-chunk" as const, index, id, name, argumentsDelta }, call.choice),
        withChoice({ type: "tool-call-end" as const, index }, call.choice),
      );
    }
    if (calls) calls.count--;
    for (const delta of deltas) accumulator.push(delta);
    return true;
  };
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);
