import { arrayOf, isRecord } from "../../shared/values.ts";

type Payload = Record<string, unknown>;

/**
 * The ConverseStream events a whole Converse response stands for (`POST /model/{id}/converse`, not
 * `converse-stream`: `{ output: { message: { content } }, stopReason, usage, metrics }`, the AWS
 * SDK's `ConverseResponse`), or `undefined` for any other payload, each written as the AWS SDKs
 * print an event (an object of one key, its type): `messageStart`; each content block as the
 * stream gives it (text, a call's `toolUse` start then its input, a reasoning block's text,
 * signature or redacted content, a server tool's `toolResult` start then its content, a cited
 * block's citations then its text), then its `contentBlockStop`; `messageStop` with the stop
 * reason; `metadata` with the usage and metrics.
 *
 * @example
 * ```ts
 * converseEvents({ output: { message: { role: "assistant", content: [{ text: "Hi" }] } }, stopReason: "end_turn", usage });
 * ```
 */
export function converseEvents(body: Payload): Payload[] | undefined {
  const output = body["output"];
  const message = isRecord(output) ? output["message"] : undefined;
  if (!isRecord(message) || typeof body["stopReason"] !== "string") return undefined;
  const events: Payload[] = [{ messageStart: { role: message["role"] ?? "assistant" } }];
  arrayOf(message["content"]).forEach((block, contentBlockIndex) => {
    if (!isRecord(block)) return;
    const start = (value: Payload) => events.push({ contentBlockStart: { contentBlockIndex, start: value } });
    const delta = (value: Payload) => events.push({ contentBlockDelta: { contentBlockIndex, delta: value } });
    const { text, toolUse, toolResult, reasoningContent, citationsContent, image } = block;
    if (typeof text === "string") delta({ text });
    if (isRecord(toolUse)) {
      const { input, ...call } = toolUse;
      start({ toolUse: call });
      // No arguments stream no input (as Anthropic's `{}` at a block's start): the call's are then `{}`.
      if (input !== undefined && !(isRecord(input) && Object.keys(input).length === 0)) delta({ toolUse: { input } });
    }
    if (isRecord(toolResult)) {
      const { content, ...result } = toolResult;
      start({ toolResult: result });
      delta({ toolResult: arrayOf(content) });
    }
    if (isRecord(image)) {
      // An image the model made: its start's format, then its bytes (or ImageBlock's `error`) as one delta.
      const { source, error, ...fields } = image;
      start({ image: fields });
      delta({ image: { source, error } });
    }
    if (isRecord(reasoningContent)) {
      const { reasoningText, redactedContent } = reasoningContent;
      if (isRecord(reasoningText)) delta({ reasoningContent: reasoningText });
      if (redactedContent !== undefined) delta({ reasoningContent: { redactedContent } });
    }
    if (isRecord(citationsContent)) {
      for (const citation of arrayOf(citationsContent["citations"])) delta({ citation });
      const said = arrayOf(citationsContent["content"]).map((part) => (isRecord(part) ? part["text"] : ""));
      delta({ text: said.join("") });
    }
    events.push({ contentBlockStop: { contentBlockIndex } });
  });
  events.push(
    {
      messageStop: {
        stopReason: body["stopReason"],
        additionalModelResponseFields: body["additionalModelResponseFields"],
      },
    },
    { metadata: { usage: body["usage"], metrics: body["metrics"] } },
  );
  return events;
}
