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

/**
 * `tool_choice: {type: "allowed_tools"}` enforced on what the model answered: only the allowed
 * tools were offered to the provider, and a call of any other (a model that names a tool of an
 * earlier turn) is left out of the response, with all its events, and out of the `finish`'s
 * calls: "any tool call to a tool not listed MUST be rejected or suppressed by the server" (Open
 * Responses). A finish of reason `tool-calls` with no call left is a `stop`.
 */
export function allowedCalls(
  batches: ReadableStream<readonly EncodableEvent[]>,
  allowed: ReadonlySet<string> | undefined,
): ReadableStream<readonly EncodableEvent[]> {
  if (allowed === undefined) return batches;
  const suppressed = new Set<string>();
  return mapChunks(batches, (batch): readonly EncodableEvent[] =>
    batch.flatMap((event) => keep(event, allowed, suppressed)),
  );
}

/** A call's key in a response: its choice and index, as the accumulator gives them. */
const callKey = (event: { index: number; choice?: number }): string => `${event.choice ?? 0}:${event.index}`;

function keep(event: EncodableEvent, allowed: ReadonlySet<string>, suppressed: Set<string>): EncodableEvent[] {
  switch (event.type) {
    case "tool-call-start":
    case "tool-call":
    case "invalid-tool-call":
    case "tool-call-violation":
      if (allowed.has(event.name)) return [event];
      suppressed.add(callKey(event));
      return [];
    case "tool-call-delta":
      return suppressed.has(callKey(event)) ? [] : [event];
    case "finish": {
      const toolCalls = event.toolCalls.filter((call) => allowed.has(call.name));
      const invalidToolCalls = event.invalidToolCalls.filter((call) => allowed.has(call.name));
      if (toolCalls.length === event.toolCalls.length && invalidToolCalls.length === event.invalidToolCalls.length)
        return [event];
      const reason = event.reason === "tool-calls" && toolCalls.length === 0 ? "stop" : event.reason;
      return [{ ...event, toolCalls, invalidToolCalls, reason }];
    }
    default:
      return [event];
  }
}
