import { hasFiles, resultBlocks } from "../media.ts";
import {
  clientCall,
  asObject,
  requestError,
  systemText,
  toTurns,
  turnOf,
  type Fields,
  type ProviderRequest,
  type RequestMessage,
  type RequestToolChoice,
} from "../request.ts";
import { geminiFilePart } from "./gemini-files.ts";
import { functionCallPart, geminiTurnParts } from "./gemini-messages.ts";
import { type ReasoningEffort, reasoningBudget, type RequestReasoning } from "../reasoning.ts";
import { geminiToolDefinitions } from "./gemini-tools.ts";
import { longMemberName } from "../../shared/long-member-name.ts";

/**
 * The body of a streaming `streamGenerateContent` request (the model is in the URL,
 * `models/{model}:streamGenerateContent?alt=sse`): the turns as `contents` (the model's role is
 * `model`), the system messages as `systemInstruction`, the limits in `generationConfig`.
 *
 * @example
 * ```ts
 * const body = geminiRequestBody({ model: "gemini-2.5-flash", messages: [{ role: "user", content: "Hi" }], tools: [] });
 * ```
 */
export function geminiRequestBody(request: ProviderRequest): Fields {
  const system = systemText(request.messages);
  const body: Fields = { contents: toContents(request.messages) };
  if (system !== "") body["systemInstruction"] = { parts: [{ text: system }] };
  if (request.tools.length > 0) body["tools"] = geminiToolDefinitions(request.tools);
  if (request.toolChoice) body["toolConfig"] = { functionCallingConfig: toolChoice(request.toolChoice) };
  const generationConfig: Fields = {};
  if (request.maxTokens !== undefined) generationConfig["maxOutputTokens"] = request.maxTokens;
  if (request.temperature !== undefined) generationConfig["temperature"] = request.temperature;
  if (request.reasoning?.type === "on")
    generationConfig["thinkingConfig"] = thinkingConfig(request.model, request.reasoning);
  if (Object.keys(generationConfig).length > 0) body["generationConfig"] = generationConfig;
  return body;
}

/** Turns become contents; results of calls go back as `functionResponse` parts in a user turn. */
function toContents(messages: readonly RequestMessage[]): Fields[] {
  const namesById = new Map<string, string>();
  const partsOf = (message: Exclude<RequestMessage, { role: "system" }>, path: string): Fields[] => {
    if (message.role === "assistant") {
      for (const call of message.toolCalls) if (call.id !== null) namesById.set(call.id, call.name);
      // In the order the stream gave them (`order`), each signature in its part; else the kept
      // parts (a server tool's call and response, code and its result), the text, the calls.
      // `args` is a Struct: arguments that were not an object go back as `{}`.
      return geminiTurnParts(
        message.order
          ? turnOf(message)
          : {
              text: message.content,
              calls: message.toolCalls,
              parts: message.reasoningParts?.filter((part) => part.type === "block"),
            },
        // A call another provider ran itself is no call of Gemini's: left out.
        clientCall((call) => functionCallPart(call, asObject(call.arguments))),
      );
    }
    if (message.role === "tool") {
      const name = message.name ?? (message.toolCallId === undefined ? undefined : namesById.get(message.toolCallId));
      if (name === undefined) throw requestError(`${path}.name`, "Gemini needs the function `name` of a tool result.");
      // A result's files follow it in the same user turn, as parts of their own.
      const files = (message.parts ?? []).flatMap((part, j) =>
        part.type === "file" ? [geminiFilePart(part, `${path}.parts[${j}]`)] : [],
      );
      // A call sent with an id gets its response with the same id (FunctionResponse.id: "to match the
      // corresponding function call id"), as the library's own next turn does (gemini-messages.ts).
      const id = message.toolCallId !== undefined && namesById.has(message.toolCallId) ? message.toolCallId : undefined;
      const response = { name, ...(id !== undefined ? { id } : {}), response: responseObject(message.content) };
      return [{ functionResponse: response }, ...files];
    }
    if (hasFiles(message))
      return resultBlocks(message, path, (part, at) =>
        part.type === "text" ? { text: part.text } : geminiFilePart(part, at),
      );
    return [{ text: message.content }];
  };
  return toTurns(messages, partsOf).map((turn) => ({
    role: turn.role === "assistant" ? "model" : "user",
    parts: turn.content,
  }));
}

/**
 * `functionResponse.response` must be an object: a JSON object result is used as it is (one with a
 * member name V8 parses in quadratic time is sent as text: ../../shared/long-member-name.ts).
 */
function responseObject(content: string): Fields {
  if (longMemberName(content) !== undefined) return { result: content };
  let value: unknown;
  try {
    value = JSON.parse(content);
  } catch {
    return { result: content };
  }
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Fields) : { result: content };
}

function toolChoice(choice: RequestToolChoice): Fields {
  if (choice.type === "tool") return { mode: "ANY", allowedFunctionNames: [choice.name] };
  return { mode: choice.type === "required" ? "ANY" : choice.type.toUpperCase() };
}

/** Gemini 2.5's budgets top out at 24,576 tokens (Flash; Pro takes up to 32,768). */
const MAX_THINKING_BUDGET = 24_576;

/**
 * `thinkingConfig`: thoughts included in the stream (as `thought: true` parts), at a budget for
 * Gemini 2.5 and a level for Gemini 3 and later (a budget there is only kept for backward
 * compatibility), see {@link thinkingLevel}.
 */
function thinkingConfig(model: string, reasoning: Extract<RequestReasoning, { type: "on" }>): Fields {
  if (/gemini-[3-9]/.test(model))
    return { includeThoughts: true, thinkingLevel: thinkingLevel(model, reasoning.effort) };
  return { includeThoughts: true, thinkingBudget: Math.min(reasoningBudget(reasoning), MAX_THINKING_BUDGET) };
}

/** The Gemini models documented to take `minimal`: 3 Flash, the Flash-Lites, 3.5 and 3.6 Flash. */
const MINIMAL_MODEL = /gemini-3-flash|gemini-[3-9][.\d]*-flash-lite|gemini-3\.[56]-flash/;

/** The Gemini models documented to take `xhigh`: Gemini 4 Neon and Hydrogen (not Carbon nor Argon). */
const XHIGH_MODEL = /gemini-4-(?:neon|hydrogen)/;

/**
 * The level nearest the effort that the model takes (an unknown level is a 400): every Gemini 3
 * and later model takes `low`, `medium` and `high` but 3 Pro, which has no `medium` (its `high` is
 * about 3.1 Pro's `medium`); `minimal` and `xhigh` only the models named above (`max` goes as
 * `xhigh` there), else as `low` and `high`.
 */
function thinkingLevel(model: string, effort: ReasoningEffort): string {
  if (effort === "minimal") return MINIMAL_MODEL.test(model) ? "minimal" : "low";
  if (effort === "medium") return model.includes("gemini-3-pro") ? "high" : "medium";
  if (effort === "xhigh" || effort === "max") return XHIGH_MODEL.test(model) ? "xhigh" : "high";
  return effort;
}
