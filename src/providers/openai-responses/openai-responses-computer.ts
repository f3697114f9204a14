// The computer tool's next-turn rules (OpenAI's computer use guide, and the SDK's
// ResponseInputItem.ComputerCallOutput): a call that came with `pending_safety_checks` runs only
// once the user confirmed them, and its output sends them back as `acknowledged_safety_checks`;
// the output is a `computer_screenshot` (`image_url` or `file_id`) and nothing else: it has no
// field for an error or for text.
import type { JsonValue } from "../../shared/json.ts";
import { isRecord, nonEmptyString } from "../../shared/values.ts";
import { requestError } from "../request.ts";
import type { SafetyCheck, ToolResult } from "../turn.ts";

/** What the helpers read of a call: the item it came as (`providerMetadata.responsesItem`). */
export type CallFields = { providerMetadata?: Readonly<Record<string, unknown>> | undefined };

/** The output item a built-in call came as (`providerMetadata.responsesItem`), if it did. */
export function itemOf(call: CallFields): Record<string, unknown> | undefined {
  const item = call.providerMetadata?.["responsesItem"];
  return isRecord(item) ? item : undefined;
}

/** A call of OpenAI's computer tool: it came as a Responses `computer_call` item. */
export const isComputerCall = (call: CallFields): boolean => itemOf(call)?.["type"] === "computer_call";

/**
 * The safety checks OpenAI raised on a computer call (its item's `pending_safety_checks`, each as
 * `{ id, code, message }`), which the user must confirm before it runs; undefined when it has none.
 *
 * @example
 * ```ts
 * const checks = pendingSafetyChecks(call); // [{ id: "cu_sc_1", code: "malicious_instructions", message: "..." }]
 * ```
 */
export function pendingSafetyChecks(call: CallFields): SafetyCheck[] | undefined {
  const item = itemOf(call);
  const pending = item?.["type"] === "computer_call" ? item["pending_safety_checks"] : undefined;
  const checks = Array.isArray(pending) ? pending.flatMap(safetyCheck) : [];
  return checks.length > 0 ? checks : undefined;
}

/** One pending check; one without an id still asks the user (it fails closed), acknowledged with an empty id. */
function safetyCheck(value: unknown): SafetyCheck[] {
  if (value === null || value === undefined) return [];
  const fields = isRecord(value) ? value : {};
  const check: SafetyCheck = { id: nonEmptyString(fields["id"]) ?? "" };
  const { code, message } = fields;
  if (typeof code === "string") check.code = code;
  if (typeof message === "string") check.message = message;
  return [check];
}

/** A URL OpenAI takes as a screenshot: a data URL of an image, or an `https:` URL it fetches. */
const SCREENSHOT_URL = /^(?:data:image\/|https:\/\/)/i;

/**
 * The screenshot a computer call's result is: a data URL of an image or an `https:` URL (alone or
 * as `{ image_url }`), or an uploaded file's `{ file_id }`; undefined for an error or anything else.
 *
 * @example
 * ```ts
 * computerScreenshot({ output: "data:image/png;base64,iVBO" }); // { image_url: "data:image/png;base64,iVBO" }
 * ```
 */
export function computerScreenshot(
  result: Pick<ToolResult, "output" | "isError">,
): { image_url: string } | { file_id: string } | undefined {
  if (result.isError) return undefined;
  const output: JsonValue = result.output;
  const url = isRecord(output) ? output["image_url"] : output;
  if (typeof url === "string" && SCREENSHOT_URL.test(url)) return { image_url: url };
  const file = isRecord(output) ? nonEmptyString(output["file_id"]) : undefined;
  return file === undefined ? undefined : { file_id: file };
}

/**
 * A computer call's result as its `computer_call_output`: the screenshot, with the safety checks
 * the user confirmed (`acknowledgedSafetyChecks`, or the output's own `acknowledged_safety_checks`).
 * A result that is no screenshot (an error, text, a URL of another scheme) is an `invalid-request`
 * error naming `path`: OpenAI would refuse it, and an error text sent as a screenshot's URL is
 * never what the model should read.
 */
export function computerOutput(result: ToolResult, call_id: string, path: string): Record<string, unknown> {
  const screenshot = computerScreenshot(result);
  if (!screenshot)
    throw requestError(
      path,
      `Cannot send the result of computer call ${call_id}: a computer_call_output takes only a screenshot (a data:image/ or https: URL, { image_url } or { file_id }), not ${result.isError ? "an error" : "this output"}.`,
    );
  const own = isRecord(result.output) ? result.output["acknowledged_safety_checks"] : undefined;
  const acknowledged = result.acknowledgedSafetyChecks ?? (Array.isArray(own) ? own : undefined);
  return {
    type: "computer_call_output",
    call_id,
    output: { type: "computer_screenshot", ...screenshot },
    ...(acknowledged ? { acknowledged_safety_checks: acknowledged } : {}),
  };
}
