// The Open Responses specification as an oracle (../shared/conformance/open-responses, bundled by
// scripts/bundle-fixtures.mjs): its OpenAPI schemas of the response object (`ResponseResource`) and
// of the streaming events (the oneOf of `POST /responses`' text/event-stream answer), checked with
// the library's own JSON Schema check (`checkToolArguments`: `$ref` into the document, `oneOf`,
// `anyOf`, `enum`, `required`), and the rules of its text that a schema cannot say: the `event:`
// line matches the data's `type`, no `id:`, `sequence_number` counts up, `[DONE]` is the terminal
// event, an `error` event comes right before `response.failed`.
import { createParser, type EventSourceMessage } from "eventsource-parser";
import bundle from "../generated/open-responses.json" with { type: "json" };
import { checkToolArguments, type JsonValue, type ToolSchema } from "../../src/index.ts";
import { orderIssues, stateIssues } from "./open-responses-order.ts";

/** The OpenAPI document (an empty object when ../shared was absent at bundling). */
const document = JSON.parse(bundle.text) as {
  components?: { schemas?: Record<string, unknown> };
  paths?: Record<string, { post: { responses: Record<string, { content: Record<string, { schema: unknown }> }> } }>;
};

/** A schema of the document, with its components, so that its `$ref`s resolve. */
const schemaOf = (schema: unknown): ToolSchema =>
  ({ ...(schema as object), components: document.components }) as unknown as ToolSchema;

const answers = () => document.paths!["/responses"]!.post.responses["200"]!.content;

/**
 * Whether ../shared held the document at bundling. Without it, `readConformingStream` and
 * `readConformingResponse` check what the spec's text says (headers, `[DONE]`, sequence numbers)
 * but not its schemas, so that a clone without ../shared still runs the tests that read answers
 * with them; the schema checks are asserted by tests that skip by name without the document.
 */
const specified = document.paths !== undefined;

/** The issues of a response object against `ResponseResource`; empty when it conforms. */
export function responseIssues(value: unknown, path = "response"): string[] {
  return checkToolArguments(value as JsonValue, schemaOf(answers()["application/json"]!.schema), { path });
}

/**
 * The issues of an item against the spec's `ItemField` (a message, a function call or its output, a
 * reasoning item, a compaction): what `GET /responses/{id}/input_items` lists, as OpenAI defines
 * that endpoint (the spec defines only `POST /responses`, but its items are the same).
 */
export function itemIssues(value: unknown, path = "item"): string[] {
  return checkToolArguments(value as JsonValue, schemaOf({ $ref: "#/components/schemas/ItemField" }), { path });
}

/**
 * The issues of one streaming event against the spec's oneOf of events; empty when it conforms.
 * The events' `type` enums are disjoint, so the one member that can match is the one of its type:
 * checked against that member alone, the issues say what is wrong in it.
 */
export function eventIssues(value: unknown): string[] {
  const type = (value as { type?: unknown })?.type;
  const members = (answers()["text/event-stream"]!.schema as { oneOf: { $ref: string }[] }).oneOf;
  const member = members.find((ref) => {
    const schema = document.components!.schemas![ref.$ref.split("/").at(-1)!] as {
      properties: { type: { enum: string[] } };
    };
    return schema.properties.type.enum.includes(type as string);
  });
  if (member === undefined) return [`${String(type)} is not a streaming event of the spec`];
  return checkToolArguments(value as JsonValue, schemaOf(member), { path: type as string });
}

/** What a conformance check of one streamed answer found. */
export interface StreamReading {
  /** Every issue: schema issues of each event and of the final response, and broken stream rules. */
  issues: string[];
  /** The events, parsed, in order. */
  events: Record<string, unknown>[];
  /** The response of the terminal event (`response.completed`, `.incomplete` or `.failed`), if any. */
  response: Record<string, unknown> | undefined;
}

const TERMINAL = new Set(["response.completed", "response.incomplete", "response.failed"]);

/** Checks a streamed `POST /responses` answer against the spec: its headers, every event, `[DONE]` last. */
export async function readConformingStream(answer: Response): Promise<StreamReading> {
  const issues: string[] = [];
  if (!answer.headers.get("content-type")?.startsWith("text/event-stream"))
    issues.push(`content-type ${answer.headers.get("content-type")}, not text/event-stream`);
  const messages: EventSourceMessage[] = [];
  const parser = createParser({ onEvent: (message) => messages.push(message) });
  parser.feed(await answer.text());
  const events: Record<string, unknown>[] = [];
  let response: Record<string, unknown> | undefined;
  let sequence = -1;
  messages.forEach((message, i) => {
    if (message.id !== undefined) issues.push("an event has an id: field (servers SHOULD NOT use id)");
    if (message.data === "[DONE]") {
      if (i !== messages.length - 1) issues.push("[DONE] is not the terminal event");
      return;
    }
    const event = JSON.parse(message.data) as Record<string, unknown>;
    events.push(event);
    if (message.event !== event["type"]) issues.push(`event: ${message.event} does not match type ${event["type"]}`);
    if (specified) issues.push(...eventIssues(event));
    const number = event["sequence_number"];
    if (typeof number !== "number" || number <= sequence) issues.push(`sequence_number ${number} after ${sequence}`);
    sequence = typeof number === "number" ? number : sequence;
    if (event["type"] === "response.failed" && events.at(-2)?.["type"] !== "error")
      issues.push("response.failed does not follow an error event");
    if (TERMINAL.has(event["type"] as string)) response = event["response"] as Record<string, unknown>;
  });
  if (messages.at(-1)?.data !== "[DONE]") issues.push("the stream does not end with [DONE]");
  if (response === undefined) issues.push("no terminal event");
  const snapshots = events.flatMap((event, n) =>
    "response" in event ? stateIssues(event["response"] as Record<string, unknown>, `${n}: ${event["type"]}`) : [],
  );
  return { issues: [...issues, ...lifecycleIssues(events), ...orderIssues(events), ...snapshots], events, response };
}

/** An output item as its events built it. */
interface StreamedItem {
  id: unknown;
  /** Each content part's (or summary part's) text so far, by index. */
  parts: string[];
  summaries: string[];
  arguments: string;
  done?: Record<string, unknown>;
}

/**
 * The rules of the spec's text on items in a stream (`Items are streamable`, `Items are state
 * machines`) that no schema says: `response.created` first, one response id; items added in
 * order (`output_index` counts up from 0) `in_progress`, each with an id of its own, each later event of an item naming its
 * index and id while it is open; content parts added in order, each `.done` holding the deltas'
 * text; an item done `completed` or `incomplete` (an incomplete one last, in an incomplete
 * response: the spec keeps `incomplete` for a token budget run out); the terminal response's
 * `output` the items done, in order (a failed one's leaves out a call left open: discarded, neither running nor complete). A reasoning item too has its `status` ("all items have a
 * lifecycle", the spec's example of one shows it), where OpenAI sends none.
 */
function lifecycleIssues(events: readonly Record<string, unknown>[]): string[] {
  const issues: string[] = [];
  const items: StreamedItem[] = [];
  const ids = new Set<unknown>();
  events.forEach((event, n) => {
    const type = event["type"] as string;
    const at = `${n}: ${type}`;
    if (n === 0 && type !== "response.created") issues.push(`${at} is the first event, not response.created`);
    const response = event["response"] as Record<string, unknown> | undefined;
    if (response) ids.add(response["id"]);
    if (TERMINAL.has(type) && response) {
      const done = items.map((item) => item.done ?? null);
      // An item its stream left open is never in the output: a failed response's output is the items done.
      const output = response["output"] as Record<string, unknown>[];
      if (JSON.stringify(output) !== JSON.stringify(done.filter((item) => item !== null)))
        issues.push(`${at}: its output is not the items done, in order`);
      const incomplete = done.findIndex((item) => item?.["status"] === "incomplete");
      // "If an item ends in a terminal state, it MUST be the last item emitted, and the containing
      // response also MUST be in an `incomplete` state": not of a failed one.
      if (incomplete >= 0 && (incomplete !== done.length - 1 || response["status"] !== "incomplete"))
        issues.push(`${at}: an incomplete item is not the last of an incomplete response`);
    }
    const index = event["output_index"];
    if (typeof index !== "number") return;
    const body = event["item"] as Record<string, unknown> | undefined;
    const status = body?.["status"];
    if (type === "response.output_item.added") {
      if (index !== items.length) issues.push(`${at}: output_index ${index}, not ${items.length}`);
      if (items.some((item) => item.id === body?.["id"])) issues.push(`${at}: item id ${String(body?.["id"])} twice`);
      if (status !== "in_progress") issues.push(`${at}: status ${String(status)}, not in_progress`);
      items[index] = { id: body?.["id"], parts: [], summaries: [], arguments: "" };
      return;
    }
    const item = items[index];
    if (!item || item.done) return void issues.push(`${at}: output_index ${index} names no open item`);
    if ((event["item_id"] ?? body?.["id"]) !== item.id) issues.push(`${at}: item_id is not the item's id`);
    issues.push(...partIssues(event, item, at));
    if (type !== "response.output_item.done") return;
    if (status !== "completed" && status !== "incomplete") issues.push(`${at}: status ${String(status)}`);
    if (body?.["type"] === "function_call" && item.arguments !== "" && body["arguments"] !== item.arguments)
      issues.push(`${at}: arguments are not the deltas'`);
    item.done = body ?? {};
  });
  if (ids.size > 1) issues.push("the response's id changes");
  return issues;
}

/** The rules of one event on an item's content and summary parts and its arguments. */
function partIssues(event: Record<string, unknown>, item: StreamedItem, at: string): string[] {
  const type = event["type"] as string;
  const [parts, index] = type.startsWith("response.reasoning_summary")
    ? [item.summaries, event["summary_index"] as number]
    : [item.parts, event["content_index"] as number];
  if (type.endsWith("_part.added")) {
    parts[index] = "";
    return index === parts.length - 1 ? [] : [`${at}: part ${index} added out of order`];
  }
  if (type === "response.function_call_arguments.delta") item.arguments += event["delta"] as string;
  if (type === "response.function_call_arguments.done" && event["arguments"] !== item.arguments)
    return [`${at}: arguments are not the deltas'`];
  if (index === undefined || type.startsWith("response.function_call")) return [];
  if (parts[index] === undefined) return [`${at}: part ${index} was not added`];
  if (type.endsWith(".delta")) parts[index] += event["delta"] as string;
  const text = type.endsWith("_part.done")
    ? ((event["part"] as Record<string, unknown>)["text"] ?? (event["part"] as Record<string, unknown>)["refusal"])
    : type.endsWith(".done")
      ? (event["text"] ?? event["refusal"])
      : undefined;
  return text === undefined || text === parts[index] ? [] : [`${at}: its text is not the deltas'`];
}

/** Checks a non-streaming `POST /responses` answer: JSON, and a `ResponseResource`. */
export async function readConformingResponse(
  answer: Response,
): Promise<{ issues: string[]; response: Record<string, unknown> }> {
  const issues: string[] = [];
  if (!answer.headers.get("content-type")?.startsWith("application/json"))
    issues.push(`content-type ${answer.headers.get("content-type")}, not application/json`);
  const response = (await answer.json()) as Record<string, unknown>;
  if (specified) issues.push(...responseIssues(response));
  return { issues: [...issues, ...stateIssues(response)], response };
}
