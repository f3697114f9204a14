import { arrayOf, isRecord } from "../../shared/values.ts";

/**
 * The stream events a whole v2 chat response stands for (`POST /v2/chat` without `stream: true`:
 * `{ id, message: { content, citations, tool_plan, tool_calls }, finish_reason, usage }`, cohere-ai's
 * `ChatResponse`), or `undefined` for any other payload (a stream's event, which has a `type`):
 * `message-start`; each content part (text or thinking) as `content-start`, `content-delta`,
 * `content-end`; the citations as one `citation-start`; the tool plan as one `tool-plan-delta`; each call as `tool-call-start` (its id and
 * name), `tool-call-delta` (its arguments), `tool-call-end`; then `message-end` with the finish
 * reason and the usage: the order Cohere streams them in.
 *
 * @example
 * ```ts
 * cohereResponseEvents({ id: "c1", message: { role: "assistant", tool_plan: "I will look.", tool_calls }, finish_reason: "TOOL_CALL", usage });
 * ```
 */
export function cohereResponseEvents(body: Record<string, unknown>): Record<string, unknown>[] | undefined {
  const message = body["message"];
  if (body["type"] !== undefined || !isRecord(message) || typeof body["finish_reason"] !== "string") return undefined;
  const of = (value: Record<string, unknown>) => ({ delta: { message: value } });
  const events: Record<string, unknown>[] = [{ type: "message-start", id: body["id"], ...of({ role: "assistant" }) }];
  arrayOf(message["content"]).forEach((part, index) => {
    if (!isRecord(part)) return;
    events.push(
      { type: "content-start", index, ...of({ content: { type: part["type"] } }) },
      { type: "content-delta", index, ...of({ content: part }) },
      { type: "content-end", index },
    );
  });
  const citations = arrayOf(message["citations"]);
  if (citations.length > 0) events.push({ type: "citation-start", index: 0, ...of({ citations }) });
  if (typeof message["tool_plan"] === "string")
    events.push({ type: "tool-plan-delta", ...of({ tool_plan: message["tool_plan"] }) });
  arrayOf(message["tool_calls"]).forEach((call, index) => {
    if (!isRecord(call)) return;
    const fn = isRecord(call["function"]) ? call["function"] : {};
    events.push(
      { type: "tool-call-start", index, ...of({ tool_calls: { ...call, function: { ...fn, arguments: "" } } }) },
      { type: "tool-call-delta", index, ...of({ tool_calls: { function: { arguments: fn["arguments"] } } }) },
      { type: "tool-call-end", index },
    );
  });
  events.push({ type: "message-end", delta: { finish_reason: body["finish_reason"], usage: body["usage"] } });
  return events;
}
