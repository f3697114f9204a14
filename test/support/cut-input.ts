// The input of a call whose `partial_json` never parsed, as the non-streaming Messages object must hold it.
import { jsonErrorPosition } from "../../src/json/json-error-position.ts";
import { assert } from "./harness.ts";

/**
 * What `readAnthropicMessage` gives as the `input` of a call whose streamed `json` never parsed:
 * cut short (a JSON text that ran out), an object (which one is what @anthropic-ai/sdk's
 * MessageStream reads: test/node/encode-anthropic-sdk.test.ts and cut-json-sdk.test.ts check it
 * against the SDK), so `built`'s own after checking it is one; not JSON at all, the text.
 */
export function cutInput(json: string, built: unknown): unknown {
  if (jsonErrorPosition(json) !== json.length) return json;
  const input = (built as { input?: unknown } | undefined)?.input;
  assert(typeof input === "object" && input !== null && !Array.isArray(input), "a cut call's input is an object");
  return input;
}
