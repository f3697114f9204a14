/**
 * The request a server sends a provider, in one shape for every provider: the conversation (with
 * the calls of earlier turns and their results), the tools, the tool choice and the sampling
 * limits. Each kit's `requestBody` turns it into its provider's body; what a provider cannot be
 * sent is an `invalid-request` error that names the field.
 *
 * @module
 */
import type { RequestPromptCache } from "./prompt-cache.ts";
import type { ReasoningPart } from "../shared/deltas.ts";
import type { TurnOrderEntry } from "../shared/turn-order.ts";
import type { JsonValue } from "../shared/json.ts";
import { ToolCallStreamError } from "../shared/errors.ts";
import type { RequestReasoning } from "./reasoning.ts";
import type { OrderedTurn } from "./turn.ts";
import type { ToolEntry } from "./tool-entry.ts";

/**
 * A streaming request in every provider's terms; the model's name goes in the body or, for Gemini
 * and Bedrock, in the URL, which is the caller's.
 */
export interface ProviderRequest {
  /** The model's name. */
  readonly model: string;
  /** The conversation so far. */
  readonly messages: readonly RequestMessage[];
  /** The tools the model may call. */
  readonly tools: readonly ToolEntry[];
  /** Whether and which tool the model must call. */
  readonly toolChoice?: RequestToolChoice | undefined;
  /** The longest answer, in tokens. */
  readonly maxTokens?: number | undefined;
  /** The sampling temperature. */
  readonly temperature?: number | undefined;
  /** Whether and how much the model reasons, in each provider's own knob (see {@link RequestReasoning}); absent: the provider's default. */
  readonly reasoning?: RequestReasoning | undefined;
  /**
   * OpenAI Responses' `store` (and Gemini Interactions'): whether the provider keeps the response;
   * false for a client that must not leave it there. Absent: the provider's default.
   */
  readonly store?: boolean | undefined;
  /**
   * Anthropic's `container`: the code-execution container an earlier response ran in
   * (`finish.container.id`), so that this turn runs in it (its files, its interpreter's state). The
   * other providers are sent nothing. Absent: a new container when one is needed.
   */
  readonly container?: string | undefined;
  /** Prompt caching the client asked for, where a provider caches only what a request marks (see {@link RequestPromptCache}). */
  readonly promptCache?: RequestPromptCache | undefined;
}

/** One message of a {@link ProviderRequest}'s conversation. */
export type RequestMessage =
  | { readonly role: "system"; readonly content: string }
  | {
      readonly role: "user";
      /** The message's text (its text parts joined, when it has `parts`). */
      readonly content: string;
      /** Its content in order, text and files (images, PDFs, ...), when it carries files; absent: `content` alone. */
      readonly parts?: readonly RequestContentPart[] | undefined;
    }
  | {
      readonly role: "assistant";
      readonly content: string;
      readonly toolCalls: readonly RequestToolCall[];
      /**
       * The turn's reasoning as `finish.reasoningParts` gave it: Anthropic and Claude on Bedrock take back their
       * signed and redacted blocks, OpenAI Responses its reasoning items, Chat Completions the reasoning fields
       * its stream used, Cohere its thinking items; the other providers are sent none.
       */
      readonly reasoningParts?: readonly ReasoningPart[] | undefined;
      /** The turn's reasoning text (`finish.reasoning`): Ollama's `thinking`, a Cohere call turn's `tool_plan`; else unsent. */
      readonly reasoning?: string | undefined;
      /**
       * The turn's text, calls (by their `index`) and reasoning parts in the order the stream gave
       * them (`finish.order`): Anthropic, OpenAI Responses, Gemini, Gemini Interactions and Bedrock
       * are sent the turn in it. Absent, or not matching the message: reasoning, then text, then calls.
       */
      readonly order?: readonly TurnOrderEntry[] | undefined;
    }
  | {
      readonly role: "tool";
      /** The call this answers; `name` alone identifies it for providers whose calls have no id (Gemini). */
      readonly toolCallId?: string | undefined;
      readonly name?: string | undefined;
      readonly content: string;
      /**
       * The result in order, text and files (a screenshot a tool took), when it carries files; absent:
       * `content` alone. A provider whose results hold text only gets the files in a user message
       * right after the results. An OpenAI Responses computer call's result is its first image, sent
       * as the `computer_call_output`'s screenshot.
       */
      readonly parts?: readonly RequestContentPart[] | undefined;
      /** The tool failed: `content` is its error. Anthropic and Bedrock flag the result; elsewhere the text says it. */
      readonly isError?: boolean | undefined;
    };

/** Where a file's bytes are: in the request as base64, or at a URL the provider fetches. */
export type RequestFileSource =
  | { readonly type: "base64"; readonly data: string }
  | { readonly type: "url"; readonly url: string };

/** An image or another file a user message or a tool result carries. */
export interface RequestFilePart {
  /** A file (beside a content list's `text` parts). */
  readonly type: "file";
  /** Its IANA media type (`image/png`, `application/pdf`); `image/*` for an image at a URL of unknown type. */
  readonly mediaType: string;
  /** Its bytes, or where the provider fetches them. */
  readonly source: RequestFileSource;
  /** Its file name, which providers that take documents show the model. */
  readonly filename?: string | undefined;
  /**
   * OpenAI's image detail (`low`, `high`, `auto`, and OpenAI Responses' `original`: the image at
   * its own resolution); the other providers have no such setting.
   */
  readonly detail?: "auto" | "low" | "high" | "original" | undefined;
}

/** One part of a message's content, in order: text, or a file. */
export type RequestContentPart = { readonly type: "text"; readonly text: string } | RequestFilePart;

/** A call of an earlier turn, as `finish.toolCalls` reports it. */
export interface RequestToolCall {
  /** The call's id; `null` where the provider gave none (Gemini), which providers that correlate results by id refuse. */
  readonly id: string | null;
  /** The function called. */
  readonly name: string;
  /** The parsed arguments; a free-text call's text (`inputFormat: "text"`). */
  readonly arguments: JsonValue;
  /** `text`: a custom tool's free-text call (`finish.toolCalls`' `inputFormat`), which OpenAI Responses and Chat take back as one. */
  readonly inputFormat?: "text";
  /** Data the provider needs back (a Gemini thought signature), as the stream reported it. */
  readonly providerMetadata?: Readonly<Record<string, unknown>> | undefined;
  /** The call's index (`finish.toolCalls`' `index`), by which the message's `order` places it. */
  readonly index?: number | undefined;
  /**
   * The provider ran the call itself (`finish.toolCalls`' `providerExecuted`: an Anthropic server
   * tool, an OpenAI tool OpenAI ran, an Amazon Nova system tool, a Gemini Interactions built-in
   * tool): it goes back as the provider's own block, item or step with its result, where the
   * provider takes it so, else it is left out; never as a call of the client's, and a tool message
   * that answers it is left out.
   */
  readonly providerExecuted?: true | undefined;
}

/** Whether and which tool the model must call. */
export type RequestToolChoice =
  | { readonly type: "auto" }
  | { readonly type: "none" }
  | { readonly type: "required" }
  | { readonly type: "tool"; readonly name: string };

/** A JSON object of a request body. */
export type Fields = Record<string, unknown>;

/** The error of a request a provider cannot be sent: `path` names the field. */
export function requestError(path: string, message: string): ToolCallStreamError {
  return new ToolCallStreamError({ code: "invalid-request", message, path });
}

/**
 * Whether a message of the conversation is a tool message that answers a call the provider ran
 * itself (`providerExecuted`): the provider has its result and takes none of the client's for it,
 * so every kit leaves such a message out.
 *
 * @example
 * ```ts
 * const served = answersServerCall(request.messages);
 * const items = request.messages.flatMap((message, i) => (served(message) ? [] : toItems(message, i)));
 * ```
 */
export function answersServerCall(messages: readonly RequestMessage[]): (message: RequestMessage) => boolean {
  const served = new Set<unknown>();
  for (const message of messages)
    if (message.role === "assistant")
      for (const call of message.toolCalls) if (call.providerExecuted) served.add(call.id);
  return (message) => message.role === "tool" && served.has(message.toolCallId);
}

/** The system messages' text, joined by a blank line ("" when there are none). */
export function systemText(messages: readonly RequestMessage[]): string {
  return messages.flatMap((m) => (m.role === "system" ? [m.content] : [])).join("\n\n");
}

/** A turn of a conversation that alternates between two roles: the user's (results of calls included) or the model's. */
export interface Turn {
  role: "user" | "assistant";
  content: Fields[];
}

/**
 * Messages as turns, for the providers whose conversations alternate between two roles
 * (Anthropic, Bedrock's Converse, Gemini): `blocksOf` gives each message's blocks (`path` is its
 * field, for errors), tool results are the user's, and consecutive turns of one role are merged,
 * since the results of parallel calls must all sit in the one user turn after the calls. System
 * messages are left out (each provider has a field of its own for them), and so are a turn that
 * would be empty and the results of calls the provider ran ({@link answersServerCall}).
 */
export function toTurns(
  messages: readonly RequestMessage[],
  blocksOf: (message: Exclude<RequestMessage, { role: "system" }>, path: string) => Fields[],
): Turn[] {
  const turns: Turn[] = [];
  const served = answersServerCall(messages);
  messages.forEach((message, i) => {
    if (message.role === "system" || served(message)) return;
    const role = message.role === "assistant" ? "assistant" : "user";
    const blocks = blocksOf(message, `messages[${i}]`);
    const last = turns.at(-1);
    if (last?.role === role) last.content.push(...blocks);
    else if (blocks.length > 0) turns.push({ role, content: blocks });
  });
  return turns;
}

/**
 * An earlier call's arguments as the providers take them back: a JSON object (Anthropic's
 * `tool_use.input`, Converse's `toolUse.input`, Gemini's `functionCall.args`, Ollama's
 * `arguments`). Arguments that were not one (text the model wrote that is not JSON, an array)
 * go back as `{}`.
 */
export function asObject(value: JsonValue): { [key: string]: JsonValue } {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? value : {};
}

/** The id of an earlier call, which providers that correlate results by id need. */
export function callId(call: RequestToolCall, path: string): string {
  if (call.id === null) throw requestError(`${path}.id`, "This provider needs the id of every earlier tool call.");
  return call.id;
}

/**
 * `write` made a writer of each earlier call that goes back as one of the provider's own calls:
 * a call another provider ran itself (`providerExecuted`) is none of them and is left out, the
 * others written with their index in the message's calls (for their error paths).
 *
 * @example
 * ```ts
 * const calls = message.toolCalls.flatMap(clientCall((call, i: number) => toCall(callId(call, `${path}.tool_calls[${i}]`), call)));
 * ```
 */
export const clientCall =
  <Rest extends unknown[], Out>(write: (call: RequestToolCall, ...rest: Rest) => Out) =>
  (call: RequestToolCall, ...rest: Rest): Out[] =>
    call.providerExecuted ? [] : [write(call, ...rest)];

/** The call a tool message answers, which providers that correlate results by id need. */
export function resultId(message: { readonly toolCallId?: string | undefined }, path: string): string {
  if (message.toolCallId === undefined)
    throw requestError(`${path}.tool_call_id`, "This provider needs `tool_call_id` on tool messages.");
  return message.toolCallId;
}

/**
 * An assistant message as the turn `piecesInOrder` reads: its text, calls, reasoning parts
 * and their order.
 *
 * @example
 * ```ts
 * const blocks = piecesInOrder(turnOf(message), { part, text, call });
 * ```
 */
export function turnOf(message: Extract<RequestMessage, { role: "assistant" }>): OrderedTurn<RequestToolCall> {
  return { text: message.content, calls: message.toolCalls, parts: message.reasoningParts, order: message.order };
}
