/**
 * The tool names an agent protocol takes: a Messages client's as Anthropic takes them (up to 128
 * characters: Claude Code's MCP tools are `mcp__<server>__<tool>`), a Responses client's as OpenAI
 * does. The provider behind the Worker is sent a short name where its own rule refuses one
 * (worker/upstream/tool-names.ts, on every model call).
 *
 * @module
 */
import { invalidField } from "../response/json-error.ts";
import { fitsRule } from "../upstream/tool-names.ts";
import type { ToolNameRule } from "../upstream/providers/upstream-provider.ts";

/** A tool name a client sent, checked against its protocol's rule, or a 400 naming `path`. */
export function toolNameIn(value: unknown, path: string, rule: ToolNameRule): string {
  if (typeof value !== "string" || !fitsRule(value, rule))
    throw invalidField(path, `\`${path}\` must be a tool name: 1 to ${rule.maxLength} letters, digits, _ or -.`);
  return value;
}
