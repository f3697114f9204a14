import { geminiFileUri } from "../gemini/gemini-files.ts";
import { fileKind, hasFiles, resultBlocks } from "../media.ts";
import {
  clientCall,
  answersServerCall,
  asObject,
  callId,
  resultId,
  systemText,
  turnOf,
  type Fields,
  type ProviderRequest,
  type RequestContentPart,
  type RequestMessage,
  type RequestToolChoice,
} from "../request.ts";
import type { RequestReasoning } from "../reasoning.ts";
import {
  functionCallStep,
  functionResultStep,
  isServerStepCall,
  orderedSteps,
  serverSteps,
  thoughtSteps,
} from "./gemini-interactions-messages.ts";
import { geminiInteractionsToolDefinitions } from "./gemini-interactions-tools.ts";

/**
 * The body of a streaming `POST /v1beta/interactions` request: the model, the whole conversation
 * as `input` steps (`user_input`, the model's `thought`, `model_output` and `function_call` steps,
 * `function_result` steps), the system messages as `system_instruction`, the tools, and the tool
 * choice, limits and thinking in `generation_config`. The conversation is sent whole, so no
 * `previous_interaction_id` is needed; `store` is sent when the request sets it.
 *
 * @example
 * ```ts
 * const body = geminiInteractionsRequestBody({ model: "gemini-3-flash-preview", messages: [{ role: "user", content: "Hi" }], tools: [] });
 * ```
 */
export function geminiInteractionsRequestBody(request: ProviderRequest): Fields {
  const system = systemText(request.messages);
  const body: Fields = {
    model: request.model.replace(/^models\//, ""),
    input: toSteps(request.messages),
    stream: true,
  };
  if (system !== "") body["system_instruction"] = system;
  if (request.tools.length > 0) body["tools"] = geminiInteractionsToolDefinitions(request.tools);
  if (request.store !== undefined) body["store"] = request.store;
  const config: Fields = {};
  if (request.toolChoice) config["tool_choice"] = toolChoice(request.toolChoice);
  if (request.maxTokens !== undefined) config["max_output_tokens"] = request.maxTokens;
  if (request.temperature !== undefined) config["temperature"] = request.temperature;
  if (request.reasoning?.type === "on") Object.assign(config, thinking(request.reasoning));
  if (Object.keys(config).length > 0) body["generation_config"] = config;
  return body;
}

function toSteps(messages: readonly RequestMessage[]): Fields[] {
  const namesById = new Map<string, string>();
  const served = answersServerCall(messages);
  return messages.flatMap((message, i): Fields[] => {
    const path = `messages[${i}]`;
    if (served(message)) return [];
    switch (message.role) {
      case "system":
        return [];
      case "user":
        return [
          {
            type: "user_input",
            content: hasFiles(message)
              ? resultBlocks(message, path, interactionsContent)
              : [{ type: "text", text: message.content }],
          },
        ];
      case "assistant": {
        // Thought signatures go back before what they reasoned for, and only with it.
        const said =
          message.content !== "" ||
          message.toolCalls.length > 0 ||
          (message.reasoningParts ?? []).some((part) => part.type === "block");
        // One the provider ran of no built-in tool's step (another provider's) is left out.
        const callStep = clientCall((call, j: number): Fields => {
          const id = callId(call, `${path}.tool_calls[${j}]`);
          namesById.set(id, call.name);
          return functionCallStep(call, id, asObject(call.arguments));
        });
        // In the order the stream gave them (`order`), each thought, server call, text and call in its place.
        const ordered = said ? orderedSteps(turnOf(message), callStep) : undefined;
        if (ordered) return ordered;
        // Else the built-in tools the provider ran come back as their call and result steps, first.
        const steps = said ? [...serverSteps(message.toolCalls), ...thoughtSteps(message.reasoningParts)] : [];
        if (message.content !== "")
          steps.push({ type: "model_output", content: [{ type: "text", text: message.content }] });
        message.toolCalls.forEach((call, j) => {
          if (!isServerStepCall(call)) steps.push(...callStep(call, j));
        });
        return steps;
      }
      case "tool": {
        const id = resultId(message, path);
        const name = message.name ?? namesById.get(id);
        const step = functionResultStep(id, name, message.content, message.isError);
        // A result with files is a list of content blocks (a screenshot a tool took).
        return [hasFiles(message) ? { ...step, result: resultBlocks(message, path, interactionsContent) } : step];
      }
    }
  });
}

function toolChoice(choice: RequestToolChoice): Fields | string {
  if (choice.type === "tool") return { allowed_tools: { mode: "any", tools: [choice.name] } };
  return choice.type === "required" ? "any" : choice.type;
}

/** Thinking as a level (Gemini 3 takes `low` and `high` on every model), its thoughts streamed as summaries. */
function thinking(reasoning: Extract<RequestReasoning, { type: "on" }>): Fields {
  const low = reasoning.effort === "minimal" || reasoning.effort === "low";
  return { thinking_level: low ? "low" : "high", thinking_summaries: "auto" };
}

/**
 * A part as an Interactions content block: `text`, or by its media type an `image`, `audio`,
 * `video` or `document` with its bytes in `data` or a URI Gemini reads itself in `uri`, and its
 * `mime_type`.
 */
function interactionsContent(part: RequestContentPart, path: string): Fields {
  if (part.type === "text") return { type: "text", text: part.text };
  const kind = fileKind(part);
  const type = kind === "image" || kind === "audio" || kind === "video" ? kind : "document";
  const { source } = part;
  const where =
    source.type === "base64"
      ? { data: source.data }
      : { uri: geminiFileUri(part, source.url, path, "Gemini Interactions") };
  return { type, ...where, mime_type: part.mediaType };
}
