// The whole (non-streamed) response a recorded stream stands for, built from its events as the
// provider's reference says the stream builds it: Anthropic's Message (the SDK's MessageStream
// accumulation: each block from its start, text, partial JSON, thinking, signature and citations
// added by their deltas, the stop and usage from message_delta), OpenAI Responses' Response (the
// `response` of its `response.completed` event, the provider's own whole response), Cohere v2's
// ChatResponse (content, tool plan and calls joined by index, finish and usage from message-end).
import type { FramedMessage } from "../../src/index.ts";

type Payload = Record<string, unknown>;
type Block = Record<string, unknown> & { partial?: string };

/** The payloads of a body's messages, skipping `[DONE]`. */
export function payloadsOf(messages: readonly FramedMessage[]): Payload[] {
  return messages.filter((m) => m.data.trim() !== "[DONE]").map((m) => JSON.parse(m.data) as Payload);
}

const record = (value: unknown): Payload => (typeof value === "object" && value !== null ? (value as Payload) : {});

/**
 * OpenAI Chat's whole `chat.completion` from its stream's chunks, as openai-node's
 * `ChatCompletionStream` builds it: each choice's content joined, its calls joined by `index` (the
 * first non-empty id and name kept, the arguments appended), the last `finish_reason`, the usage.
 */
export function chatWhole(payloads: readonly Payload[]): Payload {
  const choices: { content: string; calls: Payload[]; finish: unknown }[] = [];
  let usage: unknown;
  for (const chunk of payloads) {
    usage = chunk["usage"] ?? usage;
    for (const choice of (chunk["choices"] as Payload[] | undefined) ?? []) {
      const at = (choice["index"] as number | undefined) ?? 0;
      const whole = (choices[at] ??= { content: "", calls: [], finish: null });
      const delta = record(choice["delta"]);
      if (typeof delta["content"] === "string") whole.content += delta["content"];
      for (const [place, call] of ((delta["tool_calls"] as Payload[] | undefined) ?? []).entries()) {
        const index = (call["index"] as number | undefined) ?? place;
        const fn = record(call["function"]);
        const into = (whole.calls[index] ??= { id: "", type: "function", function: { name: "", arguments: "" } });
        const intoFn = record(into["function"]);
        if (typeof call["id"] === "string" && call["id"] !== "" && into["id"] === "") into["id"] = call["id"];
        if (typeof fn["name"] === "string" && intoFn["name"] === "") intoFn["name"] = fn["name"];
        if (typeof fn["arguments"] === "string") intoFn["arguments"] += fn["arguments"];
      }
      if (choice["finish_reason"]) whole.finish = choice["finish_reason"];
    }
  }
  return {
    id: "chatcmpl-whole",
    object: "chat.completion",
    created: 1_767_000_000,
    model: "gpt-4o",
    choices: choices.map((choice, index) => ({
      index,
      message: {
        role: "assistant",
        content: choice.content === "" ? null : choice.content,
        refusal: null,
        ...(choice.calls.length > 0 ? { tool_calls: choice.calls.filter(Boolean) } : {}),
      },
      logprobs: null,
      finish_reason: choice.finish,
    })),
    ...(usage ? { usage } : {}),
  };
}

/** Anthropic's whole `Message` from its stream's events. */
export function anthropicWhole(payloads: readonly Payload[]): Payload {
  let message: Payload = {};
  const blocks: Block[] = [];
  for (const event of payloads) {
    const delta = record(event["delta"]);
    const block = blocks[event["index"] as number];
    switch (event["type"]) {
      case "message_start":
        message = { ...record(event["message"]) };
        for (const each of (message["content"] as Block[] | undefined) ?? []) blocks.push({ ...each });
        break;
      case "content_block_start":
        blocks[event["index"] as number] = structuredClone(record(event["content_block"]));
        break;
      case "content_block_delta":
        if (!block) break;
        if (delta["type"] === "text_delta") block["text"] = `${block["text"] ?? ""}${delta["text"]}`;
        if (delta["type"] === "input_json_delta") block.partial = `${block.partial ?? ""}${delta["partial_json"]}`;
        if (delta["type"] === "thinking_delta") block["thinking"] = `${block["thinking"] ?? ""}${delta["thinking"]}`;
        if (delta["type"] === "signature_delta")
          block["signature"] = `${block["signature"] ?? ""}${delta["signature"]}`;
        if (delta["type"] === "citations_delta")
          block["citations"] = [...((block["citations"] as unknown[]) ?? []), delta["citation"]];
        break;
      case "message_delta":
        Object.assign(message, delta);
        message["usage"] = { ...record(message["usage"]), ...record(event["usage"]) };
    }
  }
  const content = blocks.map(({ partial, ...block }) =>
    partial === undefined || partial === "" ? block : { ...block, input: JSON.parse(partial) as unknown },
  );
  return { ...message, content };
}

/**
 * OpenAI Responses' whole `Response`: the one its final event carries, with the items as each
 * `response.output_item.done` gave them where it did (OpenAI encrypts a reasoning item's content
 * anew for the final event: the stream's own is the one to compare with).
 */
export function responsesWhole(payloads: readonly Payload[]): Payload {
  const end = record(
    [...payloads].reverse().find((event) => /^response\.(completed|incomplete|failed)$/.test(String(event["type"])))?.[
      "response"
    ],
  );
  const output = [...((end["output"] as unknown[] | undefined) ?? [])];
  for (const event of payloads)
    if (event["type"] === "response.output_item.done") output[event["output_index"] as number] = event["item"];
  return { ...end, output };
}

/** Cohere v2's whole `ChatResponse` from its stream's events (its citations as `citations`). */
export function cohereWhole(payloads: readonly Payload[]): Payload {
  const content: Payload[] = [];
  const calls: { id?: unknown; type?: unknown; function: { name?: unknown; arguments: string } }[] = [];
  const citations: unknown[] = [];
  let plan = "";
  let id: unknown;
  let end: Payload = {};
  for (const event of payloads) {
    const index = event["index"] as number;
    const message = record(record(event["delta"])["message"]);
    switch (event["type"]) {
      case "message-start":
        id = event["id"];
        break;
      case "content-start":
        content[index] = { ...record(message["content"]) };
        break;
      case "content-delta": {
        const part = record(message["content"]);
        for (const key of ["text", "thinking"])
          if (typeof part[key] === "string") content[index]![key] = `${content[index]![key] ?? ""}${part[key]}`;
        break;
      }
      case "tool-plan-delta":
        plan += String(message["tool_plan"]);
        break;
      case "citation-start":
        citations.push(message["citations"]);
        break;
      case "tool-call-start": {
        const call = record(message["tool_calls"]);
        const fn = record(call["function"]);
        calls[index] = {
          id: call["id"],
          type: call["type"],
          function: { name: fn["name"], arguments: String(fn["arguments"] ?? "") },
        };
        break;
      }
      case "tool-call-delta":
        calls[index]!.function.arguments += String(
          record(record(message["tool_calls"])["function"])["arguments"] ?? "",
        );
        break;
      case "message-end":
        end = record(event["delta"]);
    }
  }
  return {
    id,
    message: {
      role: "assistant",
      ...(content.length ? { content } : {}),
      ...(plan ? { tool_plan: plan } : {}),
      ...(calls.length ? { tool_calls: calls } : {}),
      ...(citations.length ? { citations } : {}),
    },
    finish_reason: end["finish_reason"],
    usage: end["usage"],
  };
}

/** The ConverseStream events of an event-stream body's messages, each as an object of one key, its type. */
export function converseEventsOf(messages: readonly FramedMessage[]): Payload[] {
  return messages.map((m) => ({ [String(m.event)]: JSON.parse(m.data) as unknown }));
}

/** Bedrock's whole `ConverseResponse` from its ConverseStream events (each an object of one key, its type). */
export function converseWhole(events: readonly Payload[]): Payload {
  const blocks: Payload[] = [];
  const inputs: string[] = [];
  let end: Payload = {};
  for (const event of events) {
    const [[type, value]] = Object.entries(event) as [[string, Payload]];
    const index = value["contentBlockIndex"] as number;
    const start = record(value["start"]);
    const delta = record(value["delta"]);
    const block = (blocks[index] ??= {});
    if (type === "contentBlockStart" && start["toolUse"]) block["toolUse"] = { ...record(start["toolUse"]) };
    if (type === "contentBlockStart" && start["toolResult"])
      block["toolResult"] = { ...record(start["toolResult"]), content: [] };
    if (type === "contentBlockDelta") {
      if (typeof delta["text"] === "string") block["said"] = `${block["said"] ?? ""}${delta["text"]}`;
      if (delta["citation"]) block["citations"] = [...((block["citations"] as unknown[]) ?? []), delta["citation"]];
      if (delta["toolUse"]) inputs[index] = `${inputs[index] ?? ""}${record(delta["toolUse"])["input"]}`;
      if (Array.isArray(delta["toolResult"]))
        (record(block["toolResult"])["content"] as unknown[]).push(...delta["toolResult"]);
      const reasoning = record(delta["reasoningContent"]);
      if (typeof reasoning["text"] === "string") block["thought"] = `${block["thought"] ?? ""}${reasoning["text"]}`;
      if (typeof reasoning["signature"] === "string")
        block["signature"] = `${block["signature"] ?? ""}${reasoning["signature"]}`;
      if (typeof reasoning["redactedContent"] === "string") block["redacted"] = reasoning["redactedContent"];
    }
    if (type === "messageStop" || type === "metadata") end = { ...end, ...value };
  }
  const content = blocks.map((block, index): Payload => {
    if (block["toolUse"]) return { toolUse: { ...record(block["toolUse"]), input: JSON.parse(inputs[index] || "{}") } };
    if (block["toolResult"]) return { toolResult: block["toolResult"] };
    if (block["redacted"] !== undefined) return { reasoningContent: { redactedContent: block["redacted"] } };
    if (block["thought"] !== undefined || block["signature"] !== undefined)
      return { reasoningContent: { reasoningText: { text: block["thought"] ?? "", signature: block["signature"] } } };
    if (block["citations"])
      return { citationsContent: { content: [{ text: block["said"] }], citations: block["citations"] } };
    return { text: block["said"] ?? "" };
  });
  const { stopReason, additionalModelResponseFields, usage, metrics } = end;
  return {
    output: { message: { role: "assistant", content } },
    stopReason,
    additionalModelResponseFields,
    usage,
    metrics,
  };
}
