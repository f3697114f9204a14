import type { EncodableEvent } from "../../../src/index.ts";
import { mapChunks } from "../../http/batch-map.ts";
import { isObject, own } from "../../request/json-fields.ts";
import { upstreamProviders } from "../../upstream/providers/index.ts";
import { arrayAt, chosenToolAt, objectAt, type WireTool } from "../client-request.ts";
import { toolNameIn } from "../tool-names.ts";

/**
 * The names an `allowed_tools` choice lists, each one of the request's tools (a 400 at its path
 * otherwise); `undefined` for any other choice. Only these tools are sent to the provider.
 */
export function allowedToolsOf(value: unknown, tools: readonly WireTool[] | undefined): Set<string> | undefined {
  if (!isObject(value) || own(value, "type") !== "allowed_tools") return undefined;
  // A set: a choice may list thousands of names, each looked up among up to 1,024 tools.
  const offered = new Set(tools?.map((tool) => tool.name));
  return new Set(
    arrayAt(own(value, "tools"), "tool_choice.tools").map((entry, i) => {
      const at = `tool_choice.tools[${i}]`;
      const name = toolNameIn(
        own(objectAt(entry, at), "name"),
        `${at}.name`,
        upstreamProviders["openai-responses"].toolNames,
      );
      return offered.has(name) ? name : chosenToolAt(name, tools, `${at}.name`).name;
    }),
  );
}

/** What a response's calls are held to: the tools allowed, the most calls. */
export interface CallRules {
  /** The tools the model may call: an `allowed_tools` choice's, or the one a `function` or `custom` choice forces. */
  allowedTools?: ReadonlySet<string>;
  /** The most calls the response may hold (see {@link mostCallsOf}). */
  mostCalls?: number;
}

/**
 * The most calls a response may hold: none with `tool_choice` `none` (or an `allowed_tools` choice
 * of mode `none`: "the model MUST NOT call any tools", which a compatible server may not hold to),
 * one with `parallel_tool_calls: false` ("whether the model may call multiple tools in parallel"),
 * which a provider without such a field does not hold to; `undefined` for no limit.
 * `max_tool_calls` limits, as OpenAI defines it, the calls of the built-in tools OpenAI runs (an
 * OpenAI Responses upstream is sent it), not a function's calls.
 */
export function mostCallsOf(settings: {
  tool_choice?: unknown;
  parallel_tool_calls?: boolean | undefined;
}): number | undefined {
  const choice = settings.tool_choice;
  if (
    choice === "none" ||
    (isObject(choice) && own(choice, "type") === "allowed_tools" && own(choice, "mode") === "none")
  )
    return 0;
  return settings.parallel_tool_calls === false ? 1 : undefined;
}

/**
 * The rules a response's calls are held to: the tools of an `allowed_tools` choice, else the one a
 * `function` or `custom` choice forces ("the model is required to call the specified function
 * tool": a call of another, which a compatible server may make, is not run), and {@link mostCallsOf}.
 */
export function callRulesOf(
  allowedTools: ReadonlySet<string> | undefined,
  settings: Parameters<typeof mostCallsOf>[0],
): CallRules {
  const choice = isObject(settings.tool_choice) ? settings.tool_choice : {};
  const forced = (own(choice, "type") === "function" || own(choice, "type") === "custom") && own(choice, "name");
  const allowed = allowedTools ?? (typeof forced === "string" ? new Set([forced]) : undefined);
  const mostCalls = mostCallsOf(settings);
  return { ...(allowed && { allowedTools: allowed }), ...(mostCalls !== undefined && { mostCalls }) };
}

/**
 * The rules on calls enforced on what the model answered. With `tool_choice: {type:
 * "allowed_tools"}` only the allowed tools were offered to the provider, and a call of any other (a
 * model that names a tool of an earlier turn) is left out of the response, with all its events,
 * and out of the `finish`'s calls: "any tool call to a tool not listed MUST be rejected or
 * suppressed by the server" (Open Responses). A call past `mostCalls` is left out the same way: a
 * provider may not hold to `tool_choice: "none"`, and one without a field for `parallel_tool_calls`
 * may make more. A call the provider ran itself is neither, and one it withdrew (cut off by
 * Anthropic's fallback) takes no place of `mostCalls`. A finish of reason `tool-calls` with no
 * call left is a `stop`.
 */
export function allowedCalls(
  batches: ReadableStream<readonly EncodableEvent[]>,
  { allowedTools, mostCalls }: CallRules,
): ReadableStream<readonly EncodableEvent[]> {
  if (allowedTools === undefined && mostCalls === undefined) return batches;
  const calls: Calls = {
    allowed: allowedTools,
    most: mostCalls ?? Infinity,
    kept: new Set(),
    suppressed: new Set(),
    withdrawn: new Set(),
  };
  return mapChunks(batches, (batch): readonly EncodableEvent[] => batch.flatMap((event) => keep(event, calls)));
}

/** The rules, and the calls kept and left out so far, by {@link callKey}. */
interface Calls {
  allowed: ReadonlySet<string> | undefined;
  most: number;
  kept: Set<string>;
  suppressed: Set<string>;
  /** Kept calls the provider withdrew (Anthropic's fallback): shown if begun, but none counts toward `most`. */
  withdrawn: Set<string>;
}

/** A call's key in a response: its choice and index, as the accumulator gives them. */
const callKey = (event: { index: number; choice?: number }): string => `${event.choice ?? 0}:${event.index}`;

/** Whether a call is kept: decided at its first event, by its name and the calls kept before it. */
function kept(call: { index: number; choice?: number; name: string; providerExecuted?: true }, calls: Calls): boolean {
  const key = callKey(call);
  if (calls.kept.has(key)) return true;
  if (calls.suppressed.has(key)) return false;
  const ran = call.providerExecuted === true;
  const counted = calls.kept.size - calls.withdrawn.size;
  if ((calls.allowed === undefined || calls.allowed.has(call.name)) && (ran || counted < calls.most)) {
    if (!ran) calls.kept.add(key);
    return true;
  }
  calls.suppressed.add(key);
  return false;
}

function keep(event: EncodableEvent, calls: Calls): EncodableEvent[] {
  switch (event.type) {
    case "tool-call-start":
    case "tool-call":
    case "invalid-tool-call":
    case "tool-call-violation":
      if (!kept(event, calls)) return [];
      // A call cut off by a fallback is no call to run: the fallback model's call takes its place.
      if (event.type === "invalid-tool-call" && event.error.code === "withdrawn") calls.withdrawn.add(callKey(event));
      return [event];
    case "tool-call-delta":
      return calls.suppressed.has(callKey(event)) ? [] : [event];
    case "finish": {
      const toolCalls = event.toolCalls.filter((call) => kept(call, calls));
      const invalidToolCalls = event.invalidToolCalls.filter((call) => kept(call, calls));
      if (toolCalls.length === event.toolCalls.length && invalidToolCalls.length === event.invalidToolCalls.length)
        return [event];
      const reason = event.reason === "tool-calls" && toolCalls.length === 0 ? "stop" : event.reason;
      return [{ ...event, toolCalls, invalidToolCalls, reason }];
    }
    default:
      return [event];
  }
}
