import { fileKind, fileRefused, filesAfterResults, hasFiles, imageUrlPart, resultBlocks } from "../media.ts";
import {
  clientCall,
  callId,
  resultId,
  type Fields,
  type ProviderRequest,
  type RequestContentPart,
  type RequestMessage,
} from "../request.ts";
import { sentIfAny } from "../provider-kit.ts";
import { reasoningBudget } from "../reasoning.ts";
import { cohereCitations, cohereContent, thinkingTexts, toolPlan } from "./cohere-messages.ts";
import { cohereToolDefinitions } from "./cohere-tools.ts";

/**
 * The body of a streaming v2 `POST /chat` request.
 *
 * @example
 * ```ts
 * const body = cohereRequestBody({ model: "command-a-03-2025", messages: [{ role: "user", content: "Hi" }], tools: [] });
 * ```
 */
export function cohereRequestBody(request: ProviderRequest): Fields {
  const body: Fields = {
    model: request.model,
    messages: cohereMessages(request.messages),
    stream: true,
  };
  // Cohere's tool_choice is only REQUIRED or NONE: a named tool is required by offering it alone
  // (so the model must call that one), and auto is the default, sent as no tool_choice.
  const choice = request.toolChoice;
  const tools = choice?.type === "tool" ? request.tools.filter((tool) => tool.name === choice.name) : request.tools;
  if (tools.length > 0) body["tools"] = cohereToolDefinitions(tools);
  if (choice?.type === "none") body["tool_choice"] = "NONE";
  else if (choice?.type === "required" || choice?.type === "tool") body["tool_choice"] = "REQUIRED";
  if (request.maxTokens !== undefined) body["max_tokens"] = request.maxTokens;
  if (request.temperature !== undefined) body["temperature"] = request.temperature;
  // Cohere's reasoning models reason by default; a budget bounds it.
  if (request.reasoning?.type === "on")
    body["thinking"] = { type: "enabled", token_budget: reasoningBudget(request.reasoning) };
  return body;
}

/**
 * The messages; a tool result's images follow the results in a user message (a tool message holds
 * text only). An assistant turn left with nothing (its only calls another provider ran) is left
 * out: Cohere refuses an assistant message with empty content and no calls.
 */
function cohereMessages(messages: readonly RequestMessage[]): Fields[] {
  const moved = filesAfterResults(messages);
  return moved.messages.flatMap<Fields>((message, i) => {
    const out = toCohereMessage(message, moved.pathOf(i));
    return out["role"] === "assistant" ? sentIfAny(out) : out;
  });
}

/** Roles map one to one; earlier calls carry their arguments as JSON text, results a `tool_call_id`. */
function toCohereMessage(message: RequestMessage, path: string): Fields {
  switch (message.role) {
    case "system":
      return { role: message.role, content: message.content };
    case "user":
      if (!hasFiles(message)) return { role: message.role, content: message.content };
      return { role: "user", content: resultBlocks(message, path, coherePart) };
    case "assistant": {
      // A call another provider ran itself is no call of Cohere's: left out.
      const calls = message.toolCalls.flatMap(
        clientCall((call, i: number) => ({
          id: callId(call, `${path}.tool_calls[${i}]`),
          type: "function",
          function: { name: call.name, arguments: JSON.stringify(call.arguments) },
        })),
      );
      // A reasoning model's thinking goes back as thinking items of `content` (before its text),
      // never in the `tool_plan`; a turn with no text or call is left out, its thinking with it.
      const thinking = thinkingTexts(message.reasoningParts);
      if (calls.length === 0) {
        if (message.content === "") return { role: "assistant", content: "" };
        // The text's citations go back beside it, as `cohereAssistantMessage` sends them.
        const citations = cohereCitations(message.reasoningParts, thinking);
        return {
          role: "assistant",
          content: cohereContent(thinking, message.content),
          ...(citations.length > 0 && { citations }),
        };
      }
      // Cohere's own turns with calls have no text content: what the model said before its calls
      // is its `tool_plan`, and an assistant message with both text content and calls is not sent.
      // Without text, the plan is the turn's reasoning without its thinking, as `cohereAssistantMessage` sends it,
      // its ends trimmed: a client's reasoning comes back joined (Responses summaries with a blank line between).
      const out: Fields = { role: "assistant" };
      if (thinking.length > 0) out["content"] = cohereContent(thinking, "");
      const plan = message.content !== "" ? message.content : toolPlan(message.reasoning, thinking).trim();
      if (plan !== "") out["tool_plan"] = plan;
      out["tool_calls"] = calls;
      return out;
    }
    case "tool":
      return { role: "tool", tool_call_id: resultId(message, path), content: message.content };
  }
}

/** A part as a Cohere content part: `text`, or an image as `image_url` (a URL or a data URL). Cohere takes no other file. */
function coherePart(part: RequestContentPart, path: string): Fields {
  if (part.type === "text") return { type: "text", text: part.text };
  if (fileKind(part) !== "image") throw fileRefused("Cohere", path, "it takes images only");
  return imageUrlPart(part);
}
