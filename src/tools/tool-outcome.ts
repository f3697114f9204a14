import { boundIssue } from "../schema/bounded-issues.ts";
import { standardJsonSchema } from "../schema/standard-schema.ts";
import type { StreamErrorInfo } from "../shared/errors.ts";
import type { SchemaViolation } from "../shared/events.ts";
import type { JsonValue } from "../shared/json.ts";
import { computerScreenshot } from "../providers/openai-responses/openai-responses-computer.ts";
import type { StandardSchemaV1 } from "../shared/standard-schema.ts";
import type { ToolErrorCode, ToolErrorInfo } from "./tool-events.ts";
import { utf8Length } from "./utf8-length.ts";

/**
 * The outcome of one tool call as the model will read it: the `tool-error` messages (each says
 * what was wrong and what is expected, and never repeats the model's arguments or a handler's
 * internal error text) and the result size cap. Pure functions, used by `ToolRunner`.
 *
 * @module
 */

/** Most schema issues listed in one message; the rest are counted. */
const MAX_ISSUES = 10;

/** A result that fits the cap, or the error it gives when it is not JSON. */
export type ResultOutcome = { result: JsonValue; truncated?: true } | { error: ToolErrorInfo };

/**
 * Turns a handler's return value into plain JSON no larger than `maxBytes` (UTF-8 bytes of its
 * JSON text, or of the text itself for a string). A larger one becomes a string cut on a character
 * boundary that ends with a marker giving the original size, so the model knows it was cut. With
 * `maxScreenshotBytes` (a computer call's), a screenshot is held to it instead and never cut (a cut
 * image is no image): a larger one is an error that names both sizes.
 *
 * @example
 * ```ts
 * fitResult("x".repeat(100), 60); // { result: "xxxx…\n[truncated: the result was 100 bytes; the limit is 60]", truncated: true }
 * ```
 */
export function fitResult(value: unknown, maxBytes: number, maxScreenshotBytes?: number): ResultOutcome {
  let text: string | undefined;
  try {
    text = typeof value === "string" ? value : JSON.stringify(value);
  } catch {
    return {
      error: {
        code: "handler-failed",
        message: "The tool returned a value that cannot be sent as JSON.",
        retryable: false,
      },
    };
  }
  if (text === undefined) return { result: null }; // `undefined` (a handler with nothing to say)
  const json = text;
  const size = utf8Length(json);
  const plain = (): JsonValue => (typeof value === "string" ? value : (JSON.parse(json) as JsonValue));
  if (maxScreenshotBytes !== undefined) {
    const result = plain();
    if (computerScreenshot({ output: result })) {
      if (size <= maxScreenshotBytes) return { result };
      const message = `The tool returned a screenshot of ${size} bytes; the limit (maxScreenshotBytes) is ${maxScreenshotBytes}.`;
      return { error: { code: "handler-failed", message, retryable: false } };
    }
  }
  if (size <= maxBytes) return { result: plain() };
  const marker = `\n[truncated: the result was ${size} bytes; the limit is ${maxBytes}]`;
  return { result: prefixOfBytes(text, maxBytes - utf8Length(marker)) + marker, truncated: true };
}

/** The longest prefix of `text` of at most `budget` UTF-8 bytes that does not split a character. */
function prefixOfBytes(text: string, budget: number): string {
  let bytes = 0;
  let end = 0;
  while (end < text.length) {
    const code = text.codePointAt(end)!;
    const width = code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
    if (bytes + width > budget) break;
    bytes += width;
    end += code >= 0x10000 ? 2 : 1;
  }
  return text.slice(0, end);
}

/** Only what `toolErrorInfo` needs to know of a tool. */
interface DescribedTool {
  parameters?: Record<string, unknown>;
  schema?: StandardSchemaV1;
}

/** A tool's JSON Schema: its `parameters`, else the one its validator gives, if any. */
export function parametersOf(tool: DescribedTool): Record<string, unknown> | undefined {
  return tool.parameters ?? (tool.schema && standardJsonSchema(tool.schema));
}

/**
 * The error of a call whose arguments the accumulator or the tool's schema rejected: the
 * parse position or the schema issues, then what the tool expects.
 */
export function describeToolError(error: StreamErrorInfo, tool: DescribedTool): ToolErrorInfo {
  const problem =
    error.code === "schema-mismatch" && error.issues
      ? `The arguments do not match the tool's parameters: ${listIssues(error.issues)}.`
      : error.code === "invalid-json"
        ? `The arguments are not valid JSON${error.position !== undefined ? ` (parsing failed at character ${error.position})` : ""}.`
        : `The arguments could not be used (${error.code}).`;
  return { code: "invalid-arguments", message: `${problem} ${expected(tool)}`, retryable: false };
}

/**
 * The error of a call stopped while its arguments streamed, because they could no longer match
 * the tool's parameters (`abortOnViolation`): where and why, then what the tool expects. It is
 * retryable: the same call, with arguments that match, can run.
 */
export function describeViolation(violation: SchemaViolation, tool: DescribedTool): ToolErrorInfo {
  const where = violation.path === "" ? "" : ` at ${violation.path}`;
  const problem = `The arguments stopped matching the tool's parameters${where} while they streamed: ${violation.message} The call was stopped and did not run.`;
  return { code: "invalid-arguments", message: `${problem} ${expected(tool)}`, retryable: true };
}

/**
 * The error of each other code, written for the model: `names` are the tools that exist (for
 * `unknown-tool`), `ms` the timeout, `reason` the caller's reason for a denial.
 */
export function toolErrorInfo(
  code: Exclude<ToolErrorCode, "invalid-arguments">,
  names: readonly string[] = [],
  ms = 0,
  reason?: string,
): ToolErrorInfo {
  switch (code) {
    case "unknown-tool":
      return {
        code,
        message:
          names.length > 0
            ? `No tool of that name exists. Call one of: ${listNames(names, 20)}.`
            : "No tools are available; answer without calling one.",
        retryable: false,
      };
    case "handler-failed":
      return { code, message: "The tool failed while running this call.", retryable: false };
    case "timeout":
      return {
        code,
        message: `The tool did not finish within ${ms} ms and was stopped. Try again, or ask for less at once.`,
        retryable: true,
      };
    case "denied":
      return {
        code,
        message: `The user did not approve this call, so it was not run.${reason ? ` Reason given: ${reason}` : ""} Do not repeat it unchanged.`,
        retryable: false,
      };
    case "cancelled":
      return { code, message: "The run was cancelled before this call finished.", retryable: true };
  }
}

/** The error of one call the caller cancelled (`cancelCall`), with the caller's reason if given. */
export function callCancelled(reason?: string): ToolErrorInfo {
  return {
    code: "cancelled",
    message: `This call was cancelled before it finished.${reason ? ` Reason given: ${reason}` : ""}`,
    retryable: true,
  };
}

function listIssues(issues: readonly string[]): string {
  // The checks end a long list with "and N more": counted here with the ones not shown.
  const counted = /^and ([\d,]+) more$/.exec(issues.at(-1) ?? "");
  const real = counted ? issues.slice(0, -1) : issues;
  const rest = real.length - Math.min(real.length, MAX_ISSUES) + (counted ? Number(counted[1]!.replace(/,/g, "")) : 0);
  const shown = real.slice(0, MAX_ISSUES).map(boundIssue).join("; ");
  return rest > 0 ? `${shown}; and ${rest} more` : shown;
}

/** At most `max` names, each cut to 64 characters, then how many more: a message stays short whatever the request holds. */
function listNames(names: readonly string[], max: number): string {
  const shown = names.slice(0, max).map((name) => (name.length > 64 ? `${name.slice(0, 63)}…` : name));
  return names.length > max ? `${shown.join(", ")} and ${names.length - max} more` : shown.join(", ");
}

function expected(tool: DescribedTool): string {
  const parameters = parametersOf(tool);
  const required = parameters?.["required"];
  const names = Array.isArray(required) ? required.filter((name): name is string => typeof name === "string") : [];
  if (names.length > 0)
    return `Send one JSON object with the required fields ${listNames(names, 10)}, matching the tool's parameters.`;
  return parameters || tool.schema ? "Send one JSON object matching the tool's parameters." : "Send one JSON object.";
}
