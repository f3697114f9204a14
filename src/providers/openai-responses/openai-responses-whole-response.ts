import { arrayOf, isRecord, ownValue } from "../../shared/values.ts";

type Payload = Record<string, unknown>;

/** What an item's `output_item.added` lacks that its events then stream, by item type. */
const STREAMED: Record<string, string> = {
  message: "content",
  reasoning: "summary",
  function_call: "arguments",
  custom_tool_call: "input",
};

/**
 * The stream events a whole Responses response stands for (a request without `stream: true`:
 * `{ object: "response", status, output, usage }`, openai-node's `Response`), or `undefined` for
 * any other payload (a stream's event, which has a `type`): for each output item,
 * `response.output_item.added` (the item less what streams), the events that stream it (a
 * message's `output_text` deltas and refusals, a reasoning item's summary and reasoning text, a
 * call's arguments or input with their `.done`), `response.output_item.done` with the item whole
 * (which keeps a reasoning item, a message's annotations, a server tool's item, a built-in call);
 * then `response.completed` (`response.incomplete`, `response.failed` by its `status`) with the
 * response, its usage and status.
 *
 * @example
 * ```ts
 * responsesEvents({ object: "response", status: "completed", output: [{ type: "function_call", call_id: "call_1", name: "f", arguments: "{}" }] });
 * ```
 */
export function responsesEvents(body: Payload): Payload[] | undefined {
  if (body["object"] !== "response" || body["type"] !== undefined) return undefined;
  // Its `tools` tell a server-run custom call (xAI's x_search sub-tools) from the application's.
  const events: Payload[] = [{ type: "response.created", response: { ...body, status: "in_progress", output: [] } }];
  arrayOf(body["output"]).forEach((item, output_index) => {
    if (!isRecord(item)) return;
    const type = String(item["type"]);
    const streamed = ownValue(STREAMED, type);
    events.push({
      type: "response.output_item.added",
      output_index,
      item: streamed === undefined ? item : { ...item, [streamed]: type.endsWith("call") ? "" : [] },
    });
    const at = { item_id: item["id"], output_index };
    if (type === "message")
      arrayOf(item["content"]).forEach((part, content_index) => {
        if (!isRecord(part)) return;
        if (part["type"] === "output_text")
          events.push({ type: "response.output_text.delta", ...at, content_index, delta: part["text"] });
        if (part["type"] === "refusal")
          events.push({ type: "response.refusal.done", ...at, content_index, refusal: part["refusal"] });
      });
    if (type === "reasoning")
      for (const [field, event] of [
        ["summary", "response.reasoning_summary_text.delta"],
        ["content", "response.reasoning_text.delta"],
      ] as const)
        for (const part of arrayOf(item[field]))
          if (isRecord(part)) events.push({ type: event, ...at, delta: part["text"] });
    if (type === "function_call" || type === "custom_tool_call") {
      const field = type === "function_call" ? "arguments" : "input";
      const name = type === "function_call" ? "function_call_arguments" : "custom_tool_call_input";
      events.push(
        { type: `response.${name}.delta`, ...at, delta: item[field] },
        { type: `response.${name}.done`, ...at, [field]: item[field] },
      );
    }
    events.push({ type: "response.output_item.done", output_index, item });
  });
  const status = body["status"];
  const end = status === "incomplete" || status === "failed" ? status : "completed";
  events.push({ type: `response.${end}`, response: body });
  return events;
}
