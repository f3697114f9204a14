/**
 * The tool names a client protocol sends, checked against its protocol's rule and made to fit the
 * provider's (worker/upstream/tool-names.ts): the tools, the calls of earlier turns and a
 * `tool_choice` naming a tool, renamed alike in the translated request.
 *
 * @module
 */
import { invalidField } from "../response/json-error.ts";
import { fitsRule, ToolNames } from "../upstream/tool-names.ts";
import type { ToolNameRule } from "../upstream/providers/upstream-provider.ts";
import type { WireRequest } from "./client-request.ts";

/** A tool name a client sent, checked against its protocol's rule, or a 400 naming `path`. */
export function toolNameIn(value: unknown, path: string, rule: ToolNameRule): string {
  if (typeof value !== "string" || !fitsRule(value, rule))
    throw invalidField(path, `\`${path}\` must be a tool name: 1 to ${rule.maxLength} letters, digits, _ or -.`);
  return value;
}

const named = (value: unknown): value is { name: string } =>
  typeof value === "object" && value !== null && typeof (value as { name?: unknown }).name === "string";

/**
 * A translated request with every tool name the provider is sent fitting its `rule`: the tools,
 * the calls of earlier turns and a `tool_choice` naming a tool, renamed alike.
 */
export function withProviderNames(wire: WireRequest, rule: ToolNameRule): { wire: WireRequest; names: ToolNames } {
  const tools = Array.isArray(wire.tools) ? (wire.tools as unknown[]) : [];
  const calls = wire.messages.flatMap((message) => (message.role === "assistant" ? message.tool_calls : []));
  const found = [...tools, ...calls, wire.tool_choice].filter(named).map((entry) => entry.name);
  const names = new ToolNames(found, rule);
  if (!names.renamed) return { wire, names };
  const rename = <T>(entry: T): T => (named(entry) ? { ...entry, name: names.toProvider(entry.name) } : entry);
  return {
    names,
    wire: {
      ...wire,
      tools: Array.isArray(wire.tools) ? (wire.tools as unknown[]).map(rename) : wire.tools,
      tool_choice: rename(wire.tool_choice),
      messages: wire.messages.map((message) =>
        message.role === "assistant" ? { ...message, tool_calls: message.tool_calls.map(rename) } : message,
      ),
    },
  };
}
