import { arrayLengthError, invalidField } from "../../response/json-error.ts";
import { isObject, own } from "../../request/json-fields.ts";
import { upstreamProviders } from "../../upstream/providers/index.ts";
import type { CallRules } from "../../services/call-rules.ts";
import { arrayAt, chosenToolAt, objectAt, type WireTool } from "../client-request.ts";
import { toolNameIn } from "../tool-names.ts";
import { WEB_SEARCH_TOOLS } from "../web-search.ts";

/**
 * The names an `allowed_tools` choice lists, each one of the request's tools (a 400 at its path
 * otherwise); `undefined` for any other choice. Only these tools are sent to the provider. A web
 * search is listed by its type (`{type: "web_search"}`), which must be among `searches`, the
 * search types `tools` gives: the search tool of an OpenAI Responses upstream, which is offered
 * under its type, and nothing for another (dropped, or an OpenAI Chat search model's
 * `web_search_options`: ./request-tools.ts webSearchOf).
 */
export function allowedToolsOf(
  value: unknown,
  tools: readonly WireTool[] | undefined,
  searches: ReadonlySet<string> = new Set(),
): Set<string> | undefined {
  if (!isObject(value) || own(value, "type") !== "allowed_tools") return undefined;
  // 1 to 128 entries, as OpenAI's API (and Open Responses' `AllowedToolsParam`) bounds the list,
  // refused with OpenAI's own code and words; a set, each name looked up among up to 1,024 tools.
  const listed = arrayAt(own(value, "tools"), "tool_choice.tools");
  if (listed.length < 1 || listed.length > 128) throw arrayLengthError("tool_choice.tools", listed.length, 128);
  const offered = new Set(tools?.map((tool) => tool.name));
  return new Set(
    listed.flatMap((entry, i) => {
      const at = `tool_choice.tools[${i}]`;
      const fields = objectAt(entry, at);
      const type = own(fields, "type");
      // Each entry names its kind (the spec's AllowedToolChoice lists FunctionToolChoice, whose
      // `type` is required): one without it was repeated so in the response, no choice of the spec.
      if (typeof type !== "string")
        throw invalidField(`${at}.type`, `\`${at}.type\` is required: function, custom or a web search.`);
      if (WEB_SEARCH_TOOLS.has(type)) {
        if (!searches.has(type))
          throw invalidField(`${at}.type`, `\`${at}.type\` is a web search \`tools\` does not offer.`);
        return offered.has(type) ? [type] : [];
      }
      const name = toolNameIn(own(fields, "name"), `${at}.name`, upstreamProviders["openai-responses"].toolNames);
      return [offered.has(name) ? name : chosenToolAt(name, tools, `${at}.name`).name];
    }),
  );
}

/**
 * Whether an `allowed_tools` choice lists a web search (`{type: "web_search"}`), its mode not
 * `none`: the search a Chat search model runs anyway is then allowed.
 */
export const allowsSearch = (choice: Record<string, unknown>): boolean =>
  own(choice, "mode") !== "none" &&
  Array.isArray(own(choice, "tools")) &&
  (own(choice, "tools") as unknown[]).some(
    (entry) => isObject(entry) && WEB_SEARCH_TOOLS.has(String(own(entry, "type"))),
  );

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
 * tool": a call of another, which a compatible server may make, is not run), and {@link mostCallsOf};
 * an answer left with neither text nor a call by them fails as a model error that says why
 * (`failEmpty`): a completed response with an empty `output` would not.
 */
export function callRulesOf(
  allowedTools: ReadonlySet<string> | undefined,
  settings: Parameters<typeof mostCallsOf>[0],
): CallRules {
  const choice = isObject(settings.tool_choice) ? settings.tool_choice : {};
  const forced = (own(choice, "type") === "function" || own(choice, "type") === "custom") && own(choice, "name");
  const allowed = allowedTools ?? (typeof forced === "string" ? new Set([forced]) : undefined);
  const mostCalls = mostCallsOf(settings);
  const rules = { ...(allowed && { allowedTools: allowed }), ...(mostCalls !== undefined && { mostCalls }) };
  return { ...rules, failEmpty: true };
}
